"""The HuggingFace dataset-card template and its renderer."""
