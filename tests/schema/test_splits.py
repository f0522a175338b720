from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.errors import FiggenError
from figgen.export.schema import FIGURE_FEATURES, QA_FEATURES, figure_row, item_from_qa_row, qa_row
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record
from figgen.schema.splits import SPLITS, SplitFractions, assign_splits, split_of
from tests.export.fixtures import hand_items, hand_record


def _expected_split(figure_id: str, train: float, validation: float) -> str:
    # Written independently of figgen.schema.splits: first 8 bytes of the salted sha256.
    value = int(hashlib.sha256(("figgen-split:" + figure_id).encode()).hexdigest()[:16], 16)
    u = value / 18446744073709551616
    return "train" if u < train else ("validation" if u < train + validation else "test")


@given(st.text(min_size=1, max_size=20))
def test_split_matches_an_independent_hash(figure_id: str) -> None:
    fractions = SplitFractions(0.6, 0.3, 0.1)
    assert split_of(figure_id, fractions) == _expected_split(figure_id, 0.6, 0.3)


@settings(max_examples=30)
@given(st.floats(0.0, 0.9), st.floats(0.0, 0.1))
def test_raising_train_share_only_moves_figures_into_train(train: float, extra: float) -> None:
    small = SplitFractions(train, (1 - train) / 2, 1 - train - (1 - train) / 2)
    big_train = train + extra
    big = SplitFractions(big_train, (1 - big_train) / 2, 1 - big_train - (1 - big_train) / 2)
    for i in range(200):
        fid = f"fig-{i:06d}"
        if split_of(fid, small) == "train":
            assert split_of(fid, big) == "train"


def test_split_shares_follow_fractions() -> None:
    fractions = SplitFractions(0.7, 0.2, 0.1)
    ids = [f"fig-{i:06d}" for i in range(5000)]
    counts = {s: 0 for s in ("train", "validation", "test")}
    for fid in ids:
        counts[split_of(fid, fractions)] += 1
    assert abs(counts["train"] / 5000 - 0.7) < 0.03
    assert abs(counts["validation"] / 5000 - 0.2) < 0.03
    assert abs(counts["test"] / 5000 - 0.1) < 0.03


@pytest.mark.parametrize("text", ["0.5,0.5", "a,b,c", "0.5,0.5,0.5", "-0.1,0.6,0.5"])
def test_bad_split_fractions_are_one_line_errors(text: str) -> None:
    with pytest.raises(FiggenError) as info:
        SplitFractions.parse(text)
    assert "\n" not in str(info.value) and "--splits" in str(info.value)


def test_figure_row_keeps_layout_elements_and_panels() -> None:
    record = hand_record(4)
    row = figure_row(Record.from_dict(record), b"png")
    assert row["figure_id"] == "fig-000004"
    assert (row["n_panels"], row["rows"], row["cols"]) == (2, 1, 2)
    assert json.loads(row["panels"]) == record["panels"]
    assert [e["bbox"] for e in row["elements"]] == [e["bbox"] for e in record["elements"]]
    assert row["elements"][0]["panel"] is None and row["elements"][0]["text"] is None
    assert row["elements"][2]["text"] == record["elements"][2]["text"]
    assert set(row) == set(FIGURE_FEATURES)
    # the features accept the row (types and nesting agree)
    FIGURE_FEATURES.encode_example(row)


def test_qa_row_round_trips_every_item_field() -> None:
    for item in hand_items(hand_record(2)):
        row = qa_row(item, b"png")
        assert set(row) == set(QA_FEATURES)
        assert json.loads(row["answer"]) == item.answer
        assert item_from_qa_row(row) == item
        QA_FEATURES.encode_example(row)


def test_element_list_is_a_list_of_structs_not_a_dict_of_lists() -> None:
    from datasets import List

    assert isinstance(FIGURE_FEATURES["elements"], List)
    assert isinstance(FIGURE_FEATURES["elements"].feature, dict)
    assert QAItem.__dataclass_fields__.keys() <= set(QA_FEATURES) | {"image"}


def test_a_twenty_figure_build_gets_all_three_splits() -> None:
    ids = [f"fig-{i:06d}" for i in range(20)]
    plain = {fid: split_of(fid, SplitFractions()) for fid in ids}
    assert "validation" not in plain.values()  # the pure hash rule leaves one empty here
    assigned = assign_splits(ids, SplitFractions())
    assert set(assigned.values()) == set(SPLITS)
    moved = [fid for fid in ids if assigned[fid] != plain[fid]]
    assert len(moved) == 1 and assigned[moved[0]] == "validation"


@settings(max_examples=60)
@given(
    st.sets(st.text(min_size=1, max_size=12), min_size=3, max_size=30),
    st.floats(0.05, 0.9),
    st.floats(0.05, 0.9),
)
def test_assignment_fills_every_split_and_moves_few(ids: set[str], a: float, b: float) -> None:
    train = a / (a + b + 0.1)
    validation = b / (a + b + 0.1)
    fractions = SplitFractions(train, validation, 1 - train - validation)
    figure_ids = sorted(ids)
    assigned = assign_splits(figure_ids, fractions)
    assert sorted(assigned) == figure_ids
    assert set(assigned.values()) == set(SPLITS)
    plain = {fid: split_of(fid, fractions) for fid in figure_ids}
    empty = len(set(SPLITS) - set(plain.values()))
    assert sum(assigned[f] != plain[f] for f in figure_ids) == empty


def test_large_datasets_keep_the_pure_hash_rule() -> None:
    ids = [f"fig-{i:06d}" for i in range(500)]
    assert assign_splits(ids, SplitFractions()) == {f: split_of(f, SplitFractions()) for f in ids}
