"""Every sampling range in one validated object, with the anchor paper's defaults.

A user overrides any subset from a TOML or JSON file (``figgen build --config FILE``), or names
a preset shipped with figgen (``--config tiny``: 1-2 small panels at 50-60 dpi, for smoke tests;
``--config small``); unknown keys and bad values are reported in one line that names the key.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field, ValidationError, create_model, field_validator

from figgen.config.sections.balance import BalanceConfig
from figgen.config.sections.fields import Weights, one_of
from figgen.config.sections.shared import SharedConfig
from figgen.errors import ConfigError

__all__ = ["FigureConfig", "config_from_dict", "figure_config", "load_config", "preset_names"]
PRESETS = Path(__file__).parent / "presets"


@cache
def figure_config() -> type[SharedConfig]:
    """The config model: the shared sections, ``kinds`` weights checked against the registered
    plot kinds, one section per kind under its name, and a ``[balance]`` section completed from
    the families' declared tables (:func:`_complete_balance`). Built on first use, so importing
    this module loads no drawing code."""
    from figgen.kinds import KINDS, default_mix

    fields: dict[str, Any] = {
        "kinds": (
            Annotated[Weights, one_of("plot kind", KINDS)],
            Field(default_factory=default_mix),
        )
    }
    for name, kind in KINDS.items():
        fields[name] = (kind.config, Field(default_factory=kind.config))
    validators = {"complete_balance": field_validator("balance")(_complete_balance)}
    model = create_model(
        "FigureConfig",
        __base__=SharedConfig,
        __module__=__name__,
        __validators__=validators,
        **fields,
    )
    model.__doc__ = SharedConfig.__doc__
    return model


def _complete_balance(cls: type, balance: BalanceConfig) -> BalanceConfig:
    """A config's ``[balance]`` with what it leaves out taken from the declared tables, so a
    config that names one of ``keep`` and ``share_bounds`` writes both to its manifest, and one
    that names the declared tables is the default (left out of the manifest)."""
    if balance == BalanceConfig():
        return balance
    from figgen.vqa.api.balance import declared_keep, declared_share_bounds

    keep = declared_keep() if balance.keep is None else balance.keep
    bounds = declared_share_bounds() if balance.share_bounds is None else balance.share_bounds
    if keep == declared_keep() and bounds == declared_share_bounds():
        return BalanceConfig()
    return BalanceConfig(keep=keep, share_bounds=bounds)


if TYPE_CHECKING:
    FigureConfig = SharedConfig
else:

    def __getattr__(name: str) -> Any:
        if name == "FigureConfig":
            return figure_config()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def config_from_dict(values: dict[str, Any], *, source: str = "config") -> FigureConfig:
    """Validate ``values`` into a config; the first problem becomes a one-line ConfigError."""
    try:
        return figure_config().model_validate(values)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc, source)) from None


def preset_names() -> list[str]:
    """The presets ``--config NAME`` accepts."""
    return sorted(p.stem for p in PRESETS.glob("*.toml"))


def load_config(path: str | Path | None) -> FigureConfig:
    """Read a TOML or JSON config file, a build's manifest.json, or a preset by name; ``None``
    gives the defaults."""
    if path is None:
        return figure_config()()
    path = Path(path)
    if not path.exists() and str(path) in preset_names():
        path = PRESETS / f"{path}.toml"
    elif not path.exists():
        raise ConfigError(
            f"config file {path} does not exist; give a TOML/JSON file or a preset "
            f"({', '.join(preset_names())})"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    try:
        values = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid {path.suffix.lstrip('.') or 'TOML'}: {exc}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: the top level must be a table of settings")
    if path.name == "manifest.json" and isinstance(values.get("config"), dict):
        values = values["config"]  # a build's manifest: rebuild with the config it records
    return config_from_dict(values, source=str(path))


def _one_line(exc: ValidationError, source: str) -> str:
    error = exc.errors()[0]
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        parent = _section_for(error["loc"][:-1])
        valid = ", ".join(sorted(parent.model_fields)) if parent else ""
        return f"{source}: unknown key {key!r}; valid keys here: {valid}"
    message = error["msg"].removeprefix("Value error, ")
    got = "" if "got" in message else f" (got {error.get('input')!r})"
    return f"{source}: bad value for {key!r}: {message}{got}"


def _section_for(loc: tuple[Any, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] = figure_config()
    for part in loc:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        model = annotation
    return model
