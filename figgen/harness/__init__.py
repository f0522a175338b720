"""Other evaluation frameworks: figgen's questions out to inspect_ai, lmms-eval and
VLMEvalKit, and their predictions back in as answers files."""
