"""The Evaluator: one item end to end, with scripted judge/coder/classifier and real sandbox."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.llm import Budget, LLMClient, RetryPolicy
from pytest_pau.models import Instance, Step, Trajectory
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM

GOOD_CODE = (
    "```python\ndef test_func(arg0):\n    if not isinstance(arg0, int):\n"
    "        raise TypeError('no')\n    return 2 * arg0\n```"
)
WRONG_CODE = "```python\ndef test_func(arg0):\n    return arg0\n```"


def evaluator(
    llm: ScriptedLLM, model: str = "oracle", *, budget: Budget | None = None, **settings: Any
) -> Evaluator:
    config = PauSettings(model=model, judge_model=llm.model, coder_model=llm.model, **settings)

    def factory(name: str, api_base: str | None) -> LLMClient:
        return LLMClient(
            name,
            api_base=llm.api_base,
            api_key=llm.api_key,
            budget=budget,
            retry=RetryPolicy(max_attempts=2, base_s=0.01, max_total_wait_s=1.0),
        )

    return Evaluator(config, budget=budget, client_factory=factory)


def prompts(llm: ScriptedLLM) -> list[str]:
    kinds = []
    for body in llm.log:
        last = body["messages"][-1]["content"]
        kinds.append(next(k for k, rx in MARKERS.items() if re.search(rx, last)))
    return kinds


def test_oracle_passes_and_no_classifier_is_called(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Same.\nRating: 5"), (MARKERS["coder"], GOOD_CODE)])
    phases: list[str] = []
    result = evaluator(llm).evaluate(double, progress=phases.append)
    assert phases == ["explore", "judge", "code"]
    assert result.passed
    assert (result.judge_score, result.code_match, result.failure_mode) == (5, 1.0, "none")
    assert (result.concluded, result.overconfident, result.n_queries) == (True, False, 2)
    assert result.prediction == result.gold == double.description
    assert result.judge_explanation == "Same."
    assert result.error is None
    assert prompts(llm) == ["judge", "coder"]
    assert result.model_calls == 2
    assert result.tokens["prompt"] > 0
    assert result.trajectory[-1].kind == "oracle"
    assert result.duration_s > 0


def test_null_fails_and_is_insufficient_exploration_without_a_model(
    double: Instance, scripted
) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Says nothing.\nRating: 1"),
            (MARKERS["coder"], WRONG_CODE),
            (MARKERS["classify"], "Label: hallucination"),
        ]
    )
    phases: list[str] = []
    result = evaluator(llm, model="null").evaluate(double, progress=phases.append)
    assert phases == ["explore", "judge", "code", "classify"]
    assert not result.passed
    assert result.code_match == pytest.approx(1 / 3)  # identity matches 0 -> 0 only
    assert result.failure_mode == "insufficient_exploration"
    assert result.failure_detail.startswith("no query made and a content-free description")
    assert result.overconfident is False
    assert result.mismatches[0].input == "(-4,)"
    assert prompts(llm) == ["judge", "coder"]  # no classifier, no gold control


def test_self_contradiction_comes_before_the_classifier(double: Instance, scripted) -> None:
    # The description is not the gold one; the coder is faithful to the gold description.
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 2"),
            (re.escape(double.description), GOOD_CODE),
            (MARKERS["coder"], WRONG_CODE),
        ]
    )
    ev = evaluator(llm)
    ev.agent = ReplayAgent("Returns the argument unchanged.")
    result = ev.evaluate(double)  # the agent queried (2,) -> 4 and (5,) -> 10
    assert result.failure_mode == "self_contradiction"
    assert (
        "disagrees with 2 of 2 observed calls; first: input (2,): the agent saw 4, the code written from its description gives 2"
        in result.failure_detail
    )
    assert result.overconfident is True  # concluded YES and failed
    assert result.gold_code_match == 1.0  # the gold control showed the coder faithful
    assert prompts(llm) == ["judge", "coder", "coder"]


class ReplayAgent:
    """Queries the starting inputs, then concludes with a fixed description."""

    def __init__(self, prediction: str) -> None:
        self.prediction = prediction

    def run(self, instance: Instance, sandbox: Any) -> Trajectory:
        traj = Trajectory(prediction=self.prediction, concluded=True)
        for i, example in enumerate(instance.train_examples, start=1):
            traj.steps.append(
                Step(
                    kind="act",
                    iteration=i,
                    prompt="(replay)",
                    response=example.input,
                    parsed_input=example.input,
                    result=sandbox.call_literal(example.input),
                )
            )
        traj.n_queries = len(traj.observed())
        return traj


def test_gold_control_runs_the_coder_on_the_gold_description(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Rating: 5"), (MARKERS["coder"], GOOD_CODE)])
    result = evaluator(llm, model="null", gold_control=True).evaluate(double)
    assert result.gold_code_match == 1.0
    coder_prompts = [b["messages"][-1]["content"] for b in llm.log if "python code block" in str(b)]
    assert any(double.description in p for p in coder_prompts)


def test_unparseable_judge_leaves_the_item_unscored(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["coder"], GOOD_CODE), (r".", "No idea.")])
    result = evaluator(llm).evaluate(double)
    assert result.judge_score is None
    assert result.judge_unparseable == 1
    assert result.failure_mode == "infrastructure"
    assert "no parseable 'Rating: N'" in (result.error or "")
    assert not result.passed
    assert result.code_match == 1.0  # the rest is still recorded


def test_provider_outage_is_infrastructure(double: Instance, scripted) -> None:
    llm, _ = scripted([(r".", "Rating: 5")])
    llm.fail("500", times=10)
    result = evaluator(llm).evaluate(double)
    assert result.failure_mode == "infrastructure"
    assert "LLMUnavailableError" in (result.error or "")
    assert not result.passed


def test_spent_budget_skips_the_item(double: Instance, scripted) -> None:
    llm, _ = scripted([(r".", "Rating: 5")])
    result = evaluator(llm, budget=Budget(0.0)).evaluate(double)
    assert result.skipped
    assert result.skipped.startswith("budget")
    assert llm.requests == 0


def test_classify_hook_decides_first(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Rating: 1"), (MARKERS["coder"], GOOD_CODE)])
    seen: dict[str, Any] = {}

    def hook(*, instance: Instance, trajectory: Any, result: Any) -> str:
        seen.update(instance=instance, result=result)
        return "reasoning_error"

    ev = evaluator(llm, model="null")
    ev.classify_hook = hook
    result = ev.evaluate(double)
    assert result.failure_mode == "reasoning_error"
    assert seen["instance"] is double
    assert seen["result"].judge_score == 1
    ev.classify_hook = lambda **_: "bogus"
    with pytest.raises(ConfigError, match="'bogus'"):
        ev.evaluate(double)


def test_incontext_mode_through_the_evaluator(double: Instance, scripted) -> None:
    llm, _ = scripted(
        [
            (MARKERS["incontext"], "DESCRIPTION: Doubles an int; TypeError otherwise."),
            (MARKERS["judge"], "Rating: 5"),
            (MARKERS["coder"], GOOD_CODE),
        ]
    )
    result = evaluator(llm, model=llm.model, mode="incontext").evaluate(double)
    assert result.passed
    assert result.prediction == "Doubles an int; TypeError otherwise."
    assert [s.kind for s in result.trajectory] == ["incontext"]


def test_clients_are_built_once_and_shared(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Rating: 5"), (MARKERS["coder"], GOOD_CODE)])
    ev = evaluator(llm)
    ev.evaluate(double)
    ev.evaluate(double)
    assert len(ev._clients) == 1  # judge and coder use the same model here


def test_calls_made_before_an_outage_are_still_counted(double: Instance, scripted) -> None:
    # The model under test answers 4 calls, then the provider fails for good mid-episode.
    llm, _ = scripted([(r".", "INPUT: (3,)\nCONCLUDE: NO\nSUMMARY: doubles")])
    llm.fail("500", times=50, at=5)
    result = evaluator(llm, model=llm.model).evaluate(double)
    assert result.failure_mode == "infrastructure"
    assert result.model_calls == 4  # not 0: the item's cost must include them
    assert result.tokens["prompt"] > 0
