"""Asking a model: the questions chosen, the prompt, image preparation, retries, the cost
estimate and billing, and the runner that resumes an answers file."""
