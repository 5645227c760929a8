"""Failure modes: the deterministic self-contradiction check and the classifier."""

from __future__ import annotations

import pytest

from pytest_pau.models import CallResult, Instance, Step, Trajectory
from pytest_pau.prompting import MARKERS
from pytest_pau.sandbox import Sandbox
from pytest_pau.scoring import classify_failure, self_contradiction


def queried(instance: Instance, *inputs: str) -> Trajectory:
    """A trajectory of act steps whose results come from the real method."""
    steps = []
    with Sandbox(instance.code) as box:
        for i, literal in enumerate(inputs, 1):
            steps.append(
                Step(kind="act", iteration=i, prompt="", response=literal,
                     parsed_input=literal, result=box.call_literal(literal))
            )  # fmt: skip
    return Trajectory(steps=steps, prediction="", n_queries=len(steps))


def test_fires_when_the_final_code_contradicts_what_the_agent_saw(double: Instance) -> None:
    traj = queried(double, "(3,)", "(0,)", "('a',)")
    tripled = "def test_func(x):\n    if not isinstance(x, int):\n        raise TypeError\n    return 3 * x\n"
    check = self_contradiction(tripled, traj)
    assert check.fired
    assert (check.checked, check.count) == (3, 1)
    assert [(d.input, d.expected, d.got) for d in check.disagreements] == [("(3,)", "6", "9")]
    assert (
        "input (3,): the agent saw 6, the code written from its description gives 9"
        in check.detail()
    )


def test_does_not_fire_on_a_consistent_hypothesis(double: Instance) -> None:
    traj = queried(double, "(3,)", "(0,)", "('a',)")
    # Wrong in general (it fails on 7) yet consistent with every call the agent made.
    consistent = (
        "def test_func(x):\n    if not isinstance(x, int):\n        raise TypeError\n"
        "    return {3: 6, 0: 0}.get(x, 1)\n"
    )
    check = self_contradiction(consistent, traj)
    assert not check.fired
    assert check.checked == 3


def test_skips_calls_that_never_ran_the_method(double: Instance) -> None:
    refused = Step(kind="act", iteration=1, prompt="", response="", parsed_input="(x,)",
                   result=CallResult(ok=False, error_type="InputError", message="not a literal"))  # fmt: skip
    check = self_contradiction("def test_func(x):\n    return 0\n", Trajectory(steps=[refused]))
    assert (check.fired, check.checked) == (False, 0)


def test_unrunnable_code_never_fires(double: Instance) -> None:
    traj = queried(double, "(3,)")
    assert not self_contradiction("def test_func(:\n", traj).fired
    assert not self_contradiction("", traj).fired
    # Fails as it loads: disagrees with everything, yet says nothing about the agent.
    assert not self_contradiction(
        "import no_such_module\ndef test_func(x):\n    return x\n", traj
    ).fired


def test_classifier_call_and_default(double: Instance, scripted) -> None:
    traj = queried(double, "(3,)")
    llm, client = scripted(
        [(MARKERS["classify"], "It never tried strings.\nLabel: insufficient_exploration")]
    )
    label, parsed, usage = classify_failure(client, double, traj, "Doubles numbers.")
    assert (label, parsed, usage.calls) == ("insufficient_exploration", True, 1)
    prompt = llm.log[0]["messages"][-1]["content"]
    assert "- input (3,) -> 6" in prompt
    assert double.description in prompt

    llm, client = scripted([(MARKERS["classify"], "Hard to say.")])
    label, parsed, _ = classify_failure(client, double, traj, "Doubles numbers.")
    assert (label, parsed) == ("insufficient_exploration", False)


@pytest.mark.slow
def test_coder_code_that_times_out_is_no_evidence_against_the_agent(double: Instance) -> None:
    traj = queried(double, "(3,)", "(4,)")
    # Loops forever on 3 (fuel runs out), agrees on 4: nothing contradicts what was seen.
    looping = "def test_func(x):\n    while x == 3:\n        pass\n    return 2 * x\n"
    check = self_contradiction(looping, traj)
    assert not check.fired
    assert check.checked == 1
    # The same code, wrong on 4: the one input it really answered does count.
    wrong = "def test_func(x):\n    while x == 3:\n        pass\n    return 3 * x\n"
    assert self_contradiction(wrong, traj).fired
