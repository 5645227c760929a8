"""The interactive agent (reason, act, reflect) and the in-context agent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pau.agent.base import SupportsCall
from pytest_pau.agent.episode_state import (
    EpisodeState,
    build_act_messages,
    build_incontext_messages,
    build_reason_messages,
    build_reflect_messages,
)
from pytest_pau.agent.parsing import parse_description, parse_input, parse_reflection
from pytest_pau.agent.watch import iteration_started
from pytest_pau.llm.caps import DEFAULT_CAPS, TokenCaps
from pytest_pau.models import Step, StepKind, Trajectory, Usage
from pytest_pau.prompting import strip_think
from pytest_pau.settings import DEFAULTS

if TYPE_CHECKING:
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Completion, Instance

NO_YES_NO = "No CONCLUDE: YES/NO answer was found; taken as NO."


def finish(trajectory: Trajectory) -> Trajectory:
    """Fill the totals of a trajectory from its steps."""
    usage = Usage()
    for step in trajectory.steps:
        usage.add(step.tokens)
    trajectory.usage = usage
    trajectory.n_queries = len(trajectory.observed())
    return trajectory


class _ModelAgent:
    def __init__(
        self,
        client: SupportsComplete,
        *,
        max_iterations: int = DEFAULTS.max_iterations,
        seed: int = DEFAULTS.seed,
        caps: TokenCaps = DEFAULT_CAPS,
        protocol: str = DEFAULTS.protocol,
    ) -> None:
        self.client = client
        self.max_iterations = max_iterations
        self.seed = seed
        self.caps = caps
        self.protocol = protocol

    def _ask(
        self,
        trajectory: Trajectory,
        kind: StepKind,
        iteration: int,
        messages: list[dict[str, str]],
        max_tokens: int,
    ) -> tuple[Step, Completion]:
        # Greedy, as the benchmark measures a model: the same prompt gives the same answer.
        completion = self.client.complete(
            messages, temperature=0.0, max_tokens=max_tokens, seed=self.seed
        )
        step = Step(
            kind=kind,
            iteration=iteration,
            prompt=messages[-1]["content"],
            response=completion.text,
            truncated=completion.truncated,
            reasoning=completion.reasoning,
            tokens=completion.usage(),
        )
        trajectory.steps.append(step)
        return step, completion


class InteractiveAgent(_ModelAgent):
    """PAU's main mode: each iteration reasons, acts (one sandbox call) and reflects.

    Stops when a reflection answers YES or after ``max_iterations`` iterations; the last
    summary is the prediction (lower-cased under ``protocol="paper"``, whose prompts also
    show the starting examples only while they are among the last 10 entries). An act reply without a readable input is a format failure:
    it is recorded, shown to the model in the next prompt, and uses up its iteration.
    """

    def run(self, instance: Instance, sandbox: SupportsCall) -> Trajectory:
        """Explore ``instance`` and return every step."""
        paper = self.protocol == "paper"
        state = EpisodeState.from_instance(
            instance, max_iterations=self.max_iterations, shared_window=paper
        )
        traj = Trajectory()
        caps = self.caps
        while not state.done:
            it = state.iteration
            iteration_started(it, self.max_iterations)
            _, reply = self._ask(traj, "reason", it, build_reason_messages(state), caps.reason)
            state.record_plan(strip_think(reply.text))

            act, reply = self._ask(traj, "act", it, build_act_messages(state), caps.act)
            literal, error = parse_input(reply.text, arity=instance.arity)
            if literal is None:
                act.format_error = error
                state.record_format_failure(error)
                continue
            act.parsed_input = literal
            act.result = sandbox.call_literal(literal)
            state.record_call(literal, act.result.observation())

            msgs = build_reflect_messages(state)
            reflect, reply = self._ask(traj, "reflect", it, msgs, caps.reflect)
            concluded, summary = parse_reflection(reply.text)
            reflect.concluded = concluded
            if concluded is None:
                reflect.format_error = NO_YES_NO
            state.record_reflection(concluded, summary)
        # The reference lower-cases its last hypothesis (baselines.py); so does the paper
        # protocol, since the judge and the coder see the prediction as the paper's did.
        traj.prediction = state.hypothesis.lower() if paper else state.hypothesis
        traj.concluded = state.concluded
        return finish(traj)


class InContextAgent(_ModelAgent):
    """PAU's direct mode: one call that sees the header and the starting examples."""

    def run(self, instance: Instance, sandbox: SupportsCall) -> Trajectory:
        """Describe ``instance`` from its examples alone (``sandbox`` is not used)."""
        traj = Trajectory()
        msgs = build_incontext_messages(instance)
        _, reply = self._ask(traj, "incontext", 1, msgs, self.caps.incontext)
        traj.prediction = parse_description(reply.text)
        return finish(traj)
