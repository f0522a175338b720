"""The build: same bytes for any worker count, resume after a kill, clear errors."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.build import BuildStore
from figgen.build.dataset import build_dataset, write_figure
from figgen.config.load import FigureConfig
from figgen.errors import BuildDirError, FiggenError


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "figures").iterdir())}


def test_manifest_counts_agree_with_records(small_build: Path) -> None:
    manifest = json.loads((small_build / "manifest.json").read_text())
    records = [json.loads(p.read_text()) for p in sorted((small_build / "figures").glob("*.json"))]
    assert manifest["status"] == "complete" and manifest["n"] == len(records) == 6
    assert manifest["seed"] == 11
    kinds = [p["kind"] for r in records for p in r["panels"]]
    assert manifest["counts"]["panels"] == len(kinds)
    assert manifest["counts"]["by_kind"] == {k: kinds.count(k) for k in sorted(set(kinds))}
    multi = sum(r["layout"]["n_panels"] > 1 for r in records) / len(records)
    assert manifest["counts"]["multi_panel_share"] == round(multi, 4)
    assert manifest["figgen_version"] and "config" in manifest


@pytest.mark.slow
def test_worker_count_does_not_change_a_byte(
    tmp_path: Path,
    small_build: Path,
    small_config: FigureConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    parallel = tmp_path / "parallel"
    with caplog.at_level(logging.INFO, logger="figgen.vqa.files"):
        build_dataset(parallel, n=6, seed=11, workers=2, config=small_config, progress=False)
    assert "(6 made by the build's workers)" in caplog.text
    assert _files(parallel) == _files(small_build)
    for name in ("qa.jsonl", "descriptions.jsonl"):  # made by the workers, joined in order
        assert (parallel / name).read_bytes() == (small_build / name).read_bytes()
    assert sorted(p.name for p in parallel.iterdir()) == sorted(
        p.name for p in small_build.iterdir()
    )  # no .qa-parts left


def test_interrupted_build_resumes_without_touching_finished_files(
    tmp_path: Path,
    small_build: Path,
    small_config: FigureConfig,
) -> None:
    out = tmp_path / "ds"
    build_dataset(
        out, n=2, seed=11, workers=1, config=small_config, progress=False, questions=False
    )
    figures = out / "figures"
    # A kill during figure 2: its PNG half-written as a temporary, no record yet.
    (figures / "fig-000002.png.tmp-999").write_bytes(b"\x89PNG partial")
    write_figure(BuildStore.open(out), 11, 3, small_config)
    (figures / "fig-000003.json").unlink()  # killed between the PNG and its record
    before = {p.name: p.stat().st_mtime_ns for p in figures.glob("fig-00000[01].*")}

    summary = build_dataset(out, n=6, seed=11, workers=1, config=small_config, progress=False)
    assert summary.generated == 4 and summary.skipped == 2
    assert {p.name: p.stat().st_mtime_ns for p in figures.glob("fig-00000[01].*")} == before
    assert not list(figures.glob("*.tmp-*"))
    assert _files(out) == _files(small_build)


def test_a_build_killed_before_joining_the_questions_resumes_to_the_same_files(
    tmp_path: Path,
    small_build: Path,
    small_config: FigureConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    out = tmp_path / "ds"
    build_dataset(
        out, n=3, seed=11, workers=1, config=small_config, progress=False, questions=False
    )
    store = BuildStore.open(out)
    store.makedirs(".qa-parts")  # as a build with questions prepares it
    for index in range(3, 6):  # what the workers left: figures and their question parts
        write_figure(store, 11, index, small_config, questions=True)
    assert len(list((out / ".qa-parts").glob("*.jsonl"))) == 3
    (out / ".qa-parts" / "fig-000004.jsonl.tmp-999").write_text("half a part")

    with caplog.at_level(logging.INFO, logger="figgen.vqa.files"):
        summary = build_dataset(out, n=6, seed=11, workers=1, config=small_config, progress=False)
    assert summary.generated == 0
    assert "(3 made by the build's workers)" in caplog.text  # the parts were joined, not redone
    for name in ("qa.jsonl", "descriptions.jsonl", "manifest.json"):
        assert (out / name).read_bytes() == (small_build / name).read_bytes(), name
    assert not (out / ".qa-parts").exists()


def test_rerun_of_a_finished_build_does_nothing(
    small_build: Path, small_config: FigureConfig
) -> None:
    before = _files(small_build)
    summary = build_dataset(
        small_build, n=6, seed=11, workers=1, config=small_config, progress=False
    )
    assert summary.generated == 0
    assert _files(small_build) == before


@pytest.mark.parametrize("n", [0, -3])
def test_non_positive_n_is_refused(tmp_path: Path, n: int) -> None:
    with pytest.raises(FiggenError, match="--n must be a positive"):
        build_dataset(tmp_path / "x", n=n)
    assert not (tmp_path / "x").exists()


def test_another_builds_folder_is_refused_and_left_intact(
    small_build: Path,
    small_config: FigureConfig,
) -> None:
    before = _files(small_build)
    manifest = (small_build / "manifest.json").read_bytes()
    with pytest.raises(BuildDirError, match="holds another build"):
        build_dataset(small_build, n=6, seed=12, config=small_config, progress=False)
    with pytest.raises(BuildDirError, match="holds another build"):
        build_dataset(small_build, n=6, seed=11, config=FigureConfig(), progress=False)
    assert _files(small_build) == before
    assert (small_build / "manifest.json").read_bytes() == manifest


def test_foreign_folder_and_unwritable_folder_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(BuildDirError, match="not empty"):
        build_dataset(foreign, n=1)
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("x")
        with pytest.raises(BuildDirError, match="is a file|cannot write"):
            build_dataset(blocker / "sub", n=1)
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(BuildDirError, match="cannot write"):
            build_dataset(locked / "sub", n=1)


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    from figgen._cli.main import main

    bad = tmp_path / "bad.toml"
    bad.write_text("[text]\ntitel_p = 0.3\n")
    for args in (
        ["build", "--n", "0", "--out", str(tmp_path / "a")],
        ["build", "--n", "1", "--out", str(tmp_path / "b"), "--config", str(bad)],
    ):
        result = _run_main(main, args)
        assert result[0] == 2
        lines = result[1].strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result[1]
    assert (
        "titel_p"
        in _run_main(
            main, ["build", "--n", "1", "--out", str(tmp_path / "c"), "--config", str(bad)]
        )[1]
    )


def _run_main(main, args: list[str]) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    import contextlib
    import io
    import sys

    err = io.StringIO()
    old = sys.argv
    sys.argv = ["figgen", *args]
    try:
        with contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        return int(exc.code or 0), err.getvalue()
    finally:
        sys.argv = old
    return 0, err.getvalue()


def test_cli_build_and_show(tmp_path: Path, small_build: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "boxes.png"
    result = runner.invoke(app, ["show", str(small_build), "fig-000001", "--out", str(out)])
    assert result.exit_code == 0, result.output
    from PIL import Image

    original = Image.open(small_build / "figures" / "fig-000001.png").convert("RGB")
    boxed = Image.open(out).convert("RGB")
    width, height = original.size
    assert boxed.width == width and boxed.height > height  # the key sits below the image
    assert boxed.crop((0, 0, width, height)).tobytes() != original.tobytes()
    # the key shows a swatch of every drawn kind's colour, and no other colour of a kind
    from figgen.view.boxes_png import kind_colours

    record = json.loads((small_build / "figures" / "fig-000001.json").read_text())
    drawn = {e["kind"] for e in record["elements"]} - {"figure"}
    band = np.asarray(boxed.crop((0, height, width, boxed.height))).reshape(-1, 3)
    key = {tuple(int(c) for c in pixel) for pixel in np.unique(band, axis=0)}
    rgb = {
        kind: tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for kind, c in kind_colours().items()
    }
    assert {colour for colour in rgb.values() if colour in key} == {rgb[k] for k in drawn}
