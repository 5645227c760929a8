"""Code match through a scripted coder and the real sandbox."""

from __future__ import annotations

import pytest

from pytest_pau.models import CallResult, Example, Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Coder, run_code

GOOD = """```python
import math

def test_func(arg0):
    if arg0 < 0:
        raise ValueError("negative")
    return math.isqrt(arg0)
```"""
# Raises a different exception type on negatives: still a match (both sides raise).
OTHER_ERROR = "```python\ndef test_func(arg0):\n    return int(arg0 ** 0.5)\n```"
# Returns 0 for negatives where the method raises: 2 of 4 match.
NO_ERROR = "```python\nimport math\ndef test_func(arg0):\n    return math.isqrt(max(arg0, 0))\n```"


@pytest.mark.parametrize(
    ("reply", "score", "n_mismatches"),
    [(GOOD, 1.0, 0), (OTHER_ERROR, 1.0, 0), (NO_ERROR, 0.5, 2)],
)
def test_code_match_with_exceptions_on_some_inputs(
    isqrt: Instance, scripted, reply: str, score: float, n_mismatches: int
) -> None:
    llm, client = scripted([(MARKERS["coder"], reply)])
    observed = [*isqrt.train_examples, ("(16,)", CallResult(ok=True, value="4", literal=True))]
    result = Coder(client).code_match(isqrt, "Integer square root.", observed)
    assert result.score == score
    assert (result.n_inputs, result.n_matched) == (4, int(4 * score))
    assert len(result.mismatches) == n_mismatches
    assert result.error is None
    assert result.usage.calls == 1
    prompt = llm.log[0]["messages"][-1]["content"]
    assert "- input (9,) -> 3" in prompt
    assert "- input (16,) -> 4" in prompt
    assert "Integer square root." in prompt
    assert isqrt.header in prompt
    if n_mismatches:
        first = result.mismatches[0]
        assert (first.input, first.expected, first.got) == (
            "(-1,)",
            "ValueError: negative input",
            "0",
        )


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("```python\ndef solve(x):\n    return x\n```", "does not define test_func"),
        ("```python\ndef test_func(x):\n    return (x\n```", "does not compile"),
        ("I cannot write this.", "does not"),
    ],
)
def test_unusable_code_scores_zero_with_the_reason(
    isqrt: Instance, scripted, reply: str, reason: str
) -> None:
    _, client = scripted([(MARKERS["coder"], reply)])
    result = Coder(client).code_match(isqrt, "x", [])
    assert result.score == 0.0
    assert reason in (result.error or "")
    assert result.n_matched == 0


def test_code_failing_at_load_scores_zero(isqrt: Instance) -> None:
    # Raising as it loads would otherwise "match" the two raising examples.
    code = "import no_such_module\ndef test_func(x):\n    return 0\n"
    result = run_code(code, isqrt.test_examples)
    assert result.score == 0.0
    assert "fails when loaded: ModuleNotFoundError" in (result.error or "")


def test_code_raising_only_on_call_is_not_taken_for_a_load_failure(isqrt: Instance) -> None:
    code = "def test_func(x):\n    if x < 0:\n        raise KeyError(x)\n    return 99\n"
    result = run_code(code, isqrt.test_examples)
    assert (result.score, result.error) == (0.5, None)


def test_no_test_examples_gives_no_score() -> None:
    assert run_code("def test_func(x):\n    return x\n", []).score is None


def test_uncomputable_outputs_compare_by_value() -> None:
    examples = [
        Example(input="({1, 2},)", output="{2, 1}"),
        Example(input="(1e400,)", output="inf"),
    ]
    assert run_code("def test_func(x):\n    return x\n", examples).score == 1.0
