"""Folders are layers: a module's path says what it may import, and nothing imports in a circle.

Two graphs: what a module imports when it is loaded, and every import it names anywhere
(inside functions and under ``TYPE_CHECKING`` too), which is the layering a reader sees. A
package's lazy export table (its ``__getattr__``) is not an import: it loads a name of the
package's own folder when someone asks for it.
"""

from __future__ import annotations

import ast
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

import figgen

ROOT = Path(figgen.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("figgen.errors",),
    ("figgen._util",),
    ("figgen.store", "figgen.config.sections", "figgen.schema", "figgen.words"),
    ("figgen.corpora",),
    ("figgen.sample",),
    ("figgen.vqa.api",),
    ("figgen.kinds",),
    ("figgen.config",),
    ("figgen.render", "figgen.vqa.questions"),
    ("figgen.vqa.describe",),
    ("figgen.vqa",),
    ("figgen.build",),
    ("figgen.eval.scoring",),
    ("figgen.eval.grounding",),
    ("figgen.eval.blind",),
    ("figgen.eval.cost",),
    ("figgen.eval.providers",),
    ("figgen.eval.run",),
    ("figgen.eval.batch",),
    ("figgen.eval.report",),
    ("figgen.eval",),
    ("figgen.hf_card",),
    ("figgen.export",),
    ("figgen.harness", "figgen.view", "figgen.density", "figgen.multichart"),
    ("figgen.human", "figgen.perturb"),
    ("figgen._cli",),
    ("figgen",),
)
"""Folders from the bottom up. A module imports only from its own folder and from folders of
lower rows; folders of one row do not import each other. A module belongs to the longest
folder listed that holds it (``figgen.vqa.api`` sits below the kinds, the rest of
``figgen.vqa`` above them)."""

COMMANDS = ("cli", "cli_options")
"""Command modules (``cli.py`` and ``cli_options.py`` of any package) are the command layer,
``figgen._cli``: thin wrappers that may call any package, and that nothing else imports."""

RANK = {folder: row for row, folders in enumerate(LAYERS) for folder in folders}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _folder(module: str) -> str:
    parts = module.split(".")
    if parts[-1] in COMMANDS:
        return "figgen._cli"
    for end in range(len(parts), 0, -1):
        if (folder := ".".join(parts[:end])) in RANK:
            return folder
    raise AssertionError(f"{module} is in no folder of LAYERS")


def _imports(*, everywhere: bool = False) -> dict[str, dict[str, int]]:
    """Module -> {figgen module it imports when loaded: line}, or, ``everywhere``, in any
    statement (inside functions, under TYPE_CHECKING)."""
    graph: dict[str, dict[str, int]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        targets: dict[str, int] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree) if everywhere else tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("figgen"):
                for alias in node.names:  # "from figgen.kinds import bar" imports the submodule
                    sub = f"{node.module}.{alias.name}"
                    targets.setdefault(sub if _is_module(sub) else str(node.module), node.lineno)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("figgen"):
                        targets.setdefault(alias.name, node.lineno)
        targets.pop(_module(path), None)
        graph[_module(path)] = targets
    return graph


def test_every_module_imports_only_from_its_folder_and_the_folders_below() -> None:
    wrong = []
    for module, targets in _imports(everywhere=True).items():
        home = _folder(module)
        for target, line in targets.items():
            there = _folder(target)
            if there != home and RANK[there] >= RANK[home]:
                wrong.append(f"{module}:{line} imports {target} ({there} is not below {home})")
    assert not wrong, "\n".join(wrong)


def test_every_package_is_in_a_layer() -> None:
    for path in ROOT.rglob("__init__.py"):
        _folder(_module(path))  # raises for a folder missing from LAYERS


@pytest.mark.parametrize("everywhere", [False, True], ids=["at-load", "everywhere"])
def test_no_module_imports_itself_through_others(everywhere: bool) -> None:
    graph = _imports(everywhere=everywhere)
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        if module in trail:
            raise AssertionError("import cycle: " + " -> ".join((*trail, module)))
        if module in done:
            return
        for target in graph.get(module, {}):
            visit(target, (*trail, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_no_module_name_shadows_the_standard_library_or_an_installed_distribution() -> None:
    """A folder that reaches ``sys.path`` (a script run from inside ``figgen/``) must not hide
    a module of the same name: ``figgen/inspect/`` once crashed such a script."""
    taken = set(sys.stdlib_module_names) | set(importlib.metadata.packages_distributions())
    taken.discard("figgen")
    names = {
        path: (path.parent.name if path.name == "__init__.py" else path.stem)
        for path in ROOT.rglob("*.py")
    }
    shadowing = sorted(str(p.relative_to(ROOT)) for p, name in names.items() if name in taken)
    assert not shadowing


def test_the_package_root_holds_the_public_api_and_errors_only() -> None:
    loose = sorted(p.name for p in ROOT.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "errors.py"]


def test_the_command_line_starts_without_the_drawing_code() -> None:
    """`figgen --help` and the start of every command load no matplotlib or scipy: the
    packages import their parts on first use, and a build's fork server starts first."""
    heavy = ("matplotlib", "scipy", "figgen.render", "figgen.kinds", "figgen.density.compose")
    code = "import sys, figgen, figgen._cli.main, figgen._cli.launch; "
    code += f"print([m for m in {heavy!r} if m in sys.modules])"
    loaded = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT.parent
    ).stdout.strip()
    assert loaded == "[]"


def test_lazy_package_names_resolve_and_unknown_names_are_attribute_errors() -> None:
    import figgen.build
    import figgen.config
    import figgen.density
    import figgen.eval.scoring
    import figgen.view
    import figgen.vqa

    packages = (figgen, figgen.build, figgen.config, figgen.density, figgen.view, figgen.vqa)
    for package in (*packages, figgen.eval.scoring):
        for name in package.__all__:
            assert getattr(package, name) is not None, (package.__name__, name)
        with pytest.raises(AttributeError, match="has no attribute 'missing'"):
            package.missing  # noqa: B018
    assert figgen.build.shards.__name__ == "figgen.build.shards"


def test_the_paths_that_exported_tasks_import_still_resolve() -> None:
    """Every lmms-eval export carries a copy of ``task_utils.py`` as its ``utils.py``, which
    imports these three names when it scores; exports written earlier keep doing so."""
    from figgen.eval.parse import parse_reply
    from figgen.eval.scoring import score_answer
    from figgen.eval.scoring.parse import parse_reply as parser
    from figgen.eval.scoring.scoring import score_answer as scorer
    from figgen.schema.qa_item import QAItem as Item
    from figgen.vqa.item import QAItem

    assert (parse_reply, score_answer, QAItem) == (parser, scorer, Item)
    copied = (ROOT / "harness" / "lmms" / "task_utils.py").read_text(encoding="utf-8")
    for line in (
        "from figgen.eval.parse import parse_reply",
        "from figgen.eval.scoring import score_answer",
        "from figgen.vqa.item import QAItem",
    ):
        assert line in copied
