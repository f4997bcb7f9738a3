"""Natural-language queries, one per entity type (Sun et al. 2021, "Biomedical named entity recognition using BERT in the
machine reading comprehension framework", section III.B; Tong et al. 2021, "Improving biomedical named
entity recognition with a unified multi-task MRC framework")."""
import random
from typing import Dict, List

from .corpus import Sentence, mention_counts

STYLES = ("paper", "example", "simple", "guideline", "definition")
# How many annotated mentions a style names as examples: the paper's three, or one for a question
# about half as long (issue 41: the question is repeated in every pass, so its length is paid per pass).
EXAMPLES_PER_STYLE = {"paper": 3, "example": 1}
LANGUAGES = ("en", "es")
EXAMPLE_SELECTIONS = ("frequent", "random")

# Display words for the query ("Can you detect <words> entities ...").
TYPE_WORDS = {"chemical": "chemical", "disease": "disease", "gene": "gene or protein", "species": "species"}

# Spanish (PharmaCoNER: Spanish clinical cases): "¿Puedes detectar entidades de <words> ...".
TYPE_WORDS_ES = {
    "normalizable": "sustancias químicas normalizables",
    "non-normalizable": "sustancias químicas no normalizables",
    "protein": "proteínas y genes",
    "chemical": "sustancias químicas",
    "disease": "enfermedades",
}

# The query sentence per language: (plain, with examples, with a guideline, with a definition).
TEMPLATES = {
    "en": ("Can you detect {words} entities ?",
           "Can you detect {words} entities like {examples} ?",
           "Can you detect {words} entities ? They are {guideline} .",
           "Can you detect {words} entities ? By definition , {definition} ."),
    "es": ("¿ Puedes detectar entidades de {words} ?",
           "¿ Puedes detectar entidades de {words} como {examples} ?",
           "¿ Puedes detectar entidades de {words} ? Son {guideline} .",
           "¿ Puedes detectar entidades de {words} ? Por definición , {definition} ."),
}

# What joins the examples of a query ("like zinc or copper or iron").
EXAMPLE_JOINS = {"en": " or ", "es": " o "}

# Short annotation-guideline descriptions, in the spirit of Tong et al.'s guideline queries.
GUIDELINES = {
    "chemical": "chemicals and drugs, including their names, brand names, abbreviations and formulas",
    "disease": "diseases, disorders, syndromes, symptoms and abnormal conditions",
    "gene": "genes and gene products such as proteins, enzymes, receptors and their families",
    "species": "organisms and species, by scientific or common name",
}
# One-sentence definitions of each type (the "definition" knowledge queries of Tong et al. 2021), in
# our own words after standard dictionary definitions.
DEFINITIONS = {
    "chemical": "a chemical is a substance with a definite composition, such as an element, a compound or a drug",
    "disease": "a disease is a disorder of structure or function in a living being that produces signs or symptoms",
    "gene": "a gene is a unit of heredity made of DNA, and a protein is a chain of amino acids encoded by one",
    "species": "a species is a group of living organisms, such as an animal, plant or microbe, that can interbreed",
}
DEFINITIONS_ES = {
    "normalizable": "una sustancia química normalizable es un fármaco o compuesto con un concepto en SNOMED CT",
    "non-normalizable": "una sustancia química no normalizable es un fármaco o compuesto sin concepto en SNOMED CT",
    "protein": "una proteína es una cadena de aminoácidos codificada por un gen",
}
GUIDELINES_ES = {
    "normalizable": "fármacos y compuestos químicos que se pueden normalizar a un concepto de SNOMED CT",
    "non-normalizable": "fármacos y compuestos químicos que no se pueden normalizar a SNOMED CT",
    "protein": "proteínas, genes, péptidos, anticuerpos y enzimas",
}


def build_queries(sentences: List[Sentence], types: List[str], style: str = "paper",
                  examples: str = "frequent", seed: int = 42, language: str = "en") -> Dict[str, str]:
    """Returns the query text per type, in ``language`` (``en`` or ``es``, the corpus's language).

    ``paper``: "Can you detect chemical entities like E1 or E2 or E3 ?" with three annotated
    mentions (``example``: one, "... like E1 ?") from the training sentences, either the most
    frequent (``frequent``) or drawn at random under ``seed`` among distinct mentions (``random``).
    Ties break alphabetically so the result never depends on file or dict order.
    """
    if style not in STYLES:
        raise ValueError(f"unknown query style {style!r}: use one of {STYLES}")
    if language not in LANGUAGES:
        raise ValueError(f"unknown query language {language!r}: use one of {LANGUAGES}")
    plain, with_examples, with_guideline, with_definition = TEMPLATES[language]
    type_words, guidelines, definitions = ((TYPE_WORDS, GUIDELINES, DEFINITIONS) if language == "en"
                                           else (TYPE_WORDS_ES, GUIDELINES_ES, DEFINITIONS_ES))
    out = {}
    rng = random.Random(seed)
    for t in types:
        words = type_words.get(t, t)
        if style == "simple":
            out[t] = plain.format(words=words)
            continue
        if style == "guideline":
            out[t] = with_guideline.format(words=words, guideline=guidelines.get(t, words))
            continue
        if style == "definition":
            if t not in definitions:
                raise ValueError(f"no definition for type {t!r} in {language}: add one to queries.py")
            out[t] = with_definition.format(words=words, definition=definitions[t])
            continue
        n = EXAMPLES_PER_STYLE[style]
        counts = mention_counts(sentences, t)
        if len(counts) < n:
            raise ValueError(f"type {t!r} has {len(counts)} distinct annotated mentions; the {style} query needs {n}")
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if examples == "frequent":
            chosen = [m for m, _ in ranked[:n]]
        elif examples == "random":
            chosen = rng.sample(sorted(counts), n)
        else:
            raise ValueError(f"unknown example selection {examples!r}: use one of {EXAMPLE_SELECTIONS}")
        out[t] = with_examples.format(words=words, examples=EXAMPLE_JOINS[language].join(chosen))
    return out


def corpus_tag(corpus_name: str) -> str:
    """The tag of a corpus folder: its name without the ``-IOB`` suffix (``BC5CDR-IOB`` -> ``BC5CDR``)."""
    return corpus_name[:-4] if corpus_name.endswith("-IOB") else corpus_name


def tagged(query: str, corpus: str) -> str:
    """Seed 003's dataset tags, on the question: ``<BC5CDR> question </BC5CDR>``, as the Java
    ``BundleCorpusTags.tagged`` writes it. The question, not the sentence, carries the tag, so
    context positions (spans, windows, syntax) are those of an untagged model."""
    return f"<{corpus}> {query} </{corpus}>"


def corpus_tags(corpora: List[str], types_by_corpus: Dict[str, List[str]]) -> Dict:
    """The manifest's ``corpus_tags``: the tags learnt and, per type, the first corpus annotating it."""
    tags = [corpus_tag(c) for c in corpora]
    defaults = {}
    for c in corpora:
        for t in types_by_corpus[c]:
            defaults.setdefault(t, corpus_tag(c))
    return {"corpora": tags, "defaults": defaults}


def questions(meta: Dict, corpus_name: str, types: List[str]) -> Dict[str, str]:
    """The questions asked of ``corpus_name``'s sentences: in its tag when the model learnt it, in each
    type's default corpus tag when it did not, plain for a model without corpus tags."""
    tags = meta.get("corpus_tags")
    if not tags:
        return {t: meta["queries"][t] for t in types}
    tag = corpus_tag(corpus_name)
    return {t: tagged(meta["queries"][t], tag if tag in tags["corpora"] else tags["defaults"][t]) for t in types}
