"""Errors that reach a user as one line naming the problem and the fix."""

from __future__ import annotations


class FiggenError(Exception):
    """A problem with the user's input or environment, stated in one line.

    The CLI prints ``str(error)`` and exits non-zero; library callers may catch it.
    """


class ConfigError(FiggenError):
    """A configuration file or value is invalid."""


class BuildDirError(FiggenError):
    """An output directory cannot be used for this build."""


class BuildInterrupted(FiggenError):
    """The user stopped a build (Ctrl-C); finished figures are kept for a resume."""

    def __init__(self, kept: int) -> None:
        super().__init__(f"interrupted: {kept} figures kept; run the same command to resume")
        self.kept = kept


class RepairFailed(FiggenError):
    """The layout could not be freed of overlaps within the attempt budget."""
