"""Fidelity: the code-match score equals a direct computation, done natively on the host.

For 50 builtin instances and 3 predicted codes each (the true code, a perturbed one that
changes some outputs and raises on some inputs, and a constant one), the score that
``run_code`` computes in the sandbox against the dataset's stored outputs must equal the
fraction computed here by running the true method and the predicted code in this process
(trusted code only) and comparing with ``==`` (an exception on both sides matches).
"""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.models import Instance
from pytest_pau.scoring import run_code

N_INSTANCES = 50

PERTURBED = """

_pau_true = test_func


def test_func(*args):
    key = len(repr(args))
    if key % 3 == 0:
        raise RuntimeError("perturbed")
    if key % 3 == 1:
        return ("perturbed", _pau_true(*args))
    return _pau_true(*args)
"""
CONSTANT = "def test_func(*args):\n    return None\n"


def predicted_codes(instance: Instance) -> dict[str, str]:
    return {"true": instance.code, "perturbed": instance.code + PERTURBED, "constant": CONSTANT}


def _native(code: str, input_text: str) -> tuple[str, Any]:
    namespace: dict[str, Any] = {"__name__": "pau_native"}
    exec(compile(code, "<native>", "exec"), namespace)  # trusted: builtin methods only
    args = ast.literal_eval(input_text)
    try:
        return "ok", namespace["test_func"](*args)
    except Exception as exc:
        return "raise", type(exc).__name__


def _same(a: Any, b: Any) -> bool:
    """``==``, except that nan equals nan (as the sandbox's comparison has it)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b)
    except Exception:
        return False


def direct_score(instance: Instance, code: str) -> float:
    matched = 0
    for example in instance.test_examples:
        want_kind, want = _native(instance.code, example.input)
        got_kind, got = _native(code, example.input)
        if want_kind == got_kind == "raise" or (want_kind == got_kind == "ok" and _same(want, got)):
            matched += 1
    return matched / len(instance.test_examples)


def _instances() -> list[Instance]:
    pool = sorted((i for i in load_dataset("builtin") if i.test_examples), key=lambda i: i.id)
    step = max(1, len(pool) // N_INSTANCES)
    return pool[::step][:N_INSTANCES]


@pytest.mark.slow
def test_code_match_equals_the_direct_computation() -> None:
    instances = _instances()
    assert len(instances) == N_INSTANCES
    disagreements = []
    scores: dict[str, list[float]] = {"true": [], "perturbed": [], "constant": []}
    for instance in instances:
        for name, code in predicted_codes(instance).items():
            sandboxed = run_code(code, instance.test_examples)
            direct = direct_score(instance, code)
            scores[name].append(direct)
            if sandboxed.score != pytest.approx(direct):
                disagreements.append(
                    (instance.id, name, sandboxed.score, direct, sandboxed.mismatches[:2])
                )
    assert disagreements == []
    # The three codes really differ, so equality above is not trivially 1 == 1.
    assert min(scores["true"]) == 1.0
    assert sum(scores["perturbed"]) < sum(scores["true"]) * 0.8
    assert sum(scores["constant"]) < sum(scores["perturbed"])
