"""ChartDensity-Bench: charts composed k at a time, table reconstruction and its analysis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.density.compose import build_density
    from figgen.density.manifest import Compound, DensityManifest, load_manifest
    from figgen.density.metrics import ChartScore, CompoundScore, aggregate, score_chart
    from figgen.density.parse import ParsedReply, parse_tables
    from figgen.density.report import write_report
    from figgen.density.tables import ChartTable, Row, SourceChart, load_sources, read_csv_table

__getattr__ = lazy_exports(
    __name__,
    {
        "build_density": "figgen.density.compose",
        "Compound": "figgen.density.manifest",
        "DensityManifest": "figgen.density.manifest",
        "load_manifest": "figgen.density.manifest",
        "ChartScore": "figgen.density.metrics",
        "CompoundScore": "figgen.density.metrics",
        "aggregate": "figgen.density.metrics",
        "score_chart": "figgen.density.metrics",
        "ParsedReply": "figgen.density.parse",
        "parse_tables": "figgen.density.parse",
        "write_report": "figgen.density.report",
        "ChartTable": "figgen.density.tables",
        "Row": "figgen.density.tables",
        "SourceChart": "figgen.density.tables",
        "load_sources": "figgen.density.tables",
        "read_csv_table": "figgen.density.tables",
    },
)

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
