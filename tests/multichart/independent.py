"""A second, deliberately plain implementation of reading charts and evaluating a graph.

It shares no code with figgen.multichart: values come from the image records' elements and
data as a reader would take them, the operators are written out again, and the derivation is a
brute fixed point over the spec's nodes.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any


def stored_sets(root: Path) -> list[dict[str, Any]]:
    """The set JSONs of a build as stored (``sets/mc-*.json``), read without figgen's classes."""
    paths = sorted((root / "sets").glob("mc-*.json"))
    return [json.loads(path.read_text(encoding="utf-8")) for path in paths]


def _number(text: str) -> float:
    return float(text.split("\n")[-1].replace(",", ""))


def read_record(
    record: dict[str, Any],
    image: dict[str, Any],
    vectors: set[str],
    label_nodes: set[str],
    labels: dict[str, list[Any]] | None = None,
    nodes: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """node -> value (dict label -> number, a number, or a label string) shown by one image;
    ``vectors`` and ``label_nodes`` name the nodes that hold vectors and labels (from the spec),
    ``labels`` each vector's labels (a histogram does not show which label holds which value),
    ``nodes`` the spec's nodes (a box plot shows the statistics nodes of its inputs)."""
    panel = record["panels"][0]
    data = panel["data"]
    inputs = image["inputs"]
    kind = image["kind"]
    elements = record["elements"]
    if kind == "histogram":
        # every bar is one value, as often as its height says; spread over the labels in order
        bars = sorted((e for e in elements if e["kind"] == "bar"), key=lambda e: e["value"][0])
        shown = [round(e["value"][0], 6) for e in bars for _ in range(round(e["value"][1]))]
        names = (labels or {})[inputs[0]]
        return {inputs[0]: dict(zip(names, shown, strict=True))}
    if kind == "box":
        # each box: its edges are the quartiles, its line the median; no input comes back
        out_box: dict[str, Any] = {}
        for g, name in enumerate(inputs):
            (box,) = [e for e in elements if e["kind"] == "box" and e["series"] == g]
            (line,) = [e for e in elements if e["kind"] == "median_line" and e["series"] == g]
            q1, q3, med = box["value"][1], box["value"][2], line["value"][1]
            for node_name, node in (nodes or {}).items():
                if node.get("inputs") != [name]:
                    continue
                shown = {
                    ("median", None): med,
                    ("quantile", 0.25): q1,
                    ("quantile", 0.5): med,
                    ("quantile", 0.75): q3,
                    ("iqr", None): q3 - q1,
                }.get((node.get("op"), node.get("q")))
                if shown is not None:
                    out_box[node_name] = shown
        return out_box
    if kind == "range":
        bars = sorted((e for e in elements if e["kind"] == "range_bar"), key=lambda e: e["item"])
        cats = data["categories"]
        return {
            inputs[0]: {cats[e["item"]]: e["value"][1] for e in bars},
            inputs[1]: {cats[e["item"]]: e["value"][2] for e in bars},
        }
    if kind == "scatter":
        points = [e for e in elements if e["kind"] == "point"]
        return {inputs[0]: {int(e["value"][0]): e["value"][1] for e in points}}
    if kind == "line":
        return {
            n: dict(zip(s["x"], s["y"], strict=True))
            for n, s in zip(inputs, data["series"], strict=True)
        }
    if kind in ("bar", "stacked_bar"):
        cats = data["categories"]
        if inputs[0] in vectors:
            return {
                n: dict(zip(cats, s["values"], strict=True))
                for n, s in zip(inputs, data["series"], strict=True)
            }
        return dict(zip(inputs, data["series"][0]["values"], strict=True))
    if kind == "pie":
        labels = [e for e in elements if e["kind"] == "wedge_label"]
        return {inputs[0]: {e["text"].split("\n")[0]: _number(e["text"]) for e in labels}}
    rows = {e["item"]: e["text"] for e in elements if e["kind"] == "row_label"}
    cells = [e for e in elements if e["kind"] == "table_cell"]
    if data["columns"] != ["value"]:
        out: dict[str, Any] = {n: {} for n in inputs}
        for e in cells:
            out[inputs[e["series"]]][rows[e["item"]]] = _number(e["text"])
        return out
    out = {}
    for e in cells:
        node = inputs[e["item"]]
        out[node] = e["text"] if node in label_nodes else _number(e["text"])
    return out


def _key(label: Any) -> str:
    return str(label)


def _vec(value: Any) -> dict[str, float]:
    return {_key(k): float(v) for k, v in value.items()}


def forward(node: dict[str, Any], args: list[Any]) -> Any:
    op = node["op"]
    if op in ("sum", "difference", "product", "ratio") or (op == "mean" and len(args) > 1):
        if not isinstance(args[0], dict):
            xs = [float(a) for a in args]
            return {
                "sum": sum(xs),
                "difference": xs[0] - xs[1] if len(xs) == 2 else None,
                "product": math.prod(xs),
                "ratio": xs[0] / xs[1] if len(xs) == 2 else None,
                "mean": sum(xs) / len(xs),
            }[op]
        vs = [_vec(a) for a in args]
        keys = [k for k in vs[0] if all(k in v for v in vs)]
        out = {}
        for k in keys:
            xs = [v[k] for v in vs]
            out[k] = {
                "sum": sum(xs),
                "difference": xs[0] - xs[1] if len(xs) == 2 else None,
                "product": math.prod(xs),
                "ratio": xs[0] / xs[1] if len(xs) == 2 else None,
                "mean": sum(xs) / len(xs),
            }[op]
        return out
    v = _vec(args[0]) if isinstance(args[0], dict) else None
    if op == "mean":
        return sum(v.values()) / len(v)
    if op == "share":
        total = sum(v.values())
        return {k: 100 * x / total for k, x in v.items()}
    if op == "shift":
        return {str(int(k) + node["lag"]): x for k, x in v.items()}
    if op == "change":
        keys = list(v)
        return {keys[i]: v[keys[i]] - v[keys[i - 1]] for i in range(1, len(keys))}
    if op == "distance":
        x, y = _vec(args[0]), _vec(args[1])
        o = str(node["origin"])
        return {k: math.hypot(x[k] - x[o], y[k] - y[o]) for k in x if k != o}
    if op in ("argmax", "argmin"):
        pick = max(v, key=v.get) if op == "argmax" else min(v, key=v.get)
        return pick
    xs = sorted(v.values())
    if op == "std":
        return statistics.pstdev(xs)
    if op == "median":
        return statistics.median(xs)
    if op == "quantile":
        return _quantile(xs, node["q"])
    if op == "iqr":
        return _quantile(xs, 0.75) - _quantile(xs, 0.25)
    raise AssertionError(op)


def _quantile(xs: list[float], q: float) -> float:
    where = q * (len(xs) - 1)
    low = math.floor(where)
    high = min(low + 1, len(xs) - 1)
    return xs[low] + (where - low) * (xs[high] - xs[low])


def backward(node: dict[str, Any], out: Any, others: list[Any], target: int) -> Any | None:
    """One input from the output and the other inputs, where the operator allows it."""
    op = node["op"]
    n = len(node["inputs"])
    if op == "shift":
        return {str(int(k) - node["lag"]): x for k, x in _vec(out).items()}
    if op not in ("sum", "difference", "product", "ratio") and not (op == "mean" and n > 1):
        return None

    def solve(y: float, rest: list[float]) -> float:
        if op == "sum":
            return y - sum(rest)
        if op == "mean":
            return n * y - sum(rest)
        if op == "product":
            return y / math.prod(rest)
        if op == "difference":
            return y + rest[0] if target == 0 else rest[0] - y
        return y * rest[0] if target == 0 else rest[0] / y

    if not isinstance(out, dict):
        return solve(float(out), [float(o) for o in others])
    y = _vec(out)
    rest = [_vec(o) for o in others]
    if not all(set(y) <= set(r) for r in rest):
        return None
    return {k: solve(y[k], [r[k] for r in rest]) for k in y}


def derive(spec: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """Every node value derivable from what the images show (fixed point)."""
    nodes = spec["nodes"]
    known = dict(shown)
    changed = True
    while changed:
        changed = False
        for name, node in nodes.items():
            if node["type"] != "computation":
                continue
            inputs = node["inputs"]
            if name not in known and all(p in known for p in inputs):
                known[name] = forward(node, [known[p] for p in inputs])
                changed = True
            if name in known:
                for i, p in enumerate(inputs):
                    others = [known[q] for j, q in enumerate(inputs) if j != i and q in known]
                    if p in known or len(others) != len(inputs) - 1:
                        continue
                    value = backward(node, known[name], others, i)
                    if value is not None:
                        # a partial inverse (e.g. over fewer labels) does not count
                        full = spec["_labels"].get(p)
                        if full is None or set(value) == full:
                            known[p] = value
                            changed = True
    return known


def labels_of(record: dict[str, Any]) -> dict[str, set[str]]:
    return {
        name: {_key(k) for k in value["labels"]}
        for name, value in record["values"].items()
        if isinstance(value, dict) and "labels" in value
    }


def mode_values(root: Path, record: dict[str, Any], mode: str) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for name in record["modes"][mode]:
        image = record["images"][name]
        image_record = json.loads((root / image["record"]).read_text())
        vectors = set(labels_of(record))
        label_nodes = {
            n
            for n, node in record["spec"]["nodes"].items()
            if node.get("op") in ("argmax", "argmin")
        }
        labels = {
            n: [_key(k) for k in v["labels"]]
            for n, v in record["values"].items()
            if isinstance(v, dict) and "labels" in v
        }
        nodes = record["spec"]["nodes"]
        shown_here = read_record(image_record, image, vectors, label_nodes, labels, nodes)
        for node, value in shown_here.items():
            shown[node] = (
                {_key(k): v for k, v in value.items()} if isinstance(value, dict) else value
            )
    spec = {**record["spec"], "_labels": labels_of(record)}
    return derive(spec, shown)


def answer(question: dict[str, Any], values: dict[str, Any]) -> Any:
    """A question's answer from derived values, written out per template."""
    how = question["how"]
    t = question["targets"]
    letters = "ABCD"
    options = [str(v) for v in question["option_values"]]

    def at(target: dict[str, Any], i: int = 0) -> float:
        value = values[target["node"]]
        return float(value[_key(target["labels"][i])]) if isinstance(value, dict) else float(value)

    first = values[t[0]["node"]]
    if how == "value":
        return at(t[0])
    if how == "label":
        return letters[options.index(str(first))]
    if how == "extreme":
        pick = (max if question["extreme"] == "max" else min)(first, key=lambda k: float(first[k]))
        return letters[options.index(str(pick))]
    if how == "greater":
        return at(t[0], 0) > at(t[0], 1)
    if how == "greater_than":
        return at(t[0]) > at(t[1])
    if how == "ratio":
        return at(t[0]) / at(t[1])
    if how == "change":
        return at(t[0], 1) - at(t[0], 0)
    if how == "sum":
        return at(t[0], 0) + at(t[0], 1)
    assert how == "mean"
    return sum(float(v) for v in first.values()) / len(first)
