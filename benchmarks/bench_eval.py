"""Time ``figgen eval run`` against a loopback OpenAI-compatible server, and time scoring.

The server runs in its own process and answers every chat completion at once (or after
``--latency`` seconds), refusing images above ``--max-pixels`` as too long, like a local
model server with a small context. Measured in one run, on the same questions:

- cold: the first pass over the questions, concurrency 8; includes preparing every figure
  (reading, the refusals that find the scale, resizing, encoding);
- ``figgen overhead per question``: a second pass with the figures prepared, concurrency 1,
  server answering instantly: everything figgen, the openai SDK and the loopback HTTP cost
  per question;
- ``concurrency 8 speed-up``: prepared figures, the server answering after ``--latency``
  (0.04 s, the server of issue 12), wall time at concurrency 1 over concurrency 8;
- PNG encoding with ``optimize=True`` (before) against zlib level 1 (now) on the largest
  figure;
- ``scoring N answers``: ``build_metrics`` on ``--answers`` synthetic answers (exact,
  10%-off, wrong-choice and rejected replies, cycled over the dataset's questions).

    python benchmarks/bench_eval.py --data dataset --levels 1,2
    python benchmarks/bench_eval.py serve --port 8123 --max-pixels 4000000  # for figgen eval run

Without ``--data`` it builds 4 figures of seed 9 in a temporary folder first.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import json
import multiprocessing
import re
import socket
import statistics
import tempfile
import time
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_DATA_URL = re.compile(rb"data:image/[a-z]+;base64,([A-Za-z0-9+/=]{0,65536})")


def _image_pixels(body: bytes) -> int:
    """Width x height of the first image in a request, read from its header bytes only."""
    from PIL import Image

    match = _DATA_URL.search(body)
    if match is None:
        return 0
    head = match.group(1)
    try:
        with Image.open(io.BytesIO(base64.b64decode(head[: len(head) // 4 * 4]))) as img:
            return img.width * img.height
    except OSError:  # WebP needs its whole file to be opened
        start = match.start(1)
        end = body.index(b'"', start)
        with Image.open(io.BytesIO(base64.b64decode(body[start:end]))) as img:
            return img.width * img.height


def _reply(text: str, status: int = 200) -> bytes:
    if status != 200:
        return json.dumps(
            {"error": {"message": text, "type": "invalid_request_error", "code": None}}
        ).encode()
    return json.dumps(
        {
            "id": "bench",
            "object": "chat.completion",
            "created": 0,
            "model": "bench",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text},
                }
            ],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 8, "total_tokens": 1008},
        }
    ).encode()


def serve(port: int, max_pixels: int, latency: float, ready: Any = None) -> None:
    """Answer chat completions on 127.0.0.1:port until killed."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def setup(self) -> None:
            super().setup()
            # headers and body go out in two writes: without this, Nagle's algorithm and
            # the client's delayed ACK add 40 ms to every reply
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            pixels = _image_pixels(body) if max_pixels else 0
            if max_pixels and pixels > max_pixels:
                status, payload = (
                    400,
                    _reply(
                        f"This model's maximum context length is 8192 tokens; the image has "
                        f"{pixels} pixels",
                        400,
                    ),
                )
            else:
                if latency:
                    time.sleep(latency)
                status, payload = 200, _reply('{"answer": 3}')
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    if ready is not None:
        ready.send(server.server_address[1])
    server.serve_forever()


class LoopbackServer:
    """The server in a child process (its CPU work stays out of the client's GIL)."""

    def __init__(self, max_pixels: int, latency: float) -> None:
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        self._process = context.Process(
            target=serve, args=(0, max_pixels, latency, child), daemon=True
        )
        self._process.start()
        self.port = parent.recv()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def close(self) -> None:
        self._process.terminate()
        self._process.join(5)


def _run(
    dataset: Any, items: list[Any], base_url: str | None, images: Any, concurrency: int, out: Path
) -> float:
    """Wall time of one run; ``base_url`` None asks the offline mock provider instead."""
    from figgen.eval.cost.prices import ModelPrice, PriceTable
    from figgen.eval.providers import MockProvider, make_provider
    from figgen.eval.run.runner import RetryPolicy, RunOptions, run_questions

    async def go() -> None:
        provider = (
            MockProvider("bench", answer=lambda _: '{"answer": 3}')
            if base_url is None
            else make_provider("openai-compatible:bench", base_url=base_url)
        )
        await run_questions(
            dataset,
            items,
            provider,
            RunOptions(
                "openai-compatible:bench",
                out,
                prices=PriceTable({"bench": ModelPrice(0.0, 0.0)}),
                concurrency=concurrency,
                progress=False,
                policy=RetryPolicy(initial_wait=0.01, jitter=0.01),
                announce=lambda _: None,
            ),
            images=images,
        )

    out.unlink(missing_ok=True)
    started = time.perf_counter()
    asyncio.run(go())
    return time.perf_counter() - started


def bench_run(dataset: Any, items: list[Any], args: argparse.Namespace, tmp: Path) -> None:
    from figgen.eval.run.prepare import ImagePreparer

    instant = LoopbackServer(args.max_pixels, 0.0)
    slow = LoopbackServer(args.max_pixels, args.latency)
    try:
        images = ImagePreparer(dataset.image_path, image_format=args.image_format)
        cold = _run(dataset, items, instant.base_url, images, 8, tmp / "cold.jsonl")
        rows = [json.loads(line) for line in (tmp / "cold.jsonl").read_text().splitlines()]
        refused = sum(row["attempts"] - 1 for row in rows)
        scaled = sum(row["image_scale"] < 1 for row in rows)
        print(
            f"cold run, concurrency 8: {len(items)} questions in {cold:.2f} s "
            f"({1000 * cold / len(items):.1f} ms per question), {images.encodings.total()} images "
            f"prepared, {refused} requests refused as too long, {scaled} sent scaled"
        )
        warm = _run(dataset, items, instant.base_url, images, 1, tmp / "warm.jsonl")
        latencies = [
            json.loads(line)["latency_s"] for line in (tmp / "warm.jsonl").read_text().splitlines()
        ]
        sent = [images.peek(item.figure_id) for item in items]
        mean_kb = statistics.mean(len(image.data) for image in sent if image) / 1000
        print(
            f"figgen overhead per question: {1000 * warm / len(items):.1f} ms "
            f"(prepared figures, concurrency 1, server answering instantly; request "
            f"latency median {1000 * statistics.median(latencies):.1f} ms, mean image "
            f"{mean_kb:.0f} kB)"
        )
        offline = _run(dataset, items, None, images, 1, tmp / "mock.jsonl")
        print(
            f"  of which figgen itself: {1000 * offline / len(items):.1f} ms (the same "
            "questions through the offline mock provider: no SDK, no HTTP)"
        )
        subset = items[: args.speedup_questions]
        one = _run(dataset, subset, slow.base_url, images, 1, tmp / "c1.jsonl")
        eight = _run(dataset, subset, slow.base_url, images, 8, tmp / "c8.jsonl")
        print(
            f"concurrency 8 speed-up: {one / eight:.2f} ({len(subset)} questions, server "
            f"answering after {args.latency} s: {one:.2f} s at 1, {eight:.2f} s at 8)"
        )
    finally:
        instant.close()
        slow.close()


def bench_png(dataset: Any, items: list[Any]) -> None:
    from PIL import Image

    figure_ids = sorted({item.figure_id for item in items})
    path = max((dataset.image_path(f) for f in figure_ids), key=lambda p: p.stat().st_size)
    with Image.open(path) as img:
        picture = img.convert("RGB")
        picture.load()
    timings = {}
    for name, options in (("optimize", {"optimize": True}), ("level 1", {"compress_level": 1})):
        started = time.perf_counter()
        out = io.BytesIO()
        picture.save(out, format="PNG", **options)
        timings[name] = (time.perf_counter() - started, len(out.getvalue()))
    (t_opt, b_opt), (t_one, b_one) = timings["optimize"], timings["level 1"]
    print(
        f"PNG encoding of {path.name} ({picture.width}x{picture.height}): optimize=True "
        f"{t_opt:.2f} s / level 1 {t_one:.2f} s = {t_opt / t_one:.1f}x slower, for "
        f"{b_opt / 2**20:.1f} MB instead of {b_one / 2**20:.1f} MB"
    )


def synthetic_answers(items: list[Any], n: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """``n`` questions cycled from ``items`` (new qids) and one reply each, of four kinds."""
    from figgen.eval.providers import oracle_reply

    questions, rows = [], []
    for i in range(n):
        item = replace(items[i % len(items)], qid=f"bench-{i:06d}")
        answer: Any = item.answer
        kind = i % 4
        if kind == 1 and isinstance(answer, int | float) and not isinstance(answer, bool):
            answer = answer * 1.1
        elif kind == 2 and item.choices:
            answer = item.choices[0] + "a"
        text = "I cannot tell." if kind == 3 else oracle_reply(replace(item, answer=answer))
        questions.append(item)
        rows.append(
            {
                "qid": item.qid,
                "model": "bench",
                "raw": text,
                "error": None,
                "usage": {"input_tokens": 900, "output_tokens": 9},
                "cost_usd": 0.0,
                "image_scale": 1.0,
                "latency_s": 0.01,
            }
        )
    return questions, rows


def bench_scoring(dataset: Any, items: list[Any], n: int) -> None:
    from figgen.eval.cost.prices import PriceTable
    from figgen.eval.report.aggregate import build_metrics
    from figgen.eval.run.dataset import EvalDataset

    questions, rows = synthetic_answers(items, n)
    big = EvalDataset(dataset.root, questions)
    started = time.perf_counter()
    metrics, _ = build_metrics(big, rows, PriceTable())
    elapsed = time.perf_counter() - started
    model = metrics["models"]["bench"]
    print(
        f"scoring {n} answers: {elapsed:.2f} s ({1e6 * elapsed / n:.0f} us per answer; "
        f"accuracy {model['accuracy']:.3f}, rejection rate {model['rejection_rate']:.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=["bench", "serve"], default="bench")
    parser.add_argument("--data", type=Path, help="a built dataset (default: build 4 figures)")
    parser.add_argument("--levels", default="1,2")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-pixels", type=int, default=4_000_000)
    parser.add_argument("--latency", type=float, default=0.04)
    parser.add_argument("--speedup-questions", type=int, default=200)
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--image-format", default="png", choices=["png", "jpeg", "webp"])
    args = parser.parse_args()
    if args.command == "serve":
        print(f"serving on http://127.0.0.1:{args.port}/v1", flush=True)
        serve(args.port, args.max_pixels, args.latency)
        return

    from figgen.eval.run.dataset import load_dataset, select_items

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = args.data
        if data is None:
            from typer.testing import CliRunner

            from figgen._cli.main import app

            data = tmp / "data"
            CliRunner().invoke(
                app,
                ["build", "--n", "4", "--seed", "9", "--out", str(data), "--workers", "1"],
                catch_exceptions=False,
            )
        dataset = load_dataset(data)
        levels = [int(v) for v in args.levels.split(",")]
        items = select_items(dataset.items, levels=levels, limit=args.limit)
        print(
            f"{args.image_format} images; "
            f"{len(items)} questions on {len({i.figure_id for i in items})} figures of {data}; "
            f"the server refuses images above {args.max_pixels:,} pixels"
        )
        bench_run(dataset, items, args, tmp)
        bench_png(dataset, items)
        bench_scoring(dataset, items, args.answers)


if __name__ == "__main__":
    main()
