"""Check a formula snippet with matplotlib's mathtext: parse it, then draw it in every fontset."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from figgen.corpora.math_snippets import DropReason

if TYPE_CHECKING:
    from matplotlib.mathtext import MathTextParser
    from matplotlib.text import Text

MATHTEXT_FONTSETS: tuple[str, ...] = ("dejavusans", "dejavuserif", "cm", "stix", "stixsans")
"""The mathtext fontsets matplotlib ships; a kept formula draws without warning in all of them."""


def parses(snippet: str, parser: MathTextParser[Any] | None = None) -> bool:
    """True when matplotlib's mathtext parses ``$snippet$``."""
    if parser is None:
        from matplotlib.mathtext import MathTextParser

        parser = MathTextParser("path")
    try:
        parser.parse(f"${snippet}$")
    except ValueError:
        return False
    return True


class _WarningRecords(logging.Handler):
    """Counts the WARNING-or-worse records a logger emits while attached."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextmanager
def _mathtext_log_captured() -> Iterator[_WarningRecords]:
    """Count mathtext's log warnings instead of letting them reach the user's log.

    A snippet that makes mathtext complain is dropped and counted by the build, so the
    complaint itself would only be noise.
    """
    complaints = _WarningRecords()
    mathtext_log = logging.getLogger("matplotlib.mathtext")
    propagate = mathtext_log.propagate
    mathtext_log.addHandler(complaints)
    mathtext_log.propagate = False
    try:
        yield complaints
    finally:
        mathtext_log.removeHandler(complaints)
        mathtext_log.propagate = propagate


class MathtextChecker:
    """Parses snippets and draws them into one reused Agg figure.

    Drawing catches what parsing alone lets through: glyphs a fontset lacks (a warning, which
    counts as a failure here) and layout errors raised only at draw time.
    """

    def __init__(self, fontsets: tuple[str, ...] = MATHTEXT_FONTSETS) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.mathtext import MathTextParser

        self._fontsets = fontsets
        self._parser = MathTextParser("path")
        self._figure = Figure(figsize=(4.0, 1.0), dpi=72)
        self._canvas = FigureCanvasAgg(self._figure)
        self._text: Text = self._figure.text(0.5, 0.5, "", ha="center", va="center")

    def parses(self, snippet: str) -> bool:
        """True when mathtext parses ``$snippet$`` (matplotlib caches the parse)."""
        with _mathtext_log_captured():
            return parses(snippet, self._parser)

    def draws(self, snippet: str) -> bool:
        """True when ``$snippet$`` draws in each of the checker's fontsets without error or warning.

        Warnings count both as :mod:`warnings` and as WARNING records of matplotlib's mathtext
        logger, which is how it reports a glyph it substitutes with a dummy box.
        """
        self._text.set_text(f"${snippet}$")
        with _mathtext_log_captured() as complaints:
            for fontset in self._fontsets:
                self._text.set_math_fontfamily(fontset)
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("error")
                        self._canvas.draw()
                except (ValueError, RuntimeError, KeyError, IndexError, UserWarning):
                    return False
                if complaints.count:
                    return False
        return True

    def failure(self, snippet: str) -> DropReason | None:
        """Why ``snippet`` cannot be used in a matplotlib label, or ``None`` when it can."""
        if not self.parses(snippet):
            return "mathtext_parse"
        if not self.draws(snippet):
            return "mathtext_render"
        return None
