"""Natural-language queries, one per entity type (Sun et al. 2021, "Biomedical named entity recognition using BERT in the
machine reading comprehension framework", section III.B; Tong et al. 2021, "Improving biomedical named
entity recognition with a unified multi-task MRC framework")."""
import random
from typing import Dict, List

from .corpus import Sentence, mention_counts

STYLES = ("paper", "simple", "guideline")

# Display words for the query ("Can you detect <words> entities ...").
TYPE_WORDS = {"chemical": "chemical", "disease": "disease", "gene": "gene or protein", "species": "species"}

# Short annotation-guideline descriptions, in the spirit of Tong et al.'s guideline queries.
GUIDELINES = {
    "chemical": "chemicals and drugs, including their names, brand names, abbreviations and formulas",
    "disease": "diseases, disorders, syndromes, symptoms and abnormal conditions",
    "gene": "genes and gene products such as proteins, enzymes, receptors and their families",
    "species": "organisms and species, by scientific or common name",
}


def build_queries(sentences: List[Sentence], types: List[str], style: str = "paper",
                  examples: str = "frequent", seed: int = 42) -> Dict[str, str]:
    """Returns the query text per type.

    ``paper``: "Can you detect chemical entities like E1 or E2 or E3 ?" with three annotated
    mentions from the training sentences, either the most frequent (``frequent``) or drawn at
    random under ``seed`` among distinct mentions (``random``). Ties break alphabetically so
    the result never depends on file or dict order.
    """
    if style not in STYLES:
        raise ValueError(f"unknown query style {style!r}: use one of {STYLES}")
    out = {}
    rng = random.Random(seed)
    for t in types:
        words = TYPE_WORDS.get(t, t)
        if style == "simple":
            out[t] = f"Can you detect {words} entities ?"
            continue
        if style == "guideline":
            out[t] = f"Can you detect {words} entities ? They are {GUIDELINES.get(t, words)} ."
            continue
        counts = mention_counts(sentences, t)
        if len(counts) < 3:
            raise ValueError(f"type {t!r} has {len(counts)} distinct annotated mentions; the paper query needs 3")
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if examples == "frequent":
            chosen = [m for m, _ in ranked[:3]]
        elif examples == "random":
            chosen = rng.sample(sorted(counts), 3)
        else:
            raise ValueError(f"unknown example selection {examples!r}: use frequent or random")
        out[t] = f"Can you detect {words} entities like {chosen[0]} or {chosen[1]} or {chosen[2]} ?"
    return out
