"""A human baseline: a page where people answer a sample of the benchmark, scored like models."""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.human.sample import stratified_sample
    from figgen.human.server import human_server
    from figgen.human.study import open_study

__getattr__ = lazy_exports(
    __name__,
    {
        "stratified_sample": "figgen.human.sample",
        "human_server": "figgen.human.server",
        "open_study": "figgen.human.study",
    },
)

__all__ = ["human_server", "open_study", "stratified_sample"]
