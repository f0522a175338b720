"""Images prepared once per figure: pre-flight scale, remembered fit, cache, formats, threads."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.errors import FiggenError
from figgen.eval.cost.prices import PriceTable
from figgen.eval.providers import AskConfig, MockError, Prompt, Provider, Reply, oracle_reply
from figgen.eval.providers.image import FigureImage, ImageLimits, media_type_of
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.runner import RetryPolicy, RunOptions, run_questions
from figgen.schema.answers import read_answers
from tests.eval.fake_server import FakeServer, Request, Response, chat_reply, messages_reply
from tests.eval.fixtures import FIGURES, items, offline_options

FAST = RetryPolicy(attempts=3, initial_wait=0.001, max_wait=0.01, jitter=0.001)
ITEMS = {item.qid: item for item in items()}


class SizeLimited(Provider):
    """Refuses prompts whose image has more than ``max_pixels`` as too long; else the truth."""

    def __init__(self, max_pixels: int, delay: float = 0.0) -> None:
        super().__init__("limited")
        self.max_pixels = max_pixels
        self.delay = delay
        self.seen: list[tuple[str, str, int, int]] = []  # qid, figure, width, height

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        image = prompt.image
        self.seen.append((prompt.item.qid, prompt.item.figure_id, image.width, image.height))
        if image.width * image.height > self.max_pixels:
            raise MockError("context_length")
        await asyncio.sleep(self.delay)
        return Reply(oracle_reply(prompt.item))

    def is_context_overflow(self, error: Exception) -> bool:
        return isinstance(error, MockError) and error.kind == "context_length"

    def refusals(self) -> list[tuple[str, str, int, int]]:
        return [s for s in self.seen if s[2] * s[3] > self.max_pixels]


def _run(
    dataset_dir: Path,
    out: Path,
    provider: Provider,
    *,
    concurrency: int = 1,
    limit: int | None = None,
    images: ImagePreparer | None = None,
) -> None:
    dataset = load_dataset(dataset_dir)
    chosen = dataset.items[:limit]
    asyncio.run(
        run_questions(
            dataset,
            chosen,
            provider,
            offline_options("mock:limited", out, FAST, concurrency),
            images=images,
        )
    )


def _preparer(tmp_path: Path, sizes: dict[str, tuple[int, int]], **kw: object) -> ImagePreparer:
    for name, size in sizes.items():
        Image.new("RGB", size, (200, 30, 30)).save(tmp_path / f"{name}.png")
    return ImagePreparer(lambda figure_id: tmp_path / f"{figure_id}.png", **kw)  # type: ignore[arg-type]


def test_first_scale_comes_from_the_long_side_limit_and_earlier_refusals(tmp_path: Path) -> None:
    images = _preparer(
        tmp_path, {"a": (1000, 1000), "b": (2000, 2000)}, limits=ImageLimits(max_long_side=1568)
    )
    assert images.first_scale(3136, 1000) == 0.5
    assert images.first_scale(1000, 1568) == 1.0

    async def go() -> None:
        refused = await images.image("a")
        assert (refused.width, refused.height, refused.scale) == (1000, 1000, 1.0)
        half = await images.smaller("a", refused)
        assert half is not None and (half.width, half.height, half.scale) == (500, 500, 0.5)
        # a million pixels were too many: the next figure starts below that
        other = await images.image("b")
        assert other.width * other.height < 1000 * 1000
        assert other.scale == pytest.approx(1568 / 2000 / 2)

    asyncio.run(go())


def test_each_figure_is_refused_at_most_once_and_its_scale_remembered(
    dataset_dir: Path, tmp_path: Path
) -> None:
    # fig-000000 640x480 (307,200 px) and fig-000002 900x900 are too big, fig-000001 800x400 too
    provider = SizeLimited(max_pixels=300_000)
    out = tmp_path / "a.jsonl"
    _run(dataset_dir, out, provider)
    rows = {r["qid"]: r for r in read_answers(out)}
    assert all(r["error"] is None and not r["rejected"] for r in rows.values())
    # one question, concurrency 1: the first refusal teaches the limit for every figure
    assert len(provider.refusals()) == 1
    assert sum(r["attempts"] for r in rows.values()) == len(rows) + 1
    for qid, row in rows.items():
        width, height = FIGURES[ITEMS[qid].figure_id]["size"]
        assert row["image_size"] == [
            round(width * row["image_scale"]),
            round(height * row["image_scale"]),
        ]
        assert row["image_size"][0] * row["image_size"][1] <= 300_000
        assert row["image_scale"] == 0.5
        assert row["image_media_type"] == "image/png"


def test_concurrent_questions_wait_for_their_figure_scale(
    dataset_dir: Path, tmp_path: Path
) -> None:
    provider = SizeLimited(max_pixels=300_000, delay=0.01)
    images = ImagePreparer(load_dataset(dataset_dir).image_path)
    _run(dataset_dir, tmp_path / "a.jsonl", provider, concurrency=4, images=images)
    refused_figures = [figure for _, figure, _, _ in provider.refusals()]
    # all three figures may be probed at once, but never one figure twice
    assert len(refused_figures) == len(set(refused_figures)) <= len(FIGURES)
    # every image sent was prepared once, however many questions it went with (a figure
    # prepared ahead of its questions may also have been encoded at a size then not sent)
    sizes_sent = {(figure, w, h) for _, figure, w, h in provider.seen}
    assert sizes_sent <= set(images.encodings)
    assert set(images.encodings.values()) == {1}
    assert len(provider.seen) > len(images.encodings)


def test_a_resumed_run_starts_at_the_remembered_scale(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    first = SizeLimited(max_pixels=300_000)
    _run(dataset_dir, out, first, limit=4)  # q000-q003 cover all three figures
    assert first.refusals()
    second = SizeLimited(max_pixels=300_000)
    _run(dataset_dir, out, second)
    assert second.seen and not second.refusals()


def test_images_are_prepared_off_the_event_loop(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    original = FigureImage.scaled

    def slow_scaled(self: FigureImage, factor: float, **kw: object) -> FigureImage:
        threads.append(threading.get_ident())
        time.sleep(0.5)  # a large figure's resize and encode
        return original(self, factor, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(FigureImage, "scaled", slow_scaled)
    out = tmp_path / "a.jsonl"
    _run(dataset_dir, out, SizeLimited(max_pixels=10**9), concurrency=4, limit=6)
    assert threads and threading.get_ident() not in threads
    # latency is timed around the request, not the half-second preparations beside it
    assert all(row["latency_s"] < 0.25 for row in read_answers(out))


def test_jpeg_is_sent_as_jpeg_and_recorded(dataset_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("openai")

    def answer(request: Request, seen: int) -> Response:
        assert request.qid is not None
        return chat_reply(request.model, oracle_reply(ITEMS[request.qid]), 10, 1)

    out = tmp_path / "a.jsonl"
    with FakeServer(answer) as server:
        result = CliRunner().invoke(
            app,
            [
                "eval",
                "run",
                "--data",
                str(dataset_dir),
                "--model",
                "openai-compatible:fake",
                "--base-url",
                server.base_url,
                "--out",
                str(out),
                "--no-progress",
                "--image-format",
                "jpeg",
                "--image-quality",
                "90",
                "--max-image-side",
                "600",
            ],
            catch_exceptions=False,
        )
        assert result.exit_code == 0, result.output
    for request in server.requests:
        content = request.body["messages"][0]["content"]
        url = next(part for part in content if part["type"] == "image_url")["image_url"]["url"]
        header, data = url.split(",", 1)
        assert header == "data:image/jpeg;base64"
        assert media_type_of(base64.b64decode(data)) == "image/jpeg"
        assert request.image_size is not None and max(request.image_size) <= 600
    rows = read_answers(out)
    assert {row["image_media_type"] for row in rows} == {"image/jpeg"}
    fig2 = [row for row in rows if ITEMS[row["qid"]].figure_id == "fig-000002"]
    assert {tuple(row["image_size"]) for row in fig2} == {(600, 600)}


def test_anthropic_gets_a_fitting_image_without_a_refusal(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-anthropic-key")
    # a 3200 x 1600 figure: Anthropic would shrink it to 1568 px wide anyway
    big = dataset_dir / "figures" / "fig-000000.png"
    Image.new("RGB", (3200, 1600), (10, 200, 90)).save(big)
    record_path = big.with_suffix(".json")
    record = json.loads(record_path.read_text())
    record["image"].update(width=3200, height=1600)
    record_path.write_text(json.dumps(record))

    def handler(request: Request, seen: int) -> Response:
        assert request.qid is not None
        source = request.body["messages"][0]["content"][0]["source"]
        assert media_type_of(base64.b64decode(source["data"])) == source["media_type"]
        if request.image_size and max(request.image_size) > 1568:
            return Response(
                400,
                {
                    "type": "error",
                    "error": {"type": "invalid_request_error", "message": "image too large"},
                },
            )
        return messages_reply(request.model, oracle_reply(ITEMS[request.qid]), 50, 5)

    from figgen.eval.providers import make_provider

    out = tmp_path / "a.jsonl"
    dataset = load_dataset(dataset_dir)
    with FakeServer(handler) as server:

        async def go() -> None:
            provider = make_provider("anthropic:claude-haiku-4-5", base_url=server.root_url)
            chosen = [i for i in dataset.items if i.figure_id == "fig-000000"]
            await run_questions(
                dataset,
                chosen,
                provider,
                RunOptions(
                    "anthropic:claude-haiku-4-5",
                    out,
                    prices=PriceTable(),
                    policy=FAST,
                    progress=False,
                ),
            )

        asyncio.run(go())
    assert all(r.status == 200 for r in server.requests)
    assert {r.image_size for r in server.requests} == {(1568, 784)}


def test_an_oversized_encoding_is_halved_until_it_fits(tmp_path: Path) -> None:
    noise = np.random.default_rng(0).integers(0, 255, (400, 400, 3), dtype=np.uint8)
    Image.fromarray(noise).save(tmp_path / "noise.png")  # incompressible: ~480 kB
    images = ImagePreparer(lambda _: tmp_path / "noise.png", ImageLimits(max_bytes=100_000))
    image = asyncio.run(images.image("noise"))
    assert len(image.data) <= 100_000 and image.scale < 1.0
    with Image.open(io.BytesIO(image.data)) as img:
        assert img.size == (image.width, image.height) == (round(400 * image.scale),) * 2


def test_a_format_the_provider_refuses_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(FiggenError, match="does not accept webp images; use --image-format png"):
        ImagePreparer(
            lambda _: tmp_path / "x.png",
            ImageLimits(formats=frozenset({"image/png"})),
            image_format="webp",
        )


def test_a_remembered_scale_wins_over_refusals_but_not_over_limits(tmp_path: Path) -> None:
    images = _preparer(
        tmp_path, {"a": (1000, 1000), "b": (1000, 1000)}, limits=ImageLimits(max_long_side=500)
    )
    images.remember("a", 1.0)  # an earlier run sent it whole; this one allows 500 px
    images.remember("b", 0.5)

    async def go() -> None:
        assert (await images.image("a")).width == 500
        refused = await images.image("b")
        await images.smaller("b", refused)  # 500 x 500 refused once (a longer question)
        assert (await images.image("a")).width == 500  # a's own fit stands
        assert images.first_scale(1000, 1000) == 0.25  # an unknown figure starts lower

    asyncio.run(go())
