"""A multi-chart set's stored JSON (``sets/<id>.json``) as typed values, read and written here.

``SetRecord.from_dict`` reads one set; ``to_dict`` gives back the same object, key for key and
in the same order, so :func:`dumps_set` of a set read by :func:`open_set` is the stored file
byte for byte. The parts are multichart's own types: the graph as its validated
:class:`~figgen.multichart.spec.GraphSpec`, node values as :data:`~figgen.multichart.values.Value`,
each question's truth as an :class:`~figgen.multichart.questions.Ask`. The charts' own
records are figure records (:class:`figgen.schema.record.Record`); the evidence index beside the
sets is :class:`figgen.schema.set_evidence.SetEvidence`, which the evaluation reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from figgen._util.plain import as_plain_dict
from figgen.errors import FiggenError
from figgen.multichart.modes import Mode
from figgen.multichart.questions import Ask, Target
from figgen.multichart.spec import GraphSpec, Label
from figgen.multichart.values import Value, Vector
from figgen.schema.elements import BBox, as_bbox
from figgen.schema.record import Generator

Added = Literal["compensation", "extended"]


@dataclass
class MinimalSet:
    """The selected minimal generative set, its alternatives and classes, and its checks."""

    selected: list[str]
    alternatives: list[list[str]]
    classes: list[list[str]]
    truncated: bool
    complete: bool
    independent: bool
    conflict_free: bool


@dataclass
class SetImage:
    """One chart of the set: its PNG and figure record (paths in the build), the chart kind,
    the nodes it draws and why it was added (None: the spec's own chart)."""

    file: str
    record: str
    kind: str
    inputs: list[str]
    added: Added | None


@dataclass
class AskedIn:
    """A question as asked in one mode: its id, hops, the nodes and images its derivation
    reads, and the evidence boxes per image (pixels of the image's PNG)."""

    qid: str
    hops: int
    nodes: list[str]
    images: list[str]
    evidence: dict[str, list[BBox]]

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> AskedIn:
        evidence = {
            image: [as_bbox(box) for box in boxes] for image, boxes in stored["evidence"].items()
        }
        return cls(stored["qid"], stored["hops"], stored["nodes"], stored["images"], evidence)

    def to_dict(self) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "hops": self.hops,
            "nodes": list(self.nodes),
            "images": list(self.images),
            "evidence": {
                image: [list(box) for box in boxes] for image, boxes in self.evidence.items()
            },
        }


@dataclass
class SetQuestion:
    """One question of the set: its number, its truth (``ask``) and how each mode asks it."""

    number: int
    ask: Ask
    modes: dict[Mode, AskedIn]

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> SetQuestion:
        ask = Ask(
            type=stored["type"],
            how=stored["how"],
            text=stored["text"],
            targets=[Target(t["node"], tuple(t["labels"])) for t in stored["targets"]],
            answer=stored["answer"],
            answer_type=stored["answer_type"],
            options=stored["options"],
            option_values=stored["option_values"],
            extreme=stored["extreme"],
        )
        modes = {mode: AskedIn.from_dict(facts) for mode, facts in stored["modes"].items()}
        return cls(stored["number"], ask, modes)

    def to_dict(self) -> dict[str, Any]:
        ask = self.ask
        return {
            "number": self.number,
            "type": ask.type,
            "how": ask.how,
            "text": ask.text,
            "answer": ask.answer,
            "answer_type": ask.answer_type,
            "options": ask.options,
            "option_values": list(ask.option_values),
            "extreme": ask.extreme,
            "targets": [{"node": t.node, "labels": list(t.labels)} for t in ask.targets],
            "modes": {mode: facts.to_dict() for mode, facts in self.modes.items()},
        }


@dataclass
class SetPerturbation:
    """What ``figgen perturb`` applied to every chart of a set (its ``perturbation.json``)."""

    kind: str
    label: str
    params: dict[str, Any]
    seed: int


def value_to_json(value: Value) -> Any:
    """A vector as ``{labels, values}``, a label as ``{label}``, a number as itself."""
    if isinstance(value, Vector):
        return {"labels": list(value.labels), "values": list(value.values)}
    if isinstance(value, float):
        return value
    return {"label": value}


def value_from_json(raw: Any) -> Value:
    """A stored value: the inverse of :func:`value_to_json`."""
    if isinstance(raw, dict) and "label" in raw:
        label: Label = raw["label"]
        return label
    if isinstance(raw, dict):
        return Vector(tuple(raw["labels"]), tuple(float(v) for v in raw["values"]))
    return float(raw)


@dataclass
class SetRecord:
    """One multi-chart set: graph, minimal set, values, charts, each mode's charts and the
    questions; a perturbed copy adds ``perturbation``, stored last."""

    id: str
    seed: int
    index: int
    generator: Generator
    scenario: str
    family: str
    spec: GraphSpec
    minimal_set: MinimalSet
    values: dict[str, Value]
    images: dict[str, SetImage]
    modes: dict[Mode, list[str]]
    questions: list[SetQuestion]
    perturbation: SetPerturbation | None = None

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> SetRecord:
        perturbation = stored.get("perturbation")
        return cls(
            id=stored["id"],
            seed=stored["seed"],
            index=stored["index"],
            generator=Generator(**stored["generator"]),
            scenario=stored["scenario"],
            family=stored["family"],
            spec=GraphSpec.model_validate(stored["spec"]),
            minimal_set=MinimalSet(**stored["minimal_set"]),
            values={name: value_from_json(value) for name, value in stored["values"].items()},
            images={name: SetImage(**image) for name, image in stored["images"].items()},
            modes=stored["modes"],
            questions=[SetQuestion.from_dict(q) for q in stored["questions"]],
            perturbation=None if perturbation is None else SetPerturbation(**perturbation),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "seed": self.seed,
            "index": self.index,
            "generator": as_plain_dict(self.generator),
            "scenario": self.scenario,
            "family": self.family,
            "spec": self.spec.model_dump(mode="json"),
            "minimal_set": as_plain_dict(self.minimal_set),
            "values": {name: value_to_json(value) for name, value in self.values.items()},
            "images": {name: as_plain_dict(image) for name, image in self.images.items()},
            "modes": {mode: list(images) for mode, images in self.modes.items()},
            "questions": [question.to_dict() for question in self.questions],
        }
        if self.perturbation is not None:
            out["perturbation"] = as_plain_dict(self.perturbation)
        return out

    def kinds(self) -> dict[str, str]:
        """Each chart's kind, by image node."""
        return {name: image.kind for name, image in self.images.items()}


def dumps_set(record: SetRecord) -> str:
    """The stored JSON of a set."""
    return json.dumps(record.to_dict(), ensure_ascii=False, indent=1)


def open_set(path: str | Path) -> SetRecord:
    """Read one set file; a damaged or foreign one is a one-line error."""
    try:
        return SetRecord.from_dict(json.loads(Path(path).read_bytes()))
    except OSError as exc:
        raise FiggenError(f"cannot read set {path}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError) as exc:  # JSON, a missing key, a wrong shape
        raise FiggenError(
            f"{path} is not a multi-chart set ({type(exc).__name__}: {exc}); "
            "build it again with figgen multichart build"
        ) from None


def load_sets(root: str | Path, n: int | None = None) -> list[SetRecord]:
    """The sets of a build (``root/sets/mc-*.json``) in id order, the first ``n`` if given."""
    paths = sorted((Path(root) / "sets").glob("mc-*.json"))
    return [open_set(path) for path in (paths if n is None else paths[:n])]
