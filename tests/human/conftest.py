"""A small build with questions, a study served on a free port, and what a person types."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from figgen.human.server import human_server
from figgen.human.study import Study, open_study
from figgen.schema.answer_types import answer_spec
from figgen.schema.qa_item import QAItem
from tests.export.conftest import built  # noqa: F401  (the shared small build with questions)
from tests.view.conftest import browser  # noqa: F401  (headless Chromium through Selenium)

# The four kinds of input the issue names, and the answer types each covers.
INPUT_GROUPS = {
    "number": ("number", "pair"),
    "choice": ("choice", "choices"),
    "list": ("list",),
    "text": ("text",),
}


def group_of(answer_type: str) -> str:
    kind = answer_spec(answer_type).page_input
    return next(name for name, kinds in INPUT_GROUPS.items() if kind in kinds)


def typed_truth(item: dict[str, Any]) -> Any:
    """What a person who reads the figure right gives, in the page's terms."""
    answer = item["answer"]
    kind = answer_spec(item["answer_type"]).page_input
    if kind == "number":
        return json.dumps(answer)
    if kind == "pair" or item["answer_type"] == "number_list":
        return [json.dumps(v) for v in answer]
    return answer


def typed_wrong(item: QAItem) -> Any:
    """A readable answer that is not the truth, in the page's terms."""
    t = item.answer_type
    if t in ("integer", "number"):
        return str(abs(float(item.answer)) * 3 + 7)
    if t in ("integer_pair", "number_pair", "number_list"):
        return [str(abs(float(v)) * 3 + 7) for v in item.answer] or ["1"]
    if t == "boolean":
        return not item.answer
    if t == "choice":
        return next(c for c in item.choices or [] if c != item.answer)
    if t == "choice_list":
        return [c for c in item.choices or [] if c not in item.answer][:1]
    if t == "string_list":
        return ["nothing like it"]
    return "nothing like it"


@pytest.fixture(scope="session")
def per_kind(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """``built`` with its questions cut to 10 of each input group (40 in all), file order."""
    root = tmp_path_factory.mktemp("per-kind") / "data"
    shutil.copytree(built, root)
    lines = (built / "qa.jsonl").read_text(encoding="utf-8").splitlines()
    kept: list[str] = []
    taken = dict.fromkeys(INPUT_GROUPS, 0)
    # round-robin over answer types, so each group holds every type it has
    by_type: dict[str, list[str]] = {}
    for line in lines:
        by_type.setdefault(json.loads(line)["answer_type"], []).append(line)
    while any(n < 10 for n in taken.values()):
        progressed = False
        for answer_type, queue in by_type.items():
            group = group_of(answer_type)
            if queue and taken[group] < 10:
                kept.append(queue.pop(0))
                taken[group] += 1
                progressed = True
        assert progressed, f"the small build has too few questions of some kind: {taken}"
    (root / "qa.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    return root


def serve(study: Study) -> tuple[str, Any]:
    server = human_server(study, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


@pytest.fixture
def served(per_kind: Path, tmp_path: Path) -> Iterator[tuple[str, Study]]:
    study = open_study(per_kind, annotator="ana", sample=40, seed=1, out=tmp_path / "ana.jsonl")
    url, server = serve(study)
    try:
        yield url, study
    finally:
        server.shutdown()
        server.server_close()
