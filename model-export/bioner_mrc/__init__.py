"""BioBERT-MRC: biomedical NER as machine reading comprehension (train, evaluate, export)."""
