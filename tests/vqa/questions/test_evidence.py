"""Evidence precise enough to point at: the extreme mark, the marker at the asked x."""

from __future__ import annotations

import json
import math
from pathlib import Path

from figgen.vqa import questions_for_record


def test_extremes_and_value_at_x_point_at_their_marks(small_build: Path) -> None:
    seen = {"min_y": 0, "max_y": 0, "value_at_x": 0}
    for path in sorted((small_build / "figures").glob("*.json")):
        record = json.loads(path.read_text())
        by_id = {e["id"]: e for e in record["elements"]}
        for item in questions_for_record(record):
            if item.family not in seen:
                continue
            evidence = [by_id[i] for i in item.evidence]
            marks = [e for e in evidence if e["kind"] in ("point", "marker")]
            panel = next(p for p in record["panels"] if p["index"] == item.panel)
            if item.family == "value_at_x":
                assert [e["kind"] for e in evidence].count("line") == 1
                assert len(marks) <= 1
                if marks:  # drawn with markers: the one at the asked x, holding the answer
                    assert math.isclose(marks[0]["value"][1], item.answer, rel_tol=1e-5)
                    x = float(item.question.split("at x = ")[1].split("?")[0])
                    assert math.isclose(marks[0]["value"][0], x, rel_tol=1e-3)
                    seen[item.family] += 1
                continue
            if not marks:
                continue
            # recompute the extreme from the panel's data, not from the elements
            if panel["kind"] == "scatter":
                ys = panel["data"]["y"]
            else:
                ys = panel["data"]["series"][marks[0]["series"]]["y"]
            extreme = min(ys) if item.family == "min_y" else max(ys)
            assert all(math.isclose(e["value"][1], extreme, rel_tol=1e-5) for e in marks)
            holding = [y for y in ys if math.isclose(y, extreme, rel_tol=1e-5)]
            assert len(marks) == len(holding)
            seen[item.family] += 1
    assert all(n > 0 for n in seen.values()), seen
