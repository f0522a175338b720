"""Score answers files against a density manifest: one :class:`CompoundScore` per reply.

Replies are parsed again from their raw text, so a better parser rescores old runs. A
compound whose every attempt failed (no reply) is not processed; it is counted apart as
unanswered, and a resumed run asks it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from figgen.density.manifest import DensityManifest
from figgen.density.match import X_TOLERANCE, Matching
from figgen.density.metrics import CompoundScore, score_compound
from figgen.density.parse import parse_tables
from figgen.errors import FiggenError
from figgen.eval.cost.usage import Usage
from figgen.schema.answers import latest_rows, read_answers


@dataclass
class ModelScores:
    """One model's scored compounds, unanswered compounds and what its calls cost."""

    compounds: list[CompoundScore] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    usage_by_density: dict[int, Usage] = field(default_factory=dict)


def score_rows(
    manifest: DensityManifest,
    rows: Sequence[dict[str, Any]],
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
) -> dict[str, ModelScores]:
    """Scores by model of answer rows (the last reply per compound and model)."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_model.setdefault(str(row["model"]), []).append(row)
    known = {c.id: c for c in manifest.compounds}
    scores: dict[str, ModelScores] = {}
    for model, model_rows in sorted(by_model.items()):
        result = ModelScores()
        for row in model_rows:
            compound = known.get(row["qid"])
            if compound is None:
                raise FiggenError(
                    f"answer {row['qid']} of {model} is not a compound of this build; "
                    "score answers against the --data they were asked on"
                )
            tokens = row.get("usage") or {}
            usage = Usage(
                int(tokens.get("input_tokens", 0)),
                int(tokens.get("output_tokens", 0)),
                float(row.get("cost_usd") or 0.0),
            )
            result.usage += usage
            before = result.usage_by_density.get(compound.density, Usage())
            result.usage_by_density[compound.density] = before + usage
        for qid, row in latest_rows(model_rows).items():
            compound = known[qid]
            if row.get("raw") is None:
                result.unanswered.append(qid)
                continue
            parsed = parse_tables(row["raw"])
            result.compounds.append(
                score_compound(
                    qid,
                    compound.sources,
                    parsed.charts,
                    manifest.tables,
                    format_error=parsed.format_error,
                    x_tolerance=x_tolerance,
                    matching=matching,
                )
            )
        scores[model] = result
    return scores


def read_answer_files(answer_files: Sequence[str | Path]) -> list[dict[str, Any]]:
    """Every answer row of the files, in order; a missing or empty set is a one-line error."""
    rows: list[dict[str, Any]] = []
    for path in answer_files:
        if not Path(path).is_file():
            raise FiggenError(f"answers file {path} does not exist; run figgen density run first")
        rows += read_answers(path)
    if not rows:
        raise FiggenError("the answers files hold no answers; run figgen density run first")
    return rows


def score_files(
    manifest: DensityManifest,
    answer_files: Sequence[str | Path],
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
) -> dict[str, ModelScores]:
    rows = read_answer_files(answer_files)
    return score_rows(manifest, rows, x_tolerance=x_tolerance, matching=matching)
