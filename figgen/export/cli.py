"""``figgen export`` and ``figgen push`` commands."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from figgen.errors import FiggenError
from figgen.export.hub import check_push_allowed, check_repo_id, push_dataset  # declares the token


class ExportFormat(StrEnum):
    hf = "hf"
    coco = "coco"
    lmms_eval = "lmms-eval"
    vlmevalkit = "vlmevalkit"
    sft = "sft"


class SplitName(StrEnum):
    train = "train"
    validation = "validation"
    test = "test"


DataDir = Annotated[Path, typer.Argument(help="Dataset folder written by `figgen build`.")]
SplitsOption = Annotated[
    str, typer.Option("--splits", help="Train,validation,test shares of the figures.")
]
NameOption = Annotated[str, typer.Option("--name", help="Dataset name shown on the card.")]
LicenseOption = Annotated[str, typer.Option("--license", help="Hub license id for the card.")]


def _counts(split_counts: dict[str, dict[str, int]]) -> str:
    return "; ".join(
        f"{config}: " + ", ".join(f"{split} {n}" for split, n in counts.items())
        for config, counts in split_counts.items()
    )


def _check_license(license: str) -> None:
    from figgen.hf_card.check import HUB_LICENSES

    if license not in HUB_LICENSES:
        raise FiggenError(f"--license {license!r} is not a Hub license id; e.g. cc-by-sa-4.0")


def export(
    data_dir: DataDir,
    out: Annotated[Path, typer.Option("--out", help="Folder to write (created).")],
    format: Annotated[ExportFormat, typer.Option("--format", help="What to write.")] = (
        ExportFormat.hf
    ),
    splits: SplitsOption = "0.8,0.1,0.1",
    split: Annotated[
        SplitName | None,
        typer.Option(
            "--split",
            help="lmms-eval: split to test on (default test); "
            "vlmevalkit: only this split (default all); sft: split to train on (default train).",
        ),
    ] = None,
    name: NameOption = "figgen multi-panel charts",
    license: LicenseOption = "cc-by-sa-4.0",
    repo: Annotated[
        str | None, typer.Option("--repo", help="hf: Hub id named in the card's examples.")
    ] = None,
    dataset_path: Annotated[
        str | None,
        typer.Option(
            "--dataset-path",
            help="lmms-eval: Hub id or HF folder to load; default: an HF export written to OUT/hf.",
        ),
    ] = None,
    task: Annotated[str, typer.Option("--task", help="lmms-eval task name.")] = "figgen_qa",
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a non-empty OUT.")] = (
        False
    ),
) -> None:
    """Export a dataset as a Hub-ready HF folder, COCO boxes, an eval-harness task, or SFT data."""
    from figgen.schema.splits import SplitFractions

    fractions = SplitFractions.parse(splits)
    if format is ExportFormat.hf:
        from figgen.export.hf import HfOptions, export_hf

        _check_license(license)
        options = HfOptions(fractions, name, license, repo)
        result = export_hf(data_dir, out, options, overwrite=overwrite)
        typer.echo(f"wrote {out} ({_counts(result.split_counts)})")
    elif format is ExportFormat.coco:
        from figgen.export.coco import export_coco

        typer.echo(f"wrote {export_coco(data_dir, out, overwrite=overwrite)}")
    elif format is ExportFormat.lmms_eval:
        from figgen.harness.lmms.export import export_lmms_eval

        path = export_lmms_eval(
            data_dir,
            out,
            dataset_path=dataset_path,
            task=task,
            split=(split or SplitName.test).value,
            fractions=fractions,
            overwrite=overwrite,
        )
        typer.echo(
            f"wrote {path}; run with `python -m lmms_eval --tasks {task} --include_path {out} ...`"
        )
    elif format is ExportFormat.sft:
        from figgen.export.sft import DATASET_NAME, export_sft

        path = export_sft(
            data_dir,
            out,
            fractions=fractions,
            split=(split or SplitName.train).value,
            overwrite=overwrite,
        )
        lines = sum(1 for _ in path.open(encoding="utf-8"))
        typer.echo(
            f"wrote {path} ({lines} examples); TRL: figgen.export.sft.load_sft({str(out)!r}), "
            f"LLaMA-Factory: --dataset_dir {out} --dataset {DATASET_NAME}"
        )
    else:
        from figgen.harness.vlmevalkit.export import DATASET_TYPES, export_vlmevalkit

        paths = export_vlmevalkit(
            data_dir,
            out,
            fractions=fractions,
            split=split.value if split else None,
            overwrite=overwrite,
        )
        for path in paths:
            typer.echo(f"wrote {path} (VLMEvalKit dataset type {DATASET_TYPES[path.stem]})")
        typer.echo(f"copy them to $LMUData and run with --data {' '.join(p.stem for p in paths)}")


def push(
    data_dir: DataDir,
    repo: Annotated[str, typer.Option("--repo", help="Hub dataset id, ORG/NAME.")],
    private: Annotated[bool, typer.Option("--private", help="Create the repo private.")] = False,
    token: Annotated[
        str | None,
        typer.Option(
            "--token", help="Hub token (default: HF_TOKEN or a saved login).", show_default=False
        ),
    ] = None,
    splits: SplitsOption = "0.8,0.1,0.1",
    name: NameOption = "figgen multi-panel charts",
    license: LicenseOption = "cc-by-sa-4.0",
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Write and list what would be uploaded; no token, no network."
        ),
    ] = False,
) -> None:
    """Push both configs (figures, qa) and the dataset card to the HuggingFace Hub."""
    # Refuse before any work: offline mode, a bad repo id or no token end here.
    if dry_run:
        check_repo_id(repo)
    else:
        token = check_push_allowed(repo, token)
    _check_license(license)
    from figgen.export.hf import HfOptions
    from figgen.schema.splits import SplitFractions

    options = HfOptions(SplitFractions.parse(splits), name, license)
    result = push_dataset(data_dir, repo, options, private=private, token=token, dry_run=dry_run)
    if result.dry_run:
        for path, size in result.files.items():
            typer.echo(f"{size:>12,d}  {path}")
        total = sum(result.files.values())
        typer.echo(
            f"dry run: would push {len(result.files)} files ({total / 2**20:.1f} MiB) to "
            f"{result.url} ({_counts(result.split_counts)}); nothing was uploaded"
        )
        return
    typer.echo(f"pushed {result.url} ({_counts(result.split_counts)})")


def register(app: typer.Typer) -> None:
    """Add the export commands to the top-level app."""
    app.command("export")(export)
    app.command("push")(push)
