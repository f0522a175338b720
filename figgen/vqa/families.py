"""Question families as declarations: one row per family, read by builders, scoring and exports.

A family fixes everything about its items except the words, the answer and the evidence: its
level, scope, answer type, metric, answer key and whether it counts something. Builders ask with
``ctx.ask(FAMILY, panel, question, answer, ...)``; aggregation reads ``is_count`` from here
(through :func:`figgen.vqa.table.is_count`) instead of guessing from the name. Plot kinds
declare their own families in their modules.
"""

from __future__ import annotations

from dataclasses import dataclass

from figgen.vqa.item import AnswerType, Level, Metric, Scope


@dataclass(frozen=True)
class Family:
    """One question family: how its items are asked, answered and scored."""

    name: str
    level: Level
    scope: Scope
    answer_type: AnswerType
    metric: Metric
    is_count: bool = False
    """The answer counts things (panels, bars, peaks): aggregation reports estimate vs truth."""

    @property
    def answer_key(self) -> str:
        """The JSON key of the reply unless an item names another (e.g. ``x_ticks``)."""
        return self.name


FAMILIES: dict[str, Family] = {}
"""Every declared family by name, in declaration order."""


def declare(
    name: str,
    level: Level,
    scope: Scope,
    answer_type: AnswerType,
    metric: Metric,
    *,
    is_count: bool = False,
) -> Family:
    """Add a family to :data:`FAMILIES`; a second, different declaration of a name is an error."""
    family = Family(name, level, scope, answer_type, metric, is_count)
    known = FAMILIES.setdefault(name, family)
    if known != family:
        raise ValueError(f"question family {name!r} is declared twice, differently")
    return family


# The families every figure or every panel gets, whatever its kinds. Kind-owned families are
# declared in the kind's module (``figgen/kinds/<kind>.py``) and listed in its ``families``.
PANEL_COUNT = declare("panel_count", 1, "figure", "integer", "exact", is_count=True)
LAYOUT = declare("layout", 1, "figure", "integer_pair", "exact")
PLOT_TYPES = declare("plot_types", 1, "figure", "choice_list", "exact_set")
TITLES = declare("titles", 1, "figure", "string_list", "cer_list")
XLABELS = declare("xlabels", 1, "figure", "string_list", "cer_list")
YLABELS = declare("ylabels", 1, "figure", "string_list", "cer_list")

PLOT_TYPE = declare("plot_type", 1, "panel", "choice", "exact")
TITLE = declare("title", 1, "panel", "string", "cer")
XLABEL = declare("xlabel", 1, "panel", "string", "cer")
YLABEL = declare("ylabel", 1, "panel", "string", "cer")
ERROR_BARS = declare("error_bars", 1, "panel", "choice", "exact")
COLORMAP = declare("colormap", 1, "panel", "choice", "exact")
AXIS_SCALE = declare("axis_scale", 1, "panel", "choice", "exact")
TICK_VALUES = declare("tick_values", 1, "panel", "number_list", "exact_set")

COUNT_KIND = declare("count_kind", 1, "cross-panel", "integer", "exact", is_count=True)
LARGEST_MEAN = declare("largest_mean", 2, "cross-panel", "choice", "exact")
SAME_TREND = declare("same_trend", 3, "cross-panel", "choice", "exact")
STRONGEST_LINEAR = declare("strongest_linear", 3, "cross-panel", "choice", "exact")

EVERY_PANEL: tuple[Family, ...] = (PLOT_TYPE, TITLE, XLABEL, YLABEL, AXIS_SCALE, TICK_VALUES)
"""Panel families the shared builders ask of a panel of any kind (where it applies).

``error_bars`` and ``colormap`` are asked by shared code too, but only of the kinds whose hooks
say they apply; those kinds list them in their ``families``."""

# Families shared by several kinds, asked through the helpers in figgen.vqa.panel_values.
MEAN_Y = declare("mean_y", 2, "panel", "number", "ssmape")
MEDIAN_Y = declare("median_y", 2, "panel", "number", "ssmape")
MIN_Y = declare("min_y", 2, "panel", "number", "ssmape")
MAX_Y = declare("max_y", 2, "panel", "number", "ssmape")
X_RANGE = declare("x_range", 2, "panel", "number_pair", "relaxed_5pct")
LINEARITY = declare("linearity", 3, "panel", "choice", "exact")
TREND = declare("trend", 3, "panel", "choice", "exact")
