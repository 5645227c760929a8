"""The agents end to end: scripted model over real HTTP, real sandbox."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from pytest_pau.agent import NULL_DESCRIPTION, make_agent
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.sandbox import Sandbox

Messages = list[dict[str, Any]]


def by_turn(script: dict[str, list[str]]) -> Callable[[Messages], str]:
    """A scripted model that answers each kind of turn from its own queue, in order."""
    queues = {kind: list(replies) for kind, replies in script.items()}

    def reply(messages: Messages) -> str:
        last = messages[-1]["content"]
        for kind, queue in queues.items():
            if re.search(MARKERS[kind], last):
                return queue.pop(0) if len(queue) > 1 else queue[0]
        raise AssertionError(f"unexpected prompt: {last[:200]!r}")

    return reply


@pytest.mark.slow
def test_full_episode_records_every_step_exactly(double: Instance, scripted) -> None:
    replies = {
        "reason": ["Try a negative int; expect -6.", "Try a string; expect an error."],
        "act": ["INPUT: (-3,)", "Sure, I'll try:\n```python\n('a',)\n```\nThis probes types."],
        "reflect": [
            "CONCLUDE: NO\nSUMMARY: Doubles ints. Next: a string.",
            "CONCLUDE: YES\nSUMMARY: Doubles an int; raises TypeError otherwise.",
        ],
    }
    llm, client = scripted(by_turn(replies))
    agent = make_agent(llm.model, client=client, max_iterations=20, seed=7)
    with Sandbox(double.code) as box:
        traj = agent.run(double, box)

    assert [(s.kind, s.iteration) for s in traj.steps] == [
        ("reason", 1), ("act", 1), ("reflect", 1),
        ("reason", 2), ("act", 2), ("reflect", 2),
    ]  # fmt: skip
    # Each step holds exactly the prompt the server received and the reply it sent.
    assert llm.requests == 6
    for step, body in zip(traj.steps, llm.log, strict=True):
        assert step.prompt == body["messages"][-1]["content"]
        assert body["seed"] == 7
        assert step.tokens.calls == 1
        assert step.tokens.completion_tokens == len(step.response.split())
    assert [s.response for s in traj.steps] == [
        replies["reason"][0], replies["act"][0], replies["reflect"][0],
        replies["reason"][1], replies["act"][1], replies["reflect"][1],
    ]  # fmt: skip
    act1, act2 = traj.steps[1], traj.steps[4]
    assert (act1.parsed_input, act1.result.ok, act1.result.value) == ("(-3,)", True, "-6")
    assert (act2.parsed_input, act2.result.ok, act2.result.error_type) == (
        "('a',)",
        False,
        "TypeError",
    )
    assert [traj.steps[2].concluded, traj.steps[5].concluded] == [False, True]
    # The second iteration sees the first call's outcome and the running hypothesis.
    assert "- input (-3,) -> -6" in traj.steps[3].prompt
    assert "Doubles ints. Next: a string." in traj.steps[3].prompt
    assert "The latest call: input ('a',) -> TypeError: arg0 must be an int" in traj.steps[5].prompt
    assert traj.prediction == "Doubles an int; raises TypeError otherwise."
    assert traj.concluded is True
    assert traj.n_queries == 2
    assert traj.usage.calls == 6
    assert traj.usage.prompt_tokens == sum(s.tokens.prompt_tokens for s in traj.steps)


def test_iteration_limit_stops_an_agent_that_never_concludes(double: Instance, scripted) -> None:
    llm, client = scripted(
        by_turn(
            {
                "reason": ["Another number."],
                "act": ["INPUT: (1,)", "INPUT: (2,)", "INPUT: (3,)"],
                "reflect": ["CONCLUDE: NO\nSUMMARY: h1", "CONCLUDE: NO\nSUMMARY: h2", "NO\nh3"],
            }
        )
    )
    traj = make_agent(llm.model, client=client, max_iterations=3).run(double, Sandbox(double.code))
    assert llm.requests == 9
    assert [s.kind for s in traj.steps] == ["reason", "act", "reflect"] * 3
    assert traj.concluded is False
    assert traj.prediction == "h3"
    assert traj.n_queries == 3
    assert "Step 3 of 3" in traj.steps[6].prompt


def test_format_failure_is_recorded_shown_and_counts_as_an_iteration(
    double: Instance, scripted
) -> None:
    llm, client = scripted(
        by_turn(
            {
                "reason": ["Try something."],
                "act": ["I am not sure what to try here.", "INPUT: (4,)"],
                "reflect": ["Doubles it, I guess."],  # no YES/NO: counts as NO
            }
        )
    )
    traj = make_agent(llm.model, client=client, max_iterations=2).run(double, Sandbox(double.code))
    assert [(s.kind, s.iteration) for s in traj.steps] == [
        ("reason", 1), ("act", 1),
        ("reason", 2), ("act", 2), ("reflect", 2),
    ]  # fmt: skip
    failed = traj.steps[1]
    assert failed.parsed_input is None
    assert failed.result is None
    assert failed.format_error == "No Python literal was found in the reply."
    assert "no readable input" in traj.steps[2].prompt  # shown back to the model
    assert traj.steps[4].concluded is None
    assert traj.steps[4].format_error
    assert traj.n_queries == 1
    assert traj.prediction == "Doubles it, I guess."
    assert traj.concluded is False


def test_prose_around_the_tuple(double: Instance, scripted) -> None:
    llm, client = scripted(
        by_turn(
            {
                "reason": ["<think>hmm</think>Zero is an edge case."],
                "act": ["<think>maybe (1,)?</think>Let me call it with (0,) now; I expect 0 back."],
                "reflect": ["CONCLUDE: YES\nSUMMARY: Doubles."],
            }
        )
    )
    traj = make_agent(llm.model, client=client).run(double, Sandbox(double.code))
    assert traj.steps[1].parsed_input == "(0,)"
    assert traj.steps[1].result.value == "0"
    assert "Your plan:\nZero is an edge case." in traj.steps[1].prompt  # think block dropped


def test_incontext_mode_is_one_call(double: Instance, scripted) -> None:
    llm, client = scripted([(MARKERS["incontext"], "DESCRIPTION: Doubles an integer.")])
    traj = make_agent(llm.model, client=client, mode="incontext").run(double, Sandbox(double.code))
    assert llm.requests == 1
    assert [s.kind for s in traj.steps] == ["incontext"]
    assert "- input (2,) -> 4" in traj.steps[0].prompt
    assert traj.prediction == "Doubles an integer."
    assert (traj.n_queries, traj.concluded) == (0, False)


def test_oracle_queries_a_few_inputs_and_answers_the_gold(double: Instance) -> None:
    with Sandbox(double.code) as box:
        traj = make_agent("oracle").run(double, box)
    assert traj.prediction == double.description
    assert traj.concluded is True
    assert [(i, r.value) for i, r in traj.observed()] == [("(2,)", "4"), ("(5,)", "10")]
    assert traj.usage.calls == 0


def test_null_answers_a_content_free_description(double: Instance) -> None:
    traj = make_agent("null").run(double, Sandbox(double.code))
    assert traj.prediction == NULL_DESCRIPTION
    assert (traj.n_queries, traj.concluded, traj.usage.calls) == (0, False, 0)


@pytest.mark.parametrize("model", ["oracle", "null"])
def test_pseudo_agents_need_no_client(model: str) -> None:
    assert make_agent(model, client=None) is not None
