"""Descriptions heard through a real speech synthesiser: no symbol spelled out, a normal pace.

espeak-ng (Debian package ``espeak-ng``; ``.ci/run`` installs it) speaks each text to a WAV
file. A symbol a listener would hear spelled out ("less or equal to", "backslash") stretches the
time per written letter, so each text's seconds per letter (pauses at punctuation left out)
must stay within ``SLACK`` of the same synthesiser's pace on plain English prose. A digit
counts as four letters, as it is read.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import wave
from importlib.resources import files
from pathlib import Path

import pytest

from figgen.config.load import load_config
from figgen.schema.record import Record
from figgen.vqa import describe_record
from figgen.words.spoken import spoken
from tests.vqa.records import composed_records

ESPEAK = shutil.which("espeak-ng")
pytestmark = [
    pytest.mark.tts,
    pytest.mark.skipif(
        ESPEAK is None,
        reason="espeak-ng is not installed (apt-get install espeak-ng; .ci/run installs it)",
    ),
]

PROSE = (
    'The left panel is a line plot titled "solar wind speed". The x axis is labelled "time" '
    'and linear. The y axis is labelled "flux density" and linear. It shows two lines. A '
    'legend names them "north" and "south". The weather was fine this morning, so we walked '
    "along the river to the old market and sat in the park to watch the boats go by."
)
"""Plain English with quoted names, as descriptions quote titles (a quote is a short pause)."""
SLACK = 1.35
"""Seconds per letter may exceed plain prose's by this factor at most."""
DIGIT = 4
PAUSES = re.compile(r"[\"',;:()\[\]]|\.(?!\d)")
"""Punctuation a synthesiser pauses at (a full stop, not a decimal point)."""


def letters(text: str) -> int:
    """Written letters, a digit counting as ``DIGIT`` (as it is read out: "seven")."""
    return max(sum(c.isalpha() for c in text) + DIGIT * sum(c.isdigit() for c in text), 1)


def seconds(text: str, wav: Path) -> float:
    """How long espeak-ng takes to say ``text`` at its default rate, without the pauses of
    punctuation (a short alt text is mostly quotes and commas: pauses, not words)."""
    assert ESPEAK is not None
    words_only = PAUSES.sub(" ", text)
    subprocess.run(
        [ESPEAK, "-w", str(wav), "--stdin"], input=words_only.encode(), check=True, timeout=120
    )
    with wave.open(str(wav)) as sound:
        return sound.getnframes() / sound.getframerate()


@pytest.fixture(scope="module")
def pace(tmp_path_factory: pytest.TempPathFactory) -> float:
    """Seconds per letter of plain prose."""
    return seconds(PROSE, tmp_path_factory.mktemp("prose") / "prose.wav") / letters(PROSE)


def _records(n: int) -> list[Record]:
    return composed_records(load_config("small"), 23, n)


def test_a_spelled_out_symbol_is_heard(pace: float, tmp_path: Path) -> None:
    """The check can fail: raw LaTeX, and symbols a synthesiser spells out, stretch the time."""
    label = r"$\langle i,j\rangle \leq \infty$ and $f_{\rm c}$"
    raw = [f"The x axis is labelled {label}.", 'The y axis is labelled "E ≤ ∞ ± σ".']
    for i, text in enumerate(raw):
        assert seconds(text, tmp_path / f"raw{i}.wav") / letters(text) > SLACK * pace, text
    said = f"The x axis is labelled {spoken(label)}."
    assert seconds(said, tmp_path / "said.wav") / letters(said) <= SLACK * pace, said


def test_descriptions_sound_like_speech(pace: float, tmp_path: Path) -> None:
    """Each figure's texts (numbers heard in Level 2), and its alt texts, one figure at a time."""
    slow = []
    for record in _records(6):
        rows = describe_record(record)
        prose = " ".join(dict.fromkeys(row["text"] for row in rows))
        alts = " ".join(dict.fromkeys(row["alt_text"] for row in rows))
        for name, text in (("text", prose), ("alt", alts)):
            per_word = seconds(text, tmp_path / f"{record.id}-{name}.wav") / letters(text)
            if per_word > SLACK * pace:
                slow.append((round(per_word / pace, 2), text))
    assert not slow, slow


def test_formulas_sound_like_speech(pace: float, tmp_path: Path) -> None:
    """The 60 shipped formulas with the most symbols, read in groups of ten."""
    text = files("figgen.corpora").joinpath("data/formulas.txt").read_text(encoding="utf-8")
    formulas = [line.split("\t")[-1] for line in text.splitlines() if line and line[0] != "#"]
    busiest = sorted(formulas, key=lambda f: -sum(not c.isalnum() for c in f))[:60]
    for start in range(0, len(busiest), 10):
        group = ". ".join(spoken(f"${f}$") for f in busiest[start : start + 10]) + "."
        per_word = seconds(group, tmp_path / f"f{start}.wav") / letters(group)
        assert per_word <= SLACK * pace, (round(per_word / pace, 2), group)
