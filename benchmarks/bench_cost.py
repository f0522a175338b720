"""What the paper's protocol costs plain, with prompt caching, and with caching in batches.

Two parts, printed in one run:

1. For a dataset (the paper's scale: ``figgen build --n 200 --seed 0``, ~134 questions per
   figure) and every model of the price table: the pre-flight estimate of asking every
   question plain (no cache, list prices), with caching (each figure's image written once
   and read by its other questions, when it is at least the model's ``cache_min_tokens``),
   and with caching through the batch API; dollars and the ratios ``cached/plain`` and
   ``batch+cached/plain``.
2. Measured: the first ``--measure-figures`` figures (20) asked for real through the
   official SDK of ``--vendor`` (Anthropic by default) against the loopback fake vendor
   server of the tests (``tests/eval/fake_vendors.py``), which reports cache reads and
   writes the way the vendor does and fills its cache only once a request has been
   answered: once with ``--no-cache``, once with caching, once with caching in batches.
   The ratios are the runs' billed costs at ``--model``'s prices, beside the estimate's.
   The fake server counts image tokens by its own rule (width x height / 750) and replies
   with ~60 tokens, so the measured ratio checks the mechanics (cache warming per figure,
   usage parsing, pricing per token class), not the vendor's own accounting.

    python benchmarks/bench_cost.py --data /tmp/seed0          # built with --n 200 --seed 0
    python benchmarks/bench_cost.py --data /tmp/seed0 --vendor openai --model openai:gpt-5-mini

Without ``--data`` it builds 20 figures of seed 0 in a temporary folder first.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake vendor server lives with the tests

from figgen.eval.cost.prices import PriceTable, load_prices  # noqa: E402
from figgen.eval.cost.tokens import (  # noqa: E402
    anthropic_image_tokens,
    gemini_image_tokens,
    openai_image_tokens,
)
from figgen.eval.run.dataset import EvalDataset, load_dataset  # noqa: E402
from figgen.eval.run.estimate import estimate_run  # noqa: E402
from figgen.schema.answers import read_answers  # noqa: E402

ImageRule = Callable[[int, int], int]
RULES: dict[str, ImageRule] = {
    "gpt": openai_image_tokens,
    "o4": openai_image_tokens,
    "claude": anthropic_image_tokens,
}
REPLY = '{"answer": 1} ' + "x" * 225
"""The fake model's reply: ~60 tokens, the length the estimate assumes."""


def rule_of(model: str) -> ImageRule:
    return next(
        (rule for prefix, rule in RULES.items() if model.startswith(prefix)), gemini_image_tokens
    )


def estimates(dataset: EvalDataset, prices: PriceTable) -> None:
    """Part 1: plain, cached and batch+cached estimates for every priced model."""
    items = dataset.items
    n_figures = len({item.figure_id for item in items})
    print(f"estimate: {len(items):,} questions on {n_figures} figures, prices as of {prices.as_of}")
    header = f"{'model':<24}{'plain $':>11}{'cached $':>11}{'batch+cached $':>16}  ratios"
    print(header)
    for name, price in prices.models.items():
        rule = rule_of(name)
        plain = estimate_run(dataset, items, image_tokens=rule, price=price)
        cached = estimate_run(dataset, items, image_tokens=rule, price=price, cache=True)
        both = estimate_run(dataset, items, image_tokens=rule, price=price, cache=True, batch=True)
        assert plain.cost_usd and cached.cost_usd is not None and both.cost_usd is not None
        note = ""
        if not price.caches:
            note = "  (no prompt-cache price: the model caches nothing)"
        elif not cached.cache_write_tokens:
            note = f"  (images under the {price.cache_min_tokens}-token cache minimum)"
        print(
            f"{name:<24}{plain.cost_usd:>11.2f}{cached.cost_usd:>11.2f}{both.cost_usd:>16.2f}  "
            f"cached/plain: {cached.cost_usd / plain.cost_usd:.3f}  "
            f"batch+cached/plain: {both.cost_usd / plain.cost_usd:.3f}{note}"
        )


async def _measure_run(
    data: Path,
    vendor: str,
    model: str,
    out: Path,
    *,
    cache: bool,
    batch: bool,
    monkey_env: dict[str, str],
) -> float:
    """One run of the subset against the fake server; its billed cost from the answers file."""
    import os

    from figgen.eval.batch import BatchPolicy, batch_backend, run_batch
    from figgen.eval.providers import make_provider
    from figgen.eval.run.runner import RunOptions, run_questions
    from tests.eval.fake_vendors import FakeVendors

    os.environ.update(monkey_env)
    dataset = load_dataset(data)
    prices = load_prices()
    price = prices.lookup(model)
    minimum = price.cache_min_tokens or 0 if price is not None else 0
    with FakeVendors(lambda _text: REPLY, min_cache_tokens=minimum) as server:
        base = server.root_url + ("/v1" if vendor == "openai" else "")
        provider = make_provider(model, base_url=base, cache=cache)
        if vendor == "openai":  # as against api.openai.com: Responses API, prompt_cache_key
            from figgen.eval.providers.openai_provider import OPENAI_LIMITS, OpenAIProvider

            assert isinstance(provider, OpenAIProvider)
            provider.api = "responses"
            provider._official = True  # noqa: SLF001  (the fake stands for OpenAI itself)
            provider.image_limits = OPENAI_LIMITS
        if batch:
            await run_batch(
                dataset,
                dataset.items,
                provider,
                batch_backend(provider),
                RunOptions(model, out, prices=prices),
                policy=BatchPolicy(poll_initial=0.05, poll_max=0.5),
            )
        else:
            await run_questions(
                dataset,
                dataset.items,
                provider,
                RunOptions(model, out, prices=prices, concurrency=8, progress=False),
            )
    return sum(float(row["cost_usd"]) for row in read_answers(out))


def measure(data: Path, n_figures: int, vendor: str, model: str) -> None:
    """Part 2: the billed cost of the subset plain, cached and batch+cached."""
    subset = Path(tempfile.mkdtemp(prefix="bench_cost_")) / "data"
    _subset(data, subset, n_figures)
    dataset = load_dataset(subset)
    price = load_prices().lookup(model)
    assert price is not None, f"{model} is not in the price table"
    env = {"ANTHROPIC_API_KEY": "fake", "GEMINI_API_KEY": "fake", "OPENAI_API_KEY": "fake"}
    rule = rule_of(model.split(":", 1)[1])
    plain_e = estimate_run(dataset, dataset.items, image_tokens=rule, price=price).cost_usd
    cached_e = estimate_run(dataset, dataset.items, image_tokens=rule, price=price, cache=True)
    both_e = estimate_run(
        dataset, dataset.items, image_tokens=rule, price=price, cache=True, batch=True
    )
    costs = {}
    for name, cache, batch in (
        ("plain", False, False),
        ("cached", True, False),
        ("batch", True, True),
    ):
        started = time.perf_counter()
        out = subset.parent / f"{name}.jsonl"
        costs[name] = asyncio.run(
            _measure_run(subset, vendor, model, out, cache=cache, batch=batch, monkey_env=env)
        )
        print(
            f"measured {name:<7} {len(dataset.items):,} questions: ${costs[name]:.4f} "
            f"({time.perf_counter() - started:.1f} s)"
        )
    assert plain_e and cached_e.cost_usd is not None and both_e.cost_usd is not None
    print(
        f"measured on {n_figures} figures ({model}, fake {vendor} server): "
        f"cached/plain: {costs['cached'] / costs['plain']:.3f} "
        f"(estimate {cached_e.cost_usd / plain_e:.3f}), "
        f"batch+cached/plain: {costs['batch'] / costs['plain']:.3f} "
        f"(estimate {both_e.cost_usd / plain_e:.3f})"
    )


def _subset(data: Path, out: Path, n_figures: int) -> None:
    """A dataset of the first ``n_figures`` figures (records, images, their questions)."""
    import json
    import shutil

    out.mkdir(parents=True)
    lines = (data / "qa.jsonl").read_text(encoding="utf-8").splitlines()
    figures = list(dict.fromkeys(json.loads(line)["figure_id"] for line in lines))[:n_figures]
    keep = set(figures)
    (out / "qa.jsonl").write_text(
        "\n".join(line for line in lines if json.loads(line)["figure_id"] in keep) + "\n",
        encoding="utf-8",
    )
    (out / "figures").mkdir()
    for figure in figures:
        for path in (data / "figures").glob(f"{figure}.*"):
            shutil.copy(path, out / "figures" / path.name)
    for name in ("manifest.json",):
        if (data / name).exists():
            shutil.copy(data / name, out / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="dataset (default: build 20 figures of seed 0)")
    parser.add_argument("--measure-figures", type=int, default=20)
    parser.add_argument("--vendor", choices=("anthropic", "openai", "gemini"), default="anthropic")
    parser.add_argument(
        "--model", default=None, help="default: claude-sonnet-4-5 / gpt-5-mini / gemini-2.5-flash"
    )
    args = parser.parse_args()
    model = (
        args.model
        or {
            "anthropic": "anthropic:claude-sonnet-4-5",
            "openai": "openai:gpt-5-mini",
            "gemini": "gemini:gemini-2.5-flash",
        }[args.vendor]
    )
    data = args.data
    if data is None:
        data = Path(tempfile.mkdtemp(prefix="bench_cost_build_")) / "data"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "figgen",
                "build",
                "--n",
                "20",
                "--seed",
                "0",
                "--out",
                str(data),
            ],
            check=True,
            cwd=ROOT,
        )
    estimates(load_dataset(data), load_prices())
    if args.measure_figures > 0:
        measure(data, args.measure_figures, args.vendor, model)


if __name__ == "__main__":
    main()
