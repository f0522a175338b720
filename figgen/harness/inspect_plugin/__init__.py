"""figgen's questions as an inspect_ai task (``pip install 'figgen[inspect]'``).

``inspect eval figgen/figgen_qa -T data=DIR --model openai/gpt-4o-mini`` runs it against any
model inspect supports; from Python, ``inspect_ai.eval(figgen_qa(data=DIR), model=...)``.
``--model figgen/oracle -M data=DIR`` (or ``figgen/chance``) answers offline from the build.
"""

try:
    import inspect_ai  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "figgen.harness.inspect_plugin needs inspect_ai; pip install 'figgen[inspect]'"
    ) from exc

from inspect_ai.model import modelapi

from figgen.harness.inspect_plugin._dataset import qa_dataset, qa_sample
from figgen.harness.inspect_plugin._scorer import family_metrics, figgen_scorer, rejected
from figgen.harness.inspect_plugin._task import figgen_qa


@modelapi(name="figgen")
def figgen_model() -> type:
    """``--model figgen/oracle`` and ``figgen/chance``: offline answers from the build."""
    from figgen.harness.inspect_plugin._model import FiggenModel

    return FiggenModel


__all__ = [
    "family_metrics",
    "figgen_model",
    "figgen_qa",
    "figgen_scorer",
    "qa_dataset",
    "qa_sample",
    "rejected",
]
