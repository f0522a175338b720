"""VLMEvalKit: the MCQ and open-ended TSV files."""
