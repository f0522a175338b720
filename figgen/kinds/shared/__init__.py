"""Helpers several plot kinds share: category words, colour bars, text fitted into marks,
gradients, mark boxes and tick settings."""
