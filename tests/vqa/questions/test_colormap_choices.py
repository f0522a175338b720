"""The colormap question does not leak: every offered map is the answer one time in five."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from scipy.stats import chi2

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.kinds import KINDS
from figgen.kinds.api import COLORMAPS
from figgen.vqa.questions.colormap_choices import CHOICE_GROUPS, MIN_DIFFERENCE, colormap_choices
from figgen.vqa.questions.colormap_choices import colormap_difference as difference
from tests.vqa.records import typed


def test_groups_partition_the_generators_pool_into_clearly_different_maps() -> None:
    members = [name for group in CHOICE_GROUPS for name in group]
    assert sorted(members) == sorted(COLORMAPS) and len(members) == len(set(members))
    for group in CHOICE_GROUPS:
        assert len(group) == 5
        assert all(difference(a, b) >= MIN_DIFFERENCE for a, b in itertools.combinations(group, 2))


def _offered_and_right(figures: int) -> tuple[Counter[str], Counter[str]]:
    """Over the colormap questions of sampled figures: how often each map is offered / right."""
    offered: Counter[str] = Counter()
    right: Counter[str] = Counter()
    config = FigureConfig()
    for index in range(figures):
        spec = sample_figure(config, 3, index).to_dict()
        for panel in spec["panels"]:
            name = KINDS[panel["kind"]].shown_colormap(typed(panel))
            choices = colormap_choices(name) if name else None
            if choices:
                offered.update(choices)
                right[name] += 1
    return offered, right


def test_p_answer_given_offered_is_flat_chi_square() -> None:
    offered, right = _offered_and_right(400)
    assert sum(right.values()) > 500  # enough questions for the test to have power
    p = 1 / 5
    # each map's right count is binomial(offered, 1/5) when the choice prior is flat
    statistic = sum((right[m] - p * n) ** 2 / (n * p * (1 - p)) for m, n in offered.items())
    assert chi2.sf(statistic, df=len(offered)) > 0.001
    # and no map is far from 1/5 on its own
    assert max(right[m] / n for m, n in offered.items()) < 0.35


@pytest.mark.parametrize("name", ["viridis", "turbo", "hot"])
def test_a_map_is_offered_only_with_its_own_group(name: str) -> None:
    group = next(g for g in CHOICE_GROUPS if name in g)
    assert colormap_choices(name) == sorted(group, key=str.lower)
