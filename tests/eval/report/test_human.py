"""``figgen eval score`` with people's answers: their rows, time, cost, agreement, hard items."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import score_answer
from figgen.human.study import open_study
from tests.human.conftest import typed_truth, typed_wrong
from tests.view.answers import oracle, write_answers

PEOPLE = ("ana", "ben", "cy")


def _policy(person: int, index: int) -> str:
    """Who gets which item right: ana mostly, ben every other, cy a third; some skips."""
    if index % 11 == person:
        return "skip"
    right = {0: index % 5 != 0, 1: index % 2 == 0, 2: index % 3 == 0}[person]
    return "right" if right else "wrong"


@pytest.fixture(scope="module")
def study_files(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("people")
    qa = {json.loads(line)["qid"]: json.loads(line) for line in (built / "qa.jsonl").open()}
    given: dict[str, dict[str, Any]] = {}
    seconds: dict[str, float] = {}
    files = []
    for person, name in enumerate(PEOPLE):
        out = folder / f"human-{name}.jsonl"
        study = open_study(built, annotator=name, sample=45, seed=2, out=out)
        given[name] = {}
        seconds[name] = 0.0
        # the third person answers only the first 30: agreement counts shared items only
        for index, qid in enumerate(study.plan.qids[: 30 if person == 2 else None]):
            item = study.items[qid]
            what = _policy(person, index)
            value = typed_truth(qa[qid]) if what == "right" else typed_wrong(item)
            latency = 5.0 + person + index / 10
            study.record(qid, value, latency, skipped=what == "skip")
            given[name][qid] = None if what == "skip" else value
            seconds[name] += latency
        study.close()
        files.append(out)
    files.append(write_answers(folder / "oracle.jsonl", "oracle", list(qa.values()), oracle))
    return {"files": files, "given": given, "seconds": seconds, "folder": folder}


@pytest.fixture(scope="module")
def metrics(built: Path, study_files: dict[str, Any]) -> dict[str, Any]:
    from figgen.eval.cost.prices import load_prices
    from figgen.eval.report.report import write_report

    out = study_files["folder"] / "report"
    return write_report(
        load_dataset(built), study_files["files"], load_prices(None), out, hourly_rate=30.0
    )


def _scores(built: Path, study_files: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each person's score per qid, from the stored raw reply and figgen's scorer."""
    items = {i.qid: i for i in load_dataset(built).items}
    out: dict[str, dict[str, Any]] = {}
    for path in study_files["files"][:3]:
        for row in map(json.loads, path.open()):
            out.setdefault(row["model"], {})[row["qid"]] = score_answer(
                items[row["qid"]], parse_reply(row["raw"], items[row["qid"]])
            )
    return out


def test_people_are_scored_like_models(built: Path, study_files: dict, metrics: dict) -> None:
    scores = _scores(built, study_files)
    for name in PEOPLE:
        entry = metrics["models"][f"human:{name}"]
        mine = scores[f"human:{name}"]
        assert entry["n"] == len(mine)
        assert entry["correct"] == sum(bool(s.correct) for s in mine.values())
        assert entry["rejected"] == sum(v is None for v in study_files["given"][name].values())


def test_time_and_cost(study_files: dict, metrics: dict) -> None:
    for name in PEOPLE:
        person = metrics["humans"]["annotators"][f"human:{name}"]
        hours = study_files["seconds"][name] / 3600
        assert person["hours"] == pytest.approx(hours)
        assert person["cost_usd"] == pytest.approx(30.0 * hours)
        entry = metrics["models"][f"human:{name}"]
        assert entry["cost_usd"] == pytest.approx(30.0 * hours)
        assert sum(e["cost_usd"] for e in entry["by_level"].values()) == pytest.approx(30 * hours)
        n = len(study_files["given"][name])
        assert person["seconds_mean"] == pytest.approx(study_files["seconds"][name] / n)


def _labels(built: Path, study_files: dict, family: str) -> dict[str, dict[str, str]]:
    """Readable answers per person in a choice family, as the test writes them."""
    items = {i.qid: i for i in load_dataset(built).items}
    return {
        name: {
            q: json.dumps(sorted(v) if isinstance(v, list) else v)
            for q, v in study_files["given"][name].items()
            if v is not None and items[q].family == family
        }
        for name in PEOPLE
    }


def test_choice_agreement_matches_sklearn_and_statsmodels(
    built: Path, study_files: dict, metrics: dict
) -> None:
    families = metrics["humans"]["agreement"]["by_family"]
    checked = 0
    for family, entry in families.items():
        if entry["kind"] != "choices":
            continue
        labels = _labels(built, study_files, family)
        kappas = []
        for a, b in itertools.combinations(PEOPLE, 2):
            common = sorted(set(labels[a]) & set(labels[b]))
            if len(common) >= 2:
                first, second = [labels[a][q] for q in common], [labels[b][q] for q in common]
                if len(set(first) | set(second)) > 1:  # else kappa is 0/0
                    kappas.append(cohen_kappa_score(first, second))
        if kappas:
            assert entry["cohen_kappa"] == pytest.approx(sum(kappas) / len(kappas))
        everyone = sorted(set.intersection(*(set(labels[p]) for p in PEOPLE)))
        if everyone and entry["fleiss_kappa"] is not None:
            table, _ = aggregate_raters(
                np.array([[labels[p][q] for p in PEOPLE] for q in everyone], dtype=object)
            )
            assert entry["fleiss_kappa"] == pytest.approx(statsmodels_fleiss(table))
            assert entry["fleiss_items"] == len(everyone)
            checked += 1
    assert checked, "no choice family had items every person answered"


def test_hard_items_are_those_most_people_got_wrong(
    built: Path, study_files: dict, metrics: dict
) -> None:
    scores = _scores(built, study_files)
    by_qid: dict[str, list[bool]] = {}
    for person in scores.values():
        for qid, score in person.items():
            by_qid.setdefault(qid, []).append(bool(score.correct))
    expected = {
        q for q, right in by_qid.items() if len(right) >= 2 and right.count(False) * 2 > len(right)
    }
    hard = metrics["humans"]["hard_items"]
    assert expected and {h["qid"] for h in hard} == expected
    assert all(h["wrong"] * 2 > h["answered"] for h in hard)


def test_models_on_the_same_items_and_the_report(study_files: dict, metrics: dict) -> None:
    asked = {q for given in study_files["given"].values() for q in given}
    assert metrics["humans"]["models_on_human_items"] == {
        "oracle": {"n": len(asked), "of": len(asked), "accuracy": 1.0}
    }
    report = (study_files["folder"] / "report" / "report.md").read_text()
    assert "## People" in report and "$30 an hour" in report
    assert "### Agreement between people" in report
    assert "### Items most people got wrong" in report
    assert "| human:ana |" in report


def test_cli_takes_an_hourly_rate(built: Path, study_files: dict, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from figgen._cli.main import app

    args = [
        "eval",
        "score",
        "--data",
        str(built),
        "--out",
        str(tmp_path / "r"),
        "--hourly-rate",
        "12",
    ]
    for path in study_files["files"][:2]:
        args += ["--answers", str(path)]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert saved["humans"]["hourly_rate"] == 12.0
    assert saved["humans"]["agreement"]["annotators"] == ["human:ana", "human:ben"]


def test_a_negative_hourly_rate_is_refused(built: Path, study_files: dict, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from figgen._cli.main import app
    from figgen.errors import FiggenError

    args = ["eval", "score", "--data", str(built), "--out", str(tmp_path / "r")]
    args += ["--answers", str(study_files["files"][0]), "--hourly-rate", "-5"]
    result = CliRunner().invoke(app, args)
    assert isinstance(result.exception, FiggenError)
    assert str(result.exception) == "--hourly-rate -5.0 must be a number of USD, at least 0"
    assert not (tmp_path / "r").exists()
