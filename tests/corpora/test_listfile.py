"""The list file format round-trips and rejects what it cannot hold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.corpora.listfile import format_list, parse_list

_item = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
        min_size=1,
        max_size=12,
    )
    .map(str.strip)
    .filter(bool)
)


@given(
    st.lists(st.text(alphabet="abc $#\\", max_size=20), max_size=3),
    st.dictionaries(_item, st.integers(0, 10**7), max_size=8),
)
def test_format_then_parse_round_trips(header: list[str], counts: dict[str, int]) -> None:
    text = format_list(header, list(counts.items()))

    parsed = parse_list(text)

    assert parsed.header == tuple(line.rstrip() for line in header)
    assert dict(parsed.entries) == counts
    keys = [(-count, item) for item, count in parsed.entries]
    assert keys == sorted(keys)


def test_format_sorts_by_count_then_item() -> None:
    text = format_list(["head"], [("b", 1), ("a", 1), ("c", 5)])
    assert text == "# head\n5\tc\n1\ta\n1\tb\n"


@pytest.mark.parametrize("item", ["a\tb", "a\nb", "", " a"])
def test_format_rejects_items_that_do_not_fit_a_line(item: str) -> None:
    with pytest.raises(ValueError, match="one line"):
        format_list([], [(item, 1)])


@pytest.mark.parametrize("line", ["word", "x\tword", "1\t", "-1\tword", " 1\tword"])
def test_parse_rejects_malformed_lines(line: str) -> None:
    with pytest.raises(ValueError, match="line 2"):
        parse_list(f"# header\n{line}\n")
