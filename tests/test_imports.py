"""The import graph follows the flow: no cycles, and the question vocabulary never imports kinds.

Two graphs: what a module imports when it is loaded, and every import it names anywhere
(inside functions and under ``TYPE_CHECKING`` too), which is the layering a reader sees.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import figgen

ROOT = Path(figgen.__file__).parent
VOCABULARY = (
    *("families", "trends", "wording", "numbers", "series_questions", "findings", "item"),
    *("hedges", "readout", "spoken", "series", "measures", "contour_trends", "colors"),
    *("features", "math_words", "colormap_words", "context", "answerable", "balance"),
    *("location", "answer_format", "drawn"),
)
"""The question vocabulary the kinds ask with: below the kinds."""


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(*, everywhere: bool = False) -> dict[str, set[str]]:
    """Module -> figgen modules it imports when loaded (not under TYPE_CHECKING, not lazily),
    or, ``everywhere``, in any statement (inside functions, under TYPE_CHECKING)."""
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        targets = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree) if everywhere else tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("figgen"):
                for alias in node.names:  # "from figgen.kinds import bar" imports the submodule
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if _is_module(sub) else str(node.module))
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("figgen")}
        graph[_module(path)] = targets - {_module(path)}
    return graph


def _reachable(graph: dict[str, set[str]], module: str) -> set[str]:
    seen: set[str] = set()
    todo = [module]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.parametrize("everywhere", [False, True], ids=["at-load", "everywhere"])
def test_no_module_imports_itself_through_others(everywhere: bool) -> None:
    graph = _imports(everywhere=everywhere)
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        if module in trail:
            raise AssertionError("import cycle: " + " -> ".join((*trail, module)))
        if module in done:
            return
        for target in graph.get(module, ()):
            visit(target, (*trail, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_question_vocabulary_does_not_import_the_kinds() -> None:
    graph = _imports(everywhere=True)
    for name in VOCABULARY:
        module = f"figgen.vqa.{name}"
        bad = [t for t in _reachable(graph, module) if t.startswith("figgen.kinds")]
        assert not bad, (module, bad)


def test_the_kinds_and_sampling_do_not_import_the_assembled_config() -> None:
    """The config with one section per kind is built from the kinds: they read the shared
    sections (``figgen.config_sections``), and ``figgen.config`` loads no kind at import."""
    graph = _imports(everywhere=True)
    vocabulary = tuple(f"figgen.vqa.{name}" for name in VOCABULARY)
    for module in graph:
        if module.startswith(("figgen.kinds", "figgen.sample")) or module in vocabulary:
            assert "figgen.config" not in _reachable(graph, module), module
    assert not any(t.startswith("figgen.kinds") for t in _reachable(_imports(), "figgen.config"))


def test_the_build_stages_do_not_import_later_stages() -> None:
    graph = _imports()
    later = {
        "figgen.sample": ("figgen.kinds", "figgen.render", "figgen.vqa", "figgen.export"),
        "figgen.scale": ("figgen.vqa", "figgen.eval", "figgen.export"),
        "figgen.render": ("figgen.vqa", "figgen.eval", "figgen.export"),
        "figgen.vqa": ("figgen.eval", "figgen.export"),
    }
    for module, targets in graph.items():
        for stage, forbidden in later.items():
            if module.startswith(stage):
                bad = [t for t in targets if t.startswith(forbidden)]
                assert not bad, (module, bad)


def test_the_command_line_starts_without_the_drawing_code() -> None:
    """`figgen --help` and the start of every command load no matplotlib or scipy: the
    packages import their parts on first use, and a build's fork server starts first."""
    heavy = ("matplotlib", "scipy", "figgen.render", "figgen.kinds", "figgen.density.compose")
    code = "import sys, figgen.cli, figgen.launch; "
    code += f"print([m for m in {heavy!r} if m in sys.modules])"
    loaded = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT.parent
    ).stdout.strip()
    assert loaded == "[]"


def test_lazy_package_names_resolve_and_unknown_names_are_attribute_errors() -> None:
    import figgen.density
    import figgen.scale
    import figgen.view

    for package in (figgen, figgen.density, figgen.scale, figgen.view):
        for name in package.__all__:
            assert getattr(package, name) is not None, (package.__name__, name)
        with pytest.raises(AttributeError, match="has no attribute 'missing'"):
            package.missing  # noqa: B018
    assert figgen.scale.shards.__name__ == "figgen.scale.shards"
