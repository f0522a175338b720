"""A small run of ``benchmarks/fault_kill.py``: every command killed once, rerun, compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.fault_kill import run_trials

pytestmark = pytest.mark.e2e


@pytest.mark.slow
def test_every_command_survives_a_kill(tmp_path: Path) -> None:
    messages: list[str] = []
    tally = run_trials(tmp_path, trials=1, seed=3, log=messages.append)
    assert tally.trials == 5, messages
    assert tally.failures == [], messages
    assert tally.identical == tally.trials
    assert tally.lost == 0 and tally.asked_twice == 0
