"""A table whose every text fits its cell: font size and column widths chosen at draw time.

The pixels a table has exist only once the layout engine has placed its axes, so
:class:`FittedTable` measures its texts with the renderer in its own ``draw``, just before
drawing them: it takes the largest font size (up to the sampled one) at which each column's
widest text, and every row's tallest, fits its cell with a margin, and gives every column the
width its texts need plus an equal share of the room left. Below :data:`FLOOR_PT` nothing is
drawn smaller: :meth:`FittedTable.check` raises :class:`CrowdedTable` and the figure is
sampled again, as for text matplotlib cannot lay out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import cast

from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.font_manager import FontProperties, fontManager, weight_dict
from matplotlib.table import Cell, Table
from matplotlib.textpath import TextToPath
from matplotlib.transforms import Bbox

FLOOR_PT = 6.0
"""The smallest font size a table prints (the heatmap's printed values stop at the same)."""
MARGIN_EM = 0.3
"""Room between a text and its cell's left and right edges, in ems of the font size."""
MARGIN_V_EM = 0.15
"""Room between a text and its cell's top and bottom edges, in ems."""
FIT_PASSES = 5
"""Measure-and-shrink passes: text widths are not quite linear in the font size (hinting)."""

LINE_EM = 1.25
"""A line of text's height (ascent and descent) in ems, a little over DejaVu's 1.17."""
RULE_PT = 1.0
"""A cell rule's width as the sampling side counts it (matplotlib's default patch line)."""

_MEASURE = TextToPath()


class CrowdedTable(ValueError):
    """A table's text cannot fit its cells at :data:`FLOOR_PT` (its panel is too small)."""


class FittedTable(Table):
    """A table filling its axes whose cells' texts are sized and placed to fit inside them."""

    def __init__(self, ax: Axes, size: float) -> None:
        super().__init__(ax, bbox=Bbox.from_bounds(0, 0, 1, 1))
        self.auto_set_font_size(False)
        self._ax = ax
        self._size = max(size, FLOOR_PT)
        self.fitted = self._size
        """The font size of the last draw."""

    def draw(self, renderer: RendererBase) -> None:
        self._fit(renderer)
        super().draw(renderer)

    def check(self) -> None:
        """Raise :class:`CrowdedTable` when the last draw had to go below the floor."""
        if self.fitted < FLOOR_PT:
            raise CrowdedTable(
                f"table text fits its cells only at {self.fitted:.2f} pt, under the "
                f"{FLOOR_PT:g} pt floor: its panel is too small for it"
            )

    def _fit(self, renderer: RendererBase) -> None:
        cells = self.get_celld()
        n_rows = 1 + max(row for row, _ in cells)
        n_cols = 1 + max(col for _, col in cells)
        room = Bbox.from_bounds(0, 0, 1, 1).transformed(self._ax.transAxes)
        px = cast(float, renderer.points_to_pixels(1.0))
        edge = max(cell.get_linewidth() for cell in cells.values()) * px
        size = self._size
        for attempt in range(FIT_PASSES):
            widths, height = _extents(cells, n_cols, size, renderer)
            across = sum(widths) + n_cols * 2 * MARGIN_EM * size * px
            down = n_rows * (height + 2 * MARGIN_V_EM * size * px)
            # text and margins grow with the size, the rules between cells do not
            scale = min(
                (room.width - n_cols * edge) / max(across, 1e-9),
                (room.height - n_rows * edge) / max(down, 1e-9),
            )
            if scale >= 1.0:
                self.fitted = size
                break
            if attempt == FIT_PASSES - 1:
                self.fitted = 0.0  # still too large: reported as crowded
                break
            size *= min(scale, 0.98)  # hinted widths move in whole pixels: shrink past them
        margin = MARGIN_EM * size * px
        needs = [w + 2 * margin + edge for w in widths]
        spare = max(room.width - sum(needs), 0.0) / n_cols
        for (_, col), cell in cells.items():
            width = needs[col] + spare
            cell.set_width(width / room.width)
            cell.set_height(1.0 / n_rows)
            # left or right aligned text sits one margin (and half a rule) from its edge
            cell.PAD = (margin + edge / 2) / width


def _extents(
    cells: dict[tuple[int, int], Cell], n_cols: int, size: float, renderer: RendererBase
) -> tuple[list[float], float]:
    """Each column's widest text and the tallest text, in pixels, at ``size``."""
    widths = [0.0] * n_cols
    height = 0.0
    for (_, col), cell in cells.items():
        cell.set_fontsize(size)
        text = cell.get_text()
        if not text.get_text():
            continue
        box = text.get_window_extent(renderer)
        widths[col] = max(widths[col], box.width)
        height = max(height, box.height)
    return widths, height


@cache
def header_weight(family: str) -> str:
    """Bold where ``family`` has a bold face; otherwise normal, which is what matplotlib would
    fall back to anyway (cmr10 has one weight), without its warning for every header."""
    weights = (f.weight for f in fontManager.ttflist if f.name == family)
    bold = any(int(weight_dict.get(w, 400) if isinstance(w, str) else w) >= 600 for w in weights)
    return "bold" if bold else "normal"


def text_width_pt(text: str, family: str, size: float, *, bold: bool = False) -> float:
    """The printed width of ``text`` in points, from the font's own metrics."""
    font = FontProperties(
        family=family, size=size, weight=header_weight(family) if bold else "normal"
    )
    width, _, _ = _MEASURE.get_text_width_height_descent(text, font, ismath=False)
    return float(width)


def table_width_pt(columns: Sequence[Sequence[str]], family: str, size: float = FLOOR_PT) -> float:
    """The width a table needs at ``size``: each column's widest text (its first, the header,
    bold) with its margins and a rule."""
    total = 0.0
    for texts in columns:
        widest = max(
            (text_width_pt(t, family, size, bold=i == 0) for i, t in enumerate(texts) if t),
            default=0.0,
        )
        total += widest + 2 * MARGIN_EM * size + RULE_PT
    return total


def row_height_pt(size: float) -> float:
    """The height a table row needs at ``size``: a line of text, its margins and a rule."""
    return LINE_EM * size + 2 * MARGIN_V_EM * size + RULE_PT
