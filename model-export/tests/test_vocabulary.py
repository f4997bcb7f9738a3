"""The linker's vocabulary bundles, built from tiny hand-written sources: CURIEs, the disease union by id,
the HGNC join, the LINNAEUS filters, evaluation documents kept out of the corpus names, identical bytes."""
import gzip
import json
import lzma
import os

import pytest

from bioner_vocab import build

GENE_HEADER = ("#tax_id\tGeneID\tSymbol\tSynonyms\tdescription\ttype_of_gene\tSymbol_from_nomenclature_authority"
               "\tFull_name_from_nomenclature_authority\tOther_designations")

SOURCES = {
    build.MESH_TREES: "DescriptorUI\ttree_location\n"
                      "D000001\tD02.355\n"
                      "D000002\tC10.228\n"
                      "D000003\tF03.600\n"
                      "D000004\tC04.557\n"
                      "D000005\tD03.100\n"
                      "D000006\tD03.200\n"
                      "D000007\tD03.300\n"
                      "D000020\tF03.625\n"
                      "D000090000\tF03.625\n"
                      "D000090001\tC16.131\n",
    build.MESH_TERMS: "DescriptorUI\tDescriptorName\tTermName\n"
                      "D000001\tCalcimycin\tA-23187\n"
                      "D000001\tCalcimycin\tCalcimycin\n"
                      "D000002\tHeadache 2024\tCephalalgia\n"
                      "D000003\tAnxiety\tAngst\n"
                      "D000004\tNeoplasms\tTumors\n"
                      "D000005\tAmisulpride\tAmisulpride\n"
                      "D000006\tAtorvastatin\tAtorvastatin\n"
                      "D000007\tCoumarins\tCoumarins\n"
                      "D000020\tDyskinesias\tDyskinesia\n"
                      "D000090000\tAutism Spectrum Disorder\tAutism Spectrum Disorder\n"
                      "D000090001\tTrisomy 18 Syndrome\tTrisomy 18\n",
    build.MEDIC_2017: "# CTD header\n#\n"
                      "Headache 2017\tMESH:D000002\t\t\t\t\t\tHead pain|Pain, head\t\n"
                      "Some syndrome\tOMIM:100100\tDO:DOID:1|MESH:C000011\t\t\t\t\tSS1\t\n"
                      "Old disease\tMESH:C000010\t\t\t\t\t\tOD\t\n"
                      "Anxiety\tMESH:D000003\t\t\t\t\t\tAutism Spectrum Disorder|Angst\t\n"
                      "Trisomy 18\tMESH:C000030\t\t\t\t\t\tEdwards syndrome\t\n",
    build.MEDIC_2012: "C||Diseases\n"
                      "D000002||Headache 2012|Cephalgia\n"
                      "C000010|100200||Old disease 2012|Old disease\n"
                      "200300||SYNDROME ONLY IN 2012|S2012\n",
    build.GENE_INFO[0][1]: GENE_HEADER + "\n"
                           "9606\t672\tBRCA1\tBRCC1|RNF53\tBRCA1 DNA repair associated\tprotein-coding\tBRCA1"
                           "\tBRCA1 DNA repair associated\tbreast cancer 1\n"
                           "9606\t100\tPSG\t-\tpseudo gene\tpseudo\t-\t-\t-\n",
    build.GENE_INFO[1][1]: GENE_HEADER + "\n"
                           "10090\t12189\tBrca1\tBrcc1\tbreast cancer 1, early onset\tprotein-coding\tBrca1"
                           "\tbreast cancer 1, early onset\t-\n",
    build.HGNC: "hgnc_id\talias_symbol\talias_name\tprev_symbol\tprev_name\tentrez_id\tmgd_id\n"
                "HGNC:1100\t\"IRIS|PSCP\"\t\t\"BRCAI\"\t\"breast cancer 1, early onset\"\t672\tMGI:104537\n"
                "HGNC:9\tMOUSEONLY\t\t\t\t12189\t\n",
    build.MOUSE_MGI: "GeneID\tMGI\n12189\tMGI:104537\n",
    build.LINNAEUS_NAMES: "species:ncbi:9606\tHuman|human|H. sapiens|Homo sapiens\n"
                          "species:ncbi:9606\tpatient\n"
                          "species:ncbi:10633\tp.virus|SV40|BBV|Simian virus 40\n"
                          "species:ncbi:6239\tC. elegans|nematode|nematodes|Caenorhabditis elegans\n",
    build.LINNAEUS_FREQUENCY: "#species\tcount\nspecies:ncbi:9606\t17461751\nspecies:ncbi:6239\t1000\n"
                              "species:ncbi:7227\t900",
    build.LINNAEUS_STOPLIST: "#id\tregular expression\nspecies:ncbi:6239\t[Nn]ematodes?\n*\t[sS]pikes?",
    build.LINNAEUS_ACRONYMS: "species:ncbi:10633\tSV40\t0.99\nspecies:ncbi:10633\tBBV\t0.4375\n",
    build.TAXONOMY: "tax_id\tname\n"
                    "6239\tCaenorhabditis elegans\n"
                    "6239\tRhabditis elegans\n"
                    "7227\tDrosophila melanogaster\n"
                    "9606\tHomo sapiens\n",
    build.NAMED_TAXA: "tax_id\tname\n"
                      "4577\tZea mays\n"
                      "4577\tmaize\n"
                      "6239\tCaenorhabditis elegans\n"
                      "6239\tRhabditis elegans\n"
                      "7227\tDrosophila melanogaster\n"
                      "9606\tHomo sapiens\n"
                      "11084\tTick-borne encephalitis virus\n"
                      "11084\tTBEV\n"
                      "11088\tTick-borne encephalitis virus Neudoerfl\n"
                      "381124\tZea mays subsp. mays\n",
}


def pubtator(*docs):
    out = []
    for pmid, mentions in docs:
        out.append(f"{pmid}|t|Title {pmid}.\n{pmid}|a|Abstract.\n")
        out.extend(f"{pmid}\t0\t5\t{m}\t{t}\t{i}\n" for m, t, i in mentions)
        out.append("\n")
    return "".join(out)


CORPORA = {
    "BC5CDR-PubTator/CDR_TrainingSet.PubTator.txt.gz": pubtator(
        ("1", [("naloxone", "Chemical", "D009270"), ("pain", "Disease", "D010146"),
               ("x and y", "Disease", "D000001|D000002"), ("what", "Chemical", "-1"),
               ("amisulpride", "Chemical", "C012052"), ("Atorva", "Chemical", "C065179"),
               ("atorvastatin", "Chemical", "C065179"), ("atorvastatin", "Chemical", "C065179"),
               ("coumarin", "Chemical", "C030123"),
               ("autism spectrum disorder", "Disease", "D000004"), ("dyskinesia", "Disease", "D000002")]),
        ("999", [("leaked test mention", "Disease", "D000777")])),
    "BC5CDR-PubTator/CDR_DevelopmentSet.PubTator.txt.gz": pubtator(
        ("2", [("NQO1", "Chemical", "C012345"), ("pain", "Disease", "D010146")])),
    "BC5CDR-PubTator/CDR_TestSet.PubTator.txt.gz": pubtator(("999", [("test only", "Disease", "D000888")])),
    "NCBI-disease/NCBItrainset_corpus.txt.gz": pubtator(
        ("3", [("ataxia", "SpecificDisease", "OMIM:208900"), ("tumours", "DiseaseClass", "D009369"),
               ("AT", "Modifier", "MESH:C000010"), ("A or B", "CompositeMention", "D1+D2")])),
    "NCBI-disease/NCBIdevelopset_corpus.txt.gz": pubtator(("4", [("cancer", "DiseaseClass", " D009369")])),
    "NCBI-disease/NCBItestset_corpus.txt.gz": pubtator(("5", [("ncbi test", "SpecificDisease", "D000999")])),
    "BioRED/Train.PubTator.gz": pubtator(
        ("6", [("BRCA1", "GeneOrGeneProduct", "672"), ("MODY", "GeneOrGeneProduct", "3172,3651"),
               ("patients", "OrganismTaxon", "9606"), ("mice", "OrganismTaxon", "10090"),
               ("glucose", "ChemicalEntity", "D005947"), ("T2D", "DiseaseOrPhenotypicFeature", "D003924"),
               ("rs1", "SequenceVariant", "rs1")]),
        ("8", [("Bdnf", "GeneOrGeneProduct", "24225"), ("rats", "OrganismTaxon", "10116"),
               ("rat", "OrganismTaxon", "10116"), ("mice", "OrganismTaxon", "10090"), ("mice", "OrganismTaxon", "10090"),
               ("mice", "OrganismTaxon", "10090")]),
        ("7", [("dev leak", "GeneOrGeneProduct", "7157")])),
    "BioRED/Dev.PubTator.gz": pubtator(("7", [("TP53", "GeneOrGeneProduct", "7157")])),
    "NLM-Gene/NLMgene_Train.PubTator.gz": pubtator(("8", [("Bdnf", "Gene", "24225")])),
    "GNormPlus/GNormPlus_Train.PubTator.gz": pubtator(),
    "LINNAEUS/Linnaeus_Train.PubTator.gz": pubtator(),
    "LINNAEUS/Linnaeus_Test.PubTator.gz": pubtator(),
}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    opener = gzip.open if path.endswith(".gz") else lzma.open if path.endswith(".xz") else open
    with opener(path, "wt", encoding="utf-8") as f:
        f.write(text)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("vocab")
    for name, text in SOURCES.items():
        write(str(root / "sources" / name), text)
    for name, text in CORPORA.items():
        write(str(root / "corpora" / name), text)
    return root


def run(inputs, out):
    assert build.main(["--sources", str(inputs / "sources"), "--corpora", str(inputs / "corpora"),
                       "--out", str(out)]) == 0


@pytest.fixture(scope="module")
def bundles(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    run(inputs, out)
    return out


def table(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return rows[0], rows[1:]


def concepts(bundles, etype):
    header, rows = table(bundles / etype / "concepts.tsv.gz")
    assert header == ["id", "name", "synonyms", "taxon", "weight"]
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    return {r[0]: {"name": r[1], "synonyms": r[2].split("|") if r[2] else [], "taxon": r[3], "weight": r[4]}
            for r in rows}


def corpus(bundles, etype, column=2):
    header, rows = table(bundles / etype / "corpus-names.tsv.gz")
    assert header == ["id", "name", "source", "mentions", "taxon"]
    assert rows == sorted(rows)
    assert all(int(r[3]) >= len(r[2].split(",")) for r in rows)  # at least one mention per source
    return {(r[0], r[1]): r[column] for r in rows}


def test_every_type_has_a_manifest_with_its_counts(bundles):
    for etype in build.TYPES:
        with open(bundles / etype / "vocabulary.json", encoding="utf-8") as f:
            m = json.load(f)
        c = concepts(bundles, etype)
        assert m["format"] == 1 and m["name"] == "bioner-vocab-" + etype and m["entity_type"] == etype
        assert m["version"] == build.VERSION
        assert m["concepts"] == len(c)
        assert m["names"] == sum(1 + len(v["synonyms"]) for v in c.values())
        assert m["corpus_names"] == len(corpus(bundles, etype))
        assert all(s["file"].startswith("vocabularies/sources/") and s["terms"] for s in m["sources"])


def test_chemicals_are_mesh_tree_d_descriptors_with_their_terms(bundles):
    c = concepts(bundles, "chemical")
    assert set(c) == {"mesh:D000001", "mesh:D000005", "mesh:D000006", "mesh:D000007"}
    assert c["mesh:D000001"]["name"] == "Calcimycin"
    assert c["mesh:D000001"]["synonyms"] == ["A-23187"]     # the name itself is not repeated


def test_diseases_are_the_union_by_id_named_by_the_newest_source(bundles):
    c = concepts(bundles, "disease")
    assert set(c) == {"mesh:D000002", "mesh:D000003", "mesh:D000004", "omim:100100", "mesh:C000010",
                      "omim:200300", "mesh:D000020", "mesh:D000090000", "mesh:D000090001"}
    headache = c["mesh:D000002"]
    assert headache["name"] == "Headache 2024" and headache["weight"] == "3"
    assert headache["synonyms"] == sorted(["Cephalalgia", "Head pain", "Pain, head", "Headache 2017",
                                           "Headache 2012", "Cephalgia"])
    assert c["mesh:C000010"]["name"] == "Old disease" and c["mesh:C000010"]["weight"] == "2"
    assert c["mesh:C000010"]["synonyms"] == ["OD", "Old disease 2012"]
    assert c["omim:200300"] == {"name": "SYNDROME ONLY IN 2012", "synonyms": ["S2012"], "taxon": "", "weight": "1"}
    assert c["omim:100100"]["weight"] == "1" and c["mesh:D000003"]["name"] == "Anxiety"


def test_diseases_keep_medics_alternative_ids(bundles):
    header, rows = table(bundles / "disease" / "alt-ids.tsv.gz")
    assert header == ["id", "alt_id"]
    # MEDIC 2012's second id, MEDIC 2017's AltDiseaseIDs (MeSH and OMIM only, not DO)
    assert rows == [["mesh:C000010", "omim:100200"], ["omim:100100", "mesh:C000011"]]
    with open(bundles / "disease" / "vocabulary.json", encoding="utf-8") as f:
        assert json.load(f)["alt_ids"] == 2
    assert not (bundles / "chemical" / "alt-ids.tsv.gz").exists()


def test_genes_join_hgnc_for_human_genes_only(bundles):
    c = concepts(bundles, "gene")
    brca1 = c["ncbigene:672"]
    assert brca1["name"] == "BRCA1" and brca1["taxon"] == "9606"
    assert {"BRCC1", "RNF53", "BRCA1 DNA repair associated", "breast cancer 1", "IRIS", "PSCP", "BRCAI",
            "breast cancer 1, early onset"} == set(brca1["synonyms"])
    assert brca1["weight"] == str(1000 + 1 + len(brca1["synonyms"]))
    mouse = c["ncbigene:12189"]
    assert mouse["taxon"] == "10090" and "MOUSEONLY" not in mouse["synonyms"]
    assert c["ncbigene:100"] == {"name": "PSG", "synonyms": ["pseudo gene"], "taxon": "9606", "weight": "2"}


def test_species_apply_the_stoplist_the_acronym_filter_and_the_human_proxies(bundles):
    c = concepts(bundles, "species")
    worm = c["ncbitaxon:6239"]
    assert worm["name"] == "Caenorhabditis elegans" and worm["weight"] == "1000"
    assert "nematode" not in worm["synonyms"] and "nematodes" not in worm["synonyms"]
    assert "Rhabditis elegans" in worm["synonyms"]
    sv40 = c["ncbitaxon:10633"]
    assert "SV40" in sv40["synonyms"] and "BBV" not in sv40["synonyms"]
    assert sv40["name"] == "Simian virus 40"          # no NCBI Taxonomy name: a full LINNAEUS name
    human = c["ncbitaxon:9606"]
    assert human["name"] == "Homo sapiens" and human["weight"] == "17461751"
    assert {"patient", "patients", "women", "children", "participants", "volunteers"} <= set(human["synonyms"])
    assert c["ncbitaxon:7227"]["name"] == "Drosophila melanogaster"   # frequency + taxonomy only
    assert all(v["taxon"] == "" for v in c.values())


def test_corpus_names_come_from_training_splits_without_evaluation_documents(bundles):
    chem, dis, gene, spec = (corpus(bundles, t) for t in build.TYPES)
    assert chem == {("mesh:D009270", "naloxone"): "BC5CDR-train", ("mesh:C012345", "NQO1"): "BC5CDR-dev",
                    ("mesh:D005947", "glucose"): "BioRED-train", ("mesh:D000005", "amisulpride"): "BC5CDR-train",
                    ("mesh:D000006", "Atorva"): "BC5CDR-train", ("mesh:D000006", "atorvastatin"): "BC5CDR-train",
                    ("mesh:C030123", "coumarin"): "BC5CDR-train"}
    assert dis[("mesh:D010146", "pain")] == "BC5CDR-dev,BC5CDR-train"
    assert dis[("omim:208900", "ataxia")] == "NCBI-disease-train"
    assert dis[("mesh:C000010", "AT")] == "NCBI-disease-train"
    assert dis[("mesh:D009369", "cancer")] == "NCBI-disease-dev"
    assert dis[("mesh:D003924", "T2D")] == "BioRED-train"
    names = {n for _, n in dis} | {n for _, n in gene}
    assert not names & {"leaked test mention", "test only", "ncbi test", "dev leak", "TP53", "x and y", "A or B"}
    assert gene == {("ncbigene:672", "BRCA1"): "BioRED-train", ("ncbigene:24225", "Bdnf"): "BioRED-train"}
    assert spec == {("ncbitaxon:9606", "patients"): "BioRED-train", ("ncbitaxon:10090", "mice"): "BioRED-train",
                    ("ncbitaxon:10116", "rats"): "BioRED-train", ("ncbitaxon:10116", "rat"): "BioRED-train"}


def test_a_gene_only_the_corpora_know_takes_the_other_species_its_documents_name_most(bundles):
    # the gene vocabulary has every human and mouse gene: Bdnf 24225 is the rat's, though its abstract names mice more
    assert corpus(bundles, "gene", column=4) == {("ncbigene:672", "BRCA1"): "", ("ncbigene:24225", "Bdnf"): "10116"}
    assert set(corpus(bundles, "chemical", column=4).values()) == {""}
    assert build.corpus_taxon({"ncbitaxon:9606": 5}) == ""
    assert build.corpus_taxon({"ncbitaxon:10116": 2, "ncbitaxon:7227": 2, "ncbitaxon:10090": 9}) == "7227"


def test_dropped_training_documents_are_reported(inputs, tmp_path, capsys):
    run(inputs, tmp_path)
    out = capsys.readouterr().out
    assert "BC5CDR-train: 2 documents, 1 dropped" in out
    assert "BioRED-train: 3 documents, 1 dropped" in out


def test_two_builds_give_identical_bytes(inputs, bundles, tmp_path):
    run(inputs, tmp_path)
    for etype in build.TYPES:
        for name in ("vocabulary.json", "concepts.tsv.gz", "corpus-names.tsv.gz"):
            first = (bundles / etype / name).read_bytes()
            assert first == (tmp_path / etype / name).read_bytes(), f"{etype}/{name}"
            if name.endswith(".gz"):
                assert first[4:8] == b"\0\0\0\0"       # gzip mtime 0
                assert first[3] & 0x08 == 0             # no file name in the header


def test_the_scientific_name_is_the_one_strains_and_variants_extend():
    taxonomy = {"4932": ["Candida robusta", "Saccharomyces cerevisiae", "Saccharomyces italicus"],
                "559292": ["Saccharomyces cerevisiae S288C"], "5476": ["Candida albicans"],
                "7956": ["Danio kyathit"]}
    pick = build.ScientificNames(taxonomy).pick
    assert (pick("4932", sorted(taxonomy["4932"]), ["Candida robusta", "Saccharomyces cerevisiae"])
            == "Saccharomyces cerevisiae")
    assert pick("5476", ["Candida albicans"], []) == "Candida albicans"
    # a tie goes to the genus of single-name taxa (not to the first in code-point order), then the shorter name
    assert pick("1", ["Ctenio reri", "Danio rerio"], ["Danio rerio", "Ctenio reri"]) == "Danio rerio"
    assert pick("1", ["Brachydanio rerio", "Danio rerio"], ["Danio rerio", "Brachydanio rerio"]) == "Danio rerio"


@pytest.mark.parametrize("etype, raw, curie", [
    ("chemical", "D009270", "mesh:D009270"), ("chemical", "C012345", "mesh:C012345"),
    ("disease", "MESH:C535484", "mesh:C535484"), ("disease", "OMIM:114480", "omim:114480"),
    ("gene", "672", "ncbigene:672"), ("species", "9606", "ncbitaxon:9606"),
    ("disease", "-1", None), ("disease", "D1|D2", None), ("gene", "1,2", None), ("disease", "D1+D2", None),
    ("gene", "-", None), ("chemical", "", None), ("species", "CVCL_0030", None),
])
def test_corpus_ids_become_bioregistry_curies(etype, raw, curie):
    assert build.corpus_curie(etype, raw) == curie


def superseded(bundles, etype):
    header, rows = table(bundles / etype / "superseded.tsv.gz")
    assert header == ["id", "current_id", "why"]
    return {r[0]: (r[1], r[2]) for r in rows}


def manifest(bundles, etype):
    with open(bundles / etype / "vocabulary.json", encoding="utf-8") as f:
        return json.load(f)


def test_a_training_id_no_source_has_goes_to_the_descriptor_its_names_name(bundles):
    # BC5CDR's 2015 supplementary concepts: amisulpride is a descriptor now; "Atorva" goes where
    # "atorvastatin" (more mentions) takes C065179; the compound coumarin is not the class Coumarins
    assert superseded(bundles, "chemical") == {
        "mesh:C012052": ("mesh:D000005", "replaced-by-a-concept-with-its-name"),
        "mesh:C065179": ("mesh:D000006", "replaced-by-a-concept-with-its-name")}
    assert "mesh:C030123" not in concepts(bundles, "chemical")
    counts = manifest(bundles, "chemical")["current_ids"]
    # C030123 and C012345, and naloxone and glucose, descriptors these tiny sources lack
    assert counts["corpus_ids_replaced"] == 2 and counts["corpus_only_concepts"] == 4
    assert manifest(bundles, "chemical")["superseded"] == 2


def test_a_medic_concept_mesh_promoted_joins_its_descriptor(bundles):
    c = concepts(bundles, "disease")
    assert "mesh:C000030" not in c
    assert "Edwards syndrome" in c["mesh:D000090001"]["synonyms"]
    assert superseded(bundles, "disease")["mesh:C000030"] == ("mesh:D000090001", "medic-concept-replaced-by-mesh")


def test_a_name_mesh_gives_another_descriptor_leaves_the_one_medic_gave_it_to(bundles):
    c = concepts(bundles, "disease")
    assert "Autism Spectrum Disorder" not in c["mesh:D000003"]["synonyms"]
    assert "Angst" in c["mesh:D000003"]["synonyms"]
    assert manifest(bundles, "disease")["current_ids"]["names_meshs_other_descriptors_have"] == 1


def test_a_training_name_gives_way_to_a_descriptor_newer_than_its_corpus(bundles):
    dis = corpus(bundles, "disease")
    # D000090000 is numbered above every descriptor BC5CDR uses: created after it
    assert ("mesh:D000004", "autism spectrum disorder") not in dis
    # Dyskinesias (D000020) is older than BC5CDR: the annotators' convention stays
    assert dis[("mesh:D000002", "dyskinesia")] == "BC5CDR-train"
    assert manifest(bundles, "disease")["current_ids"]["corpus_names_dropped_for_a_newer_concept"] == 1


def test_hgncs_mouse_orthologs_join_human_and_mouse_genes(bundles):
    header, rows = table(bundles / "gene" / "orthologs.tsv.gz")
    assert header == ["id", "ortholog_id"] and rows == [["ncbigene:672", "ncbigene:12189"]]
    assert manifest(bundles, "gene")["orthologs"] == 1


def test_held_out_corpora_take_the_training_documents_they_share_out(inputs, tmp_path, capsys):
    assert build.main(["--sources", str(inputs / "sources"), "--corpora", str(inputs / "corpora"),
                       "--out", str(tmp_path), "--types", "gene", "--hold-out", "NLM-Gene,GNormPlus,LINNAEUS"]) == 0
    assert "BioRED-train: 3 documents, 2 dropped" in capsys.readouterr().out
    assert ("ncbigene:24225", "Bdnf") not in corpus(tmp_path, "gene")


def test_every_named_taxon_is_in_the_species_taxonomy_its_scientific_name_first(bundles):
    with lzma.open(os.path.join(str(bundles), "species", "taxonomy.tsv.xz"), "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    assert rows[0] == ["tax_id", "name"]
    assert rows[1:] == [["4577", "Zea mays"], ["4577", "maize"],
                        ["6239", "Caenorhabditis elegans"], ["6239", "Rhabditis elegans"],
                        ["7227", "Drosophila melanogaster"], ["9606", "Homo sapiens"],
                        ["11084", "Tick-borne encephalitis virus"], ["11084", "TBEV"],
                        ["11088", "Tick-borne encephalitis virus Neudoerfl"], ["381124", "Zea mays subsp. mays"]]
    assert manifest(bundles, "species")["taxonomy"] == 7
