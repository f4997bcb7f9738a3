"""Builds the linker's vocabulary bundles (one folder per entity type) from the source files in
``vocabularies/sources`` and the training splits of the linking corpora in ``corpora/linking``.

    cd model-export && python3 -m bioner_vocab.build --sources ../vocabularies/sources \\
        --corpora ../corpora/linking --out ../job/src/main/resources/vocabularies

Each ``OUT/<type>/`` gets ``vocabulary.json``, ``concepts.tsv.gz`` (id, name, synonyms, taxon, weight)
and ``corpus-names.tsv.gz`` (id, name, source, mentions: how often the corpora annotate the name so;
taxon: for a gene the vocabulary lacks, the species of the documents annotating it). The output is a
function of the inputs only: rows and
synonyms sorted, gzip without a file name or time stamp, so a rebuild gives identical bytes.
Standard library only.
"""
import argparse
import gzip
import io
import json
import lzma
import os
import re
import sys
import time

from bioner_vocab import current

FORMAT = 1
VERSION = "2024.1"
TYPES = ("chemical", "disease", "gene", "species")

# Source files, relative to --sources (the repository's vocabularies/sources).
MESH_TERMS = "mesh-2024/mesh2024-terms-C-D-F03.tsv.xz"
MESH_TREES = "mesh-2024/mesh2024-trees-C-D-F03.tsv.xz"
MEDIC_2017 = "ctd-medic/CTD_diseases_2017-06-06.tsv.gz"
MEDIC_2012 = "ctd-medic/medic_06Jul2012.txt.xz"
GENE_INFO = (("9606", "ncbi-gene/Homo_sapiens.gene_info_2022-11-10.cols.tsv.xz"),
             ("10090", "ncbi-gene/Mus_musculus.gene_info_2023-03.cols.tsv.xz"))
HGNC = "hgnc/hgnc_complete_set_2019.cols.tsv.xz"
MOUSE_MGI = "ncbi-gene/Mus_musculus.gene_info_2023-03.mgi.tsv.xz"
LINNAEUS_NAMES = "linnaeus/species-proxies-light.tsv.gz"
LINNAEUS_FREQUENCY = "linnaeus/species-frequency.tsv.gz"
LINNAEUS_STOPLIST = "linnaeus/stoplist.tsv.xz"
LINNAEUS_ACRONYMS = "linnaeus/synonyms-acronyms.tsv.xz"
TAXONOMY = "ncbi-taxonomy/specData-linnaeus-taxa.tsv.xz"
NAMED_TAXA = "ncbi-taxonomy/specData-named-taxa.tsv.xz"

SOURCE_DIR = "vocabularies/sources"  # how vocabulary.json names the files (from the repository root)

MESH_TERMS_TEXT = ("Courtesy of the U.S. National Library of Medicine: MeSH 2024, subset and converted "
                   "(see vocabularies/sources/README.md); no endorsement by NLM implied")
CTD_TERMS_TEXT = ("CTD's MEDIC (Davis AP et al., Comparative Toxicogenomics Database, http://ctdbase.org/); "
                  "terms at http://ctdbase.org/about/legal.jsp: cite CTD, link to CTD's pages, notify CTD")
NCBI_GENE_TERMS = "NCBI Gene (U.S. Government work, public domain); columns subset; cite NCBI Gene"
HGNC_TERMS = "HGNC (HUGO Gene Nomenclature Committee), CC0; columns subset"
LINNAEUS_TERMS = ("LINNAEUS, copyright (c) 2008-2011 Martin Gerner, BSD-style licence "
                  "(full text in vocabularies/sources/README.md)")
TAXONOMY_TERMS = ("NCBI Taxonomy names via Bioconductor GenomeInfoDbData 1.2.9 (public domain data); "
                  "only the taxa of the LINNAEUS files; cite NCBI Taxonomy")
NAMED_TAXA_TERMS = ("NCBI Taxonomy names via Bioconductor GenomeInfoDbData 1.2.9 (public domain data); "
                    "every taxon but placeholders, samples and coded isolates; cite NCBI Taxonomy")

# Words the corpora annotate as humans (NCBI Taxonomy 9606), added to ncbitaxon:9606 (LINNAEUS proxies
# have some of them; BioRED Train's OrganismTaxon 9606 mentions have the rest).
HUMAN_PROXIES = (
    "adult", "adults", "boy", "boys", "child", "children", "donor", "donors", "families", "family",
    "girl", "girls", "human", "humans", "individual", "individuals", "infant",
    "infants", "inpatient", "inpatients", "man", "men", "newborn", "newborns",
    "outpatient", "outpatients", "participant", "participants", "patient", "patients", "people",
    "person", "persons", "proband", "probands", "subject", "subjects", "volunteer", "volunteers",
    "woman", "women",
)

# LINNAEUS links "mice" to Mus sp. (10095), the genus; BioRED, PubTator and the NCBI corpora link it
# to the laboratory mouse, Mus musculus, as they link "rats" to Rattus norvegicus (LINNAEUS agrees there).
MODEL_ORGANISM_NAMES = {"10090": ("mice", "Mice", "mices")}

# Corpora: (label, file under --corpora, {corpus type: our type or None}, split role)
BC5CDR_TYPES = {"Chemical": "chemical", "Disease": "disease"}
NCBI_TYPES = {t: "disease" for t in ("SpecificDisease", "DiseaseClass", "CompositeMention", "Modifier")}
BIORED_TYPES = {"GeneOrGeneProduct": "gene", "ChemicalEntity": "chemical",
                "DiseaseOrPhenotypicFeature": "disease", "OrganismTaxon": "species"}
TRAINING = (
    ("BC5CDR-train", "BC5CDR-PubTator/CDR_TrainingSet.PubTator.txt.gz", BC5CDR_TYPES),
    ("BC5CDR-dev", "BC5CDR-PubTator/CDR_DevelopmentSet.PubTator.txt.gz", BC5CDR_TYPES),
    ("NCBI-disease-train", "NCBI-disease/NCBItrainset_corpus.txt.gz", NCBI_TYPES),
    ("NCBI-disease-dev", "NCBI-disease/NCBIdevelopset_corpus.txt.gz", NCBI_TYPES),
    ("BioRED-train", "BioRED/Train.PubTator.gz", BIORED_TYPES),
)
EVALUATION = ("BC5CDR-PubTator/CDR_TestSet.PubTator.txt.gz", "NCBI-disease/NCBItestset_corpus.txt.gz",
              "BioRED/Dev.PubTator.gz")
# Corpora the linker is measured on across corpora, never read for names. BioRED drew 110 of its training
# abstracts from NLM-Gene and GNormPlus: `--hold-out NLM-Gene,GNormPlus,LINNAEUS` builds bundles without
# the training documents they share, to measure on them (the shipped bundles keep those names).
CROSS_CORPUS = {"NLM-Gene": ("NLM-Gene/NLMgene_Train.PubTator.gz",),
                "GNormPlus": ("GNormPlus/GNormPlus_Train.PubTator.gz",),
                "LINNAEUS": ("LINNAEUS/Linnaeus_Train.PubTator.gz", "LINNAEUS/Linnaeus_Test.PubTator.gz")}

COMPOSITE = re.compile(r"[|+,;]")
MESH_ID = re.compile(r"(?:MESH:)?([CD]\d+)")
OMIM_ID = re.compile(r"OMIM:(\d+)")
DIGITS = re.compile(r"\d+")
BAD_CHARS = re.compile(r"[\t\r\n|]")


def open_text(path):
    """A source file as text, whatever its compression (.gz, .xz or none)."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", newline="\n")
    if path.endswith(".xz"):
        return lzma.open(path, "rt", encoding="utf-8", newline="\n")
    return open(path, encoding="utf-8", newline="\n")


def lines(path):
    with open_text(path) as f:
        for line in f:
            yield line.rstrip("\r\n")


def tsv_rows(path):
    """Rows of a TSV with a header line (a leading '#' in the header is dropped) as dicts."""
    it = lines(path)
    header = next(it).lstrip("#").split("\t")
    for line in it:
        if line:
            yield dict(zip(header, line.split("\t")))


def clean(name):
    """A name as the bundles store it: no tab, newline or pipe inside, single spaces, trimmed."""
    return " ".join(BAD_CHARS.sub(" ", name).split())


def split_pipes(value):
    """A `|`-separated field as its values; `-` (NCBI's empty) and surrounding quotes dropped."""
    value = value.strip().strip('"')
    return [v for v in (v.strip() for v in value.split("|")) if v and v != "-"]


class Concepts:
    """id -> preferred name, other names, taxon and weight."""

    def __init__(self):
        self.names = {}    # id -> list of names, preferred first
        self.taxon = {}
        self.weight = {}
        self.alt = {}      # id -> ids its source says name the same concept (MEDIC's alternative ids)
        self.superseded = []   # (old id, new id, reason): ids the newest source replaced (current.py)
        self.orthologs = set()  # (human gene id, mouse gene id): HGNC's mouse ortholog (MGI) of a human gene
        self.taxonomy = []      # (tax_id, name) of every named taxon, its scientific name first (species)
        self.names_moved = 0   # names MEDIC gave a MeSH descriptor that MeSH 2024 gives another only

    def add(self, cid, names):
        """Adds names to a concept; the first name ever added is its preferred name."""
        self.names.setdefault(cid, []).extend(n for n in (clean(n) for n in names) if n)

    def rows(self):
        for cid in sorted(self.names):
            names = self.names[cid]
            if not names:
                continue
            name = names[0]
            synonyms = sorted(set(names) - {name})
            weight = self.weight.get(cid)
            yield (cid, name, "|".join(synonyms), self.taxon.get(cid, ""), "" if weight is None else str(weight))


# ---------------------------------------------------------------- sources

def mesh_descriptors(sources, tree_test):
    """MeSH 2024 descriptors with a tree number passing tree_test: id -> (DescriptorName, [TermName])."""
    wanted = {r["DescriptorUI"] for r in tsv_rows(os.path.join(sources, MESH_TREES)) if tree_test(r["tree_location"])}
    out = {}
    for r in tsv_rows(os.path.join(sources, MESH_TERMS)):
        if r["DescriptorUI"] in wanted:
            out.setdefault(r["DescriptorUI"], (r["DescriptorName"], []))[1].append(r["TermName"])
    return out


def medic_curie(raw):
    raw = raw.strip()
    m = MESH_ID.fullmatch(raw)
    if m:
        return "mesh:" + m.group(1)
    m = OMIM_ID.fullmatch(raw)
    if m:
        return "omim:" + m.group(1)
    if DIGITS.fullmatch(raw):
        return "omim:" + raw
    return None


def medic_2017(sources):
    """id -> names, and id -> the MeSH and OMIM ids of its AltDiseaseIDs (the same disease)."""
    out, alt = {}, {}
    for line in lines(os.path.join(sources, MEDIC_2017)):
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        cid = medic_curie(f[1])
        if cid:
            out[cid] = [f[0]] + (split_pipes(f[7]) if len(f) > 7 else [])
            others = {medic_curie(a) for a in split_pipes(f[2])} if len(f) > 2 else set()
            alt.setdefault(cid, set()).update(a for a in others if a and a != cid)
    return out, alt


def medic_2012(sources):
    """`IDs||name|synonym|...`; IDs `|`-separated (MeSH D/C without prefix, OMIM as digits); the first
    ID is the concept's, the others its alternative ids: id -> names, and id -> alternative ids."""
    out, alt = {}, {}
    for line in lines(os.path.join(sources, MEDIC_2012)):
        if "||" not in line:
            continue
        ids, names = line.split("||", 1)
        curies = [medic_curie(i) for i in ids.split("|")]
        cid = curies[0]
        if cid:
            out[cid] = names.split("|")
            alt.setdefault(cid, set()).update(a for a in curies[1:] if a and a != cid)
    return out, alt


def linnaeus_names(sources):
    out = {}
    for line in lines(os.path.join(sources, LINNAEUS_NAMES)):
        f = line.split("\t")
        if len(f) < 2 or not f[0].startswith("species:ncbi:"):
            continue
        out.setdefault(f[0][len("species:ncbi:"):], []).extend(n for n in f[1].split("|") if n)
    return out


def linnaeus_frequency(sources):
    out = {}
    for line in lines(os.path.join(sources, LINNAEUS_FREQUENCY)):
        f = line.split("\t")
        if len(f) == 2 and f[0].startswith("species:ncbi:") and DIGITS.fullmatch(f[1].strip()):
            out[f[0][len("species:ncbi:"):]] = int(f[1])
    return out


def linnaeus_stoplist(sources):
    pats = []
    for line in lines(os.path.join(sources, LINNAEUS_STOPLIST)):
        if line.startswith("#") or "\t" not in line:
            continue
        pats.append(re.compile(line.split("\t", 1)[1]))
    return pats


def linnaeus_unlikely_acronyms(sources, threshold=0.5):
    """(taxid, acronym) whose probability of meaning the species is below threshold."""
    out = set()
    for line in lines(os.path.join(sources, LINNAEUS_ACRONYMS)):
        f = line.split("\t")
        if len(f) == 3 and f[0].startswith("species:ncbi:") and float(f[2]) < threshold:
            out.add((f[0][len("species:ncbi:"):], f[1]))
    return out


def taxonomy_names(sources, file=TAXONOMY):
    out = {}
    for r in tsv_rows(os.path.join(sources, file)):
        out.setdefault(r["tax_id"], []).append(r["name"])
    return out


# ---------------------------------------------------------------- bundles

def source(name, version, file, terms):
    return {"name": name, "version": version, "file": SOURCE_DIR + "/" + file, "terms": terms}


def build_chemical(sources):
    c = Concepts()
    for ui, (name, terms) in mesh_descriptors(sources, lambda t: t.startswith("D")).items():
        c.add("mesh:" + ui, [name] + terms)
    return c, [source("MeSH descriptors, tree D", "2024", MESH_TERMS, MESH_TERMS_TEXT),
               source("MeSH tree numbers", "2024", MESH_TREES, MESH_TERMS_TEXT)]


def build_disease(sources):
    mesh = {"mesh:" + ui: [name] + terms for ui, (name, terms) in
            mesh_descriptors(sources, lambda t: t.startswith("C") or t.startswith("F03")).items()}
    m2017, alt2017 = medic_2017(sources)
    m2012, alt2012 = medic_2012(sources)
    c = Concepts()
    # newest first: the first names added carry the preferred name
    for cid in sorted(set(mesh) | set(m2017) | set(m2012)):
        for names in (mesh.get(cid), m2017.get(cid), m2012.get(cid)):
            if names:
                c.add(cid, names)
        c.weight[cid] = sum(cid in s for s in (mesh, m2017, m2012))
        c.alt[cid] = alt2017.get(cid, set()) | alt2012.get(cid, set())
    medic_vintage = current.vintage(set(m2017) | set(m2012))
    c.superseded = current.merge_superseded_medic(c, set(mesh), medic_vintage)
    c.names_moved = current.drop_moved_names(c, mesh)
    return c, [source("MeSH descriptors, trees C and F03", "2024", MESH_TERMS, MESH_TERMS_TEXT),
               source("MeSH tree numbers", "2024", MESH_TREES, MESH_TERMS_TEXT),
               source("CTD MEDIC", "2017-06-06", MEDIC_2017, CTD_TERMS_TEXT),
               source("CTD MEDIC", "2012-07-06", MEDIC_2012, CTD_TERMS_TEXT)]


def build_gene(sources):
    c = Concepts()
    protein = set()
    for taxon, file in GENE_INFO:
        for r in tsv_rows(os.path.join(sources, file)):
            if r["tax_id"] != taxon:
                continue
            cid = "ncbigene:" + r["GeneID"]
            names = [r["Symbol"]]
            for col in ("Synonyms", "Symbol_from_nomenclature_authority",
                        "Full_name_from_nomenclature_authority", "description", "Other_designations"):
                names.extend(split_pipes(r.get(col, "")))
            c.add(cid, names)
            c.taxon[cid] = taxon
            if r["type_of_gene"] == "protein-coding":
                protein.add(cid)
    mouse_by_mgi = {r["MGI"]: "ncbigene:" + r["GeneID"] for r in tsv_rows(os.path.join(sources, MOUSE_MGI)) if r["MGI"]}
    for r in tsv_rows(os.path.join(sources, HGNC)):
        cid = "ncbigene:" + r["entrez_id"].strip()
        if r["entrez_id"].strip() and c.taxon.get(cid) == "9606":
            for col in ("alias_symbol", "alias_name", "prev_symbol", "prev_name"):
                c.add(cid, split_pipes(r.get(col, "")))
            for mgi in split_pipes(r.get("mgd_id", "")):
                if mgi in mouse_by_mgi and mouse_by_mgi[mgi] in c.names:
                    c.orthologs.add((cid, mouse_by_mgi[mgi]))
    for cid, names in c.names.items():
        c.weight[cid] = (1000 if cid in protein else 0) + min(999, len(set(names)))
    return c, [source("NCBI Gene gene_info, Homo sapiens", "2022-11-10", GENE_INFO[0][1], NCBI_GENE_TERMS),
               source("NCBI Gene gene_info, Mus musculus", "2023-03-23", GENE_INFO[1][1], NCBI_GENE_TERMS),
               source("HGNC complete set", "2019-01", HGNC, HGNC_TERMS),
               source("NCBI Gene gene_info, Mus musculus, MGI ids", "2023-03-23", MOUSE_MGI, NCBI_GENE_TERMS)]


class ScientificNames:
    """Picks NCBI Taxonomy's scientific name among a taxon's specData names (scientific names and
    synonyms, which specData does not tell apart). A heuristic: the name with the most (a) names of
    other taxa that extend it by words (strains, subspecies: "Saccharomyces cerevisiae S288c") plus
    (b) LINNAEUS variants of the taxon equal to it or extending it (authority and strain forms); ties
    go to the genus most used by taxa with a single name (certainly scientific), then the shorter
    name, then the first in code-point order."""

    def __init__(self, taxonomy):
        self.extended = {}    # lower-cased word prefix -> taxa with a longer name starting with it
        self.genus = {}       # first word -> number of single-name taxa using it
        for taxid, names in taxonomy.items():
            for name in names:
                words = name.lower().split()
                for k in range(1, len(words)):
                    self.extended.setdefault(" ".join(words[:k]), set()).add(taxid)
            if len(names) == 1 and names[0].split():
                g = names[0].split()[0]
                self.genus[g] = self.genus.get(g, 0) + 1

    def pick(self, taxid, candidates, linnaeus):
        if len(candidates) == 1:
            return candidates[0]
        lowered = [n.lower() for n in linnaeus]

        def key(cand):
            c = cand.lower()
            others = len(self.extended.get(c, set()) - {taxid})
            variants = sum(1 for n in lowered if n == c or n.startswith(c + " "))
            return (-(others + variants), -self.genus.get(cand.split()[0], 0), len(cand), cand)
        return min(candidates, key=key)


def linnaeus_display_name(names):
    """For a taxon without NCBI Taxonomy names: the first LINNAEUS name (file order) that looks like a
    full name (capital first letter, no abbreviation dot, several words), else the first capitalised
    one without a dot, else the first."""
    for test in (lambda n: n[0].isupper() and "." not in n and " " in n,
                 lambda n: n[0].isupper() and "." not in n,
                 lambda n: True):
        for n in names:
            if test(n):
                return n
    return names[0]


def build_species(sources):
    linnaeus = linnaeus_names(sources)
    taxonomy = taxonomy_names(sources)
    frequency = linnaeus_frequency(sources)
    stoplist = linnaeus_stoplist(sources)
    unlikely = linnaeus_unlikely_acronyms(sources)
    linnaeus.setdefault("9606", []).extend(HUMAN_PROXIES)
    for taxid, names in MODEL_ORGANISM_NAMES.items():
        moved = {n.lower() for n in names}
        for other in linnaeus:
            linnaeus[other] = [n for n in linnaeus[other] if n.lower() not in moved]
        linnaeus.setdefault(taxid, []).extend(names)
    named_taxa = taxonomy_names(sources, NAMED_TAXA)
    scientific = ScientificNames(named_taxa)

    def keep(taxid, name):
        return (taxid, name) not in unlikely and not any(p.fullmatch(name) for p in stoplist)

    c = Concepts()
    for taxid in sorted(set(linnaeus) | set(taxonomy)):
        lin = [n for n in (clean(n) for n in linnaeus.get(taxid, ())) if n and keep(taxid, n)]
        tax = [n for n in (clean(n) for n in taxonomy.get(taxid, ())) if n and keep(taxid, n)]
        if not lin and not tax:
            continue
        cid = "ncbitaxon:" + taxid
        if tax:
            c.add(cid, [scientific.pick(taxid, sorted(set(tax)), lin)] + tax + lin)
        else:
            c.add(cid, [linnaeus_display_name(lin)] + lin)
        c.weight[cid] = frequency.get(taxid, 0)
    for taxid in sorted(named_taxa, key=int):
        names = sorted(set(n for n in (clean(n) for n in named_taxa[taxid]) if n))
        if names:
            first = scientific.pick(taxid, names, [n for n in (clean(n) for n in linnaeus.get(taxid, ())) if n])
            c.taxonomy.extend((taxid, n) for n in [first] + [n for n in names if n != first])
    return c, [source("LINNAEUS species-proxies-light", "LINNAEUS 2.0 resources", LINNAEUS_NAMES, LINNAEUS_TERMS),
               source("LINNAEUS species-frequency", "LINNAEUS 2.0 resources", LINNAEUS_FREQUENCY, LINNAEUS_TERMS),
               source("LINNAEUS stoplist", "LINNAEUS 2.0 resources", LINNAEUS_STOPLIST, LINNAEUS_TERMS),
               source("LINNAEUS synonyms-acronyms", "LINNAEUS 2.0 resources", LINNAEUS_ACRONYMS, LINNAEUS_TERMS),
               source("NCBI Taxonomy names (GenomeInfoDbData specData)", "2022-09", TAXONOMY, TAXONOMY_TERMS),
               source("NCBI Taxonomy names of every named taxon (GenomeInfoDbData specData)", "2022-09", NAMED_TAXA,
                      NAMED_TAXA_TERMS)]


BUILDERS = {"chemical": build_chemical, "disease": build_disease, "gene": build_gene, "species": build_species}


# ---------------------------------------------------------------- corpora

def pubtator_documents(path):
    """PubTator (and the NCBI disease corpus's tab format): pmid -> [(mention, type, id)]."""
    docs = {}
    for line in lines(path):
        if not line.strip():
            continue
        m = re.match(r"(\d+)\|[ta]\|", line)
        if m:
            docs.setdefault(m.group(1), [])
            continue
        f = line.split("\t")
        if len(f) >= 6 and f[0].isdigit() and f[1].isdigit():
            docs.setdefault(f[0], []).append((f[3], f[4], f[5].strip()))
        elif f and f[0].isdigit():
            docs.setdefault(f[0], [])
    return docs


def corpus_curie(etype, raw):
    """The CURIE of a gold id, or None for none (`-1`, `-`, empty), composite or unknown ids."""
    if not raw or raw in ("-1", "-") or COMPOSITE.search(raw):
        return None
    if etype in ("chemical", "disease"):
        m = MESH_ID.fullmatch(raw) or None
        if m:
            return "mesh:" + m.group(1)
        m = OMIM_ID.fullmatch(raw)
        return "omim:" + m.group(1) if m else None
    if DIGITS.fullmatch(raw):
        return ("ncbigene:" if etype == "gene" else "ncbitaxon:") + raw
    return None


def corpus_names(corpora, log, left_out=frozenset(), cross_corpus=()):
    held_out = set()
    for file in EVALUATION + tuple(f for name in cross_corpus for f in CROSS_CORPUS[name]):
        held_out.update(pubtator_documents(os.path.join(corpora, file)))
    pairs = {t: {} for t in TYPES}   # type -> (id, name) -> [set of sources, mentions]
    species = {}                     # gene id -> {taxon: mentions of it in the documents annotating the gene}
    ids = {}                         # label -> every id its kept documents annotate (for its MeSH vintage)
    for label, file, types in TRAINING:
        if label in left_out:
            continue
        docs = pubtator_documents(os.path.join(corpora, file))
        dropped = sorted(set(docs) & held_out)
        kept = skipped = 0
        for pmid, mentions in docs.items():
            if pmid in held_out:
                continue
            taxa = [corpus_curie("species", raw) for _, ctype, raw in mentions if types.get(ctype) == "species"]
            for mention, ctype, raw in mentions:
                etype = types.get(ctype)
                if etype is None:
                    continue
                cid, name = corpus_curie(etype, raw), clean(mention)
                if cid:
                    ids.setdefault(label, set()).add(cid)
                if cid is None or not name:
                    skipped += 1
                    continue
                seen = pairs[etype].setdefault((cid, name), [set(), 0])
                seen[0].add(label)
                seen[1] += 1
                kept += 1
                if etype == "gene":
                    for taxon in taxa:
                        if taxon:
                            counts = species.setdefault(cid, {})
                            counts[taxon] = counts.get(taxon, 0) + 1
        log(f"{label}: {len(docs)} documents, {len(dropped)} dropped (PMID in an evaluation split), "
            f"{kept} mentions kept, {skipped} skipped (no id, composite or unknown id)")
    return pairs, species, {label: current.vintage(i) for label, i in ids.items()}


def corpus_taxon(counts):
    """The species of a gene only the corpora know: of the species its documents annotate, the most
    mentioned other than human and mouse (the gene vocabulary holds every human and mouse gene, so
    the gene is another species'); ties to the lower taxon id; "" when they name no other."""
    others = [(-n, int(t.split(":")[1])) for t, n in counts.items() if t not in ("ncbitaxon:9606", "ncbitaxon:10090")]
    return str(min(others)[1]) if others else ""


# ---------------------------------------------------------------- writing

def write_gzip_tsv(path, header, rows):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(("\t".join(header) + "\n").encode("utf-8"))
        for row in rows:
            gz.write(("\t".join(row) + "\n").encode("utf-8"))
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def declared_same(concepts):
    """old id -> current id, as the sources declare it: merged concepts, then each alternative id of
    exactly one concept (MEDIC's OMIM id of a MeSH disease) that is no concept itself."""
    out = {old: new for old, new, _ in concepts.superseded}
    owners = {}
    for cid, alts in concepts.alt.items():
        for a in alts:
            owners.setdefault(a, set()).add(cid)
    for a, cids in owners.items():
        if a not in concepts.names and len(cids) == 1 and a not in out:
            out[a] = next(iter(cids))
    return out


def write_bundle(out, etype, concepts, sources, pairs, species, vintage):
    folder = os.path.join(out, etype)
    os.makedirs(folder, exist_ok=True)
    pairs, corpus_superseded, counts = current.current_corpus_names(
        concepts, pairs, vintage, declared_same(concepts), by_name=etype in ("chemical", "disease"))
    superseded = sorted(set(concepts.superseded) | set(corpus_superseded))
    rows = list(concepts.rows())
    write_gzip_tsv(os.path.join(folder, "concepts.tsv.gz"), ("id", "name", "synonyms", "taxon", "weight"), rows)
    corpus_rows = [(cid, name, ",".join(sorted(srcs)), str(count),
                    "" if cid in concepts.names else corpus_taxon(species.get(cid, {})))
                   for (cid, name), (srcs, count) in sorted(pairs.items())]
    write_gzip_tsv(os.path.join(folder, "corpus-names.tsv.gz"), ("id", "name", "source", "mentions", "taxon"),
                   corpus_rows)
    names = sum(1 + (len(r[2].split("|")) if r[2] else 0) for r in rows)
    manifest = {"format": FORMAT, "name": "bioner-vocab-" + etype, "entity_type": etype, "version": VERSION,
                "sources": sources, "concepts": len(rows), "names": names, "corpus_names": len(corpus_rows)}
    if superseded:
        write_gzip_tsv(os.path.join(folder, "superseded.tsv.gz"), ("id", "current_id", "why"), superseded)
        manifest["superseded"] = len(superseded)
    if concepts.taxonomy:
        body = "".join(f"{t}\t{n}\n" for t, n in concepts.taxonomy)
        with open(os.path.join(folder, "taxonomy.tsv.xz"), "wb") as f:
            f.write(lzma.compress(("tax_id\tname\n" + body).encode("utf-8"), preset=9 | lzma.PRESET_EXTREME))
        manifest["taxonomy"] = len({t for t, _ in concepts.taxonomy})
    if concepts.orthologs:
        write_gzip_tsv(os.path.join(folder, "orthologs.tsv.gz"), ("id", "ortholog_id"), sorted(concepts.orthologs))
        manifest["orthologs"] = len(concepts.orthologs)
    manifest["current_ids"] = dict(counts, medic_concepts_replaced=len(concepts.superseded),
                                   names_meshs_other_descriptors_have=concepts.names_moved)
    alt_rows = sorted((cid, a) for cid in {r[0] for r in rows} for a in concepts.alt.get(cid, ()))
    if alt_rows:
        write_gzip_tsv(os.path.join(folder, "alt-ids.tsv.gz"), ("id", "alt_id"), alt_rows)
        manifest["alt_ids"] = len(alt_rows)
    with open(os.path.join(folder, "vocabulary.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sources", required=True, help="vocabularies/sources of the repository")
    p.add_argument("--corpora", required=True, help="corpora/linking of the repository")
    p.add_argument("--out", required=True, help="output folder (one sub-folder per entity type)")
    p.add_argument("--types", default=",".join(TYPES), help="comma-separated subset of " + ",".join(TYPES))
    p.add_argument("--leave-out", default="",
                   help="comma-separated corpus splits whose names to leave out (e.g. BC5CDR-dev,NCBI-disease-dev,"
                        "BioRED-train): a bundle to tune the linker on those splits; the shipped bundles take every "
                        "training and dev split's names, as BioSyn's dictionaries do")
    p.add_argument("--hold-out", default="",
                   help="comma-separated corpora of " + ",".join(CROSS_CORPUS) + " whose documents no name may come "
                        "from (training documents sharing their PMIDs are dropped): bundles to measure on them")
    args = p.parse_args(argv)
    types = [t for t in args.types.split(",") if t]
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        p.error("unknown type(s): " + ", ".join(unknown))

    def log(msg):
        print(msg, flush=True)

    start = time.monotonic()
    left_out = {s for s in args.leave_out.split(",") if s}
    unknown = left_out - {label for label, _, _ in TRAINING}
    if unknown:
        p.error("unknown split(s): " + ", ".join(sorted(unknown)))
    held = [c for c in args.hold_out.split(",") if c]
    if set(held) - set(CROSS_CORPUS):
        p.error("unknown corpus: " + ", ".join(sorted(set(held) - set(CROSS_CORPUS))))
    pairs, species, vintage = corpus_names(args.corpora, log, left_out, held)
    for etype in types:
        t0 = time.monotonic()
        concepts, sources = BUILDERS[etype](args.sources)
        m = write_bundle(args.out, etype, concepts, sources, pairs[etype], species, vintage)
        folder = os.path.join(args.out, etype)
        sizes = ", ".join(f"{f} {os.path.getsize(os.path.join(folder, f)):,} B" for f in sorted(os.listdir(folder)))
        log(f"{etype}: {m['concepts']:,} concepts, {m['names']:,} names, {m['corpus_names']:,} corpus names "
            f"({time.monotonic() - t0:.1f} s; {sizes}); current ids: {m['current_ids']}")
    log(f"done in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
