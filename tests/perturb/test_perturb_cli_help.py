"""``figgen perturb --help`` shows its whole example on an 80-column terminal and wider."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("columns", [80, 120])  # below 80, rich cuts any long word
def test_help_never_cuts_the_example(columns: int) -> None:
    env = {**os.environ, "COLUMNS": str(columns)}
    result = subprocess.run([sys.executable, "-m", "figgen", "perturb", "--help"],
                            capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert result.returncode == 0
    assert "…" not in result.stdout
    assert "noise,jpeg:quality=20,rotate:degrees=8" in result.stdout.split()
    assert "background_text," in result.stdout.split()
