"""ChartDensity-Bench: charts composed k at a time, table reconstruction and its analysis."""

from figgen.density.compose import build_density
from figgen.density.manifest import Compound, DensityManifest, load_manifest
from figgen.density.metrics import ChartScore, CompoundScore, aggregate, score_chart
from figgen.density.parse import ParsedReply, parse_tables
from figgen.density.report import write_report
from figgen.density.tables import ChartTable, Row, SourceChart, load_sources, read_csv_table

__all__ = [
    "ChartScore",
    "ChartTable",
    "Compound",
    "CompoundScore",
    "DensityManifest",
    "ParsedReply",
    "Row",
    "SourceChart",
    "aggregate",
    "build_density",
    "load_manifest",
    "load_sources",
    "parse_tables",
    "read_csv_table",
    "score_chart",
    "write_report",
]
