"""Sampling helpers: random streams, distributions, layout, style and text, numpy only.

:func:`figgen.build.sampling.sample_figure` puts them and the plot kinds together into a spec."""
