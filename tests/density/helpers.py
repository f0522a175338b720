"""Hand-made tables and source folders for the density tests."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from figgen.density.analysis import ChartRow
from figgen.density.metrics import ChartScore
from figgen.density.tables import ChartTable, Row


def table(rows: list[tuple[str, float | str, float | str]], x_kind: str = "numeric") -> ChartTable:
    return ChartTable(tuple(Row(s, str(x), str(y)) for s, x, y in rows), x_kind)  # type: ignore[arg-type]


def rows(*values: tuple[str, float | str, float | str]) -> list[Row]:
    return [Row(s, str(x), str(y)) for s, x, y in values]


def chart_row(
    model: str, density: int, source: str, mae: float | None, rmse: float | None = None
) -> ChartRow:
    """An aligned chart of ``model`` with these errors (its other scores perfect)."""
    score = ChartScore(1.0, 1.0, 1, 0, mae, rmse, None, "direct", 1.0, 1.0, 1.0, 1.0)
    return ChartRow(model, density, f"k{density}-0000", source, score)


def png(width: int, height: int, color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


def line_csv(n_series: int, seed: int) -> str:
    """Series s0.. with x = 0..4 and y = seed * 10 + s * 3 + x * x."""
    lines = ["series,x,y"]
    for s in range(n_series):
        lines += [f"s{s},{x},{seed * 10 + s * 3 + x * x}" for x in range(5)]
    return "\n".join(lines) + "\n"


def chart_folder(root: Path, n: int) -> Path:
    """``n`` PNG + CSV pairs of different sizes (c00 .. c<n-1>)."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"c{i:02d}.png").write_bytes(png(200 + 20 * i, 150 + 10 * i, (i * 20, 90, 200)))
        (root / f"c{i:02d}.csv").write_text(line_csv(1 + i % 2, i), encoding="utf-8")
    return root
