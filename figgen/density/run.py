"""Ask a model for every compound's tables through figgen's eval runner.

Each compound is one item (qid = compound id) of an :class:`EvalDataset` rooted at the
density build, so retries, context-overflow shrinking, ``--max-cost``, cost tracking and
resume are the runner's. Only the prompt, the reply parser and the reply-length estimate
differ from ``figgen eval run``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from figgen.density.manifest import DensityManifest, load_manifest
from figgen.density.parse import parse_tables
from figgen.density.prompt import extraction_prompt
from figgen.eval.providers import MockProvider, Provider
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.run_options import AskTask, RunOptions
from figgen.eval.run.runner import RunSummary, run_questions
from figgen.eval.scoring.parse import ParsedAnswer
from figgen.schema.qa_item import QAItem

FAMILY = "density_table"
TOKENS_PER_ROW = 12
"""Reply tokens assumed per table row ("| Series 3 | 12.5 | -40.25 |") in the estimate."""


def compound_items(
    manifest: DensityManifest, densities: Sequence[int] | None = None
) -> list[QAItem]:
    """One item per compound, in manifest order; the answer names the ordered sources."""
    wanted = set(densities) if densities else None
    prompt = extraction_prompt(set(manifest.kinds.values()))
    return [
        QAItem(
            qid=c.id,
            figure_id=c.id,
            level=1,
            scope="figure",
            panel=None,
            location=None,
            family=FAMILY,
            question=prompt,
            answer={"sources": c.sources},
            answer_type="string",
            answer_key="tables",
            metric="exact",
        )
        for c in manifest.compounds
        if wanted is None or c.density in wanted
    ]


def parse_answer(text: str, item: QAItem) -> ParsedAnswer:
    """The runner's parse hook: rows per chart and the format; a reply without a table is
    rejected."""
    parsed = parse_tables(text)
    return ParsedAnswer(parsed.summary(), parsed.format_error is not None, parsed.format_error)


def truth_reply(manifest: DensityManifest, compound_id: str) -> str:
    """The reply a perfect model gives: each source's table under a "Chart N" heading."""
    compound = manifest.compound(compound_id)
    return "\n\n".join(
        f"Chart {i}\n{manifest.tables[sid].markdown()}"
        for i, sid in enumerate(compound.sources, start=1)
    )


def oracle_provider(manifest: DensityManifest, model: str = "oracle") -> Provider:
    """A mock provider that answers every compound with its ground-truth tables."""
    return MockProvider(model, answer=lambda prompt: truth_reply(manifest, prompt.item.qid))


def _output_tokens(manifest: DensityManifest) -> Callable[[QAItem], int]:
    def estimate(item: QAItem) -> int:
        rows = sum(len(manifest.tables[s].rows) + 3 for s in item.answer["sources"])
        return TOKENS_PER_ROW * rows

    return estimate


async def run_density(
    folder: str | Path,
    provider: Provider,
    options: RunOptions,
    *,
    densities: Sequence[int] | None = None,
    limit: int | None = None,
    images: ImagePreparer | None = None,
) -> RunSummary:
    """Ask ``provider`` for the tables of every compound not yet answered in ``options.out``
    (``images``: a preparer whose images to reuse, as a benchmark's second pass does)."""
    manifest = load_manifest(folder)
    items = compound_items(manifest, densities)
    if limit is not None:
        items = items[:limit]
    task = AskTask(
        prompt_of=lambda item: item.question,
        parse=parse_answer,
        output_tokens_of=_output_tokens(manifest),
    )
    dataset = EvalDataset(Path(folder), items)
    return await run_questions(dataset, items, provider, options, images=images, task=task)
