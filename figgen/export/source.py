"""Read a built dataset folder: manifest, figure records and PNGs, and questions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.schema.qa_item import QAItem, read_items
from figgen.schema.record import Record, open_record
from figgen.vqa.files import DESCRIPTIONS_FILE


@dataclass(frozen=True)
class BuiltDataset:
    """A folder written by ``figgen build`` (and ``figgen qa``).

    Layout: ``manifest.json``, ``figures/<figure_id>.png`` and ``.json``, ``qa.jsonl``,
    ``descriptions.jsonl``.
    """

    root: Path

    @classmethod
    def open(cls, root: str | Path) -> BuiltDataset:
        """Check that ``root`` looks like a build and return it."""
        path = Path(root)
        if not (path / "figures").is_dir():
            raise FiggenError(
                f"{path} is not a figgen dataset (no figures/ folder); "
                "pass the DIR given to `figgen build --out DIR`"
            )
        return cls(path)

    @property
    def manifest(self) -> dict[str, Any]:
        """The build manifest, or an empty dict when the build wrote none."""
        path = self.root / "manifest.json"
        if not path.is_file():
            return {}
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]

    def figure_ids(self) -> list[str]:
        """Every figure with both a record and a PNG, in id order."""
        folder = self.root / "figures"
        return sorted(
            p.stem
            for p in folder.glob("*.json")
            if not p.name.startswith(".") and p.with_suffix(".png").is_file()
        )

    def record(self, figure_id: str) -> Record:
        return open_record(self.root / "figures" / f"{figure_id}.json")

    def records(self) -> Iterator[Record]:
        for figure_id in self.figure_ids():
            yield self.record(figure_id)

    def png(self, figure_id: str) -> bytes:
        return self.png_path(figure_id).read_bytes()

    def png_path(self, figure_id: str) -> Path:
        return self.root / "figures" / f"{figure_id}.png"

    @property
    def qa_path(self) -> Path:
        return self.root / "qa.jsonl"

    @property
    def descriptions_path(self) -> Path:
        return self.root / DESCRIPTIONS_FILE

    def descriptions(self) -> Iterator[dict[str, Any]]:
        """The rows of ``descriptions.jsonl`` in file order; a missing file is a one-line error."""
        if not self.descriptions_path.is_file():
            raise FiggenError(
                f"{self.descriptions_path} not found; write it with `figgen qa {self.root}`"
            )
        with self.descriptions_path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    raise FiggenError(
                        f"{self.descriptions_path}:{number} is not JSON; "
                        f"rewrite it with `figgen qa {self.root}`"
                    ) from None

    def qa_items(self) -> Iterator[QAItem]:
        """The questions in ``qa.jsonl`` order; a missing file is a one-line error."""
        if not self.qa_path.is_file():
            raise FiggenError(
                f"{self.qa_path} not found; write the questions first with `figgen qa {self.root}`"
            )
        yield from read_items(self.qa_path)
