"""The viewer page: one self-contained HTML file (styles, script and data inline)."""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any

from figgen.store.storage import atomic_write_text
from figgen.view.payload import view_payload


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities (a model may reply ``NaN``) as null, which JSON has."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def render_json(payload: Any) -> str:
    """``payload`` as JSON safe inside a ``<script>`` block (NaN as null, "<" escaped)."""
    try:
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
    except ValueError:  # walking the whole payload costs a third of the page: only when needed
        text = json.dumps(_finite(payload), ensure_ascii=False, allow_nan=False)
    # "<" escaped as \u003c is the same JSON and can never close the script block.
    return text.replace("<", "\\u003c")


def render_page(payload: dict[str, Any]) -> str:
    """The page for ``payload``; the data sits in a JSON script block the page reads."""
    template = files("figgen.view").joinpath("page.html").read_text(encoding="utf-8")
    title = html.escape(str(payload["name"]))
    return template.replace("__TITLE__", title).replace("__PAYLOAD__", render_json(payload))


def write_view(
    data_dir: str | Path,
    out: str | Path,
    *,
    answers: Iterable[str | Path] = (),
    figures: Iterable[str] | None = None,
) -> Path:
    """Write ``out``: a static page of the build; images load from the build by relative path.

    Keep the page and the build where they are (or move them together) for the images to show.
    """
    out = Path(out)
    here = out.resolve().parent

    def image_url(path: Path) -> str:
        return Path(os.path.relpath(path.resolve(), here)).as_posix()

    payload = view_payload(data_dir, image_url, answers=answers, figures=figures)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out, render_page(payload))
    return out
