"""The shipped list format: ``#`` provenance lines, then ``<count>\\t<item>`` lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CountedList:
    """A parsed list file: its header lines (without ``# ``) and its entries in file order."""

    header: tuple[str, ...]
    entries: tuple[tuple[str, int], ...]

    @property
    def items(self) -> tuple[str, ...]:
        """The entries without their counts."""
        return tuple(item for item, _ in self.entries)


def format_list(header: Iterable[str], entries: Sequence[tuple[str, int]]) -> str:
    """Render a list file; entries are sorted by count descending, then item.

    Raises:
        ValueError: an item is empty or holds a tab or a line break.
    """
    lines = [f"# {line}".rstrip() for line in header]
    for item, count in sorted(entries, key=lambda entry: (-entry[1], entry[0])):
        if not item or item != item.strip() or any(char in item for char in "\t\r\n"):
            raise ValueError(f"list item {item!r} cannot be written on one line")
        lines.append(f"{count}\t{item}")
    return "".join(f"{line}\n" for line in lines)


def parse_list(text: str) -> CountedList:
    """Parse the text of a list file.

    Raises:
        ValueError: a non-comment line is not ``<count>\\t<item>``.
    """
    header: list[str] = []
    entries: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.startswith("#"):
            header.append(line[2:] if line.startswith("# ") else line[1:])
            continue
        count, tab, item = line.partition("\t")
        if not tab or not count.isdigit() or not item:
            raise ValueError(f"line {number} is not '<count>\\t<item>': {line!r}")
        entries.append((item, int(count)))
    return CountedList(header=tuple(header), entries=tuple(entries))
