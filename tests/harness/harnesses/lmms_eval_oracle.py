"""Run an exported figgen task through lmms-eval's own evaluator with an oracle model.

Run by tests/harness/test_real_harnesses.py in a venv that has lmms-eval (this checkout on
PYTHONPATH):

    python lmms_eval_oracle.py TASK_FOLDER TASK_NAME OUT.json SAMPLES_FOLDER

The oracle replies to every request with the item's answer as the JSON object figgen asks
for; numbers scored with a tolerance (sSMAPE, relaxed 5%) come back 1% off, which figgen's
scoring accepts and an exact-match fallback would not. lmms-eval indexes the folder with its
TaskManager, loads the documents, builds the requests (prompt text and images through the
task's own functions), calls the model, runs ``process_results`` and the aggregations;
OUT.json gets the metrics and what the model was sent; SAMPLES_FOLDER the samples log, written
by lmms-eval's own EvaluationTracker as ``--log_samples`` writes it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOLERANT = ("ssmape", "relaxed_5pct")


def near(value: Any) -> Any:
    """``value`` 1% off where it is a number (or a list of numbers)."""
    if isinstance(value, list):
        return [near(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool) and value != 0:
        return value * 1.01
    return value


def main(folder: str, task_name: str, out: str, samples: str) -> None:
    from lmms_eval.api.model import lmms
    from lmms_eval.evaluator import simple_evaluate
    from lmms_eval.loggers import EvaluationTracker
    from lmms_eval.tasks import TaskManager

    seen: list[dict[str, Any]] = []

    class Oracle(lmms):
        def generate_until(self, requests: list[Any]) -> list[str]:
            replies = []
            for request in requests:
                context, _kwargs, doc_to_visual, doc_id, task, split = request.args
                doc = self.task_dict[task][split][doc_id]
                images = doc_to_visual(doc)
                answer = json.loads(doc["answer"])
                reply = near(answer) if doc["metric"] in TOLERANT else answer
                seen.append(
                    {
                        "qid": doc["qid"],
                        "prompt": context,
                        "image_sizes": [list(image.size) for image in images],
                        "image_modes": [image.mode for image in images],
                        "off_by_one_percent": reply != answer,
                    }
                )
                replies.append(json.dumps({doc["answer_key"]: reply}))
            return replies

        def loglikelihood(self, requests: list[Any]) -> list[tuple[float, bool]]:
            raise NotImplementedError("figgen tasks only generate")

        def generate_until_multi_round(self, requests: list[Any]) -> list[str]:
            raise NotImplementedError("figgen tasks ask one round")

    manager = TaskManager(include_path=folder, include_defaults=False)
    results = simple_evaluate(
        model=Oracle(),
        tasks=[task_name],
        task_manager=manager,
        batch_size=1,
        log_samples=True,
        bootstrap_iters=0,
    )
    assert results is not None
    metrics = {
        key.split(",")[0]: value
        for key, value in results["results"][task_name].items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    tracker = EvaluationTracker(output_path=samples)
    tracker.general_config_tracker.log_experiment_args(
        model_source="oracle",
        model_args="pretrained=oracle",
        system_instruction=None,
        chat_template=None,
        fewshot_as_multiturn=False,
    )
    tracker.date_id = "oracle"
    tracker.save_results_samples(task_name=task_name, samples=results["samples"][task_name])
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"metrics": metrics, "requests": seen}, handle)


if __name__ == "__main__":
    main(*sys.argv[1:5])
