from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from figgen.errors import FiggenError
from figgen.export.hub import push_dataset


class FakeHfApi:
    """Stands in for huggingface_hub.HfApi: records calls and snapshots the uploaded folder."""

    instances: list[FakeHfApi] = []
    fail_uploads = 0

    def __init__(self, token: str | None = None, **kwargs: Any) -> None:
        self.token = token
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.uploaded: dict[str, bytes] = {}
        FakeHfApi.instances.append(self)

    def create_repo(self, repo_id: str, **kwargs: Any) -> Any:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        return type("RepoUrl", (), {"url": f"https://huggingface.co/datasets/{repo_id}"})()

    def upload_folder(self, **kwargs: Any) -> None:
        self.calls.append(("upload_folder", kwargs))
        if FakeHfApi.fail_uploads:
            FakeHfApi.fail_uploads -= 1
            raise OSError("connection reset by peer")
        folder = Path(kwargs["folder_path"])
        self.uploaded = {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*")
            if p.is_file()
        }


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> type[FakeHfApi]:
    import huggingface_hub

    FakeHfApi.instances = []
    FakeHfApi.fail_uploads = 0
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeHfApi)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return FakeHfApi


def test_push_uploads_every_config_and_the_card(
    built: Path, hub: type[FakeHfApi], tmp_path: Path
) -> None:
    result = push_dataset(built, "org/charts", private=True, token="hf_secret")
    (api,) = hub.instances
    assert api.token == "hf_secret"
    names = [name for name, _ in api.calls]
    assert names == ["create_repo", "upload_folder"]
    create, upload = api.calls[0][1], api.calls[1][1]
    assert create == {
        "repo_id": "org/charts",
        "repo_type": "dataset",
        "private": True,
        "exist_ok": True,
    }
    assert upload["repo_id"] == "org/charts" and upload["repo_type"] == "dataset"
    assert upload["delete_patterns"] == ["data/**"]
    header = yaml.safe_load(
        re.match(r"^---\n(.*?)\n---\n", api.uploaded["README.md"].decode(), re.DOTALL).group(1)
    )
    configs = {c["config_name"]: c for c in header["configs"]}
    assert set(configs) == {"figures", "qa", "descriptions"}
    for config in configs.values():
        for entry in config["data_files"]:
            prefix = entry["path"].split("*")[0]
            assert any(path.startswith(prefix) for path in api.uploaded), entry
    assert any(p.startswith("data/qa/") for p in api.uploaded)
    assert any(p.startswith("data/figures/") for p in api.uploaded)
    assert any(p.startswith("data/descriptions/") for p in api.uploaded)
    assert "huggingface.co/datasets/org/charts" in api.uploaded["README.md"].decode()
    assert result.url.endswith("org/charts")
    assert list((tmp_path / "tmp").iterdir()) == []  # the staging folder is gone


def test_failed_upload_keeps_nothing_and_can_be_rerun(
    built: Path, hub: type[FakeHfApi], tmp_path: Path
) -> None:
    hub.fail_uploads = 1
    before = sorted(p.name for p in built.rglob("*"))
    with pytest.raises(FiggenError) as info:
        push_dataset(built, "org/charts", token="hf_secret")
    message = str(info.value)
    assert "\n" not in message and "run the same command again" in message
    assert "hf_secret" not in message
    assert list((tmp_path / "tmp").iterdir()) == []
    assert sorted(p.name for p in built.rglob("*")) == before
    push_dataset(built, "org/charts", token="hf_secret")
    assert hub.instances[-1].uploaded


def test_no_token_stops_before_any_work(
    built: Path, hub: type[FakeHfApi], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)
    with pytest.raises(FiggenError, match="--token"):
        push_dataset(built, "org/charts")
    assert hub.instances == []
    assert list((tmp_path / "tmp").iterdir()) == []


def test_offline_push_stops_before_any_work(
    built: Path, hub: type[FakeHfApi], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(FiggenError, match="HF_HUB_OFFLINE"):
        push_dataset(built, "org/charts", token="hf_secret")
    assert hub.instances == []


def test_dry_run_lists_exactly_what_a_push_uploads_without_token_or_network(
    built: Path, hub: type[FakeHfApi], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    push_dataset(built, "org/charts", token="hf_secret")
    uploaded = {path: len(data) for path, data in hub.instances[-1].uploaded.items()}
    hub.instances.clear()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)
    result = push_dataset(built, "org/charts", dry_run=True)
    assert result.dry_run and hub.instances == []
    assert result.files == uploaded
    assert "README.md" in result.files
    assert list((tmp_path / "tmp").iterdir()) == []
    with pytest.raises(FiggenError, match="ORG/NAME"):
        push_dataset(built, "charts", dry_run=True)


def test_bad_repo_id(built: Path, hub: type[FakeHfApi]) -> None:
    with pytest.raises(FiggenError, match="ORG/NAME"):
        push_dataset(built, "charts", token="hf_secret")


@pytest.mark.slow
def test_cli_offline_push_is_one_line_exit_2(built: Path, tmp_path: Path) -> None:
    import figgen

    source_root = str(Path(figgen.__file__).resolve().parents[1])
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path / "tmp"),
        "PYTHONPATH": os.pathsep.join([source_root, os.environ.get("PYTHONPATH", "")]),
    }
    (tmp_path / "tmp").mkdir()
    before = sorted(str(p) for p in built.rglob("*"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "figgen",
            "push",
            str(built),
            "--repo",
            "org/charts",
            "--token",
            "hf_x",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "HF_HUB_OFFLINE" in lines[0]
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"]
    assert list((tmp_path / "tmp").iterdir()) == []
    assert sorted(str(p) for p in built.rglob("*")) == before
