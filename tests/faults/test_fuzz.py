"""Hypothesis fuzzing of everything that reads outside input: no exception may escape.

Each reader must turn any input into a value or a recorded rejection: the answer parser into
a ``ParsedAnswer`` (parsed, or rejected with a reason), the config loader into a config or a
one-line ``ConfigError``, the record and question readers into a record / items or a one-line
``FiggenError``, the density benchmark's table parser into tables or a named format
error. Every property runs a few hundred cases in the quick suite and 10,000 in the
slow one.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from figgen.config.load import FigureConfig, config_from_dict, load_config
from figgen.density.parse import parse_tables
from figgen.errors import ConfigError, FiggenError
from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.parse import ParsedAnswer, parse_reply
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record, read_record
from tests.eval.fixtures import items

QUICK, SLOW = 300, 10_000
ITEMS = items()  # one item of every answer type

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)


def _one_line(exc: Exception) -> None:
    message = str(exc)
    assert message and "\n" not in message and "Traceback" not in message


_CHECKS = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
quick = settings(max_examples=QUICK, deadline=None, database=None, suppress_health_check=_CHECKS)
slow = settings(max_examples=SLOW, deadline=None, database=None, suppress_health_check=_CHECKS)


# --- the answer parser ----------------------------------------------------------------------

_TYPES: dict[str, Callable[[Any], bool]] = {
    # 2.5 for a count is readable and scores wrong, so integers may come back as numbers
    "integer": lambda v: not isinstance(v, bool) and isinstance(v, int | float),
    "number": lambda v: isinstance(v, float) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "choice": lambda v: isinstance(v, str),
    "string": lambda v: isinstance(v, str),
    "string_list": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "choice_list": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    # a pair of the wrong length is a readable answer that scores wrong, not a rejection
    "integer_pair": lambda v: isinstance(v, list) and all(_TYPES["integer"](x) for x in v),
    "number_pair": lambda v: isinstance(v, list) and all(_TYPES["number"](x) for x in v),
    "number_list": lambda v: isinstance(v, list) and all(_TYPES["number"](x) for x in v),
}


@st.composite
def replies(draw: st.DrawFn) -> tuple[str, QAItem]:
    """A reply as models write them: prose, fences, JSON with or without the key, junk."""
    item = draw(st.sampled_from(ITEMS))
    value = draw(json_values | st.just(item.answer))
    keyed = json.dumps({draw(st.sampled_from([item.answer_key, "answer", ""])): value})
    body = draw(
        st.sampled_from(
            [keyed, f"```json\n{keyed}\n```", json.dumps(value), f"Sure! {keyed} Hope it helps."]
        )
    )
    noise = draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
    braces = draw(st.text(alphabet='{}[]",:`\\ ', max_size=40))
    cut = draw(st.integers(0, len(body)))
    pieces = [noise + body, body[:cut], braces + body + braces, noise, braces]
    return draw(st.sampled_from(pieces)), item


def _parse_property(reply: tuple[str, QAItem]) -> None:
    text, item = reply
    parsed = parse_reply(text, item)
    assert isinstance(parsed, ParsedAnswer)
    if parsed.rejected:
        assert parsed.reason
    else:
        assert _TYPES[item.answer_type](parsed.value), (item.answer_type, parsed.value)


@quick
@given(replies())
def test_answer_parser(reply: tuple[str, QAItem]) -> None:
    _parse_property(reply)


@pytest.mark.slow
@slow
@given(replies())
def test_answer_parser_10k(reply: tuple[str, QAItem]) -> None:
    _parse_property(reply)


# --- the config loader ----------------------------------------------------------------------


def _schema() -> dict[str, list[str]]:
    """Section name -> its keys, for the config's sections (pydantic models)."""
    out = {}
    for name, field in FigureConfig.model_fields.items():
        model = field.annotation
        if isinstance(model, type) and hasattr(model, "model_fields"):
            out[name] = list(model.model_fields)
    return out


SECTIONS = _schema()
config_values = (
    json_scalars
    | st.lists(st.integers(-5, 600) | st.floats(-5, 600, allow_nan=False), max_size=3)
    | st.dictionaries(st.text(max_size=8), st.floats(-1, 2, allow_nan=False), max_size=3)
)


@st.composite
def config_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly real section and key names, with plausible and absurd values."""
    out: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 3))):
        section = draw(st.sampled_from([*SECTIONS, "bogus"]))
        keys = SECTIONS.get(section, ["x"])
        entries = draw(st.dictionaries(st.sampled_from([*keys, "nope"]), config_values, max_size=3))
        out[section] = draw(st.sampled_from([entries, draw(config_values)]))
    return out


def _config_property(tmp_path: Path, values: dict[str, Any], form: str, junk: str) -> None:
    path = tmp_path / ("config.json" if form != "toml" else "config.toml")
    if form == "json":
        path.write_text(json.dumps(values), encoding="utf-8")
    elif form == "toml":
        path.write_text(junk, encoding="utf-8")
    else:  # a JSON file cut short
        text = json.dumps(values)
        path.write_text(text[: len(text) // 2], encoding="utf-8")
    for load in (lambda: load_config(path), lambda: config_from_dict(values)):
        try:
            config = load()
        except ConfigError as exc:
            _one_line(exc)
        else:
            assert isinstance(config, FigureConfig)
            assert config_from_dict(config.to_dict()) == config  # a valid config round-trips


toml_junk = st.text(alphabet="[]=\"'.#\n abcdefgilnoprstu0123456789", max_size=80)
config_cases = {
    "values": config_dicts(),
    "form": st.sampled_from(["json", "toml", "cut"]),
    "junk": toml_junk,
}


@quick
@given(**config_cases)
@example(values={"panels": {"\n": 0.0}}, form="json", junk="")  # a key that broke the line
def test_config_loader(tmp_path: Path, values: dict[str, Any], form: str, junk: str) -> None:
    _config_property(tmp_path, values, form, junk)


@pytest.mark.slow
@slow
@given(**config_cases)
def test_config_loader_10k(tmp_path: Path, values: dict[str, Any], form: str, junk: str) -> None:
    _config_property(tmp_path, values, form, junk)


# --- the record and question readers --------------------------------------------------------


@pytest.fixture(scope="module")
def real_record(small_build: Path) -> bytes:
    return (small_build / "figures" / "fig-000000.json").read_bytes()


@st.composite
def damaged(draw: st.DrawFn, original: bytes) -> bytes:
    """A stored file cut short, with bytes flipped, keys dropped or values replaced."""
    how = draw(st.sampled_from(["cut", "flip", "drop", "replace", "bytes", "version"]))
    if how == "cut":
        return original[: draw(st.integers(0, len(original)))]
    if how == "flip":
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 5))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data)
    if how == "bytes":
        return draw(st.binary(max_size=200))
    value = json.loads(original)
    key = draw(st.sampled_from(sorted(value)))
    if how == "drop":
        del value[key]
    elif how == "replace":
        value[key] = draw(json_values)
    else:
        value["generator"] = {"name": "figgen", "version": draw(st.text(max_size=12))}
    return json.dumps(value).encode()


def _record_property(data: bytes) -> None:
    try:
        record = read_record(data, "figures/fig-000000.json")
    except FiggenError as exc:
        _one_line(exc)
    else:
        assert isinstance(record, Record) and isinstance(record.panels, list)


@quick
@given(data=st.data())
def test_record_reader(real_record: bytes, data: st.DataObject) -> None:
    _record_property(data.draw(damaged(real_record)))


@pytest.mark.slow
@slow
@given(data=st.data())
def test_record_reader_10k(real_record: bytes, data: st.DataObject) -> None:
    _record_property(data.draw(damaged(real_record)))


def _qa_property(root: Path, line: bytes) -> None:
    good = json.dumps(ITEMS[0].to_dict()).encode()
    (root / "qa.jsonl").write_bytes(good + b"\n" + line + b"\n" + good + b"\n")
    try:
        dataset = load_dataset(root)
    except FiggenError as exc:
        _one_line(exc)
    else:
        assert all(isinstance(item, QAItem) for item in dataset.items)


QA_LINE = json.dumps(ITEMS[5].to_dict()).encode()


@quick
@given(line=damaged(QA_LINE))
def test_question_reader(tmp_path: Path, line: bytes) -> None:
    _qa_property(tmp_path, line)


@pytest.mark.slow
@slow
@given(line=damaged(QA_LINE))
def test_question_reader_10k(tmp_path: Path, line: bytes) -> None:
    _qa_property(tmp_path, line)


# --- the density benchmark's table parser ---------------------------------------------------

table_cells = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(-(10**9), 10**9).map(str),
    st.sampled_from(["Series 1", "A ", "", "n/a", "1e400", "~3", "-0", "1,234", "|", "---"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
)


@st.composite
def table_replies(draw: st.DrawFn) -> str:
    """A reply as models write tables: headings, pipes, fences, ragged rows, cuts, junk."""
    parts = []
    for n in range(draw(st.integers(0, 4))):
        rows = draw(st.lists(st.tuples(table_cells, table_cells, table_cells), max_size=8))
        heading = draw(st.sampled_from([f"Chart {n + 1}", f"**Chart {n + 1}:**", f"### {n}", ""]))
        body = "\n".join("| " + " | ".join(row) + " |" for row in rows)
        header = draw(st.sampled_from(["| Series Name | X Value | Y Value |\n|---|---|---|", ""]))
        parts.append(f"{heading}\n{header}\n{body}")
    text = "\n\n".join(parts)
    wrap = draw(st.sampled_from(["{}", "```\n{}\n```", "<think>x</think>{}", "Sure: {} done"]))
    text = wrap.replace("{}", text)
    cut = draw(st.integers(0, len(text)))
    noise = draw(st.text(alphabet="|-:*#`\n {}", max_size=30))
    return draw(st.sampled_from([text, text[:cut], noise + text, noise]))


def _table_property(text: str) -> None:
    parsed = parse_tables(text)
    assert (parsed.format_error is None) == bool(parsed.charts)
    for chart in parsed.charts:
        assert chart and all(isinstance(row.series, str) for row in chart)
    json.dumps(parsed.summary())  # what the answers file stores


@quick
@given(table_replies())
def test_density_table_parser(text: str) -> None:
    _table_property(text)


@pytest.mark.slow
@slow
@given(table_replies())
def test_density_table_parser_10k(text: str) -> None:
    _table_property(text)
