"""A record to its question items (above the kinds): the builder, the plot-type choices and
figure context, figure, panel and cross-panel questions, and the family table."""
