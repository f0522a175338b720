"""Every sampling range in one validated object, with the anchor paper's defaults.

:mod:`.load` assembles the config from the shared sections and one section per plot kind
(above the kinds); :mod:`.sections` holds the building blocks the kinds declare theirs with
(below the kinds). The names here are imported on first use, so importing a section loads no
plot kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.config.load import (
        PRESETS,
        FigureConfig,
        config_from_dict,
        figure_config,
        load_config,
        preset_names,
    )

_LOAD = "figgen.config.load"
__getattr__ = lazy_exports(
    __name__,
    {
        name: _LOAD
        for name in (
            "PRESETS",
            "FigureConfig",
            "config_from_dict",
            "figure_config",
            "load_config",
            "preset_names",
        )
    },
)

__all__ = [
    "PRESETS",
    "FigureConfig",
    "config_from_dict",
    "figure_config",
    "load_config",
    "preset_names",
]
