"""Multi-chart reasoning over a latent dependency graph (LongChart, appendix C).

A graph spec (``spec``) names data, computation and image nodes; ``graph`` turns its edges into
derivation rules and information-equivalence classes; ``minimal`` finds the minimal generative
sets; ``modes`` picks each mode's images; ``sampling`` and ``propagate`` fill in the values;
``render`` draws the charts with figgen's kinds; ``questions`` asks about them; ``build``
writes sets a user can evaluate with ``figgen eval run``.
"""

from figgen.multichart.graph import Graph, Rule, build_graph, load_spec, spec_from_dict
from figgen.multichart.minimal import MinimalSetResult, SetCheck, check_set, minimal_sets
from figgen.multichart.modes import MODES, SetPlan, plan_set
from figgen.multichart.propagate import propagate
from figgen.multichart.spec import GraphSpec, NodeSpec

__all__ = [
    "MODES",
    "Graph",
    "GraphSpec",
    "MinimalSetResult",
    "NodeSpec",
    "Rule",
    "SetCheck",
    "SetPlan",
    "build_graph",
    "check_set",
    "load_spec",
    "minimal_sets",
    "plan_set",
    "propagate",
    "spec_from_dict",
]
