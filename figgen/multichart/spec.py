"""The latent graph of one multi-chart set, as data: a TOML file validated into a ``GraphSpec``.

A spec names its indexes (the shared axes of vector nodes: years, regions, points), then its
nodes. Data nodes carry the sampling requirements of their values; computation nodes an
operator over their inputs; image nodes a chart kind over theirs. Edges are the ``inputs``.
Problems are reported in one line naming the node and the fix (``figgen.errors.ConfigError``);
:func:`figgen.multichart.graph.load_spec` reads and checks a spec file.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from figgen.schema.longchart import Label

__all__ = ["GraphSpec", "IndexSpec", "Label", "NodeSpec", "one_line"]

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
    q: float | None = None
    """For ``quantile``: which one (0.25 the lower quartile, 0.5 the median)."""
    # image nodes
    kind: str | None = None
    """The chart: a LongChart chart name a plot kind declares (line, bar, stacked_bar, ...)."""
    title: str | None = None
    reversible: bool | None = None
    """Whether every input can be read back from the chart (default: true for every kind)."""

    @model_serializer(mode="wrap")
    def _omit_unset_additions(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # keys added after sets were first published are left out when unset, so the stored
        # spec of a set that does not use them keeps its bytes
        out: dict[str, Any] = handler(self)
        for key in _ADDED_KEYS:
            if out.get(key) is None:
                out.pop(key, None)
        return out


_ADDED_KEYS = ("q",)


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


def one_line(exc: ValidationError) -> str:
    """A spec's first validation problem in one line naming the node and the fix."""
    error = exc.errors()[0]
    loc = [str(part) for part in error["loc"]]
    where = f"node '{loc[1]}'" if len(loc) >= 2 and loc[0] == "nodes" else "'" + ".".join(loc) + "'"
    field = loc[2] if len(loc) >= 3 and loc[0] == "nodes" else None
    if error["type"] == "extra_forbidden":
        valid = ", ".join(NodeSpec.model_fields if loc[0] == "nodes" else GraphSpec.model_fields)
        return f"{where}: unknown key '{loc[-1]}'; valid keys: {valid}"
    key = f" '{field}'" if field else ""
    return f"{where}: bad value for{key}: {error['msg']} (got {error.get('input')!r})"
