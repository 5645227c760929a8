"""Whose fault a failed item is: coder limitations, no exploration, a faithful coder first.

Real sandbox, a scripted judge/coder/classifier over HTTP through litellm; the requests of
each kind are counted from the server's log.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pytest_pau.agent.pseudo import NULL_DESCRIPTION
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.llm.cache import ResponseCache
from pytest_pau.models import FailureMode, Instance, InstanceResult, Step, Trajectory
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Evaluator
from pytest_pau.scoring.attribution import content_free, no_exploration
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM

from .test_evaluator import GOOD_CODE, WRONG_CODE, ReplayAgent, evaluator, prompts

# Right on every test input of ``double`` ((0,), (-4,), ('a',)), wrong on what the agent
# saw ((2,) -> 4, (5,) -> 10): code match passes, the observed calls contradict it.
RIGHT_ON_TESTS_ONLY = (
    "```python\ndef test_func(arg0):\n    if not isinstance(arg0, int):\n"
    "        raise TypeError('arg0 must be an int')\n"
    "    return 2 * arg0 if arg0 <= 0 else arg0\n```"
)


def kinds(llm: ScriptedLLM) -> Counter[str]:
    """Requests the server answered, per kind of prompt."""
    return Counter(prompts(llm))


def test_oracle_with_a_coder_wrong_from_the_gold_is_a_coder_error(
    double: Instance, scripted
) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Same.\nRating: 5"), (MARKERS["coder"], WRONG_CODE)])
    result = evaluator(llm, model="oracle").evaluate(double)
    assert not result.passed
    assert result.failure_mode == FailureMode.CODER_ERROR
    assert result.failure_mode not in ("self_contradiction", "overconfident")
    assert result.overconfident is False  # the oracle concluded YES; the coder failed
    assert result.failure_detail.startswith("coder limitation: the coder reaches code match 0.33")
    assert "--pau-coder-model" in result.failure_detail
    # The gold control is the oracle's own coder call: reused, never asked twice.
    assert result.gold_code_match == result.code_match == pytest.approx(1 / 3)
    assert kinds(llm) == {"judge": 1, "coder": 1}
    assert result.model_calls == 2


def test_oracle_coder_error_also_when_the_judge_disagrees(double: Instance, scripted) -> None:
    llm, _ = scripted([(MARKERS["judge"], "Rating: 1"), (MARKERS["coder"], WRONG_CODE)])
    result = evaluator(llm, model="oracle", gold_control=True).evaluate(double)
    assert result.failure_mode == FailureMode.CODER_ERROR
    assert result.overconfident is False
    assert kinds(llm) == {"judge": 1, "coder": 1}  # --pau-gold-control reuses it too


def test_null_is_insufficient_exploration_with_no_classifier_request(
    double: Instance, scripted
) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 1"),
            (MARKERS["classify"], "Label: hallucination"),
            (MARKERS["coder"], WRONG_CODE),
        ]
    )
    result = evaluator(llm, model="null").evaluate(double)
    assert result.failure_mode == FailureMode.INSUFFICIENT_EXPLORATION
    assert kinds(llm) == {"judge": 1, "coder": 1}
    assert kinds(llm)["classify"] == 0
    assert result.gold_code_match is None  # nothing to attribute: no gold control either


def test_null_with_gold_control_still_asks_no_classifier(double: Instance, scripted) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 1"),
            (MARKERS["classify"], "Label: hallucination"),
            (re.escape(double.description), GOOD_CODE),
            (MARKERS["coder"], WRONG_CODE),
        ]
    )
    result = evaluator(llm, model="null", gold_control=True).evaluate(double)
    assert result.failure_mode == FailureMode.INSUFFICIENT_EXPLORATION
    assert result.gold_code_match == 1.0
    assert kinds(llm) == {"judge": 1, "coder": 2}


def test_wrong_description_and_a_coder_wrong_from_the_gold_is_a_coder_error(
    double: Instance, scripted
) -> None:
    # Self-contradiction would fire (the code gives 2 for (2,), the agent saw 4), but the
    # coder writes the same wrong code from the gold description: it is not faithful.
    llm, _ = scripted([(MARKERS["judge"], "Rating: 2"), (MARKERS["coder"], WRONG_CODE)])
    ev = evaluator(llm)
    ev.agent = ReplayAgent("Returns the argument unchanged.")
    result = ev.evaluate(double)
    assert result.failure_mode == FailureMode.CODER_ERROR
    assert result.gold_code_match == pytest.approx(1 / 3)
    assert result.overconfident is False
    assert kinds(llm) == {"judge": 1, "coder": 2}
    assert result.model_calls == 3  # the gold control is counted with the item


def test_self_contradiction_needs_a_coder_faithful_to_the_gold(double: Instance, scripted) -> None:
    # Code match passes (judge fails): the gold control runs only because the
    # self-contradiction check fired, and the coder fails on the gold description.
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 2"),
            (MARKERS["classify"], "Label: reasoning_error"),
            (re.escape(double.description), WRONG_CODE),
            (MARKERS["coder"], RIGHT_ON_TESTS_ONLY),
        ]
    )
    ev = evaluator(llm)
    ev.agent = ReplayAgent("Doubles non-positive ints and returns positive ones unchanged.")
    result = ev.evaluate(double)
    assert result.code_match == 1.0
    assert result.failure_mode == FailureMode.REASONING_ERROR
    assert result.failure_detail.startswith("classifier; self-contradiction not reported")
    assert result.gold_code_match == pytest.approx(1 / 3)
    assert kinds(llm) == {"judge": 1, "coder": 2, "classify": 1}
    assert result.model_calls == 4  # the gold control and the classifier both counted


def test_self_contradiction_with_a_faithful_coder(double: Instance, scripted) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 2"),
            (MARKERS["classify"], "Label: reasoning_error"),
            (re.escape(double.description), GOOD_CODE),
            (MARKERS["coder"], RIGHT_ON_TESTS_ONLY),
        ]
    )
    ev = evaluator(llm)
    ev.agent = ReplayAgent("Doubles non-positive ints and returns positive ones unchanged.")
    result = ev.evaluate(double)
    assert result.failure_mode == FailureMode.SELF_CONTRADICTION
    assert result.gold_code_match == 1.0
    assert kinds(llm) == {"judge": 1, "coder": 2}


def test_a_judge_only_failure_needs_no_gold_control(double: Instance, scripted) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 2"),
            (MARKERS["classify"], "Label: hallucination"),
            (MARKERS["coder"], GOOD_CODE),
        ]
    )
    ev = evaluator(llm)
    ev.agent = ReplayAgent("Doubles an int and says more than it knows about floats.")
    result = ev.evaluate(double)
    assert (result.code_match, result.failure_mode) == (1.0, "hallucination")
    assert result.gold_code_match is None
    assert kinds(llm) == {"judge": 1, "coder": 1, "classify": 1}


def test_no_query_with_a_specific_description_goes_to_the_classifier(
    double: Instance, scripted
) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 1"),
            (MARKERS["classify"], "Label: hallucination"),
            (re.escape(double.description), GOOD_CODE),
            (MARKERS["coder"], WRONG_CODE),
        ]
    )

    class Guesser:
        def run(self, instance: Instance, sandbox: object) -> Trajectory:
            return Trajectory(prediction="Returns the argument unchanged.")

    ev = evaluator(llm)
    ev.agent = Guesser()
    result = ev.evaluate(double)
    assert result.failure_mode == FailureMode.HALLUCINATION
    assert kinds(llm) == {"judge": 1, "coder": 2, "classify": 1}


@pytest.mark.parametrize(
    ("text", "free"),
    [
        (NULL_DESCRIPTION, True),
        ("", True),
        ("   ", True),
        ("Takes the input and returns a result computed from it.", True),
        ("Returns the argument unchanged.", False),
        ("Returns the sum of its arguments.", False),
        ("Returns x + 1.", False),
        ("Returns a value computed from them, e.g. 3.", False),
        ("Returns 'a'.", False),
    ],
)
def test_content_free(text: str, free: bool) -> None:
    assert content_free(text) is free


def test_no_exploration_leaves_format_failures_to_format_following() -> None:
    traj = Trajectory(
        steps=[Step(kind="act", iteration=1, prompt="p", response="?", format_error="no input")],
        prediction=NULL_DESCRIPTION,
    )
    assert no_exploration(traj) is None
    assert no_exploration(Trajectory(prediction=NULL_DESCRIPTION)) is not None
    queried = Trajectory(prediction=NULL_DESCRIPTION, n_queries=1)
    assert no_exploration(queried) is None


def test_coder_error_is_not_a_mode_a_hook_may_answer() -> None:
    assert FailureMode.CODER_ERROR not in FailureMode.of_the_model()
    assert FailureMode.of_failed_items()[-1] == FailureMode.CODER_ERROR


def test_the_gold_control_is_cached_a_rerun_costs_no_request(
    double: Instance, scripted, tmp_path
) -> None:
    llm, _ = scripted(
        [
            (MARKERS["judge"], "Rating: 2"),
            (re.escape(double.description), WRONG_CODE),
            (MARKERS["coder"], WRONG_CODE),
        ]
    )
    cache = ResponseCache(tmp_path / "cache")

    def run() -> InstanceResult:
        config = PauSettings(model="oracle", judge_model=llm.model, coder_model=llm.model)

        def factory(name: str, api_base: str | None) -> LLMClient:
            return LLMClient(
                name,
                api_base=llm.api_base,
                api_key=llm.api_key,
                cache=cache,
                retry=RetryPolicy(max_attempts=2, base_s=0.01, max_total_wait_s=1.0),
            )

        ev = Evaluator(config, client_factory=factory)  # a fresh run: nothing in memory
        ev.agent = ReplayAgent("Returns the argument unchanged.")
        return ev.evaluate(double)

    first = run()
    assert first.failure_mode == FailureMode.CODER_ERROR
    assert (first.model_calls, first.cache_hits) == (3, 0)
    assert kinds(llm) == {"judge": 1, "coder": 2}  # the model's coder call + the gold control
    again = run()
    assert (again.failure_mode, again.gold_code_match) == (
        FailureMode.CODER_ERROR,
        first.gold_code_match,
    )
    assert (again.model_calls, again.cache_hits) == (3, 3)
    assert len(llm.log) == 3  # no request on the re-run, the gold control's neither
