"""The deterministic operators of computation nodes, with their shapes, inverses and wording.

Each operator knows the shape of its output from the shapes of its inputs (so a spec is checked
before any value exists), computes its value, and, where the map can be undone, recovers one
input from the output and the other inputs: these inverses are what makes the minimal
generative set of a graph non-unique (knowing ``a - b`` and ``a`` fixes ``b``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from figgen._util.registry import Registry
from figgen.multichart.spec import Label, NodeSpec
from figgen.multichart.values import Shape, Value, Vector
from figgen.words.wording import join


class OperatorError(ValueError):
    """Inputs that do not fit the operator (the message names what is wrong)."""


def _vectors(inputs: list[Shape], op: str, count: int | None = None) -> None:
    if count is not None and len(inputs) != count:
        raise OperatorError(f"{op} takes {count} input{'s' * (count > 1)}, got {len(inputs)}")
    if any(shape.kind != "vector" for shape in inputs):
        raise OperatorError(f"{op} takes vector inputs (nodes with an index)")


def _common(inputs: list[Shape], op: str) -> tuple[Label, ...]:
    """The labels every input has, in the first input's order (time-aligned series)."""
    shared = [label for label in inputs[0].labels if all(label in s.labels for s in inputs[1:])]
    if not shared:
        raise OperatorError(f"the inputs of {op} share no index label")
    return tuple(shared)


class OneWay:
    """An operator whose output does not give its input back (directed edges only).

    Its value needs every label of its input, so ``input_labels`` names none in particular.
    """

    def invertible(self, inputs: list[Shape], output: Shape, target: int) -> bool:
        return False

    def input_labels(
        self, labels: tuple[Label, ...], target: int, node: NodeSpec
    ) -> tuple[Label, ...]:
        return ()


@dataclass(frozen=True)
class Elementwise:
    """sum, difference, ratio and the mean of several nodes, label by label (or on scalars)."""

    name: str
    arity: tuple[int, int | None]
    forward: Callable[[list[np.ndarray]], np.ndarray]
    backward: Callable[[np.ndarray, list[np.ndarray], int, int], np.ndarray]
    """(output, other inputs in order, target position, number of inputs) -> the target."""
    wording: str

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        low, high = self.arity
        if len(inputs) < low or (high is not None and len(inputs) > high):
            want = f"{low}" if low == high else f"at least {low}"
            raise OperatorError(f"{self.name} needs {want} inputs, got {len(inputs)}")
        kinds = {shape.kind for shape in inputs}
        if kinds == {"scalar"}:
            return Shape("scalar")
        if kinds != {"vector"}:
            raise OperatorError(f"{self.name} takes all vectors or all numbers, not a mix")
        return Shape("vector", _common(inputs, self.name))

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        if shape.kind == "scalar":
            return float(self.forward([np.asarray([float(v)]) for v in inputs])[0])  # type: ignore[arg-type]
        arrays = [v.on(shape.labels) for v in inputs]  # type: ignore[union-attr]
        return Vector(shape.labels, tuple(float(x) for x in self.forward(arrays)))

    def invertible(self, inputs: list[Shape], output: Shape, target: int) -> bool:
        # the output must cover every label of the input it would recover
        return output.kind == "scalar" or output.labels == inputs[target].labels

    def invert(
        self, output: Value, others: list[Value], target: int, n: int, shape: Shape
    ) -> Value:
        if shape.kind == "scalar":
            rest = [np.asarray([float(v)]) for v in others]  # type: ignore[arg-type]
            return float(self.backward(np.asarray([float(output)]), rest, target, n)[0])  # type: ignore[arg-type]
        labels = shape.labels
        rest = [v.on(labels) for v in others]  # type: ignore[union-attr]
        out = self.backward(output.on(labels), rest, target, n)  # type: ignore[union-attr]
        return Vector(labels, tuple(float(x) for x in out))

    def input_labels(
        self, labels: tuple[Label, ...], target: int, node: NodeSpec
    ) -> tuple[Label, ...]:
        return labels

    def describe(self, names: list[str], node: NodeSpec) -> str:
        if self.name == "difference":
            return f"{names[0]} minus {names[1]}"
        if self.name == "ratio":
            return f"{names[0]} divided by {names[1]}"
        if self.name == "product":
            return " times ".join(names)
        return f"the {self.wording} of {join(names)}"


def _sum_back(y: np.ndarray, rest: list[np.ndarray], target: int, n: int) -> np.ndarray:
    back: np.ndarray = y - sum(rest)
    return back


def _mean_back(y: np.ndarray, rest: list[np.ndarray], target: int, n: int) -> np.ndarray:
    back: np.ndarray = n * y - sum(rest)
    return back


def _difference_back(y: np.ndarray, rest: list[np.ndarray], target: int, n: int) -> np.ndarray:
    back: np.ndarray = y + rest[0] if target == 0 else rest[0] - y
    return back


def _product_back(y: np.ndarray, rest: list[np.ndarray], target: int, n: int) -> np.ndarray:
    back: np.ndarray = y / np.prod(rest, axis=0)
    return back


def _ratio_back(y: np.ndarray, rest: list[np.ndarray], target: int, n: int) -> np.ndarray:
    back: np.ndarray = y * rest[0] if target == 0 else rest[0] / y
    return back


@dataclass(frozen=True)
class Reduction(OneWay):
    """One vector to one number or one label: mean over the index, argmax, argmin."""

    name: str
    wording: str

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 1)
        if self.name == "mean":
            return Shape("scalar")
        return Shape("label", inputs[0].labels)

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        vector = inputs[0]
        assert isinstance(vector, Vector)
        values = vector.array()
        if self.name == "mean":
            return float(values.mean())
        pick = np.argmax(values) if self.name == "argmax" else np.argmin(values)
        return vector.labels[int(pick)]

    def describe(self, names: list[str], node: NodeSpec) -> str:
        return f"the {self.wording} {names[0]}"


class Mean:
    """``mean`` of one vector is a reduction; of several nodes it is elementwise (invertible)."""

    name = "mean"

    def __init__(self) -> None:
        self._over = Reduction("mean", "mean over all labels of")
        self._of = Elementwise(
            "mean", (2, None), lambda xs: np.mean(xs, axis=0), _mean_back, "mean"
        )

    def pick(self, n_inputs: int) -> Elementwise | Reduction:
        return self._of if n_inputs >= 2 else self._over


@dataclass(frozen=True)
class Share(OneWay):
    """Each label's share of the vector's total, in percent (a pie's proportions)."""

    name: str = "share"

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 1)
        return Shape("vector", inputs[0].labels)

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        vector = inputs[0]
        assert isinstance(vector, Vector)
        values = vector.array()
        return Vector(vector.labels, tuple(float(x) for x in 100.0 * values / values.sum()))

    def describe(self, names: list[str], node: NodeSpec) -> str:
        return f"each label's share (in %) of the total of {names[0]}"


@dataclass(frozen=True)
class Shift:
    """The same series reported ``lag`` labels later: one-to-one, so a bidirected edge."""

    name: str = "shift"

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 1)
        if not inputs[0].numeric_labels:
            raise OperatorError("shift needs an index of integer labels (e.g. years)")
        if not node.lag:
            raise OperatorError("shift needs a non-zero integer 'lag'")
        return Shape("vector", tuple(int(v) + node.lag for v in inputs[0].labels))

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        vector = inputs[0]
        assert isinstance(vector, Vector)
        return Vector(shape.labels, vector.values)

    def invertible(self, inputs: list[Shape], output: Shape, target: int) -> bool:
        return True

    def invert(
        self, output: Value, others: list[Value], target: int, n: int, shape: Shape
    ) -> Value:
        assert isinstance(output, Vector)
        return Vector(shape.labels, output.values)

    def input_labels(
        self, labels: tuple[Label, ...], target: int, node: NodeSpec
    ) -> tuple[Label, ...]:
        return tuple(int(v) - (node.lag or 0) for v in labels)

    def describe(self, names: list[str], node: NodeSpec) -> str:
        step = "1 label" if node.lag == 1 else f"{node.lag} labels"
        return f"{names[0]} shifted {step} later"


@dataclass(frozen=True)
class Change(OneWay):
    """Change from the previous label (year-on-year): loses the level, so directed."""

    name: str = "change"

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 1)
        return Shape("vector", inputs[0].labels[1:])

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        vector = inputs[0]
        assert isinstance(vector, Vector)
        return Vector(shape.labels, tuple(float(x) for x in np.diff(vector.array())))

    def describe(self, names: list[str], node: NodeSpec) -> str:
        return f"the change of {names[0]} from the previous label"


@dataclass(frozen=True)
class Distance(OneWay):
    """Euclidean distance of every point from the ``origin`` point; inputs are x and y."""

    name: str = "distance"

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 2)
        if inputs[0].labels != inputs[1].labels:
            raise OperatorError("distance needs x and y over the same index")
        if node.origin not in inputs[0].labels:
            raise OperatorError(f"distance needs 'origin' set to one of {list(inputs[0].labels)}")
        return Shape("vector", tuple(v for v in inputs[0].labels if v != node.origin))

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        x, y = inputs
        assert isinstance(x, Vector) and isinstance(y, Vector) and node.origin is not None
        ox, oy = x.at(node.origin), y.at(node.origin)
        dist = np.hypot(x.on(shape.labels) - ox, y.on(shape.labels) - oy)
        return Vector(shape.labels, tuple(float(d) for d in dist))

    def input_labels(
        self, labels: tuple[Label, ...], target: int, node: NodeSpec
    ) -> tuple[Label, ...]:
        return (*labels, node.origin) if node.origin is not None else labels

    def describe(self, names: list[str], node: NodeSpec) -> str:
        return (
            f"the distance of each point from point {node.origin} "
            f"(x from {names[0]}, y from {names[1]})"
        )


@dataclass(frozen=True)
class Statistic(OneWay):
    """A summary statistic of one vector's values: std, median, quantile, iqr (order-free).

    Each is written out in its question, so a reader computes exactly the stated statistic:
    the population standard deviation (dividing by the count), the median (the mean of the two
    middle values for an even count) and numpy's default (linear) quantile.
    """

    name: str
    statistic: Callable[[np.ndarray, NodeSpec], float]
    wording: Callable[[NodeSpec], str]

    def shape(self, inputs: list[Shape], node: NodeSpec) -> Shape:
        _vectors(inputs, self.name, 1)
        if self.name == "quantile" and (node.q is None or not 0 < node.q < 1):
            raise OperatorError("quantile needs 'q' between 0 and 1 (0.25: the lower quartile)")
        return Shape("scalar")

    def apply(self, inputs: list[Value], node: NodeSpec, shape: Shape) -> Value:
        vector = inputs[0]
        assert isinstance(vector, Vector)
        return float(self.statistic(vector.array(), node))

    def describe(self, names: list[str], node: NodeSpec) -> str:
        return f"{self.wording(node)} of {names[0]} over all labels"


def _quantile_words(node: NodeSpec) -> str:
    q = node.q or 0.0
    return (
        f"the {q:g} quantile (the sorted values interpolated linearly at position "
        f"{q:g} times (count - 1), counting from 0)"
    )


ORDER_FREE = frozenset({"mean", "std", "median", "quantile", "iqr"})
"""Operators whose value does not depend on which label holds which value: the only ones a
histogram's observations may feed (a histogram shows the values, not their labels)."""

Operator = Elementwise | Reduction | Share | Shift | Change | Distance | Statistic

OPERATORS: Registry[Operator | Mean] = Registry("operator")
"""Every operator by the name a spec's ``op`` gives."""
OPERATORS.add("sum", Elementwise("sum", (2, None), lambda xs: np.sum(xs, axis=0), _sum_back, "sum"))
OPERATORS.add(
    "difference",
    Elementwise("difference", (2, 2), lambda xs: xs[0] - xs[1], _difference_back, "difference"),
)
OPERATORS.add(
    "product",
    Elementwise("product", (2, None), lambda xs: np.prod(xs, axis=0), _product_back, "product"),
)
OPERATORS.add("ratio", Elementwise("ratio", (2, 2), lambda xs: xs[0] / xs[1], _ratio_back, "ratio"))
OPERATORS.add("mean", Mean())
OPERATORS.add("share", Share())
OPERATORS.add("shift", Shift())
OPERATORS.add("change", Change())
OPERATORS.add("distance", Distance())
OPERATORS.add("argmax", Reduction("argmax", "label with the largest value of"))
OPERATORS.add("argmin", Reduction("argmin", "label with the smallest value of"))
OPERATORS.add(
    "std",
    Statistic(
        "std",
        lambda v, node: float(np.std(v)),
        lambda node: "the standard deviation (population: dividing by the count)",
    ),
)
OPERATORS.add(
    "median", Statistic("median", lambda v, node: float(np.median(v)), lambda node: "the median")
)
OPERATORS.add(
    "quantile",
    Statistic("quantile", lambda v, node: float(np.quantile(v, node.q or 0.0)), _quantile_words),
)


OPERATORS.add(
    "iqr",
    Statistic(
        "iqr",
        lambda v, node: float(np.quantile(v, 0.75) - np.quantile(v, 0.25)),
        lambda node: (
            "the interquartile range (the 0.75 minus the 0.25 quantile, each the sorted "
            "values interpolated linearly at that fraction of (count - 1), counting from 0)"
        ),
    ),
)


def operator_for(name: str, n_inputs: int) -> Operator:
    """The operator ``name`` with ``n_inputs`` inputs; KeyError for an unknown name."""
    op = OPERATORS[name]
    return op.pick(n_inputs) if isinstance(op, Mean) else op
