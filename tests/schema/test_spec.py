from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.schema.spec import FigureSpec

CFG = FigureConfig()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), index=st.integers(0, 10**6))
def test_spec_survives_a_json_round_trip(seed: int, index: int) -> None:
    spec = sample_figure(CFG, seed, index)
    text = json.dumps(spec.to_dict())
    again = FigureSpec.from_dict(json.loads(text))
    assert again == spec
    assert json.dumps(again.to_dict()) == text


def test_same_seed_same_spec_and_layout_survives_resampling() -> None:
    first, second = sample_figure(CFG, 5, 17), sample_figure(CFG, 5, 17)
    assert first == second
    resampled = sample_figure(CFG, 5, 17, attempt=1)
    assert resampled.layout == first.layout
    assert resampled != first


def test_panels_fill_the_grid_in_reading_order() -> None:
    for index in range(60):
        spec = sample_figure(CFG, 1, index)
        layout = spec.layout
        assert 1 <= layout.n_panels <= 25
        assert layout.rows * layout.cols >= layout.n_panels > (layout.rows - 1) * layout.cols
        cells = [(p.row, p.col) for p in spec.panels]
        assert cells == sorted(cells) and len(set(cells)) == layout.n_panels
        assert all(p.row < layout.rows and p.col < layout.cols for p in spec.panels)


def test_plain_dicts_equal_dataclasses_asdict_and_share_nothing() -> None:
    import dataclasses
    from collections import namedtuple

    from figgen._util.plain import as_plain_dict
    from figgen.build.sampling import sample_figure
    from figgen.config.load import FigureConfig

    cfg = FigureConfig()
    for index in range(6):
        spec = sample_figure(cfg, 4, index)
        plain = spec.to_dict()
        assert plain == dataclasses.asdict(spec)
        panel = plain["panels"][0]
        for key, value in panel["data"].items():  # lists of numbers are copies, not views
            if isinstance(value, list) and value:
                assert value is not spec.panels[0].data[key]

    Point = namedtuple("Point", "x y")

    @dataclasses.dataclass
    class Inner:
        values: list[float]
        pairs: tuple[tuple[int, str], ...]

    @dataclasses.dataclass
    class Outer:
        inner: Inner
        nested: dict[str, list[list[float]]]
        point: Point
        other: set[int]

    outer = Outer(Inner([1.0, 2.5], ((1, "a"),)), {"g": [[0.1], [0.2, None]]}, Point(1, [2]), {3})
    plain = as_plain_dict(outer)
    assert plain == dataclasses.asdict(outer)
    assert type(plain["point"]) is Point and type(plain["inner"]["pairs"]) is tuple
    plain["inner"]["values"].append(9.0)
    plain["nested"]["g"][0].append(9.0)
    plain["other"].add(4)
    assert outer.inner.values == [1.0, 2.5] and outer.nested["g"][0] == [0.1]
    assert outer.other == {3}
