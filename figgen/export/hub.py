"""Push an HF export of a built dataset to the HuggingFace Hub.

Loading this module declares the Hub token to redaction; it loads nothing heavy, so the
command line imports it at start and every ``figgen`` process keeps Hub tokens out of what
it writes.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from figgen._util.redact import declare_secret, redact
from figgen.errors import FiggenError

if TYPE_CHECKING:
    from figgen.export.hf import HfOptions

logger = logging.getLogger(__name__)

HUB_TOKEN_VARS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")
"""Where huggingface_hub reads a token from the environment (``resolve_token``)."""
declare_secret(*HUB_TOKEN_VARS, shape=r"hf_[A-Za-z0-9]{16,}")

_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")
_TRUE = {"1", "ON", "YES", "TRUE"}


@dataclass
class PushResult:
    repo_id: str
    url: str
    split_counts: dict[str, dict[str, int]]
    files: dict[str, int] = field(default_factory=dict)
    """Every file of the upload (path in the repo -> bytes)."""
    dry_run: bool = False


def hub_offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` asks huggingface_hub to make no requests."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in _TRUE


def resolve_token(token: str | None) -> str:
    """The token to push with: ``--token``, else ``HF_TOKEN`` or a saved login."""
    if token:
        return token
    from huggingface_hub import get_token

    found = get_token()
    if not found:
        raise FiggenError(
            "push needs a HuggingFace token; pass --token, set HF_TOKEN, or run `hf auth login`"
        )
    return found


def check_repo_id(repo_id: str) -> None:
    """A Hub dataset id is ORG/NAME."""
    if not _REPO_ID.match(repo_id):
        raise FiggenError(f"--repo must look like ORG/NAME, got {repo_id!r}")


def check_push_allowed(repo_id: str, token: str | None) -> str:
    """Stop before any work when the push cannot succeed; return the token."""
    if hub_offline():
        raise FiggenError(
            "cannot push while HF_HUB_OFFLINE is set; unset it, or export locally with "
            "`figgen export DIR --format hf --out HF_DIR`"
        )
    check_repo_id(repo_id)
    return resolve_token(token)


def _hub_errors() -> tuple[type[BaseException], ...]:
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    errors: list[type[BaseException]] = [HfHubHTTPError, OfflineModeIsEnabled, OSError]
    try:
        import httpx
    except ImportError:
        pass
    else:
        errors.append(httpx.HTTPError)
    return tuple(errors)


def push_dataset(
    data_dir: str | Path,
    repo_id: str,
    options: HfOptions | None = None,
    *,
    private: bool = False,
    token: str | None = None,
    api: Any | None = None,
    dry_run: bool = False,
) -> PushResult:
    """Export ``data_dir`` to a temporary folder and upload it as one dataset commit.

    The upload replaces every file under ``data/`` so shards of an earlier push do not linger;
    a failure leaves no local files behind, and running again finishes the job. ``dry_run``
    writes the same folder, lists it and stops: no token, no network.
    """
    from figgen.export.hf import HfOptions, write_hf_folder
    from figgen.export.source import BuiltDataset

    if dry_run:
        check_repo_id(repo_id)
    else:
        token = check_push_allowed(repo_id, token)
    dataset = BuiltDataset.open(data_dir)
    with tempfile.TemporaryDirectory(prefix="figgen-push-") as tmp:
        folder = Path(tmp)
        facts = write_hf_folder(dataset, folder, replace(options or HfOptions(), repo_id=repo_id))
        files = {
            path.relative_to(folder).as_posix(): path.stat().st_size
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
        if dry_run:
            url = f"https://huggingface.co/datasets/{repo_id}"
            return PushResult(repo_id, url, facts.split_counts, files, dry_run=True)
        from huggingface_hub import HfApi

        hub = api if api is not None else HfApi(token=token)
        try:
            repo = hub.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
            hub.upload_folder(
                repo_id=repo_id,
                folder_path=folder,
                repo_type="dataset",
                commit_message=f"figgen export: configs {', '.join(facts.split_files)}",
                delete_patterns=["data/**"],
            )
        except _hub_errors() as exc:
            text = redact(str(exc), token).strip()
            summary = text.splitlines()[0] if text else type(exc).__name__
            raise FiggenError(
                f"push to {repo_id} failed ({summary}); nothing was kept locally, "
                "run the same command again"
            ) from None
    url = str(getattr(repo, "url", f"https://huggingface.co/datasets/{repo_id}"))
    logger.info("pushed %s", url)
    return PushResult(repo_id, url, facts.split_counts, files)
