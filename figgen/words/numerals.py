"""How answers and question texts write numbers."""

from __future__ import annotations


def round_sig(value: float, digits: int = 6) -> float:
    """Round to ``digits`` significant figures, keeping JSON small and answers stable."""
    if value == 0 or value != value:
        return float(value)
    return float(f"{value:.{digits}g}")


def number_text(value: float) -> str:
    """A drawn x value as a reader would see it quoted: at most 4 significant figures."""
    text = f"{value:.4g}"
    return text.replace("e+0", "e").replace("e-0", "e-").replace("e+", "e")
