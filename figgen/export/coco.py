"""Export element boxes as a COCO detection file (one category per element kind)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from figgen.export.provenance import provenance
from figgen.export.source import BuiltDataset
from figgen.schema.elements import Element
from figgen.store.storage import staged_folder

ANNOTATIONS_FILE = "annotations.json"
IMAGES_DIR = "images"


def category_ids(extra_kinds: Iterable[str] = ()) -> dict[str, int]:
    """Category id per element kind.

    The schema's kinds come first, in schema order, so ids are the same in every export; kinds
    a newer generator adds follow in name order.
    """
    from figgen.kinds import element_tables

    known = list(element_tables().names)
    kinds = known + sorted(set(extra_kinds) - set(known))
    return {kind: number for number, kind in enumerate(kinds, start=1)}


def _supercategory(kind: str) -> str:
    from figgen.kinds import element_tables

    tables = element_tables()
    if kind in tables.text:
        return "text"
    return "layout" if kind in tables.layout else "mark"


def coco_annotation(
    element: Element, *, ann_id: int, image_id: int, category_id: int
) -> dict[str, Any]:
    """One annotation: ``bbox`` as ``[x, y, width, height]`` in image pixels, origin top-left."""
    x0, y0, x1, y1 = (float(v) for v in element.bbox)
    width, height = x1 - x0, y1 - y0
    return {
        "id": ann_id,
        "image_id": image_id,
        "category_id": category_id,
        "bbox": [x0, y0, width, height],
        "area": width * height,
        "segmentation": [[x0, y0, x1, y0, x1, y1, x0, y1]],
        "iscrowd": 0,
        "element_id": element.id,
        "panel": element.panel,
        "text": element.text,
    }


def coco_dict(dataset: BuiltDataset) -> dict[str, Any]:
    """The whole COCO document for ``dataset``; image ids count from 1 in figure-id order."""
    records = list(dataset.records())
    categories = category_ids({e.kind for r in records for e in r.elements})
    images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for image_id, record in enumerate(records, start=1):
        images.append(
            {
                "id": image_id,
                "file_name": f"{record.id}.png",
                "width": record.image.width,
                "height": record.image.height,
                "figure_id": record.id,
            }
        )
        for element in record.elements:
            if element.empty or element.visible is False:
                continue  # nothing in the picture to detect: an empty bin, a covered mark
            annotations.append(
                coco_annotation(
                    element,
                    ann_id=len(annotations) + 1,
                    image_id=image_id,
                    category_id=categories[element.kind],
                )
            )
    return {
        "info": {
            "description": "figgen element boxes: pixels of the image, origin top-left",
            "version": provenance(dataset, records[0] if records else None).version,
        },
        "licenses": [],
        "images": images,
        "annotations": annotations,
        "categories": [
            {"id": number, "name": kind, "supercategory": _supercategory(kind)}
            for kind, number in categories.items()
        ],
    }


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def export_coco(data_dir: str | Path, out: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``out/annotations.json`` and the figures under ``out/images/``."""
    dataset = BuiltDataset.open(data_dir)
    with staged_folder(out, overwrite=overwrite) as stage:
        document = coco_dict(dataset)
        (stage / IMAGES_DIR).mkdir()
        for image in document["images"]:
            _link_or_copy(
                dataset.png_path(image["figure_id"]), stage / IMAGES_DIR / image["file_name"]
            )
        (stage / ANNOTATIONS_FILE).write_text(
            json.dumps(document, ensure_ascii=False), encoding="utf-8"
        )
    return Path(out) / ANNOTATIONS_FILE
