"""Typed panel params read back exactly what every kind's sampler writes, for every
distribution (and the log-axis flags), and the record reads them through the panel."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from figgen.config.load import FigureConfig
from figgen.kinds import KINDS
from figgen.sample.text import default_vocabulary
from figgen.schema import params as p
from figgen.schema.panel import PanelRecord

DISTRIBUTIONS = ("linear", "gmm", "random")
EXPECTED: dict[str, dict[str, type[p.PanelParams]]] = {
    "line": dict.fromkeys(DISTRIBUTIONS, p.LineParams),
    "scatter": {"linear": p.LinearRelation, "gmm": p.Clusters, "random": p.RandomRelation},
    "histogram": {"linear": p.RampSamples, "gmm": p.MixtureSamples, "random": p.UniformSamples},
    "contour": {"linear": p.ContourPlane, "gmm": p.ContourBumps, "random": p.ContourNoise},
    "bar": dict.fromkeys(DISTRIBUTIONS, p.BarParams),
    "heatmap": {"linear": p.ValueGradient, "gmm": p.HeatmapBumps, "random": p.HeatmapBlocks},
    "map": {"linear": p.ValueGradient, "gmm": p.MapSpots, "random": p.MapRandom},
    "box": dict.fromkeys(DISTRIBUTIONS, p.BoxParams),
    "range": dict.fromkeys(DISTRIBUTIONS, p.RangeParams),
    "pie": dict.fromkeys(DISTRIBUTIONS, p.UniformShares),
    "table": dict.fromkeys(DISTRIBUTIONS, p.UniformShares),
}
LINE_SERIES = {"linear": p.LinearRelation, "gmm": p.MixtureRelation, "random": p.RandomRelation}
BAR_SERIES = {"linear": p.LinearBars, "gmm": p.BumpBars, "random": p.RandomBars}


def _sampled(kind: str, distribution: str, log: bool, seed: int) -> dict[str, Any]:
    chance = 1.0 if log else 0.0
    cfg = FigureConfig.model_validate({"style": {"log_x_p": chance, "log_y_p": chance}})
    rng = np.random.default_rng(seed)
    sampled = KINDS[kind].sample(rng, cfg, distribution, dark=False, vocab=default_vocabulary())
    # the record stores what JSON gives back (numpy floats become floats)
    params: dict[str, Any] = json.loads(json.dumps(sampled.params))
    return params


def test_every_kind_has_its_params_registered() -> None:
    assert set(KINDS) == set(p.PANEL_PARAMS) == set(EXPECTED)


@pytest.mark.parametrize("log", [False, True], ids=["linear-axes", "log-axes"])
@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_params_round_trip_exactly(kind: str, distribution: str, log: bool) -> None:
    for seed in range(4):
        stored = _sampled(kind, distribution, log, seed)
        typed = p.read_params(kind, distribution, stored)
        assert type(typed) is EXPECTED[kind][distribution]
        # the same keys in the same order: the record's bytes do not change
        assert json.dumps(typed.to_dict()) == json.dumps(stored)
        if isinstance(typed, p.LineParams):
            assert {type(s) for s in typed.series} == {LINE_SERIES[distribution]}
        if isinstance(typed, p.BarParams):
            assert {type(s) for s in typed.series} == {BAR_SERIES[distribution]}


def test_log_flags_are_read_where_the_sampler_sets_them() -> None:
    line = p.read_params("line", "linear", _sampled("line", "linear", True, 0))
    assert isinstance(line, p.LineParams)
    assert all(isinstance(s, p.LinearRelation) and s.in_log10_x for s in line.series)
    assert all(s.log_y_mapped for s in line.series)
    flat = p.read_params("line", "linear", _sampled("line", "linear", False, 0))
    assert isinstance(flat, p.LineParams) and not any(s.log_y_mapped for s in flat.series)
    assert "log_y_mapped" not in flat.to_dict()["series"][0]


def test_a_panel_reads_its_params_and_writes_the_stored_dict() -> None:
    stored = _sampled("scatter", "gmm", False, 3)
    panel = PanelRecord.from_dict(
        {"index": 0, "row": 0, "col": 0, "kind": "scatter", "distribution": "gmm",
         "params": stored, "data": {"x": [], "y": []}}
    )  # fmt: skip
    clusters = panel.params_as(p.Clusters)
    assert clusters is not None and clusters.centres == stored["centres"]
    assert panel.params_as(p.LinearRelation) is None
    assert panel.to_dict()["params"] is stored


def test_a_longchart_image_reads_its_graph_node() -> None:
    stored = {"multichart": {"image": "fig1", "inputs": ["a", "b"]}}
    typed = p.read_params("bar", "random", stored)
    assert typed == p.ChartGraphParams("fig1", ["a", "b"])
    assert typed.to_dict() == stored


def test_left_out_parameters_read_as_empty() -> None:
    typed = p.read_params("contour", "gmm", {"centres_unit": [[0.5, 0.5]]})
    assert isinstance(typed, p.ContourBumps)
    assert typed.centres_unit == [[0.5, 0.5]] and typed.amplitudes == []


def test_an_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="unknown plot kind 'spiral'; known: line"):
        p.read_params("spiral", "linear", {})
