"""Count the places that read a stored record by key instead of through its typed classes.

What it counts, per package of ``figgen`` (top-level modules as ``figgen``), with ``ast``:

- ``x["name"]`` subscripts whose key is a string constant naming a record field, and
- ``x.get("name", ...)`` calls whose first argument is such a string constant,

where "a record field" is any dict key that occurs anywhere in the stored records of the build
given (``--build DIR``, e.g. ``/tmp/base200``): the record's own keys, ``image``, ``layout``,
``style``, the panels and their ``params``/``data``/``style``, the elements; with ``--sets
DIR`` (a ``figgen multichart build``) also every key of its set records and
``set_evidence.json``. Keys that name something else too (``"id"``, ``"kind"``, ``"panel"`` of
a QA item, ``"x"`` of a config range) are counted wherever they occur, so the numbers are an
upper bound on record reads; ``--by-receiver`` adds the split by the subscripted expression's
root name. The record modules (``figgen/schema/record.py``, ``panel.py``, ``elements.py``,
``perturbed.py`` and ``set_evidence.py``, ``figgen/multichart/records.py`` for the set records,
and ``figgen/schema/params.py`` for ``params``) are reported apart, as "record module": it is
where the reads belong. It also counts ``dict[str, Any]`` annotations per package.

    python benchmarks/count_record_reads.py --build /tmp/base200 [--sets DIR]
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "figgen"
RECORD_MODULES = {
    *(f"schema/{name}.py" for name in ("record", "panel", "elements", "perturbed", "set_evidence")),
    "schema/params.py",
    "multichart/records.py",
}
"""Paths under ``figgen/`` (before, ``"record.py"`` and ``"sample/params.py"`` named no module
once the modules moved into folders, so only the set records were reported apart)."""


def record_keys(build: Path, sets: Path | None = None) -> set[str]:
    """Every dict key that occurs in the build's stored records (and the sets' of ``sets``)."""
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            keys.update(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    paths = sorted((build / "figures").glob("*.json"))
    if sets is not None:
        paths += sorted((sets / "sets").glob("*.json")) + [sets / "set_evidence.json"]
    for path in paths:
        walk(json.loads(path.read_text(encoding="utf-8")))
    return keys


def _root(node: ast.expr) -> str:
    while isinstance(node, ast.Subscript | ast.Attribute | ast.Call):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else type(node).__name__


def _reads(tree: ast.AST, keys: set[str]) -> list[str]:
    """Receiver root names of the key reads in one module."""
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if isinstance(node.slice.value, str) and node.slice.value in keys:
                out.append(_root(node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value in keys
        ):
            out.append(_root(node.func.value))
    return out


def _dict_any(source: str) -> int:
    return source.count("dict[str, Any]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build", type=Path, required=True, help="a build (its records name the keys)"
    )
    parser.add_argument(
        "--sets", type=Path, help="a multichart build (its set records name more keys)"
    )
    parser.add_argument("--by-receiver", action="store_true")
    args = parser.parse_args()
    keys = record_keys(args.build, args.sets)
    reads: Counter[str] = Counter()
    annotations: Counter[str] = Counter()
    receivers: Counter[str] = Counter()
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        package = (
            "record module"
            if rel.as_posix() in RECORD_MODULES
            else (rel.parts[0] if len(rel.parts) > 1 else "figgen")
        )
        source = path.read_text(encoding="utf-8")
        found = _reads(ast.parse(source), keys)
        reads[package] += len(found)
        receivers.update(found if package != "record module" else [])
        annotations[package] += _dict_any(source)
    print(f"{'package':<16}{'key reads':>10}{'dict[str, Any]':>16}")
    for package in sorted(reads, key=lambda name: (-reads[name], name)):
        print(f"{package:<16}{reads[package]:>10}{annotations[package]:>16}")
    outside = sum(n for name, n in reads.items() if name != "record module")
    print(f"key reads outside the record module: {outside}")
    print(f"dict[str, Any] annotations: {sum(annotations.values())}")
    if args.by_receiver:
        for name, n in receivers.most_common(40):
            print(f"  {name:<20}{n:>6}")


if __name__ == "__main__":
    main()
