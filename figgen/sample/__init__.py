"""Sampling helpers: random streams, distributions, layout, style and text, numpy only.

:func:`figgen.compose.sample_figure` puts them and the plot kinds together into a spec."""
