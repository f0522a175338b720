"""The report's plots read right: axes that fit the data, labels on both axes, no overprint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from figgen.density import plots as density_plots
from figgen.eval.report.aggregate import ScoredAnswer
from figgen.eval.scoring import plots
from figgen.eval.scoring.scoring import Score
from tests.eval.fixtures import items


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The matplotlib figures the plot functions save, kept for inspection."""
    figures: list[Any] = []

    def keep(fig: Any, out_dir: Path, name: str) -> str:
        figures.append(fig)
        return name

    monkeypatch.setattr(plots, "save_plot", keep)
    monkeypatch.setattr(density_plots, "save_plot", keep)
    return figures


def _levels(cost: float, accuracies: tuple[float, ...]) -> dict[str, Any]:
    return {"by_level": {str(i + 1): {"cost_usd": cost, "accuracy": a}
                         for i, a in enumerate(accuracies)}}  # fmt: skip


def test_free_models_get_a_cost_axis_around_zero_and_a_key(tmp_path: Path, drawn: list) -> None:
    metrics = {"oracle": _levels(0.0, (1.0, 1.0)), "chance": _levels(0.0, (0.2, 0.25))}
    assert plots.cost_accuracy_plot(metrics, tmp_path) is not None
    (ax,) = drawn[0].axes
    assert ax.get_xlim() == (-1, 1) and list(ax.get_xticks()) == [0]
    assert "free" in ax.get_xlabel()
    assert len(ax.texts) == 0  # no label per point to overprint its neighbours
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["oracle", "chance", "level 1", "level 2"]


def test_paid_models_start_the_cost_axis_at_zero(tmp_path: Path, drawn: list) -> None:
    metrics = {"a": _levels(0.0, (0.5,)), "b": _levels(2.0, (0.7,))}
    plots.cost_accuracy_plot(metrics, tmp_path)
    low, high = drawn[0].axes[0].get_xlim()
    assert low < 0 < 2.0 < high < 3.0
    assert drawn[0].axes[0].get_xlabel() == "cost (USD)"


def test_ssmape_histograms_count_answers_in_whole_numbers(tmp_path: Path, drawn: list) -> None:
    item = next(i for i in items() if i.metric == "ssmape")
    answers = [
        ScoredAnswer(item, {}, Score("ssmape", value, True), None, 1, "line")
        for value in (0.0, 0.0, 0.1)
    ]
    assert plots.ssmape_plot([item.family], {"m": answers}, tmp_path) is not None
    ax = drawn[0].axes[0]
    assert ax.get_ylabel() == "answers"
    ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_density_plot_ticks_only_the_densities_measured(tmp_path: Path, drawn: list) -> None:
    row = {"mae": 10.0, "rmse": 12.0}
    table = {"m": {k: row for k in (1, 3, 6, 9)}, "n": {1: row, 3: row}}
    density_plots.error_by_density(table, tmp_path)
    for ax in drawn[0].axes:
        assert list(ax.get_xticks()) == [1, 3, 6, 9]
