"""Invariants over random hand-built records: any grid, any mix of kinds."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from figgen.vqa import describe_record, parse_location, questions_for_record
from tests.schema.test_qa_item import fits
from tests.vqa.records import contour_panel, histogram_panel, line_panel, make_record, scatter_panel

MAKERS = {
    "line": lambda rng, d: line_panel(rng, distribution=d),
    "scatter": lambda rng, d: scatter_panel(rng, distribution=d, n=20),
    "histogram": lambda rng, d: histogram_panel(rng, distribution=d, n=300, bins=12),
    "contour": lambda rng, d: contour_panel(rng),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 4),
    cols=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    kinds=st.lists(st.sampled_from(sorted(MAKERS)), min_size=16, max_size=16),
    dists=st.lists(st.sampled_from(["linear", "gmm", "random"]), min_size=16, max_size=16),
)
def test_items_are_well_formed_for_any_grid(
    rows: int, cols: int, seed: int, kinds: list[str], dists: list[str]
) -> None:
    rng = np.random.default_rng(seed)
    panels = [MAKERS[k](rng, d) for k, d in zip(kinds[: rows * cols], dists, strict=False)]
    record = make_record(panels, rows, cols, index=seed)
    items = questions_for_record(record)
    assert len({i.qid for i in items}) == len(items)
    assert all(fits(i) for i in items)
    by_panel: dict[int, set[str]] = {}
    for item in items:
        if item.panel is not None:
            by_panel.setdefault(item.panel, set()).add(item.location or "")
    # one phrase per panel, distinct between panels, and it reads back to the panel's cell
    assert all(len(phrases) == 1 for phrases in by_panel.values())
    assert len({next(iter(p)) for p in by_panel.values()}) == len(by_panel)
    for index, phrases in by_panel.items():
        panel = record["panels"][index]
        assert parse_location(next(iter(phrases)), rows, cols) == (panel["row"], panel["col"])
    assert [i.to_dict() for i in questions_for_record(record)] == [i.to_dict() for i in items]
    assert len(describe_record(record)) == 3 * (1 + rows * cols)
