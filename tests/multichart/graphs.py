"""Hand-built graph specs for the multichart tests."""

from __future__ import annotations

from typing import Any

YEARS = {"years": {"labels": [2019, 2020, 2021, 2022]}}


def data(index: str | None = "years", **extra: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "data", "range": [10, 100], **extra}
    if index:
        node["index"] = index
    return node


def comp(op: str, *inputs: str, **extra: Any) -> dict[str, Any]:
    return {"type": "computation", "op": op, "inputs": list(inputs), **extra}


def image(kind: str, *inputs: str, **extra: Any) -> dict[str, Any]:
    return {"type": "image", "kind": kind, "inputs": list(inputs), **extra}


def spec(nodes: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": "t", "family": "test", "index": YEARS, "nodes": nodes, **extra}
