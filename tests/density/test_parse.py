"""The reply parser: chart delimiters, structural cues and formatting failures."""

from __future__ import annotations

from figgen.density.parse import parse_tables

TABLE = "| Series Name | X Value | Y Value |\n|---|---|---|\n"


def test_explicit_headings_split_charts() -> None:
    text = (
        "Here are the tables.\n\n### Chart 1\n" + TABLE + "| a | 1 | 2 |\n| b | 1 | 3 |\n\n"
        "**Chart 2:**\n" + TABLE + "| c | 5 | 6 |\n"
    )
    parsed = parse_tables(text)
    assert parsed.segmentation == "explicit"
    assert [[r.series for r in chart] for chart in parsed.charts] == [["a", "b"], ["c"]]


def test_a_chart_column_splits_one_table() -> None:
    text = "| Chart | Series Name | X Value | Y Value |\n|---|---|---|---|\n"
    text += "| 1 | a | 1 | 2 |\n| 1 | a | 2 | 3 |\n| 2 | a | 1 | 9 |\n"
    parsed = parse_tables(text)
    assert parsed.segmentation == "column" and [len(c) for c in parsed.charts] == [2, 1]


def test_separate_tables_are_separate_charts() -> None:
    parsed = parse_tables(TABLE + "| a | 1 | 2 |\n\n" + TABLE + "| b | 1 | 2 |\n")
    assert parsed.segmentation == "tables" and len(parsed.charts) == 2


def test_one_continuous_table_is_cut_by_series_and_x_structure() -> None:
    body = "".join(f"| {s} | {x} | 1 |\n" for s in ("a", "b") for x in (1, 2, 3))
    body += "".join(f"| c | {x} | 1 |\n" for x in (10, 20, 30))  # other x values: chart 2
    body += "".join(f"| a | {x} | 1 |\n" for x in (10, 20, 30))  # a repeats: still chart 2?
    parsed = parse_tables(TABLE + body)
    assert parsed.segmentation == "structural"
    assert [sorted({r.series for r in c}) for c in parsed.charts] == [["a", "b"], ["a", "c"]]
    body += "".join(f"| c | {x} | 1 |\n" for x in (10, 20, 30))  # c repeats: chart 3
    assert len(parse_tables(TABLE + body).charts) == 3


def test_formatting_failures_are_recorded_not_raised() -> None:
    assert parse_tables("I cannot read this chart.").format_error == "no_table"
    assert parse_tables("").format_error == "empty_reply"
    parsed = parse_tables(TABLE + "| a | 1 | 2 |\n| broken |\n```\n| a | 2 |\n")
    assert parsed.format_error is None and parsed.malformed_rows == 2
    assert len(parsed.charts) == 1 and parsed.charts[0][0].y == "2"


def test_cells_keep_their_text_for_scoring() -> None:
    parsed = parse_tables(TABLE + "| **Revenue** | 2019 | ~1,250 |\n")
    row = parsed.charts[0][0]
    assert (row.series, row.x, row.y) == ("Revenue", "2019", "~1,250")


def test_reasoning_is_ignored_and_heading_rows_split_charts() -> None:
    text = "<think>| draft | 1 | 2 |\nChart 7</think>\n" + TABLE
    text += "| **Chart 1** | | |\n| a | 1 | 2 |\n| **Chart 2** | | |\n| a | 1 | 5 |\n"
    parsed = parse_tables(text)
    assert parsed.segmentation == "explicit"
    assert [[r.y for r in chart] for chart in parsed.charts] == [["2"], ["5"]]


def test_charts_whose_series_share_a_name_and_integer_x_split_where_x_resets() -> None:
    # three single-series charts, each called "Series 1" over x = 0..4: one run of 15 rows
    # by name, cut where x goes back to 0 (a repeat and a step against the rising x)
    body = "".join(f"| Series 1 | {x} | {c * 10 + x} |\n" for c in range(3) for x in range(5))
    parsed = parse_tables(TABLE + body)
    assert parsed.segmentation == "structural"
    assert [[int(r.y) for r in chart] for chart in parsed.charts] == [
        [c * 10 + x for x in range(5)] for c in range(3)
    ]


def test_a_series_set_that_starts_again_is_the_next_chart() -> None:
    # charts 1 and 2 both have series a, b over the same x: a after b starts chart 2
    body = "".join(f"| {s} | {x} | 1 |\n" for _ in range(2) for s in ("a", "b") for x in (1, 2, 3))
    charts = parse_tables(TABLE + body).charts
    assert [[r.series for r in c] for c in charts] == [["a"] * 3 + ["b"] * 3] * 2


def test_falling_x_and_unordered_labels_stay_one_series() -> None:
    falling = "".join(f"| s | {x} | 1 |\n" for x in (9, 7, 5, 3, 1))
    labels = "".join(f"| s | {x} | 1 |\n" for x in ("b", "a", "c"))
    assert len(parse_tables(TABLE + falling).charts) == 1
    assert len(parse_tables(TABLE + labels).charts) == 1
    # a falling run that turns back up has started again
    assert len(parse_tables(TABLE + falling + "| s | 2 | 1 |\n").charts) == 2
