"""Sampling: every random choice of a figure, numpy only; ``figure.sample_figure`` is the entry."""
