"""Level 3 hedges against independent computations (scipy, scikit-learn) on drawn data."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from scipy import stats
from sklearn.linear_model import LinearRegression
from sklearn.metrics import silhouette_score

from figgen.vqa import describe_record
from figgen.vqa.api.reading.hedges import NO_TREND, histogram_skew, trend_clause
from figgen.vqa.api.reading.trends import PointSet
from tests.vqa.records import (
    contour_panel,
    histogram_panel,
    line_panel,
    make_record,
    scatter_panel,
    typed,
)


def _panel_text(panel: dict[str, Any], level: int = 3) -> str:
    rows = describe_record(make_record([panel], 1, 1))
    return next(r["text"] for r in rows if r["scope"] == "panel" and r["level"] == level)


def _line(y: np.ndarray, *, distribution: str = "random", slope: float | None = None) -> dict:
    x = np.arange(len(y), dtype=float)
    params = {"slope": slope} if slope is not None else {}
    return {
        "kind": "line",
        "distribution": distribution,
        "params": {"series": [params]},
        "data": {"series": [{"x": x.tolist(), "y": [float(v) for v in y], "color": "#1f77b4"}]},
        "style": {"legend": False},
    }


def _expected_words(r: float) -> str | None:
    """The hedge the rules give for a Pearson r computed by scipy."""
    size, way = abs(r), "rise" if r > 0 else "fall"
    if size >= 0.85:
        return f"{way}s strongly"
    if size >= 0.6:
        return f"{way}s clearly, with some scatter"
    if size >= 0.35:
        return f"shows a loose {'rising' if r > 0 else 'falling'} trend"
    return None


SEEDS = range(40)


def _noisy_relation(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = np.arange(12, dtype=float)
    return x, rng.uniform(-3, 3) * x + rng.normal(0, rng.uniform(1, 25), x.size)


@pytest.mark.parametrize("seed", SEEDS)
def test_trend_hedge_matches_the_correlation_scipy_finds(seed: int) -> None:
    x, y = _noisy_relation(seed)
    panel = _line(y)
    clause = trend_clause(typed(panel), PointSet(x.tolist(), y.tolist()), plural=False, say_x=str)
    expected = _expected_words(stats.pearsonr(x, y).statistic)
    if expected is None:  # no straight-line trend: a single turn, or none
        assert NO_TREND in clause or " to a peak near " in clause or " to a low near " in clause
    else:
        assert clause == expected


def test_the_seeds_above_cover_every_band() -> None:
    bands = {_expected_words(stats.pearsonr(*_noisy_relation(seed)).statistic) for seed in SEEDS}
    assert len(bands) == 7  # rises / falls x strong, clear, loose, and none


def test_a_strong_linear_relation_rises_strongly_along_a_straight_line() -> None:
    rng = np.random.default_rng(3)
    panel = line_panel(rng, n_series=1)  # slope 2, noise 0.3 over a range of 20
    series = panel["data"]["series"][0]
    assert stats.pearsonr(series["x"], series["y"]).statistic > 0.99
    assert _panel_text(panel) == "The line rises strongly along a straight line."
    falling = _line(-4.0 * np.arange(10) + np.random.default_rng(1).normal(0, 0.2, 10), slope=-4.0)
    falling["distribution"] = "linear"
    assert _panel_text(falling) == "The line falls strongly along a straight line."


@pytest.mark.parametrize("seed", range(8))
def test_pure_noise_says_no_clear_trend(seed: int) -> None:
    rng = np.random.default_rng(seed)
    panel = scatter_panel(rng, distribution="random", n=80)
    x, y = panel["data"]["x"], panel["data"]["y"]
    if abs(stats.pearsonr(x, y).statistic) >= 0.35:
        pytest.skip("this draw of noise happens to correlate")
    text = _panel_text(panel)
    assert NO_TREND in text
    assert "rise" not in text.replace("do not rise or fall", "")


def test_two_noisy_lines_share_one_no_trend_sentence_and_keep_their_order() -> None:
    rng = np.random.default_rng(5)
    panel = line_panel(rng, distribution="random", n_series=2)
    panel["data"]["series"][1]["y"] = [v + 50 for v in panel["data"]["series"][1]["y"]]
    for series in panel["data"]["series"]:
        r = stats.pearsonr(series["x"], series["y"]).statistic
        assert abs(r) < 0.35
    text = _panel_text(panel)
    assert text.count(NO_TREND) == 1
    assert text.startswith("Neither line rises or falls overall")
    assert text.endswith("from top to bottom, the orange line and the blue line.")


def test_a_single_bump_reads_as_a_peak_at_its_centre() -> None:
    x = np.linspace(0, 10, 11)
    y = 10 * np.exp(-0.5 * ((x - 6) / 1.5) ** 2)
    assert _panel_text(_line(y, distribution="gmm")).startswith(
        f"The line rises to a peak near x = {x[np.argmax(y)]:g}"
    )


@pytest.mark.parametrize(
    ("draw", "words"),
    [
        (lambda rng: rng.exponential(1.0, 3000), "clearly right-skewed"),
        (lambda rng: -rng.exponential(1.0, 3000), "clearly left-skewed"),
        (lambda rng: rng.normal(0.0, 1.0, 3000), "roughly symmetric"),
        (lambda rng: rng.gamma(20.0, 1.0, 3000), "slightly right-skewed"),
    ],
)
def test_skew_words_follow_the_skewness_of_the_drawn_bars(draw: Any, words: str) -> None:
    samples = draw(np.random.default_rng(0))
    counts, edges = np.histogram(samples, bins=30)
    panel = {
        "kind": "histogram",
        "distribution": "random",
        "params": {},
        "data": {
            "samples": samples.tolist(),
            "bin_edges": edges.tolist(),
            "counts": counts.tolist(),
        },
    }
    centres = (edges[:-1] + edges[1:]) / 2
    drawn = stats.skew(np.repeat(centres, counts))  # the bars as drawn, one value per count
    skew = histogram_skew(typed(panel))
    assert skew is not None and skew.value == pytest.approx(drawn, rel=1e-9)
    assert skew.words.startswith(words)


def test_two_separated_modes_are_named_at_their_means() -> None:
    panel = histogram_panel(np.random.default_rng(2), means=(0.0, 8.0), bins=40)
    text = _panel_text(panel)
    found = re.search(
        r"The bars rise to two separate peaks, near (-?[\d.]+) and (-?[\d.]+)\. ", text
    )
    assert found is not None, text
    near = found.groups()
    width = panel["data"]["bin_edges"][1] - panel["data"]["bin_edges"][0]
    assert [float(v) for v in near] == pytest.approx([0.0, 8.0], abs=1.5 * width)


def _silhouette(panel: dict[str, Any]) -> float:
    """How well the points split by their generating centres (scikit-learn's silhouette)."""
    xy = np.column_stack([panel["data"]["x"], panel["data"]["y"]])
    centres = np.asarray(panel["params"]["centres"], dtype=float)
    labels = np.argmin(((xy[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    return float(silhouette_score(xy, labels))


def test_clusters_far_apart_are_certain_and_closer_ones_are_hedged() -> None:
    rng = np.random.default_rng(4)
    apart = scatter_panel(rng, distribution="gmm", n=90)
    assert _silhouette(apart) > 0.85
    assert _panel_text(apart).startswith("The points form three separate clusters.")
    centres = [[0.0, 0.0], [1.6, 1.6], [3.2, 0.0]]  # about 4.5 standard deviations apart
    close = scatter_panel(rng, distribution="gmm", n=90, centres=centres)
    assert 0.4 < _silhouette(close) < 0.75  # visible groups, but they touch
    assert _panel_text(close) == "The points fall into three groups that partly overlap."
    merged = scatter_panel(rng, distribution="gmm", n=90, centres=[[0.0, 0.0], [0.5, 0.5]])
    assert _silhouette(merged) < 0.4
    assert "group" not in _panel_text(merged) and "cluster" not in _panel_text(merged)


@pytest.mark.parametrize(
    ("gradient", "direction"),
    [
        ((3.0, 0.2), "left to right"),
        ((1.0, 1.0), "the lower left to the upper right"),
        ((0.0, -2.0), "top to bottom"),
    ],
)
def test_a_planar_field_increases_the_way_a_fitted_plane_points(
    gradient: tuple[float, float], direction: str
) -> None:
    panel = contour_panel(np.random.default_rng(0), colorbar=None)
    x, y = np.asarray(panel["data"]["x"]), np.asarray(panel["data"]["y"])
    u, v = np.meshgrid((x - x.min()) / np.ptp(x), (y - y.min()) / np.ptp(y))
    noise = np.random.default_rng(1).normal(0, 0.05, u.shape)
    z = gradient[0] * u + gradient[1] * v + noise
    panel["data"]["z"] = z.tolist()
    panel["distribution"] = "linear"
    fit = LinearRegression().fit(np.column_stack([u.ravel(), v.ravel()]), z.ravel())
    assert fit.score(np.column_stack([u.ravel(), v.ravel()]), z.ravel()) >= 0.8
    assert _panel_text(panel).startswith(f"The values increase steadily from {direction};")


def test_the_fastest_rising_panel_is_the_steepest_by_linregress() -> None:
    x = np.linspace(0, 10, 11)
    rng = np.random.default_rng(0)
    slopes = (2.0, 5.0)
    panels = [
        _line(s * x + rng.normal(0, 0.5, x.size), distribution="linear", slope=s) for s in slopes
    ]
    fits = [stats.linregress(x, p["data"]["series"][0]["y"]).slope for p in panels]
    rows = describe_record(make_record(panels, 1, 2))
    figure = next(r["text"] for r in rows if r["scope"] == "figure" and r["level"] == 3)
    assert f"the right panel rises fastest (about {fits[1]:.2g} per unit of x)" in figure
