"""Perturbed copies of a multi-chart build: every image of every set, boxes carried along.

``figgen perturb`` on a multichart build writes ``out/<label>/`` per perturbation: each chart
perturbed as a single figure is (its record's boxes moved, or measured anew for a style
transfer), each set record with its questions' evidence boxes moved with the elements they
frame, and the index files written again from those records, so ``qa.jsonl`` is byte for byte
the clean one and answers pair by qid. Images are written before their set, and a set's JSON
last, so a killed run resumes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from figgen._util.plain import as_plain_dict
from figgen.errors import FiggenError
from figgen.multichart.build import write_index
from figgen.multichart.records import SetPerturbation, dumps_set, load_sets
from figgen.perturb.dataset import PerturbationSpec, perturb_image
from figgen.perturb.style import NoLook
from figgen.schema.elements import BBox
from figgen.schema.perturbed import PerturbedRecord
from figgen.schema.record import Record, open_record
from figgen.store.storage import atomic_write_bytes, atomic_write_text

MARKER = "perturbation.json"
log = logging.getLogger(__name__)


def _moved_boxes(old: Record, new: Record) -> dict[BBox, BBox]:
    """Each element's box in the clean record mapped to its box in the perturbed one."""
    after = {e.id: e.bbox for e in new.elements}
    moved: dict[BBox, BBox] = {}
    for element in old.elements:
        moved.setdefault(element.bbox, after[element.id])
    return moved


def _check_target(folder: Path, identity: dict[str, Any]) -> None:
    marker = folder / MARKER
    if marker.is_file():
        if json.loads(marker.read_text(encoding="utf-8")) != identity:
            raise FiggenError(f"{folder} holds another perturbation; choose another --out")
    elif folder.exists() and any(folder.iterdir()):
        raise FiggenError(f"{folder} holds other files; choose another --out")


def is_set_build(folder: Path) -> bool:
    """Whether ``folder`` is a ``figgen multichart build`` (else a figure build)."""
    return (folder / "image_sets.json").is_file() and (folder / "sets").is_dir()


def perturb_sets(
    src: Path,
    out: Path,
    specs: Iterable[PerturbationSpec],
    *,
    seed: int,
    progress: bool = False,
) -> dict[str, int]:
    """Write ``out/<label>/`` for each spec; returns the images written per label."""
    src, out, specs = Path(src), Path(out), list(specs)
    if out.resolve() == src.resolve():
        raise FiggenError("--out is the build itself; choose another folder")
    n = len(load_sets(src))
    if not n:
        raise FiggenError(
            f"{src} holds no multichart sets; build them with figgen multichart build"
        )
    from tqdm.auto import tqdm

    written: dict[str, int] = {}
    for spec in specs:
        folder = out / spec.label
        applied = SetPerturbation(spec.kind, spec.label, spec.params, seed)
        identity = as_plain_dict(applied)
        _check_target(folder, identity)
        for sub in ("images", "sets"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / MARKER, json.dumps(identity, indent=1))
        atomic_write_text(folder / "build.json", (src / "build.json").read_text("utf-8"))
        written[spec.label] = 0
        # each perturbation edits its own copy of the set records
        for record in tqdm(load_sets(src), desc=spec.label, disable=not progress, unit="set"):
            target = folder / "sets" / f"{record.id}.json"
            if target.is_file():
                continue
            moved = {}
            try:
                for name, image in record.images.items():
                    clean = open_record(src / image.record)
                    new = _perturbed_image(src, folder, clean, spec, seed)
                    image.file = new.image.file
                    moved[name] = _moved_boxes(clean, new)
                    written[spec.label] += 1
            except NoLook as exc:  # the set's questions need every chart
                log.warning("%s; set %s left out of %s", exc, target.stem, folder)
                continue
            for question in record.questions:
                for facts in question.modes.values():
                    facts.evidence = {
                        name: [moved[name][box] for box in boxes]
                        for name, boxes in facts.evidence.items()
                    }
            record.perturbation = applied
            atomic_write_text(target, dumps_set(record))
        write_index(folder, n)
    return written


def _perturbed_image(
    src: Path, folder: Path, clean: Record, spec: PerturbationSpec, seed: int
) -> PerturbedRecord:
    """Perturb one chart (or read it back when a resumed run already wrote it)."""
    done = folder / "images" / f"{clean.id}.json"
    if done.is_file():
        return PerturbedRecord.from_dict(json.loads(done.read_bytes()))
    data, ext, new = perturb_image(src / clean.image.file, clean, spec, seed)
    new.image.file = f"images/{clean.id}.{ext}"
    atomic_write_bytes(folder / new.image.file, data)
    atomic_write_text(done, json.dumps(new.to_dict(), separators=(",", ":")))  # after its image
    return new
