"""The pseudo-agents ``oracle`` and ``null``: the ceiling and floor a judge and coder allow.

They call no model. Run them (``--pau-model=oracle`` / ``null``) to see what scores your
judge and coder give a perfect answer and an empty one: if the oracle does not pass, the
scoring, not the model under test, is the bottleneck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pau.agent.interactive import finish
from pytest_pau.agent.parsing import parse_input
from pytest_pau.models import Step, Trajectory

if TYPE_CHECKING:
    from pytest_pau.agent.base import SupportsCall
    from pytest_pau.models import Instance

#: A description that is true of nearly every function and says nothing about this one.
NULL_DESCRIPTION = "The function takes its arguments and returns a value computed from them."


class OracleAgent:
    """Replays a few starting examples through the sandbox, then answers the gold text."""

    def __init__(self, *, n_queries: int = 3) -> None:
        self.n_queries = n_queries

    def run(self, instance: Instance, sandbox: SupportsCall) -> Trajectory:
        """Query up to ``n_queries`` starting inputs; predict the gold description."""
        traj = Trajectory()
        iteration = 0
        for example in instance.train_examples[: self.n_queries]:
            literal, _ = parse_input(example.input)
            if literal is None:
                continue
            iteration += 1
            traj.steps.append(
                Step(
                    kind="act",
                    iteration=iteration,
                    prompt="(oracle: replays a starting example)",
                    response=example.input,
                    parsed_input=literal,
                    result=sandbox.call_literal(literal),
                )
            )
        traj.steps.append(
            Step(
                kind="oracle",
                iteration=iteration + 1,
                prompt="(oracle: answers the gold description)",
                response=instance.description,
                concluded=True,
            )
        )
        traj.prediction = instance.description
        traj.concluded = True
        return finish(traj)


class NullAgent:
    """Answers a content-free description without exploring: the floor."""

    def run(self, instance: Instance, sandbox: SupportsCall) -> Trajectory:
        """Predict :data:`NULL_DESCRIPTION` for every instance."""
        traj = Trajectory(
            steps=[
                Step(
                    kind="null",
                    iteration=1,
                    prompt="(null: answers a content-free description)",
                    response=NULL_DESCRIPTION,
                    concluded=False,
                )
            ],
            prediction=NULL_DESCRIPTION,
        )
        return finish(traj)
