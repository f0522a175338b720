"""The one registry type: duplicate names refused, unknown names listed, order kept."""

from __future__ import annotations

import pytest

from figgen._util.registry import Registry
from figgen.errors import FiggenError


def test_a_name_registered_twice_is_refused() -> None:
    kinds: Registry[int] = Registry("plot kind")
    kinds.add("line", 1)
    with pytest.raises(ValueError, match="plot kind 'line' is registered twice"):
        kinds.add("line", 2)
    assert kinds["line"] == 1


def test_decorator_registers_and_returns_the_thing() -> None:
    makers: Registry[object] = Registry("provider")

    @makers.decorator("fake")
    def make() -> str:
        return "made"

    assert makers["fake"] is make and make() == "made"


def test_unknown_name_is_one_line_naming_the_known_ones() -> None:
    ops: Registry[str] = Registry("operator")
    ops.add("sum", "+")
    ops.add("mean", "avg")
    with pytest.raises(FiggenError) as info:
        ops.get_or_fail("median")
    assert str(info.value) == "unknown operator 'median'; known: sum, mean"
    assert "\n" not in str(info.value)


def test_mapping_view_keeps_registration_order() -> None:
    reg: Registry[int] = Registry("metric")
    for i, name in enumerate(["b", "a", "c"]):
        reg.add(name, i)
    assert list(reg) == ["b", "a", "c"] and len(reg) == 3 and "a" in reg and "z" not in reg
    assert dict(reg.items()) == {"b": 0, "a": 1, "c": 2}
