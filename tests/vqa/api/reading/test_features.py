"""Measured features against independent computations: scipy.signal peaks, sklearn groups."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.signal import find_peaks
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score
from sklearn.mixture import GaussianMixture
from sklearn.svm import SVC

from figgen.config.load import load_config
from figgen.schema.record import Record
from figgen.vqa import describe_record
from figgen.vqa.api.reading import features
from figgen.vqa.api.reading.features import PEAK_DEPTH, PEAK_Z
from tests.vqa.records import composed_records, typed

NUMBER = r"(-?\d+(?:\.\d+)?(?: times 10 to the power -?\d+)?)"


def _histogram(counts: list[int], edges: list[float] | None = None) -> dict[str, Any]:
    edges = edges if edges is not None else [float(i) for i in range(len(counts) + 1)]
    return {"kind": "histogram", "data": {"counts": counts, "bin_edges": edges}}


def scipy_peaks(counts: list[int]) -> list[int]:
    """The peaks the stated test keeps, found by scipy.signal on the drawn counts."""
    heights = np.asarray(counts, dtype=float)
    if len(heights) < 3:
        return []
    at, props = find_peaks(heights, prominence=0)
    base = heights[at] - props["prominences"]
    rise = props["prominences"]
    keep = (rise >= PEAK_Z * np.sqrt(heights[at] + base)) & (rise >= PEAK_DEPTH * heights.max())
    return [int(i) for i in at[keep]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=1, max_size=60))
def test_histogram_peaks_match_scipy(counts: list[int]) -> None:
    drawn = features.bars(typed(_histogram(counts)))
    assert list(drawn.peaks) == scipy_peaks(counts)
    assert drawn.tallest == int(np.argmax(counts))


def test_uniform_bars_show_no_peak_and_two_humps_show_two() -> None:
    rng = np.random.default_rng(3)
    uniform, edges = np.histogram(rng.uniform(-50, 130, 600), bins=20)
    assert features.bars(typed(_histogram(uniform.tolist(), edges.tolist()))).peaks == ()
    samples = np.concatenate([rng.normal(0, 1, 3000), rng.normal(8, 1, 2000)])
    counts, edges = np.histogram(samples, bins=40)
    drawn = features.bars(typed(_histogram(counts.tolist(), edges.tolist())))
    assert drawn.peak_centres == pytest.approx([0.0, 8.0], abs=2 * (edges[1] - edges[0]))


def test_a_bar_within_count_noise_is_no_peak() -> None:
    # the uniform panel: a bar of 26 beside dips of 18 while the tallest holds 37
    counts = [30, 18, 26, 19, 33, 37, 31]
    assert features.bars(typed(_histogram(counts))).peaks == ()
    assert math.sqrt(26 + 18) * PEAK_Z > 26 - 18  # the test's own arithmetic


def _scatter(points: np.ndarray) -> dict[str, Any]:
    return {
        "kind": "scatter",
        "distribution": "gmm",
        "data": {"x": points[:, 0].tolist(), "y": points[:, 1].tolist()},
    }


def test_separate_blobs_are_groups_as_kmeans_and_silhouette_agree() -> None:
    rng = np.random.default_rng(8)
    centres = np.array([[0.0, 0.0], [10.0, 1.0], [4.0, 9.0]])
    points = np.concatenate([c + rng.normal(0, 0.8, (40, 2)) for c in centres])
    found = features.groups(typed(_scatter(points)))
    assert found is not None and found.n == 3 and found.separate
    labels = KMeans(3, n_init=10, random_state=0).fit_predict(points)
    assert silhouette_score(points, labels) >= 0.7
    assert found.silhouette == pytest.approx(silhouette_score(points, labels), abs=0.05)


@pytest.mark.parametrize("shape", ["line", "square", "blob"])
def test_a_line_a_square_and_one_blob_are_no_groups(shape: str) -> None:
    rng = np.random.default_rng(2)
    x = rng.uniform(0, 10, 150)
    if shape == "line":
        points = np.column_stack([x, 3 * x + rng.normal(0, 1.5, 150)])
    elif shape == "square":
        points = rng.uniform(0, 10, (150, 2))
    else:
        points = rng.normal(0, 1, (150, 2))
    # Ward splits any cloud, and a line cut in two scores a fair silhouette: the dip decides
    assert features.groups(typed(_scatter(points))) is None


@pytest.fixture(scope="module")
def composed() -> list[Record]:
    return composed_records(load_config("small"), 11, 60)


def test_level2_and_level3_name_the_same_tallest_bar(composed: list[Record]) -> None:
    checked = 0
    for record in composed:
        rows = {(r["panel"], r["level"]): r["text"] for r in describe_record(record)}
        for panel in record.panels:
            if panel.kind != "histogram":
                continue
            level2 = re.search(
                rf"tallest bar holds about \S+ at about {NUMBER}", rows[(panel.index, 2)]
            )
            level3 = re.search(
                rf"(?:tallest(?: bar)? is near|one main peak, near) {NUMBER}",
                rows[(panel.index, 3)],
            )
            if level2 and level3:
                checked += 1
                assert level2.group(1) == level3.group(1), (
                    rows[(panel.index, 2)],
                    rows[(panel.index, 3)],
                )
    assert checked >= 5


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_silhouette_matches_scikit_learn(seed: int, k: int) -> None:
    from scipy.spatial.distance import pdist, squareform

    rng = np.random.default_rng(seed)
    points = rng.normal(0, 1, (40, 2)) + rng.integers(0, 3, (40, 1)) * 4
    labels = rng.integers(0, k, 40)
    labels[:k] = np.arange(k)  # every label used (scikit-learn wants two or more)
    ours = features.silhouette(squareform(pdist(points)), labels)
    assert ours == pytest.approx(silhouette_score(points, labels), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(8, 60))
def test_cuts_match_scipy_fcluster(seed: int, n: int) -> None:
    from scipy.cluster.hierarchy import fcluster, linkage

    points = np.random.default_rng(seed).normal(0, 1, (n, 2))
    tree = linkage(points, method="ward")
    for k, labels in features.cuts(tree, n, range(2, 7)).items():
        theirs = fcluster(tree, k, criterion="maxclust")
        # the same partition: each of our groups is one of theirs
        assert len(set(zip(labels.tolist(), theirs.tolist(), strict=True))) == k
        assert len(set(labels.tolist())) == k


def test_small_groups_with_an_empty_band_are_groups_as_a_gaussian_mixture_finds() -> None:
    # the panel (seed 0, figure 1, panel 1 at its drawn shape): 6 and 15 points with an
    # empty band between them; too few points for the dip, the gap shows them
    panel = composed_records(load_config(None), 0, 2)[1].panels[1]
    points = features.drawn_points(panel, 1.387)
    assert points is not None and len(points) == 21
    found = features.groups(panel, 1.387)
    assert found is not None and found.n == 2
    one, two = (GaussianMixture(k, random_state=0).fit(points) for k in (1, 2))
    assert two.bic(points) < one.bic(points)
    mixture = two.predict(points)
    assert sorted(np.bincount(mixture).tolist()) == [6, 15]
    second = mixture == 1
    log_n = math.log(len(points))
    assert features.dip_z(points, second) < features.DIP_BASE + features.DIP_PER_LOG * log_n
    assert len(points) * features.gap_share(points, second) >= (
        features.GAP_BASE + features.GAP_PER_LOG * log_n
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.5, 4.0))
def test_gap_share_reaches_the_widest_margin_of_a_linear_svm(seed: int, apart: float) -> None:
    rng = np.random.default_rng(seed)
    first = rng.normal(0, 1, (20, 2))
    angle = rng.uniform(0, np.pi)
    second = rng.normal(0, 1, (15, 2)) + (6 + apart) * np.array([np.cos(angle), np.sin(angle)])
    points = np.concatenate([first, second])
    labels = np.r_[np.zeros(20), np.ones(15)].astype(bool)
    svm = SVC(kernel="linear", C=1e6).fit(points, labels)
    if svm.score(points, labels) < 1:
        return  # not separable by a line: no empty strip to compare
    w = svm.coef_[0]
    along = points @ (w / np.linalg.norm(w))
    theirs = (2 / np.linalg.norm(w)) / np.ptp(along)  # the widest strip, over its extent
    ours = features.gap_share(points, labels)
    # the best of 90 directions does at least as well as the margin's, less a 2-degree step
    assert ours >= theirs - 0.02
    assert ours <= 1


def test_dip_z_counts_the_bands_by_hand() -> None:
    # five points at 0 and at 1, and each group one point at 0.5: centroids 1/12 and 11/12, so
    # along the line between them the points sit at -0.1, 1.1 (inside the end bands) and 0.5:
    # ends (5 + 5) / 2 = 5, middle 2 -> z = 3 / sqrt(7)
    xs = [0.0] * 5 + [0.5] + [1.0] * 5 + [0.5]
    points = np.column_stack([xs, np.zeros(12)])
    second = np.array([False] * 6 + [True] * 6)
    assert features.dip_z(points, second) == pytest.approx(3 / math.sqrt(7))
    # three midway points each: centroids 3/16 and 13/16, the clumps at -0.3 and 1.3 fall
    # outside the end bands, the middle holds all six -> no dip
    xs = [0.0] * 5 + [0.5] * 3 + [1.0] * 5 + [0.5] * 3
    points = np.column_stack([xs, np.zeros(16)])
    assert features.dip_z(points, np.array([False] * 8 + [True] * 8)) == 0.0


def test_uniform_boxes_rarely_show_groups() -> None:
    # the thresholds are percentiles of a Ward-split uniform box: on boxes of every shape
    # (square to a line), groups must stay rare
    rng = np.random.default_rng(26)
    found = 0
    for _ in range(300):
        n = int(rng.integers(12, 120))
        aspect = float(np.exp(rng.uniform(0, np.log(50))))
        box = rng.uniform(0, 1, (n, 2)) * np.array([aspect, 1.0])
        found += features.groups(typed(_scatter(box))) is not None
    assert found <= 9  # 3%
