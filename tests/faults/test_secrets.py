"""Credentials never reach a file or a message: every output is searched for the key given.

The servers here are careless on purpose: they copy the credentials they received into
their error messages, so anything figgen keeps of an error would carry the key.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from figgen.eval.providers import AskConfig, Prompt, Provider, Reply, oracle_reply
from figgen.eval.providers import register_provider as register
from figgen.eval.providers.base import api_key
from tests.eval.fixtures import items, make_dataset

from .fault_server import Action, Api, FaultServer, Send, reply, status

Figgen = Callable[..., tuple[int, str]]
ROOT = Path(__file__).resolve().parents[2]
ITEMS = {item.qid: item for item in items()}
KEY = "figgen-test-credential-4f9a2c71"  # shaped like no vendor's key: only figgen's care hides it
PRICES = '[models."m"]\ninput = 1.0\noutput = 4.0\n'

PATHS = {
    "openai": ("openai-compatible:m", "OPENAI_API_KEY", "/v1", "openai"),
    "anthropic": ("anthropic:m", "ANTHROPIC_API_KEY", "", "anthropic"),
    "gemini": ("gemini:m", "GEMINI_API_KEY", "", "google.genai"),
}


def files_holding(root: Path, secret: str) -> list[str]:
    return [
        str(path)
        for path in root.rglob("*")
        if path.is_file() and secret.encode() in path.read_bytes()
    ]


def leaky(api: Api, qid: str, seen: int) -> Action:
    """q000 fails once, q001 always (its error is kept); both messages quote the key."""
    if (qid == "q000" and seen == 0) or qid == "q001":
        return Send(status(api, 503))
    return Send(reply(api, oracle_reply(ITEMS[qid])))


@pytest.mark.slow  # the report's plots take seconds
@pytest.mark.parametrize("path", list(PATHS))
def test_an_eval_writes_and_prints_no_key(
    path: str,
    figgen: Figgen,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    spec, env, suffix, sdk = PATHS[path]
    pytest.importorskip(sdk)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(env, KEY)
    caplog.set_level(logging.DEBUG)
    data = make_dataset(tmp_path / "data")
    prices = tmp_path / "prices.toml"
    prices.write_text(PRICES, encoding="utf-8")
    answers = tmp_path / "answers.jsonl"
    args = ["eval", "run", "--data", data, "--model", spec, "--out", answers, "--prices", prices,
            "--retries", "2", "--retry-wait", "0.001", "--timeout", "5",
            "--no-progress"]  # fmt: skip
    stderr: list[str] = []
    with FaultServer(leaky, echo_credentials=True) as server:
        code, err = figgen(*args, "--base-url", server.root_url + suffix)
        stderr.append(err)
        assert code == 0, err
        assert any(KEY in sent for sent in server.credentials)  # the key did go out
        code, err = figgen("eval", "score", "--data", data, "--answers", answers,
                           "--prices", prices, "--out", tmp_path / "report")  # fmt: skip
        stderr.append(err)
        assert code == 0, err

    def refuse(api: Api, qid: str, seen: int) -> Action:
        return Send(status(api, 401))

    with FaultServer(refuse, echo_credentials=True) as server:  # a bad key: the run stops
        code, err = figgen(*args, "--out", tmp_path / "refused.jsonl",
                           "--base-url", server.root_url + suffix)  # fmt: skip
        stderr.append(err)
        assert code == 2 and "refused the request" in err, err

    rows = answers.read_text(encoding="utf-8")
    assert "q001" in rows and "sent" in rows  # the server's error text was kept, key removed
    assert files_holding(tmp_path, KEY) == []
    assert not any(KEY in text for text in stderr)
    assert not any(KEY in record.getMessage() for record in caplog.records)


ACME_VAR = "FIGGEN_TEST_ACME_KEY"
"""A variable only the provider below reads: redacted because its registration declares it."""
ACME_OTHER = "acme-9b8c7d6e5f4a3b2c"
"""A key of Acme's declared shape that the environment does not hold."""


class AcmeRefusal(Exception):
    pass


class AcmeProvider(Provider):
    """A vendor known to nothing but its registration: its errors quote the key it was
    sent and another key of its shape, as a careless vendor's might."""

    api_key_vars = (ACME_VAR,)
    api_key_shape = r"acme-[0-9a-f]{16}"

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        if prompt.item.qid == "q001":
            key = api_key(self.api_key_vars, required=True)
            raise AcmeRefusal(f"quota exceeded for {key} (also tried {ACME_OTHER})")
        return Reply(oracle_reply(prompt.item), 10, 5)


register("acme-test", AcmeProvider)(lambda model, **_: AcmeProvider(model))


def test_a_registered_providers_key_is_redacted_from_what_the_runner_writes(
    figgen: Figgen,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv(ACME_VAR, KEY)
    caplog.set_level(logging.DEBUG)
    data = make_dataset(tmp_path / "data")
    answers = tmp_path / "answers.jsonl"
    code, err = figgen("eval", "run", "--data", data, "--model", "acme-test:m",
                       "--out", answers, "--no-progress")  # fmt: skip
    assert code == 0, err
    rows = answers.read_text(encoding="utf-8")
    assert "AcmeRefusal: quota exceeded for *** (also tried ***)" in rows
    assert files_holding(tmp_path, KEY) == [] and files_holding(tmp_path, ACME_OTHER) == []
    assert KEY not in err and ACME_OTHER not in err
    assert not any(KEY in record.getMessage() for record in caplog.records)


@pytest.mark.e2e
def test_every_figgen_process_redacts_the_keys_and_shapes_of_every_provider_and_the_hub() -> None:
    """The command line loads every declaration at start: ``figgen eval run`` hides a Hub
    token and ``figgen push`` a vendor key, as when one list held them all."""
    code = (
        "import figgen._cli.main\n"
        "from figgen._util.redact import redact, secret_env\n"
        "print(sorted(secret_env()))\n"
        "print(redact('sk-abcdefgh123 sk-ant-api03-xyzxyzxyz AIza' + 'b' * 24 + ' hf_' + 'c' * 20))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.splitlines()
    assert out == [
        "['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'HF_TOKEN', "
        "'HUGGING_FACE_HUB_TOKEN', 'OPENAI_API_KEY']",
        "*** *** *** ***",
    ]


class LeakyHub:
    """Stands in for ``huggingface_hub.HfApi``: keeps what it is sent, then fails quoting
    the token it was given, as an HTTP 401 error of the Hub client does."""

    snapshot: Path

    def __init__(self, token: str | None = None, **kwargs: Any) -> None:
        self.token = token

    def create_repo(self, repo_id: str, **kwargs: Any) -> Any:
        return type("RepoUrl", (), {"url": f"https://huggingface.co/datasets/{repo_id}"})()

    def upload_folder(self, **kwargs: Any) -> None:
        shutil.copytree(kwargs["folder_path"], LeakyHub.snapshot)
        raise OSError(f"401 Client Error: Unauthorized; token {self.token} is not valid")


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_push_writes_and_prints_no_token(
    how: str,
    figgen: Figgen,
    tiny_build: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import huggingface_hub

    token = "hf_" + "Q7x" * 12
    data = shutil.copytree(tiny_build, tmp_path / "ds")
    LeakyHub.snapshot = tmp_path / "uploaded"
    monkeypatch.setattr(huggingface_hub, "HfApi", LeakyHub)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    caplog.set_level(logging.DEBUG)
    args = ["push", data, "--repo", "org/charts"]
    if how == "option":
        args += ["--token", token]
    else:
        monkeypatch.setenv("HF_TOKEN", token)
    code, err = figgen(*args)
    assert code == 2 and "push to org/charts failed" in err, err
    assert (LeakyHub.snapshot / "README.md").is_file()  # the card and data were written
    assert files_holding(tmp_path, token) == []
    assert token not in err
    assert not any(token in record.getMessage() for record in caplog.records)
