"""A metric is one registration: a throw-away metric flows through scoring, aggregation, the
report's definition of accuracy, its table and its plot, with nothing else edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.errors import FiggenError
from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.plots import Plot, plot_figure, save_plot
from figgen.eval.scoring.scores import ScoredAnswer
from figgen.eval.scoring.scoring import (
    METRICS,
    Column,
    MetricSpec,
    MetricTable,
    register_metric,
    score_value,
)
from figgen.kinds import KINDS
from figgen.schema.metrics import EXACT, METRIC_DECLS, MetricDecl, declare_metric
from figgen.vqa.api.families import FAMILIES
from tests.eval.fixtures import items, score_panel_counts

OFF_BY_ONE = "test_off_by_one"
OFF_BY_ONE_DECL = declare_metric(OFF_BY_ONE, "absolute")


def _distance(prediction: object, truth: object) -> float:
    return abs(float(prediction) - float(truth))  # type: ignore[arg-type]


def _plot(families: list[str], scored: dict[str, list[ScoredAnswer]], out: Path) -> Plot | None:
    """One bar per family: how many answers it scored (enough to see the plot is drawn)."""
    if not families:
        return None
    fig, (ax,) = plot_figure(1)
    counts = [sum(a.item.family == f for v in scored.values() for a in v) for f in families]
    ax.bar(families, counts)
    return Plot(save_plot(fig, out, "off_by_one.png"), "Off by one", "Bars of answers per family.")


register_metric(
    MetricSpec(
        OFF_BY_ONE_DECL,
        _distance,
        lambda value: value <= 1.0,
        "off by at most one",
        table=MetricTable(
            "Count families: distance",
            "`distance` is the mean |estimate - truth|, `worst` the largest.",
            (
                Column(
                    "distance", lambda s: sum(x.value or 0.0 for x in s) / len(s) if s else None
                ),
                Column("worst", lambda s: max((x.value or 0.0 for x in s), default=None)),
            ),
        ),
        plot=_plot,
    )
)


def test_scoring_reads_the_registered_metric() -> None:
    near, far = score_value(OFF_BY_ONE, 5, 4), score_value(OFF_BY_ONE, 1, 4)
    assert (near.value, near.correct) == (1.0, True)
    assert (far.value, far.correct) == (3.0, False)


def test_a_registered_metric_flows_through_aggregation_and_the_report(tmp_path: Path) -> None:
    from tests.eval.fixtures import make_dataset

    data = make_dataset(tmp_path / "data")
    # the panel-count questions (truths 1, 2, 4) are scored by the new metric
    lines = []
    for item in items():
        if item.family == "panel_count":
            item.metric = OFF_BY_ONE
        lines.append(json.dumps(item.to_dict()))
    (data / "qa.jsonl").write_text("\n".join(lines) + "\n")
    out = score_panel_counts(tmp_path, data, {"q000": 1, "q001": 3, "q002": 7})  # off by 0, 1, 3

    family = json.loads((out / "metrics.json").read_text())["models"]["mock:m"]["by_family"]
    entry = family["panel_count"]
    assert entry["metric"] == OFF_BY_ONE
    assert (entry["n"], entry["correct"]) == (3, 2)  # off by 0 and 1 pass, off by 3 fails
    assert entry["distance"] == pytest.approx((0 + 1 + 3) / 3, abs=1e-6)
    assert entry["worst"] == 3.0

    report = (out / "report.md").read_text()
    assert "answered correctly (off by at most one)" in report
    section = report.split("### Count families: distance\n", 1)[1].split("\n## ", 1)[0]
    assert "mean |estimate - truth|" in section
    row = next(line for line in section.splitlines() if "panel_count" in line)
    assert "1.3333" in row and "3.0000" in row
    assert "![Bars of answers per family.](off_by_one.png)" in report
    assert (out / "off_by_one.png").read_bytes().startswith(b"\x89PNG")


def test_a_metric_name_is_registered_once() -> None:
    with pytest.raises(ValueError, match="metric 'exact' is registered twice"):
        register_metric(MetricSpec(EXACT, _distance, bool, "again"))


def test_a_metric_scored_but_not_declared_is_refused() -> None:
    undeclared = MetricDecl("test_undeclared", "exact")
    with pytest.raises(ValueError, match="'test_undeclared' is not declared"):
        register_metric(MetricSpec(undeclared, _distance, bool, "never"))
    assert "test_undeclared" not in METRICS


def test_a_question_file_naming_an_unknown_metric_is_refused_at_load(tmp_path: Path) -> None:
    from tests.eval.fixtures import make_dataset

    data = make_dataset(tmp_path / "data")
    qa = data / "qa.jsonl"
    qa.write_text(qa.read_text().replace('"metric": "cer"', '"metric": "cre"'))
    with pytest.raises(FiggenError) as info:
        load_dataset(data)
    message = str(info.value)
    assert "metric 'cre'" in message and "known: exact, " in message and "\n" not in message


def test_every_metric_the_question_side_names_is_registered() -> None:
    assert KINDS  # importing the kinds declares their families
    assert {family.metric for family in FAMILIES.values()} <= set(METRICS)


def test_every_declared_metric_is_scored_and_every_scored_one_declared() -> None:
    assert list(METRICS) == list(METRIC_DECLS)
    assert all(spec.declared is METRIC_DECLS[name] for name, spec in METRICS.items())


def test_the_tolerance_classes_the_question_side_reads() -> None:
    by_class = {
        tolerance: {name for name, spec in METRICS.items() if spec.tolerance == tolerance}
        for tolerance in ("relative", "axis_span")
    }
    assert by_class == {
        "relative": {"ssmape", "relaxed_5pct", "relative_1pct"},
        "axis_span": {"axis_2pct"},
    }
