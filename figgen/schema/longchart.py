"""A LongChart image as a plot kind sees it: the values it shows, and the panel it becomes.

``figgen multichart`` draws each image node of a set's graph with a figgen plot kind. It hands
the kind a :class:`Chart` (the chart name of the node, e.g. ``stacked_bar``, and each input's
name and values); the kind's ``multichart_panel`` hook returns the :class:`ChartPanel` to draw.
Reading the values back from the drawn record and finding the elements that show an input are
the kind's ``multichart_read`` and ``shows_input`` hooks. Nothing here imports the kinds or the
multi-chart graph, so both can import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from figgen.schema.record import Record

from figgen.schema.record import Record

Label = int | str
ShapeKind = Literal["vector", "scalar", "label"]


@dataclass(frozen=True)
class Shape:
    """What a node holds, known from the graph spec before any value exists."""

    kind: ShapeKind
    labels: tuple[Label, ...] = ()
    """Vector: the index labels in order. Label: the labels it may take."""

    @property
    def numeric_labels(self) -> bool:
        return self.kind == "vector" and all(isinstance(v, int) for v in self.labels)


def same_vectors(shapes: list[Shape]) -> bool:
    """Whether every shape is a vector over the same labels."""
    return all(s.kind == "vector" for s in shapes) and len({s.labels for s in shapes}) == 1


@dataclass(frozen=True)
class ChartInput:
    """One input of an image node: a vector over index labels, one number, or one label."""

    label: str
    """How the chart names the input ("GDP of North")."""
    heading: str
    """Its name with its unit, for a table column ("GDP of North (bn)")."""
    shape: ShapeKind
    labels: tuple[Label, ...] = ()
    """Vector: the index labels in order. Label: the labels it may take."""
    values: tuple[float, ...] = ()
    """Vector: one value per index label."""
    value: float | Label | None = None
    """Number or label inputs: the value."""
    decimals: int = 2
    """Printed decimals of its values in tables and pies."""

    def at(self, label: Label) -> float:
        """A vector's value at one index label."""
        return self.values[self.labels.index(label)]


@dataclass(frozen=True)
class Chart:
    """What one image node shows: its chart name, inputs and the names of their index and unit."""

    chart: str
    inputs: tuple[ChartInput, ...]
    index_title: str | None
    """The title of the inputs' shared index (years, regions), if they are vectors."""
    unit: str | None
    """The inputs' one unit, if they share one."""
    palette: tuple[str, ...]

    def colour(self, i: int) -> str:
        """The colour of the ``i``-th series or category."""
        return self.palette[i % len(self.palette)]


@dataclass
class ChartPanel:
    """The one panel a kind draws for a chart, and the figure it wants."""

    data: dict[str, Any]
    style: dict[str, Any] = field(default_factory=dict)
    xlabel: str | None = None
    ylabel: str | None = None
    size_in: tuple[float, float] = (6.4, 4.0)
    style_sheet: bool = True
    """Drawn in a matplotlib style sheet chosen from the set's seed (else the default one)."""


@dataclass(frozen=True)
class Summary:
    """A summary statistic of one input that a chart shows instead of the input (a box plot's
    median and quartiles): a computation node of operator ``op`` (and ``q``) over that input."""

    op: str
    q: float | None = None

    def matches(self, op: str | None, q: float | None) -> bool:
        """Whether a computation node ``op`` (with ``q``) is this statistic."""
        return op == self.op and q == self.q


ReadValue = tuple[float, ...] | float | Label
"""An input's values as a record shows them: one per index label for vectors, else one."""


_NUMBER = re.compile(r"[-+]?\d[\d,]*\.?\d*")


def printed_number(text: str) -> float:
    """The last number printed in ``text`` ("1,234.5", a minus sign), as a float."""
    match = _NUMBER.findall(text.replace("\u2212", "-"))
    return float(match[-1].replace(",", ""))


def label_of(text: str, labels: tuple[Label, ...]) -> Label:
    """The label printed as ``text``."""
    for label in labels:
        if str(label) == text:
            return label
    raise ValueError(f"table cell {text!r} is none of {labels}")


def mark_texts(record: Record, *kinds: str) -> dict[tuple[int | None, int | None], str]:
    """The printed text of a record's elements of ``kinds`` by (series, item)."""
    return {(e.series, e.item): e.text or "" for e in record.elements if e.kind in kinds}
