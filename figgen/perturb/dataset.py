"""Write perturbed copies of a dataset: same questions, changed images, every box moved along.

``perturb_dataset(src, out, specs)`` writes one complete dataset per perturbation under
``out/<label>/`` (figures, records, the unchanged ``qa.jsonl`` and ``descriptions.jsonl``, and
the manifest with a ``perturbation`` entry), so ``figgen eval run --data out/<label>`` works
as on the clean set and answers pair with the clean ones by qid. Each figure's random numbers
come from (seed, figure index, label): the same arguments give the same bytes, and a killed
run resumes, skipping figures whose record is already written.
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from figgen.errors import FiggenError
from figgen.perturb import style
from figgen.perturb.kinds import KINDS, Params, Plan, background
from figgen.perturb.style import NoLook
from figgen.schema.perturbed import Perturbation, PerturbedRecord, SourceImage
from figgen.schema.record import Record, open_record
from figgen.store.storage import atomic_write_bytes, atomic_write_text

COPIED = ("qa.jsonl", "descriptions.jsonl")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PerturbationSpec:
    """One perturbation kind with its parameters (defaults filled in)."""

    kind: str
    params: Params

    @property
    def label(self) -> str:
        """The output folder name: the kind, plus every parameter changed from its default."""
        defaults = KINDS[self.kind].defaults
        changed = [f"{k}{_text(v)}" for k, v in sorted(self.params.items()) if v != defaults[k]]
        return "-".join([self.kind, *changed])


def _text(value: Any) -> str:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return "".join(c if c.isalnum() or c in "._" else "_" for c in text)


def _value(kind: str, key: str, raw: str, default: Any) -> Any:
    if isinstance(default, str):
        return raw
    try:
        return int(raw) if isinstance(default, int) else float(raw)
    except ValueError:
        raise FiggenError(
            f"--kinds {kind}:{key}={raw}: {key} must be a number, e.g. {kind}:{key}={default}"
        ) from None


def parse_kinds(text: str) -> list[PerturbationSpec]:
    """``"noise,jpeg:quality=20,rotate:degrees=8"`` -> specs; unknown names fail in one line."""
    specs = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        kind, *settings = part.split(":")
        if kind not in KINDS:
            raise FiggenError(
                f"unknown perturbation {kind!r} in --kinds; choose from {', '.join(KINDS)}"
            )
        params = dict(KINDS[kind].defaults)
        for setting in settings:
            key, sep, raw = setting.partition("=")
            if not sep or key not in params:
                names = ", ".join(f"{k}={v}" for k, v in KINDS[kind].defaults.items())
                raise FiggenError(f"--kinds {part!r}: {kind} takes {names}")
            params[key] = _value(kind, key, raw, KINDS[kind].defaults[key])
        specs.append(PerturbationSpec(kind, params))
    if not specs:
        raise FiggenError(f"--kinds names no perturbation; choose from {', '.join(KINDS)}")
    labels = [s.label for s in specs]
    if len(set(labels)) < len(labels):
        raise FiggenError(f"--kinds names the same perturbation twice ({', '.join(labels)})")
    return specs


def figure_rng(seed: int, index: int, label: str) -> np.random.Generator:
    return np.random.default_rng([seed, index, zlib.crc32(label.encode("utf-8"))])


def plan_figure(image: Image.Image, record: Record, spec: PerturbationSpec, seed: int) -> Plan:
    """The seeded plan of ``spec`` for one figure."""
    rng = figure_rng(seed, record.index, spec.label)
    try:
        return KINDS[spec.kind].plan(image, record, rng, spec.params)
    except ValueError as exc:
        raise FiggenError(f"--kinds {spec.label}: {exc}") from None


def apply_plan(image: Image.Image, plan: Plan) -> tuple[Image.Image, bytes, str]:
    """The perturbed image, its encoded bytes and their file extension."""
    out = image.convert("RGB")
    if plan.warp is not None:
        out = plan.warp.image(out, background(image))
    if plan.paint is not None:
        out = plan.paint(out)
    buffer = io.BytesIO()
    if plan.jpeg_quality is not None:
        out.save(buffer, format="JPEG", quality=plan.jpeg_quality)
        return out, buffer.getvalue(), "jpg"
    out.save(buffer, format="PNG", compress_level=plan.png_compress_level)
    return out, buffer.getvalue(), "png"


def perturb_image(
    image_path: Path,
    record: Record,
    spec: PerturbationSpec,
    seed: int,
    *,
    same_questions: bool = False,
) -> tuple[bytes, str, PerturbedRecord]:
    """One figure perturbed: the encoded bytes, their extension and the new record (its image
    file still the source's; the caller names it). With ``same_questions`` a style transfer
    keeps only a drawing whose record gives the clean record's questions and descriptions
    (:func:`figgen.perturb.style.same_questions`); :class:`~figgen.perturb.style.NoLook` if
    no look does."""
    if not image_path.is_file():
        raise FiggenError(f"image {image_path} is missing; rebuild the dataset")
    with Image.open(image_path) as original:
        original.load()
        plan = plan_figure(original, record, spec, seed)
        if plan.restyle:
            keeps = style.same_questions(record) if same_questions else None
            data, redrawn, look = style.restyled(
                record, list(plan.restyle), image_path.read_bytes(), keeps=keeps
            )
            plan = Plan({**plan.applied, "look": dataclasses.asdict(look)})
            size = (redrawn.image.width, redrawn.image.height)
            return data, "png", perturbed_record(redrawn, plan, spec, seed, size)
        image, data, ext = apply_plan(original, plan)
    return data, ext, perturbed_record(record, plan, spec, seed, image.size)


def perturbed_record(
    record: Record, plan: Plan, spec: PerturbationSpec, seed: int, size: tuple[int, int]
) -> PerturbedRecord:
    """A copy of ``record`` with moved boxes, the new image size and what was applied."""
    warp = plan.warp
    elements = record.elements
    if warp is not None:
        elements = [dataclasses.replace(e, bbox=warp.box(e.bbox)) for e in elements]
    width, height = size
    applied = Perturbation(
        kind=spec.kind,
        label=spec.label,
        params=plan.applied,
        seed=seed,
        matrix=None if warp is None else warp.as_list(),
        source_image=SourceImage(record.image.width, record.image.height),
    )
    image = dataclasses.replace(record.image, width=width, height=height)
    return PerturbedRecord.of(record, applied, image=image, elements=elements)


@dataclass(frozen=True)
class Held:
    """The manifest's ``perturbation`` entry: which perturbation of which build a folder holds."""

    kind: str
    label: str
    params: Params
    seed: int
    source: str


def _manifest(src: Path, held: Held) -> dict[str, Any]:
    path = src / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    manifest["perturbation"] = dataclasses.asdict(held)
    return manifest


def _check_target(folder: Path, held: Held) -> None:
    existing = folder / "manifest.json"
    if not existing.is_file():
        if folder.exists() and any(folder.iterdir()):
            raise FiggenError(f"{folder} holds other files; choose another --out")
        return
    previous = json.loads(existing.read_text(encoding="utf-8")).get("perturbation")
    if previous != dataclasses.asdict(held):
        other = Held(**previous) if previous else None
        raise FiggenError(
            f"{folder} holds another perturbation ({other and other.label}, "
            f"seed {other and other.seed}); choose another --out"
        )


def perturb_dataset(
    src: str | Path,
    out: str | Path,
    specs: Iterable[PerturbationSpec],
    *,
    seed: int = 0,
    progress: bool = False,
) -> dict[str, int]:
    """Write ``out/<label>/`` for each spec; returns figures written per label."""
    src, out = Path(src), Path(out)
    records = sorted((src / "figures").glob("*.json"))
    if not (src / "qa.jsonl").is_file() or not records:
        raise FiggenError(f"{src} is not a dataset (no qa.jsonl or figures/*.json); build one")
    if out.resolve() == src.resolve():
        raise FiggenError("--out is the dataset itself; choose another folder")
    from tqdm.auto import tqdm

    written: dict[str, int] = {}
    for spec in specs:
        folder = out / spec.label
        held = Held(spec.kind, spec.label, spec.params, seed, src.name)
        _check_target(folder, held)
        (folder / "figures").mkdir(parents=True, exist_ok=True)
        written[spec.label] = 0
        left_out: list[str] = []
        for path in tqdm(records, desc=spec.label, disable=not progress, unit="fig"):
            target = folder / "figures" / path.name
            if target.is_file():
                continue
            record = open_record(path)
            try:
                data, ext, new = perturb_image(
                    src / record.image.file, record, spec, seed, same_questions=True
                )
            except NoLook as exc:  # a resumed run tries it again, to the same end
                log.warning("%s; left out of %s", exc, folder)
                left_out.append(record.id)
                continue
            new.image.file = f"figures/{record.id}.{ext}"
            atomic_write_bytes(folder / new.image.file, data)
            atomic_write_text(target, new.to_json())  # last: marks the figure done
            written[spec.label] += 1
        _copy_questions(src, folder, set(left_out))
        manifest = _manifest(src, held)
        if left_out:
            manifest["left_out"] = left_out
        text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
        atomic_write_text(folder / "manifest.json", text)
    return written


def _copy_questions(src: Path, folder: Path, left_out: set[str]) -> None:
    """The questions and descriptions, byte for byte, but for those of figures left out."""
    for name in COPIED:
        if not (src / name).is_file():
            continue
        data = (src / name).read_bytes()
        if left_out:
            lines = data.splitlines(keepends=True)
            data = b"".join(line for line in lines if _figure_of(line) not in left_out)
        atomic_write_bytes(folder / name, data)


def _figure_of(line: bytes) -> str:
    return str(json.loads(line)["figure_id"])
