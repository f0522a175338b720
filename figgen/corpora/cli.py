"""``figgen corpora ...`` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Build the word and formula lists from arXiv source files.", no_args_is_help=True
)


@app.callback()
def corpora() -> None:
    """Build the word and formula lists from arXiv source files."""


@app.command()
def build(
    sources: Annotated[
        list[Path],
        typer.Argument(help="jsonl files of arXiv abstract records or full-text papers."),
    ],
    out: Annotated[Path, typer.Option("--out", help="Directory for words.txt and formulas.txt.")],
    n_words: Annotated[int, typer.Option(min=1, help="Words to keep.")] = 1000,
    max_formulas: Annotated[int, typer.Option(min=1, help="Most formulas to keep.")] = 1000,
    max_formula_chars: Annotated[
        int, typer.Option(min=1, help="Longest formula source kept, in characters.")
    ] = 40,
) -> None:
    """Write OUT/words.txt (top content words) and OUT/formulas.txt (inline math)."""
    from figgen.corpora.build import build_corpora

    summary = build_corpora(
        sources,
        out,
        n_words=n_words,
        max_formulas=max_formulas,
        max_formula_chars=max_formula_chars,
    )
    drops = ", ".join(
        f"{reason} {count}" for reason, count in summary.formula_drops.items() if count
    )
    typer.echo(f"{summary.words} words -> {summary.words_path}")
    typer.echo(f"{summary.formulas} formulas -> {summary.formulas_path}")
    typer.echo(f"dropped formula occurrences: {drops or 'none'}")
    if summary.over_cap:
        typer.echo(f"{summary.over_cap} more good formulas left out by --max-formulas")
