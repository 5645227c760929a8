"""Code match through a scripted coder and the real sandbox."""

from __future__ import annotations

import pytest

from pytest_pau.models import CallResult, Example, Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Coder, as_examples, run_code
from pytest_pau.scoring.coder import call_text, coder_messages

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
    assert "- test_func(9) -> 3" in prompt
    assert "- test_func(16) -> 4" in prompt
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


@pytest.mark.parametrize(
    ("literal", "call"),
    [
        ("([5, -3, -2, 1],)", "test_func([5, -3, -2, 1])"),
        ("(1, 'a, b')", "test_func(1, 'a, b')"),
        ("((1, 2), [3])", "test_func((1, 2), [3])"),
        ("()", "test_func()"),
        ("[1, 2]", "test_func([1, 2])"),  # a non-tuple is one argument, as the sandbox reads it
        ("  (  {'k': (1,)} , )  ", "test_func({'k': (1,)})"),
        ("(1,", "test_func((1,)"),  # unparseable text is shown, never dropped
    ],
)
def test_inputs_are_shown_to_the_coder_as_calls(literal: str, call: str) -> None:
    assert call_text("test_func", literal) == call


def test_the_coder_prompt_shows_examples_as_calls_not_argument_tuples() -> None:
    instance = Instance(
        id="t/any_negative_sum",
        source="t",
        code="def test_func(arg0):\n    return sum(arg0) > 0\n",
        header="def test_func(arg0):",
        description="Whether the list's sum is positive.",
        train_examples=[Example(input="([5, -3, -2, 1],)", output="True")],
        test_examples=[Example(input="([],)", output="False")],
        arity=1,
    )
    observed = [
        *instance.train_examples,
        ("([-1],)", CallResult(ok=True, value="False", literal=True)),
        ("('x',)", CallResult(ok=False, error_type="TypeError", message="bad operand")),
    ]
    user = coder_messages(instance, instance.description, as_examples(observed))[-1]["content"]
    assert "Example calls (call -> result):" in user
    assert "- test_func([5, -3, -2, 1]) -> True" in user
    assert "- test_func([-1]) -> False" in user
    assert "- test_func('x') -> TypeError: bad operand" in user
    assert "([5, -3, -2, 1],)" not in user
    assert "- input " not in user
