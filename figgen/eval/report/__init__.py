"""``figgen eval score``: answers scored and aggregated per model, family and level, with
the blind baselines, grounding, robustness and the human study beside them."""
