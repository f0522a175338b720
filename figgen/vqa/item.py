"""The question item's old path, kept for lmms-eval exports already written: their copied
``utils.py`` imports :class:`QAItem` from here. New code imports :mod:`figgen.schema.qa_item`."""

from figgen.schema.qa_item import QAItem

__all__ = ["QAItem"]
