"""Build multi-chart sets end to end: plan, sample, propagate, ask, render, verify, write.

``DIR/sets/<id>.json`` holds a set's graph, minimal generative sets, values, images per mode
and questions (hops, nodes, images and evidence boxes per mode); ``DIR/images/`` the charts as
figgen records and PNGs; ``DIR/qa.jsonl`` one QA item per question and mode, and
``DIR/image_sets.json`` the images of each (set, mode), which ``figgen eval run`` sends with
every question, and ``DIR/set_evidence.json`` each question's (image index, box) evidence.
Set ``i`` depends only on (seed, i, scenario), each file is written atomically and a set's
JSON last, so a killed build resumes where it stopped.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from figgen._util.version import __version__
from figgen.build.executors import InProcess, LocalPool
from figgen.config.load import FigureConfig
from figgen.errors import BuildDirError, FiggenError
from figgen.eval.grounding.set_grounding import FILE as SET_EVIDENCE
from figgen.multichart.graph import Graph
from figgen.multichart.minimal import check_set
from figgen.multichart.modes import MODES, Mode, SetPlan, plan_set
from figgen.multichart.prompt import qa_item
from figgen.multichart.propagate import propagate
from figgen.multichart.questions import Ask, candidates, choose_questions, state_relations
from figgen.multichart.records import (
    Added,
    AskedIn,
    MinimalSet,
    SetImage,
    SetQuestion,
    SetRecord,
    dumps_set,
    load_sets,
)
from figgen.multichart.render import render_image, value_refusal
from figgen.multichart.sampling import Proposer, meets_trend, sample_node, valid_values
from figgen.multichart.scenarios import load_scenario
from figgen.multichart.spec import GraphSpec, NodeSpec
from figgen.multichart.sufficiency import ModeFacts, evidence_boxes, mode_facts, verify_mode
from figgen.multichart.values import Value, Vector
from figgen.schema.record import Generator, Record, open_record
from figgen.schema.set_evidence import SetEvidence, SetEvidenceEntry
from figgen.store.storage import atomic_write_bytes, atomic_write_text, remove_stale_temporaries

log = logging.getLogger(__name__)

MIN_QUESTIONS, MAX_QUESTIONS = 8, 50
MIN_IMAGES, MAX_IMAGES = 3, 18
MAX_HOPS = 8
"""The longest derivation a question may take (the paper's range is 0-8 hops)."""
SAMPLE_ATTEMPTS = 20
MODE_TAG = {"extended": "ext", "in-depth": "deep"}


def set_id(index: int) -> str:
    return f"mc-{index:06d}"


def mode_figure_id(sid: str, mode: str) -> str:
    return f"{sid}-{mode}"


@dataclass
class BuildSummary:
    n: int
    generated: int
    skipped: int
    questions: int


def _rng(seed: int, index: int, stream: str) -> np.random.Generator:
    tag = int.from_bytes(stream.encode()[:8].ljust(8, b"\0"), "little")
    return np.random.default_rng(np.random.SeedSequence([seed, index, tag]))


def sample_values(
    plan: SetPlan,
    rng: np.random.Generator,
    cfg: FigureConfig,
    *,
    propose: Proposer | None = None,
) -> dict[str, Value]:
    """Values of the selected minimal set from the samplers (or ``propose``, e.g. an LLM that
    reads the spec's requirements; off by default), then every node by propagation."""
    graph = plan.graph
    for _ in range(SAMPLE_ATTEMPTS):
        known = {}
        for name in plan.minimal.selected:
            node, shape = graph.spec.nodes[name], graph.shapes[name]
            proposed = propose(graph.spec, name, shape, rng) if propose else None
            if proposed is None or not _acceptable(proposed, node):
                proposed = sample_node(rng, node, shape, cfg.distributions)
            known[name] = proposed
        values = propagate(graph, known)
        problem = valid_values(graph.spec, values) or value_refusal(graph, values)
        if problem is None:
            return values
        log.info("resampling: %s", problem)
    raise FiggenError(
        f"scenario '{graph.spec.name}': no valid values in {SAMPLE_ATTEMPTS} draws ({problem}); "
        "widen the data ranges"
    )


def _acceptable(value: Value, node: NodeSpec) -> bool:
    """A proposed value that meets the node's trend (range is checked after propagation)."""
    if isinstance(value, Vector):
        return meets_trend(value.array(), node.trend)
    return isinstance(value, float)


def build_set(
    spec: GraphSpec,
    *,
    seed: int,
    index: int,
    out: Path,
    cfg: FigureConfig,
    propose: Proposer | None = None,
) -> SetRecord:
    """One verified set: its images are written to ``out/images``; returns the set record."""
    sid = set_id(index)
    plan = plan_set(spec)
    graph = plan.graph
    n_images = len(plan.modes["extended"])
    if not MIN_IMAGES <= n_images <= MAX_IMAGES:
        raise FiggenError(
            f"scenario '{spec.name}' has {n_images} images in extended mode; a set needs "
            f"{MIN_IMAGES}-{MAX_IMAGES}: add or remove image nodes"
        )
    values = sample_values(plan, _rng(seed, index, "values"), cfg, propose=propose)
    rng = _rng(seed, index, "questions")
    asks = choose_questions(candidates(graph, values, rng), spec.questions, rng)
    images = [i for i in graph.images if any(i in plan.modes[m] for m in MODES)]
    records: dict[str, Record] = {}
    for k, image in enumerate(images):
        file_id = f"{sid}-{image}"
        rendered = render_image(
            graph,
            image,
            values,
            seed=seed,
            index=index * 100 + k,
            file_id=file_id,
            image_file=f"images/{file_id}.png",
            cfg=cfg,
        )
        atomic_write_bytes(out / "images" / f"{file_id}.png", rendered.png)
        atomic_write_text(out / "images" / f"{file_id}.json", rendered.stored)
        records[image] = rendered.record
    failing = set()
    for mode in MODES:
        failing |= set(verify_mode(graph, plan.modes[mode], records, asks))
    if failing:
        log.info(
            "%s: %d questions dropped (not answerable from a mode's images)", sid, len(failing)
        )
    asks = [a for i, a in enumerate(asks) if i not in failing]
    facts = [{mode: mode_facts(graph, plan.modes[mode], ask) for mode in MODES} for ask in asks]
    kept = [i for i, f in enumerate(facts) if max(m.hops for m in f.values()) <= MAX_HOPS]
    asks, facts = [asks[i] for i in kept], [facts[i] for i in kept]
    if len(asks) < MIN_QUESTIONS:
        raise FiggenError(
            f"scenario '{spec.name}' gave only {len(asks)} verified questions for set {index}; "
            f"a set needs {MIN_QUESTIONS}: add nodes or raise 'questions'"
        )
    for ask, per_mode in zip(asks, facts, strict=True):
        used = {n for f in per_mode.values() for n in f.relations}
        state_relations(graph, ask, [n for n in graph.order if n in used])
    checks = check_set(graph, plan.minimal.selected)
    minimal = plan.minimal
    return SetRecord(
        id=sid,
        seed=seed,
        index=index,
        generator=Generator("figgen", __version__),
        scenario=spec.name,
        family=spec.family,
        spec=graph.spec,
        minimal_set=MinimalSet(
            minimal.selected,
            minimal.alternatives,
            minimal.classes,
            minimal.truncated,
            checks.complete,
            checks.independent,
            checks.conflict_free,
        ),
        values={name: values[name] for name in graph.values_nodes},
        images={image: _image(graph, plan, sid, image) for image in images},
        modes=plan.modes,
        questions=[
            _question(graph, ask, per_mode, n, sid, records)
            for n, (ask, per_mode) in enumerate(zip(asks, facts, strict=True))
        ],
    )


def _image(graph: Graph, plan: SetPlan, sid: str, image: str) -> SetImage:
    node = graph.spec.nodes[image]
    added: Added | None = (
        "compensation"
        if image in plan.compensated
        else "extended"
        if image in plan.visualised
        else None
    )
    chart = node.kind or ""  # every image node has a kind (the graph checks it)
    return SetImage(
        f"images/{sid}-{image}.png", f"images/{sid}-{image}.json", chart, node.inputs, added
    )


def _question(
    graph: Graph,
    ask: Ask,
    per_mode: dict[Mode, ModeFacts],
    number: int,
    sid: str,
    records: dict[str, Record],
) -> SetQuestion:
    modes = {
        mode: AskedIn(
            qid=f"{sid}-{MODE_TAG[mode]}-q{number:02d}",
            hops=facts.hops,
            nodes=facts.nodes,
            images=facts.images,
            evidence=evidence_boxes(graph, facts, records),
        )
        for mode, facts in per_mode.items()
    }
    return SetQuestion(number, ask, modes)


def build_sets(
    out: str | Path,
    *,
    n: int,
    seed: int = 0,
    scenarios: list[str] | None = None,
    cfg: FigureConfig | None = None,
    propose: Proposer | None = None,
    progress: bool = False,
    workers: int = 1,
) -> BuildSummary:
    """``n`` sets cycling through ``scenarios`` (names or TOML paths; default: all shipped),
    on ``workers`` local processes (the result does not depend on how many)."""
    from figgen.multichart.scenarios import scenario_names

    root = Path(out)
    cfg = cfg or FigureConfig()
    names = scenarios or scenario_names()
    specs = [load_scenario(name) for name in names]  # every spec is validated before any work
    identity = {"task": "multichart", "seed": seed, "scenarios": [s.name for s in specs]}
    _check_dir(root, identity)
    (root / "sets").mkdir(parents=True, exist_ok=True)
    (root / "images").mkdir(exist_ok=True)
    remove_stale_temporaries(root / "images")
    remove_stale_temporaries(root / "sets")
    atomic_write_text(root / "build.json", json.dumps(identity, indent=1))
    from tqdm.auto import tqdm

    todo = [i for i in range(n) if not (root / "sets" / f"{set_id(i)}.json").is_file()]
    tasks = [
        functools.partial(
            _write_set,
            specs[i % len(specs)],
            seed=seed,
            index=i,
            out=root,
            cfg=cfg,
            propose=propose,
        )
        for i in todo
    ]
    executor = LocalPool(workers) if workers > 1 and propose is None else InProcess()
    with executor, tqdm(total=n, initial=n - len(todo), unit="set", disable=not progress) as bar:
        for _ in executor.run(tasks):
            bar.update(1)
    questions = write_index(root, n)
    return BuildSummary(n, len(todo), n - len(todo), questions)


def _write_set(
    spec: GraphSpec,
    *,
    seed: int,
    index: int,
    out: Path,
    cfg: FigureConfig,
    propose: Proposer | None,
) -> int:
    """Build one set and write its JSON last (a task for a worker process)."""
    record = build_set(spec, seed=seed, index=index, out=out, cfg=cfg, propose=propose)
    atomic_write_text(out / "sets" / f"{set_id(index)}.json", dumps_set(record))
    return index


def _check_dir(root: Path, identity: dict[str, Any]) -> None:
    marker = root / "build.json"
    if marker.is_file():
        if json.loads(marker.read_text(encoding="utf-8")) != identity:
            raise BuildDirError(
                f"{root} holds a multichart build of another seed or scenario list; "
                "use another --out"
            )
    elif root.is_dir() and any(root.iterdir()):
        raise BuildDirError(f"{root} is not empty and holds no multichart build; use another --out")


def write_index(root: Path, n: int) -> int:
    """Rewrite qa.jsonl, image_sets.json and manifest.json from the set records."""
    sets = load_sets(root, n)
    items = []
    image_sets: dict[str, list[str]] = {}
    evidence = SetEvidence({}, {})
    for record in sets:
        sizes = {name: _image_size(root, image) for name, image in record.images.items()}
        for mode in MODES:
            figure = mode_figure_id(record.id, mode)
            shown = record.modes[mode]
            image_sets[figure] = [record.images[i].file for i in shown]
            evidence.sizes[figure] = [sizes[i] for i in shown]
            for question in record.questions:
                facts = question.modes[mode]
                pairs = [
                    (shown.index(image), box)
                    for image, boxes in facts.evidence.items()
                    for box in boxes
                ]
                evidence.evidence[facts.qid] = SetEvidenceEntry(figure, pairs)
        for question in record.questions:
            for mode in MODES:
                item = qa_item(
                    question.ask,
                    qid=question.modes[mode].qid,
                    figure_id=mode_figure_id(record.id, mode),
                    number=question.number + 1,
                )
                items.append(json.dumps(item.to_dict(), ensure_ascii=False))
    atomic_write_text(root / "qa.jsonl", "".join(line + "\n" for line in items))
    atomic_write_text(root / "image_sets.json", json.dumps(image_sets, indent=1))
    stored = json.dumps(evidence.to_dict(), separators=(",", ":"))
    atomic_write_text(root / SET_EVIDENCE, stored)
    atomic_write_text(root / "manifest.json", json.dumps(_manifest(sets), indent=1))
    return len(items)


def _image_size(root: Path, image: SetImage) -> tuple[int, int]:
    shown = open_record(root / image.record).image
    return (shown.width, shown.height)


def _manifest(sets: list[SetRecord]) -> dict[str, Any]:
    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 3) if values else 0.0

    questions = [q for s in sets for q in s.questions]
    counts: dict[str, Any] = {"sets": len(sets), "questions": len(questions)}
    for mode in MODES:
        counts[mode] = {
            "images_per_set": mean([len(s.modes[mode]) for s in sets]),
            "mean_hops": mean([q.modes[mode].hops for q in questions]),
            "max_hops": max((q.modes[mode].hops for q in questions), default=0),
        }
    counts["questions_per_set"] = mean([len(s.questions) for s in sets])
    counts["types"] = {
        t: sum(q.ask.type == t for q in questions) for t in ("extract", "compare", "compute")
    }
    counts["scenarios"] = {
        name: sum(s.scenario == name for s in sets) for name in sorted({s.scenario for s in sets})
    }
    return {
        "task": "multichart",
        "generator": {"name": "figgen", "version": __version__},
        "counts": counts,
    }
