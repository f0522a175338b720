"""One parser per answer type, registered beside the parsing code."""

from __future__ import annotations

import pytest

from figgen.eval.scoring.parse import PARSERS, Rejected, coerce, parses
from figgen.schema.answer_types import ANSWER_TYPES


def test_every_answer_type_has_a_parser_and_every_parser_a_type() -> None:
    assert set(PARSERS) == set(ANSWER_TYPES)


def test_a_second_parser_of_a_type_is_refused() -> None:
    with pytest.raises(ValueError, match="answer parser 'number' is registered twice"):
        parses("number")(lambda value, choices: value)


def test_only_scalar_types_read_a_bare_reply() -> None:
    bare = {name for name, parser in PARSERS.items() if parser.bare is not None}
    assert bare == {"integer", "number", "boolean", "choice"}


def test_coerce_dispatches_on_the_type() -> None:
    assert coerce("1,234", "integer") == 1234
    assert coerce("3 x 4", "integer_pair") == [3, 4]
    assert coerce("north", "choice", ["North", "South"]) == "North"
    with pytest.raises(Rejected, match="unknown answer type 'float'"):
        coerce("1", "float")  # type: ignore[arg-type]
