"""The Level 3 rules of figgen.vqa.api.reading.trends, on data built to sit on each side of them."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.vqa import questions_for_record
from figgen.vqa.api.reading import contour_trends, trends
from figgen.vqa.api.reading.measures import count_peaks, linear_fit, skewness
from tests.vqa.records import contour_panel, histogram_panel, make_record, scatter_panel, typed

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py


def test_linear_fit_matches_a_hand_computation() -> None:
    x, y = [0.0, 1.0, 2.0, 3.0], [1.0, 3.0, 5.0, 8.0]
    # slope = cov/var = (sum((x-1.5)(y-4.25)))/5 = 11.5/5
    slope, intercept, r2 = linear_fit(x, y)
    assert slope == pytest.approx(2.3) and intercept == pytest.approx(4.25 - 2.3 * 1.5)
    residual = sum((b - (slope * a + intercept)) ** 2 for a, b in zip(x, y, strict=True))
    total = sum((b - 4.25) ** 2 for b in y)
    assert r2 == pytest.approx(1 - residual / total)


def test_linearity_rule_sides() -> None:
    x = list(range(10))
    straight = [2 * v + 1 for v in x]
    curved = [(v - 4.5) ** 2 for v in x]  # a parabola: R^2 of a straight fit is 0
    assert trends.linearity(x, straight, "linear", "linear", "linear") == "linear"
    assert trends.linearity(x, curved, "gmm", "linear", "linear") == "nonlinear"
    # the generator disagrees with the drawing: no question
    assert trends.linearity(x, curved, "linear", "linear", "linear") is None
    assert trends.linearity(x, straight, "gmm", "linear", "linear") is None
    # on a log axis the straight line must be straight in log10 coordinates
    decades = [10 ** (v / 3) for v in x]
    assert trends.linearity(decades, straight, "linear", "log", "linear") == "linear"
    assert trends.linearity(x, [10**v for v in straight], "linear", "linear", "log") == "linear"
    straight_in_data = [2 * v + 1 for v in decades]  # curved once x is drawn in log10
    assert linear_fit(np.log10(decades), straight_in_data)[2] < trends.LINEAR_R2
    assert trends.linearity(decades, straight_in_data, "linear", "log", "linear") is None
    # too few points: no question
    assert trends.linearity(x[:4], straight[:4], "linear", "linear", "linear") is None
    # a noisy linear draw between the thresholds is skipped
    rng = np.random.default_rng(0)
    noisy = [2 * v + rng.normal(0, 6) for v in x]
    r2 = linear_fit(x, noisy)[2]
    assert trends.NONLINEAR_R2 < r2 < trends.LINEAR_R2
    assert trends.linearity(x, noisy, "linear", "linear", "linear") is None


def test_symmetry_from_ramp_direction_and_drawn_skew() -> None:
    rng = np.random.default_rng(4)
    rising = histogram_panel(rng, distribution="linear", slope=1.0)
    falling = histogram_panel(rng, distribution="linear", slope=-1.0)
    flat = histogram_panel(rng, distribution="random")
    single = histogram_panel(rng, distribution="gmm", means=(2.0,))
    assert skewness(rising["data"]["samples"]) < -0.3
    assert trends.symmetry(typed(rising)) == "left-skewed"
    assert trends.symmetry(typed(falling)) == "right-skewed"
    assert trends.symmetry(typed(flat)) == "symmetric"
    assert trends.symmetry(typed(single)) == "symmetric"
    # two unequal components: the generator does not say "symmetric", so nothing is asked
    assert trends.symmetry(typed(histogram_panel(rng, means=(0.0, 3.0)))) is None
    few = histogram_panel(rng, distribution="random", n=50)
    assert trends.symmetry(typed(few)) is None


def test_drawn_skewness_equals_weighted_moment() -> None:
    counts, edges = [1, 2, 7], [0.0, 1.0, 2.0, 3.0]
    centres = [0.5] * 1 + [1.5] * 2 + [2.5] * 7
    assert trends.drawn_skewness(counts, edges) == pytest.approx(skewness(centres))


def test_count_peaks_by_hand() -> None:
    assert count_peaks([0, 1, 5, 1, 0, 1, 5, 1, 0]) == 2
    assert count_peaks([0, 1, 5, 4.5, 5, 1, 0]) == 1  # dip to 90%: one peak
    assert count_peaks([0, 5, 5, 5, 0]) == 1  # a plateau counts once
    assert count_peaks([10, 0, 0.5, 0]) == 1  # the small bump is under 10% of the top
    assert count_peaks([0, 0, 0]) == 0


def test_modes_of_mixture_histograms() -> None:
    rng = np.random.default_rng(7)
    two = histogram_panel(rng, means=(0.0, 8.0))
    merged = histogram_panel(rng, means=(0.0, 1.0))
    assert trends.n_modes(typed(two)) == 2
    assert trends.n_modes(typed(merged)) == 1
    assert trends.n_modes(typed(histogram_panel(rng, means=(0.0, 8.0), n=100))) is None
    assert trends.n_modes(typed(histogram_panel(rng, distribution="random"))) is None


def test_clusters_need_clear_gaps() -> None:
    rng = np.random.default_rng(8)
    apart = scatter_panel(rng, distribution="gmm", n=90)
    assert trends.n_clusters(typed(apart)) == 3
    close = scatter_panel(
        rng, distribution="gmm", n=90, centres=[[0.0, 0.0], [1.0, 0.5], [10.0, 10.0]]
    )
    assert trends.n_clusters(typed(close)) is None
    tiny = scatter_panel(rng, distribution="gmm", n=9)
    assert trends.n_clusters(typed(tiny)) is None


def test_level3_items_appear_only_where_unambiguous() -> None:
    rng = np.random.default_rng(9)
    panels = [
        scatter_panel(rng),  # clear line
        scatter_panel(rng, distribution="random"),  # cloud
        histogram_panel(rng, means=(0.0, 1.0)),  # neither symmetric nor clearly bimodal
    ]
    items = questions_for_record(make_record(panels, 1, 3))
    level3 = [(i.family, i.panel, i.answer) for i in items if i.level == 3]
    assert ("linearity", 0, "linear") in level3
    assert ("n_modes", 2, 1) in level3
    assert not any(family == "symmetry" for family, _, _ in level3)
    cloud_r2 = linear_fit(panels[1]["data"]["x"], panels[1]["data"]["y"])[2]
    assert (("linearity", 1, "nonlinear") in level3) == (cloud_r2 <= trends.NONLINEAR_R2)


def plane(gx: float, gy: float, *, colorbar: str | None = "right", noise: float = 0.0) -> dict:
    rng = np.random.default_rng(1)
    panel = contour_panel(rng, colorbar=colorbar)
    x, y = np.array(panel["data"]["x"]), np.array(panel["data"]["y"])
    u = (x - x.min()) / np.ptp(x)
    v = (y - y.min()) / np.ptp(y)
    z = gx * u[None, :] + gy * v[:, None] + rng.normal(0, noise, (y.size, x.size))
    panel["data"]["z"] = z.tolist()
    panel["distribution"] = "linear"
    panel["params"] = {"gradient": [gx, gy], "offset": 0.0}
    return panel


@pytest.mark.parametrize(
    ("gx", "gy", "expected"),
    [
        (10, 1, "left to right"),
        (-10, 2, "right to left"),
        (1, 5, "bottom to top"),
        (0, -4, "top to bottom"),
        (3, 2, None),
    ],
)
def test_gradient_direction(gx: float, gy: float, expected: str | None) -> None:
    panel = plane(gx, gy)
    z = np.array(panel["data"]["z"])
    # independent check: compare the halves of the drawn field
    right = z[:, z.shape[1] // 2 :].mean() - z[:, : z.shape[1] // 2].mean()
    top = z[z.shape[0] // 2 :, :].mean() - z[: z.shape[0] // 2, :].mean()
    if expected in ("left to right", "right to left"):
        assert abs(right) > 3 * abs(top) and (right > 0) == (expected == "left to right")
    elif expected is not None:
        assert abs(top) > 3 * abs(right) and (top > 0) == (expected == "bottom to top")
    assert contour_trends.gradient_direction(typed(panel)) == expected


def test_gradient_direction_needs_a_colour_bar_and_a_clean_plane() -> None:
    assert contour_trends.gradient_direction(typed(plane(10, 1, colorbar=None))) is None
    assert contour_trends.gradient_direction(typed(plane(10, 1, noise=20.0))) is None


def test_clusters_are_judged_in_the_panel_shape() -> None:
    rng = np.random.default_rng(3)
    panel = scatter_panel(
        rng, distribution="gmm", n=90, centres=[[0.0, 0.0], [0.0, 10.0], [10.0, 0.0]]
    )
    assert trends.n_clusters(typed(panel), aspect=1.0) == 3
    # squeezed into a wide, very short strip the two clusters stacked in y touch
    assert trends.n_clusters(typed(panel), aspect=0.03) is None


def test_shape_needs_enough_samples_per_bin() -> None:
    rng = np.random.default_rng(4)
    crowded = histogram_panel(rng, distribution="linear", slope=1.0, n=400, bins=80)
    assert len(crowded["data"]["samples"]) < trends.SHAPE_PER_BIN * 80
    assert trends.symmetry(typed(crowded)) is None
    sparse_modes = histogram_panel(rng, means=(0.0, 8.0), n=600, bins=60)
    assert trends.n_modes(typed(sparse_modes)) is None


def test_one_wild_point_makes_a_line_doubtful() -> None:
    x = list(range(12))
    y = [3.0 * v for v in x]
    y[1] += 8.0  # about 18% of the span off the fit; R^2 stays above 0.95
    assert linear_fit(x, y)[2] >= trends.LINEAR_R2
    assert trends.linearity(x, y, "linear", "linear", "linear") is None
    y[1] -= 5.0  # about 7%: close enough
    assert trends.linearity(x, y, "linear", "linear", "linear") == "linear"


def bumps(
    centres: list[list[float]], *, levels: list[float] | None = None, colorbar: str | None = "right"
) -> dict:
    rng = np.random.default_rng(2)
    panel = contour_panel(rng, colorbar=colorbar)
    rows, cols = 40, 50
    u, v = np.meshgrid(np.linspace(0, 1, cols), np.linspace(0, 1, rows))
    widths = [[0.08, 0.08]] * len(centres)
    amps = [1.0 - 0.2 * k for k in range(len(centres))]
    z = sum(
        a * np.exp(-0.5 * (((u - c[0]) / w[0]) ** 2 + ((v - c[1]) / w[1]) ** 2))
        for a, c, w in zip(amps, centres, widths, strict=True)
    )
    panel["data"].update(
        x=np.linspace(0, 5, cols).tolist(),
        y=np.linspace(0, 4, rows).tolist(),
        z=z.tolist(),
        levels=levels or [0.1, 0.3, 0.5, 0.7, 0.9],
    )
    panel["params"] = {"centres_unit": centres, "widths_unit": widths, "amplitudes": amps}
    return panel


def test_contour_peaks() -> None:
    far = bumps([[0.2, 0.3], [0.75, 0.7]])
    z = np.array(far["data"]["z"])
    # independent view: the two bump centres are the two highest local maxima of the grid
    assert z[12, 10] > z[20, 25] and z[27, 37] > z[20, 25]
    assert contour_trends.n_peaks(typed(far)) == 2
    assert contour_trends.n_peaks(typed(bumps([[0.5, 0.5]]))) == 1
    assert contour_trends.n_peaks(typed(bumps([[0.45, 0.5], [0.55, 0.5]]))) == 1  # merged: one hill
    assert contour_trends.n_peaks(typed(bumps([[0.2, 0.3], [0.75, 0.7]], colorbar=None))) is None
    # no drawn level between the lower bump's top (0.8) and its saddle (~0): no closed contour
    assert (
        contour_trends.n_peaks(typed(bumps([[0.2, 0.3], [0.75, 0.7]], levels=[0.85, 0.95]))) is None
    )
