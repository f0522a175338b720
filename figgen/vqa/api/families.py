"""Question families as declarations: one row per family, read by builders, scoring and exports.

A family fixes everything about its items except the words, the answer and the evidence: its
level, scope, answer type, metric, answer key, whether it counts something, whether it names one
line, and how it balances its answers. Builders ask with ``ctx.ask(FAMILY, panel, question,
answer, ...)``; aggregation reads ``is_count`` from here (through
:func:`figgen.vqa.questions.family_table.is_count`) instead of guessing from the name, and the
default balance tables (:mod:`figgen.vqa.api.balance`) are read off the declarations. Plot kinds
declare their own families in their modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from figgen._util.registry import Registry
from figgen.schema.qa_item import AnswerType, Level, Metric, Scope


@dataclass(frozen=True)
class Balance:
    """How a family keeps its answers balanced at the source (:mod:`figgen.vqa.api.balance`).

    The probabilities and the bound were measured on ``figgen build --n 200 --seed 0``: they
    are a property of the default distribution, which a config with another kind mix replaces
    in its ``[balance]`` section.
    """

    share_bound: float
    """The largest share any one answer class may have in the default build of 200 figures."""
    keep: Mapping[str, float] = field(default_factory=dict, hash=False)
    """Per answer class (:func:`figgen.vqa.api.balance.answer_class`), the probability an item
    is kept; a class not listed is always kept."""
    by_kind: Mapping[str, Mapping[str, float]] = field(default_factory=dict, hash=False)
    """Per stratum (:func:`figgen.vqa.api.balance.stratum`: a kind, or ``line-legend`` for
    lines named by their legend label), a table of its own, for a family whose words give the
    panel's kind away; a stratum not listed reads its kind's, then ``keep``."""


@dataclass(frozen=True)
class Family:
    """One question family: how its items are asked, answered and scored."""

    name: str
    level: Level
    scope: Scope
    answer_type: AnswerType
    metric: Metric
    question: str
    """The question, lower-case first; ``{loc}`` is the panel's location words, other fields
    are filled by the builder (``ctx.ask(FAMILY, panel, answer, what=...)``)."""
    is_count: bool = False
    """The answer counts things (panels, bars, peaks): aggregation reports estimate vs truth."""
    names_series: bool = False
    """An item names one line of a line plot (or a scatter's point set) and reads every point
    of it: it is not asked of a line that is hidden or looks like another."""
    balance: Balance | None = None
    """Which items of dominant answers a default build keeps; None: every item is asked."""

    @property
    def answer_key(self) -> str:
        """The JSON key of the reply unless an item names another (e.g. ``x_ticks``)."""
        return self.name


FAMILIES: Registry[Family] = Registry("question family")
"""Every declared family by name, in declaration order."""


def declare(
    name: str,
    level: Level,
    scope: Scope,
    answer_type: AnswerType,
    metric: Metric,
    question: str,
    *,
    is_count: bool = False,
    names_series: bool = False,
    balance: Balance | None = None,
) -> Family:
    """Add a family to :data:`FAMILIES`; a second, different declaration of a name is an error
    (the same declaration again gives the registered family)."""
    family = Family(
        name, level, scope, answer_type, metric, question, is_count, names_series, balance
    )
    known = FAMILIES.get(name)
    if known is None:
        return FAMILIES.add(name, family)
    if known != family:
        raise ValueError(f"question family {name!r} is declared twice, differently")
    return known


# The families every figure or every panel gets, whatever its kinds. Kind-owned families are
# declared in the kind's module (``figgen/kinds/<kind>.py``) and listed in its ``families``.
# fmt: off
_COPY = "Copy the text exactly, keeping any LaTeX between $ signs."
_LIST = (
    "reading the panels row by row from the top-left; copy each text exactly (keep any LaTeX "
    "between $ signs) and give [] if there are none."
)
PANEL_COUNT = declare(
    "panel_count",
    1,
    "figure",
    "integer",
    "exact",
    "how many panels (separate plots with their own axes) does this figure contain?",
    is_count=True,
)
LAYOUT = declare(
    "layout",
    1,
    "figure",
    "integer_pair",
    "exact",
    "the panels are arranged in a grid: how many rows and how many columns of panels are "
    "there? Give [rows, columns].",
)
PLOT_TYPES = declare(
    "plot_types",
    1,
    "figure",
    "choice_list",
    "exact_set",
    "which types of plot appear in this figure? List each type once.",
    balance=Balance(0.2, {"1 kinds": 0.35, "4 kinds": 0.1}),
)
TITLES = declare(
    "titles",
    1,
    "figure",
    "string_list",
    "cer_list",
    f"list the titles of the panels, {_LIST}",
    balance=Balance(0.1, {"[]": 0.2}),
)
XLABELS = declare(
    "xlabels",
    1,
    "figure",
    "string_list",
    "cer_list",
    f"list the x-axis labels of the panels, {_LIST}",
)
YLABELS = declare(
    "ylabels",
    1,
    "figure",
    "string_list",
    "cer_list",
    f"list the y-axis labels of the panels, {_LIST}",
)

PLOT_TYPE = declare(
    "plot_type", 1, "panel", "choice", "exact", "what type of plot is shown in {loc}?"
)
TITLE = declare("title", 1, "panel", "string", "cer", "what is the title of {loc}? " + _COPY)
XLABEL = declare(
    "xlabel", 1, "panel", "string", "cer", "what is the x-axis label of {loc}? " + _COPY
)
YLABEL = declare(
    "ylabel", 1, "panel", "string", "cer", "what is the y-axis label of {loc}? " + _COPY
)
ERROR_BARS = declare(
    "error_bars",
    1,
    "panel",
    "choice",
    "exact",
    "which error bars are drawn in {loc}: none, only along x (horizontal bars), only along y "
    "(vertical bars), or along both?",
    # each kind on its own (lines named by legend label apart), so what the words tell of a
    # panel gains nothing
    balance=Balance(
        0.36,
        by_kind={
            "histogram": {"none": 0.1, "y only": 0.4},
            "scatter": {"none": 0.13},
            "line": {"none": 0.35, "y only": 0.89},
        },
    ),
)
COLORMAP = declare(
    "colormap",
    1,
    "panel",
    "choice",
    "exact",
    "which matplotlib colormap colours {loc}?",
    # of P(answer | offered), which its fixed choice groups keep flat: nothing is dropped
    balance=Balance(0.2),
)
AXIS_SCALE = declare(
    "axis_scale",
    1,
    "panel",
    "choice",
    "exact",
    "is the {axis} axis of {loc} linear or logarithmic?",
    balance=Balance(0.6, {"linear": 0.08}),
)
TICK_VALUES = declare(
    "tick_values",
    1,
    "panel",
    "number_list",
    "exact_set",
    "what numbers are written at the tick marks of the {axis} axis of {loc}? List every "
    "labelled tick.",
)

COUNT_KIND = declare(
    "count_kind",
    1,
    "cross-panel",
    "integer",
    "exact",
    "how many panels of this figure are {nouns}?",
    is_count=True,
)
LARGEST_MEAN = declare(
    "largest_mean",
    2,
    "cross-panel",
    "choice",
    "exact",
    "considering the {nouns} only, which panel has the largest mean of {what}?",
)
SAME_TREND = declare(
    "same_trend",
    3,
    "cross-panel",
    "choice",
    "exact",
    "do {first} and {second} show the same trend, that is, do the data in both rise with x "
    "or both fall with x?",
)
STRONGEST_LINEAR = declare(
    "strongest_linear",
    3,
    "cross-panel",
    "choice",
    "exact",
    "among the {nouns}, which panel shows the strongest linear relationship between x and y "
    "(points closest to a straight line)?",
)
# fmt: on

EVERY_PANEL: tuple[Family, ...] = (PLOT_TYPE, TITLE, XLABEL, YLABEL, AXIS_SCALE, TICK_VALUES)
"""Panel families the shared builders ask of a panel of any kind (where it applies).

``error_bars`` and ``colormap`` are asked by shared code too, but only of the kinds whose hooks
say they apply; those kinds list them in their ``families``."""

# Families shared by several kinds, asked through the helpers in figgen.vqa.api.point_questions.
# fmt: off
_Y = "in {loc}, what is the %s y value of {what}?"
MEAN_Y = declare("mean_y", 2, "panel", "number", "ssmape", _Y % "mean", names_series=True)
MEDIAN_Y = declare("median_y", 2, "panel", "number", "ssmape", _Y % "median", names_series=True)
MIN_Y = declare("min_y", 2, "panel", "number", "ssmape", _Y % "smallest", names_series=True)
MAX_Y = declare("max_y", 2, "panel", "number", "ssmape", _Y % "largest", names_series=True)
RANGE = "in {loc}, what range of {axis} values do {what} cover? Give [smallest, largest]."
X_RANGE = declare("x_range", 2, "panel", "number_pair", "relaxed_5pct", RANGE)
LINEARITY = declare(
    "linearity",
    3,
    "panel",
    "choice",
    "exact",
    "in {loc}, do {name} lie along a straight line (linear) or not (nonlinear)?",
    names_series=True,
    balance=Balance(
        0.6,
        by_kind={
            "line-legend": {"nonlinear": 0.29},
            "line": {"nonlinear": 0.17},
            "scatter": {"nonlinear": 0.16},
        },
    ),
)
TREND = declare(
    "trend",
    3,
    "panel",
    "choice",
    "exact",
    "in {loc}, as x increases, do {name} show an increasing or a decreasing trend?",
    names_series=True,
)
# fmt: on

POINT_SET_FAMILIES: tuple[Family, ...] = (MEAN_Y, MEDIAN_Y, MIN_Y, MAX_Y, X_RANGE, LINEARITY, TREND)
"""The families of :mod:`figgen.vqa.api.point_questions`, for the kinds that draw point sets."""
