"""The interactive loop under ``--pau-protocol=paper``: the reference's history window,
its lower-cased prediction, its token caps (through a real client and a scripted server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_pau.agent import EpisodeState, build_reason_messages, make_agent
from pytest_pau.llm.caps import DEFAULT_CAPS, PAPER_CAPS, caps_for
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.sandbox import Sandbox


def _shown(state: EpisodeState) -> list[str]:
    prompt = build_reason_messages(state)[-1]["content"]
    return [line for line in prompt.splitlines() if line.startswith("- input ")]


def test_the_papers_window_lets_the_examples_drop_out_after_ten_entries(double: Instance) -> None:
    ours = EpisodeState.from_instance(double)
    paper = EpisodeState.from_instance(double, shared_window=True)
    for i in range(9):
        for state in (ours, paper):
            state.record_call(f"({10 + i},)", str(2 * (10 + i)))
    # Ours: both examples, then the last 9 calls. The reference's: the last 10 entries of
    # examples + calls, so the first example has dropped out.
    assert _shown(ours)[:2] == ["- input (2,) -> 4", "- input (5,) -> 10"]
    assert len(_shown(ours)) == 11
    assert _shown(paper)[0] == "- input (5,) -> 10"
    assert len(_shown(paper)) == 10


def test_the_paper_agent_lowercases_its_prediction_and_uses_the_papers_caps(
    double: Instance, scripted: Callable[..., Any]
) -> None:
    rules = [
        (MARKERS["reason"], "Try 3."),
        (MARKERS["act"], "INPUT: (3,)"),
        (MARKERS["reflect"], "CONCLUDE: YES\nSUMMARY: Returns TWICE the Argument."),
    ]
    llm, client = scripted(rules)
    predictions = {}
    for protocol in ("pytest-pau", "paper"):
        agent = make_agent(
            "m", client=client, caps=caps_for(protocol), protocol=protocol, seed=len(predictions)
        )
        with Sandbox(double.code) as box:
            predictions[protocol] = agent.run(double, box).prediction
    assert predictions == {
        "pytest-pau": "Returns TWICE the Argument.",
        "paper": "returns twice the argument.",
    }
    caps = [e.cap for e in llm.exchanges]
    assert caps == [
        DEFAULT_CAPS.reason, DEFAULT_CAPS.act, DEFAULT_CAPS.reflect, 300, 300, 300
    ]  # fmt: skip
    assert PAPER_CAPS.judge == 300
    assert PAPER_CAPS.coder == 600
