"""``--pau-coder=self`` in the Evaluator: the model under test's coder call failing leaves
the item's other scores standing, and says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings

GOOD_CODE = (
    "```python\ndef test_func(arg0):\n    if not isinstance(arg0, int):\n"
    "        raise TypeError('no')\n    return 2 * arg0\n```"
)


def test_a_failed_self_coder_call_keeps_the_fixed_scores(
    double: Instance, scripted: Callable[..., Any]
) -> None:
    scorers, _ = scripted([(MARKERS["judge"], "Same.\nRating: 5"), (MARKERS["coder"], GOOD_CODE)])
    model, _ = scripted(
        [
            (MARKERS["reason"], "Try 3."),
            (MARKERS["act"], "INPUT: (3,)"),
            (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {double.description}"),
        ]
    )
    model.fail("500", times=5, at=4)  # the agent's 3 turns answer; its coder call does not
    settings = PauSettings(
        model="openai/mine", judge_model="openai/judge", coder_model="openai/judge", coder="self"
    )

    def factory(name: str, api_base: str | None) -> LLMClient:
        server = model if name == "openai/mine" else scorers
        return LLMClient(
            name,
            api_base=server.api_base,
            api_key=server.api_key,
            retry=RetryPolicy(max_attempts=2, base_s=0.01, max_total_wait_s=1.0),
        )

    phases: list[str] = []
    result = Evaluator(settings, client_factory=factory).evaluate(double, progress=phases.append)
    assert phases == ["explore", "1/20", "judge", "code", "self_code"]  # and the iteration
    assert (result.judge_score, result.code_match, result.passed) == (5, 1.0, True)
    assert result.error is None
    assert result.self_code_match is None
    assert result.self_code_error is not None
    assert result.self_code_error.startswith("LLMUnavailableError")
