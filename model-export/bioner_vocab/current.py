"""Keeps every id a bundle can give current: the concept the newest source has for a name, never an id
that source no longer has or has replaced. Decided when the bundle is built; each replacement is listed
in its ``superseded.tsv.gz`` and counted in its manifest.

What "replaced" means rests on one fact of MeSH: it numbers descriptors in the order it creates them,
so a descriptor numbered above every descriptor a corpus (or a MEDIC edition) uses is newer than it.
An old id is replaced by a MeSH 2024 descriptor when the descriptor's preferred name is the old
concept's name, or when a descriptor newer than the old id's source has that name among its entry
terms (MeSH promoted the concept: *Trisomy 18 Syndrome*, D000073842, took MEDIC's "Trisomy 18"). An
older descriptor that merely lists the name as an entry term does not replace a concept that existed
beside it (MeSH 2024 still has the supplementary concept "Juvenile dermatomyositis" beside
*Dermatomyositis*).

Four cases:

* **A MEDIC concept MeSH has replaced**: a supplementary concept or a descriptor MeSH 2024 no longer
  has ("Esophageal Squamous Cell Carcinoma", ``C562729`` -> ``D000077277``). Its names join the
  descriptor. A deleted descriptor is replaced by any descriptor with its name.
* **A name MeSH gives another descriptor.** MEDIC lists "Autism Spectrum Disorder" under *Child
  Development Disorders, Pervasive* (``D002659``) too; MeSH 2024 gives it to *Autism Spectrum Disorder*
  (``D000067877``, 2017) alone. MeSH is the authority on its descriptors' names: a name MEDIC gives a
  descriptor that MeSH 2024 gives only to another is dropped from it.
* **A training name whose id no source has.** BC5CDR was annotated in 2015 with supplementary
  concepts that are descriptors now (amisulpride ``C012052`` -> ``D000077582``). Such an id goes to the
  concept its sources declare the same (MEDIC's alternative ids), else to the replacement its corpus
  names name (they vote by mentions: "atorvastatin" takes "Atorva" with it), else it stays a concept
  of its own, named by its mentions (a supplementary concept the sources cannot hold). Never for genes
  and species: an id the gene bundle lacks is another species' gene, not a replaced one.
* **A training name for a concept MeSH created after the annotation.** BC5CDR (2015) linked "autism
  spectrum disorders" to ``D002659``: *Autism Spectrum Disorder* (``D000067877``) did not exist. A
  training name that a descriptor newer than every corpus giving it has, while its annotated concept
  does not, is dropped. Conventions the vocabularies do not state stay ("dyskinesia" in a drug paper
  is *Dyskinesia, Drug-Induced*, though *Dyskinesias*, older than BC5CDR, has the name).
"""
import re
import unicodedata

MESH_DESCRIPTOR = re.compile(r"mesh:D(\d+)")
_WORDS = re.compile(r"[a-z]+|[0-9]+")


def key(name):
    """Lower case, accents dropped, letters and digits as separate words. Stricter than the linker's
    key, which also reads plurals as singular: a replacement must have the very name ("Coumarins", the
    class, is not the compound coumarin)."""
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(_WORDS.findall(s))


def descriptor_number(cid):
    """The number of a MeSH descriptor id (``mesh:D000067877`` -> 67877), else 0."""
    m = MESH_DESCRIPTOR.fullmatch(cid)
    return int(m.group(1)) if m else 0


def vintage(ids):
    """The highest descriptor number among ``ids``: what is numbered above it is newer."""
    return max((descriptor_number(i) for i in ids), default=0)


class NameIndex:
    """Who has a name among a set of concepts (id -> names, the preferred name first)."""

    def __init__(self, names_by_id):
        self.preferred = {}
        self.any = {}
        for cid, names in names_by_id.items():
            if names:
                self.preferred.setdefault(key(names[0]), set()).add(cid)
            for n in names:
                self.any.setdefault(key(n), set()).add(cid)

    def owners(self, name):
        return self.any.get(key(name), set())

    def replacements(self, name, older_than):
        """The descriptors that replace a concept of this name from a source of vintage ``older_than``."""
        k = key(name)
        newer = {c for c in self.any.get(k, ()) if descriptor_number(c) > older_than}
        return (self.preferred.get(k, set()) | newer) if k else set()


def merge_superseded_medic(concepts, mesh_ids, medic_vintage):
    """Folds each MEDIC MeSH id that MeSH 2024 replaced into its replacement; returns the (old id, new
    id, why) rows. ``concepts`` is the disease build's Concepts, ``mesh_ids`` the ids MeSH 2024 itself
    has. OMIM ids are not MeSH's to replace and stay."""
    mesh = NameIndex({cid: concepts.names[cid] for cid in mesh_ids})
    rows = []
    for cid in sorted(concepts.names):
        if cid in mesh_ids or not cid.startswith("mesh:") or not concepts.names[cid]:
            continue
        deleted_descriptor = descriptor_number(cid) > 0
        targets = mesh.replacements(concepts.names[cid][0], 0 if deleted_descriptor else medic_vintage)
        if len(targets) == 1:
            (target,) = targets
            concepts.names[target].extend(concepts.names.pop(cid))
            concepts.weight[target] = max(concepts.weight.get(target, 0), concepts.weight.pop(cid, 0))
            concepts.alt.setdefault(target, set()).update(a for a in concepts.alt.pop(cid, set()) if a != target)
            rows.append((cid, target, "medic-concept-replaced-by-mesh"))
    return rows


def drop_moved_names(concepts, mesh):
    """Drops from each MeSH 2024 descriptor the names an older source (MEDIC) gave it that MeSH 2024
    gives another descriptor only: MeSH is the authority on its descriptors' names ("Autism Spectrum
    Disorder" was an entry term of *Child Development Disorders*, *Pervasive* in MEDIC; MeSH 2024 gives
    it to *Autism Spectrum Disorder* alone). ``mesh``: MeSH 2024's own names by id. Returns how many
    names were dropped."""
    index = NameIndex(mesh)
    dropped = 0
    for cid, own_names in mesh.items():
        own = {key(n) for n in own_names}
        names = concepts.names.get(cid, [])
        kept = [n for n in names if key(n) in own or not index.owners(n)]
        dropped += len(names) - len(kept)
        if cid in concepts.names:
            concepts.names[cid] = kept
    return dropped


def current_corpus_names(concepts, pairs, vintages, declared, by_name=True):
    """The corpus names of one type with every id current.

    ``pairs``: (id, name) -> [set of corpus labels, mentions]; ``vintages``: label -> the vintage of
    its annotations; ``declared``: old id -> the id the sources declare it is (merged concepts,
    alternative ids); ``by_name``: whether an id no source has may go to the replacement its names
    name. Returns (pairs, superseded rows, counts)."""
    index = NameIndex(concepts.names)
    by_id = {}
    for (cid, name), seen in pairs.items():
        by_id.setdefault(cid, []).append((name, seen))
    rows = []
    target = {}
    own_concepts = 0
    for cid in sorted(by_id):
        if cid in concepts.names:
            continue
        if cid in declared:
            target[cid] = declared[cid]
            rows.append((cid, declared[cid], "declared-the-same-by-the-source"))
            continue
        votes = {}
        if by_name:
            for name, (sources, mentions) in by_id[cid]:
                for t in index.replacements(name, max(vintages.get(s, 0) for s in sources)):
                    votes[t] = votes.get(t, 0) + mentions
        best = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        if best and (len(best) == 1 or best[0][1] > best[1][1]):
            target[cid] = best[0][0]
            rows.append((cid, best[0][0], "replaced-by-a-concept-with-its-name"))
        else:
            own_concepts += 1
    out = {}
    dropped = 0
    for (cid, name), (sources, mentions) in pairs.items():
        cid = target.get(cid, cid)
        newest = max(vintages.get(s, 0) for s in sources)
        if newest and cid in concepts.names and cid not in index.owners(name) and any(
                descriptor_number(o) > newest for o in index.owners(name)):
            dropped += 1
            continue
        seen = out.setdefault((cid, name), [set(), 0])
        seen[0].update(sources)
        seen[1] += mentions
    counts = {"corpus_ids_replaced": len(rows), "corpus_only_concepts": own_concepts,
              "corpus_names_dropped_for_a_newer_concept": dropped}
    return out, rows, counts
