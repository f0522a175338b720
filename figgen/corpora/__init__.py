"""Word and formula lists from arXiv text, shipped as package data, and the code that builds them."""

from __future__ import annotations

# Temporary lists until the corpus builder lands; replaced by figgen/corpora/data/*.txt.
_WORDS = (
    "energy",
    "density",
    "time",
    "model",
    "mass",
    "temperature",
    "flux",
    "distance",
    "velocity",
    "frequency",
    "galaxy",
    "network",
    "learning",
    "error",
    "field",
    "phase",
    "spectrum",
    "signal",
    "radius",
    "pressure",
    "quantum",
    "rate",
    "noise",
    "loss",
)
_FORMULAS = (
    r"\alpha",
    r"\sigma_{x}",
    r"10^{-3}",
    r"\nabla \cdot B",
    r"E_{\rm kin}",
    r"\lambda",
    r"x^2",
    r"\mu_0",
    r"\omega t",
    r"\Delta t",
)


def words() -> tuple[str, ...]:
    return _WORDS


def formulas() -> tuple[str, ...]:
    return _FORMULAS
