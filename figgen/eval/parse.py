"""The reply parser's old path, kept for lmms-eval exports already written: their copied
``utils.py`` imports :func:`parse_reply` from here. New code imports
:mod:`figgen.eval.scoring.parse`."""

from figgen.eval.scoring.parse import parse_reply

__all__ = ["parse_reply"]
