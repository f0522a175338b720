"""The latent graph of one multi-chart set, as data: a TOML file validated into a ``GraphSpec``.

A spec names its indexes (the shared axes of vector nodes: years, regions, points), then its
nodes. Data nodes carry the sampling requirements of their values; computation nodes an
operator over their inputs; image nodes a chart kind over theirs. Edges are the ``inputs``.
Problems are reported in one line naming the node and the fix (``figgen.errors.ConfigError``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from figgen.chart_inputs import Label
from figgen.errors import ConfigError

__all__ = ["GraphSpec", "IndexSpec", "Label", "NodeSpec", "load_spec", "spec_from_dict"]

NodeType = Literal["data", "computation", "image"]
Trend = Literal["increasing", "decreasing", "peak", "dip", "any"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IndexSpec(_Strict):
    """A named axis shared by vector nodes; integer labels (years) allow time shifts."""

    labels: list[Label] = Field(min_length=2)
    title: str | None = None


class NodeSpec(_Strict):
    type: NodeType
    label: str | None = None
    """How questions and charts name the node ("GDP of North"); defaults to its name."""
    unit: str | None = None
    inputs: list[str] = Field(default_factory=list)
    # data nodes
    index: str | None = None
    """A vector over this index; absent: one number."""
    range: tuple[float, float] | None = None
    trend: Trend = "any"
    decimals: int = Field(1, ge=0, le=6)
    # computation nodes
    op: str | None = None
    lag: int | None = None
    origin: Label | None = None
    # image nodes
    kind: str | None = None
    """The chart: a LongChart chart name a plot kind declares (line, bar, stacked_bar, ...)."""
    title: str | None = None
    reversible: bool | None = None
    """Whether every input can be read back from the chart (default: true for every kind)."""


class GraphSpec(_Strict):
    name: str
    family: str
    description: str = ""
    requirements: list[str] = Field(default_factory=list)
    """Free-text data requirements (the paper's RequirementSet), kept for an LLM hook."""
    questions: int = Field(30, ge=8, le=50)
    sample: list[str] | None = None
    """The nodes whose values are synthesized; default: the selected minimal set."""
    index: dict[str, IndexSpec] = Field(default_factory=dict)
    nodes: dict[str, NodeSpec]

    def of_type(self, node_type: NodeType) -> list[str]:
        return [name for name, node in self.nodes.items() if node.type == node_type]

    def label(self, name: str) -> str:
        return self.nodes[name].label or name


def spec_from_dict(values: dict[str, Any], *, source: str = "graph spec") -> GraphSpec:
    """Validate a parsed spec: field types here, graph structure in ``figgen.multichart.graph``."""
    try:
        spec = GraphSpec.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(f"{source}: {_one_line(exc)}") from None
    from figgen.multichart.graph import validate_graph

    validate_graph(spec, source=source)
    return spec


def load_spec(path: str | Path) -> GraphSpec:
    """Read and validate a TOML graph spec."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read graph spec {path}: {exc.strerror}") from None
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return spec_from_dict(values, source=str(path))


def _one_line(exc: ValidationError) -> str:
    error = exc.errors()[0]
    loc = [str(part) for part in error["loc"]]
    where = f"node '{loc[1]}'" if len(loc) >= 2 and loc[0] == "nodes" else "'" + ".".join(loc) + "'"
    field = loc[2] if len(loc) >= 3 and loc[0] == "nodes" else None
    if error["type"] == "extra_forbidden":
        valid = ", ".join(NodeSpec.model_fields if loc[0] == "nodes" else GraphSpec.model_fields)
        return f"{where}: unknown key '{loc[-1]}'; valid keys: {valid}"
    key = f" '{field}'" if field else ""
    return f"{where}: bad value for{key}: {error['msg']} (got {error.get('input')!r})"
