"""ChartDensity-Bench: charts composed k at a time, data-table reconstruction, the paper's analysis."""
