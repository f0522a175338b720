"""Invariants on arbitrary replies: parsing and scoring never raise, and stay in range."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.density.metrics import score_chart
from figgen.density.parse import parse_tables

from .helpers import rows, table

TRUTH = table([("a", x, x * x) for x in range(6)] + [("b", x, 3.0) for x in range(6)])
cells = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["a", "b", "A ", "Series 1", "", "n/a", "1e400", "~3", "-0"]),
    st.text(max_size=8),
)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_parses_without_raising(text: str) -> None:
    parsed = parse_tables(text)
    assert (parsed.format_error is None) == bool(parsed.charts)
    assert all(chart for chart in parsed.charts)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(cells, cells, cells), max_size=30))
def test_any_table_scores_in_range(values: list[tuple[str, str, str]]) -> None:
    score = score_chart(rows(*values), TRUTH)
    assert 0 <= score.point_coverage <= 1 and score.completeness >= 0
    assert score.matched_points <= 12
    if score.parseable:
        assert score.mae is not None and score.rmse is not None
        assert 0 <= score.mae <= score.rmse + 1e-9 <= 100 + 1e-9
    for value in (score.rms_precision, score.rms_recall, score.rms_f1, score.rnss):
        assert 0 <= value <= 1 + 1e-9
