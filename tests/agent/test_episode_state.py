"""The episode state and the prompts each turn sends (pure, no model, no sandbox)."""

from __future__ import annotations

import re

import pytest

from pytest_pau.agent import (
    EpisodeState,
    build_act_messages,
    build_incontext_messages,
    build_reason_messages,
    build_reflect_messages,
    make_agent,
)
from pytest_pau.agent.episode_state import RECENT_OBSERVATIONS
from pytest_pau.errors import ConfigError
from pytest_pau.models import Example, Instance
from pytest_pau.prompting import MARKERS, PROMPTS_VERSION


@pytest.fixture
def instance() -> Instance:
    return Instance(
        id="t/double",
        source="t",
        code="def test_func(arg0):\n    return arg0 * 2\n",
        header="def test_func(arg0):",
        description="Returns its argument doubled.",
        train_examples=[Example(input="(2,)", output="4"), Example(input="('a',)", output="'aa'")],
        test_examples=[Example(input="(5,)", output="10")],
        arity=1,
    )


def test_prompts_version_has_a_human_part_and_a_hash() -> None:
    assert re.fullmatch(r"\d+\.\d+\+[0-9a-f]{8}", PROMPTS_VERSION)


def test_every_turn_has_its_marker_and_only_its_own(instance: Instance) -> None:
    state = EpisodeState.from_instance(instance, max_iterations=5)
    state.record_plan("Try a negative number; expect -6.")
    state.record_call("(-3,)", "-6")
    prompts = {
        "reason": build_reason_messages(state)[-1]["content"],
        "act": build_act_messages(state)[-1]["content"],
        "reflect": build_reflect_messages(state)[-1]["content"],
        "incontext": build_incontext_messages(instance)[-1]["content"],
    }
    for kind, prompt in prompts.items():
        matching = [k for k in prompts if re.search(MARKERS[k], prompt)]
        assert matching == [kind]
    assert "def test_func(arg0):" in prompts["reason"]
    assert "- input (2,) -> 4" in prompts["reason"]
    assert "Step 1 of 5" in prompts["reason"]
    assert "Try a negative number; expect -6." in prompts["act"]
    assert "The latest call: input (-3,) -> -6" in prompts["reflect"]
    assert "- input ('a',) -> 'aa'" in prompts["incontext"]


def test_only_the_recent_observations_are_shown(instance: Instance) -> None:
    state = EpisodeState.from_instance(instance)
    for i in range(RECENT_OBSERVATIONS + 5):
        state.record_call(f"({i},)", str(2 * i))
    prompt = build_reason_messages(state)[-1]["content"]
    assert "- input (4,) -> 8" not in prompt
    assert "- input (5,) -> 10" in prompt
    assert "- input (14,) -> 28" in prompt
    assert "- input (2,) -> 4" in prompt  # starting examples stay


def test_long_results_are_clipped(instance: Instance) -> None:
    state = EpisodeState.from_instance(instance)
    state.record_call("('x',)", "'" + "x" * 5000 + "'")
    prompt = build_reason_messages(state)[-1]["content"]
    assert "more chars]" in prompt
    assert len(prompt) < 2500


def test_format_failure_and_reflection_advance_the_iteration(instance: Instance) -> None:
    state = EpisodeState.from_instance(instance, max_iterations=2)
    state.record_format_failure("No Python literal was found in the reply.")
    assert (state.iteration, state.format_failures, state.done) == (2, 1, False)
    assert "no readable input" in build_reason_messages(state)[-1]["content"]
    state.record_call("(1,)", "2")
    state.record_reflection(None, "")  # unreadable: counts as NO, keeps the hypothesis
    assert (state.iteration, state.concluded, state.hypothesis, state.done) == (3, False, "", True)


def test_yes_ends_the_episode(instance: Instance) -> None:
    state = EpisodeState.from_instance(instance, max_iterations=20)
    state.record_reflection(True, "Doubles its argument.")
    assert state.done
    assert state.hypothesis == "Doubles its argument."


def test_make_agent_rejects_bad_settings() -> None:
    with pytest.raises(ConfigError, match=r"make_agent\(mode='chat'\): expected one of"):
        make_agent("oracle", mode="chat")
    with pytest.raises(ConfigError, match=r"max_iterations=0\): expected at least 1"):
        make_agent("oracle", max_iterations=0)
    with pytest.raises(ConfigError, match="needs an LLM client"):
        make_agent("openai/gpt-4o-mini")
