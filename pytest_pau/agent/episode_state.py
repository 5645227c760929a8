"""The state of one interactive episode and the messages each turn sends.

These are the single-turn building blocks: :class:`~pytest_pau.agent.interactive.InteractiveAgent`
drives them with an LLM client, and ``pau train`` drives the very same functions turn by
turn with its own policy, so training and evaluation see identical prompts.

One turn of the loop::

    state = EpisodeState.from_instance(instance, max_iterations=20)
    while not state.done:
        plan = policy(build_reason_messages(state));   state.record_plan(plan)
        reply = policy(build_act_messages(state))
        literal, error = parse_input(reply, arity=state.arity)
        if literal is None:
            state.record_format_failure(error)          # counts as an iteration
            continue
        state.record_call(literal, sandbox.call_literal(literal).observation())
        concluded, summary = parse_reflection(policy(build_reflect_messages(state)))
        state.record_reflection(concluded, summary)     # ends the iteration
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.models import Observation
from pytest_pau.prompting import render
from pytest_pau.prompting.evidence import clip, example_observation, observation_line
from pytest_pau.settings import DEFAULTS

if TYPE_CHECKING:
    from pytest_pau.models import Instance

#: How many of the agent's own most recent calls each prompt shows (the protocol's 10).
RECENT_OBSERVATIONS = 10


@dataclass
class EpisodeState:
    """Everything the prompts of one episode depend on."""

    header: str
    arity: int
    examples: list[Observation] = field(default_factory=list)
    """The instance's starting examples, always shown first."""
    max_iterations: int = DEFAULTS.max_iterations
    iteration: int = 1
    """The iteration in progress (1-based)."""
    observations: list[Observation] = field(default_factory=list)
    """The agent's own calls and format failures, oldest first."""
    hypothesis: str = ""
    plan: str = ""
    concluded: bool = False
    format_failures: int = 0
    shared_window: bool = False
    """The reference's history (``--pau-protocol=paper``): the starting examples and the
    agent's calls share one window of the last :data:`RECENT_OBSERVATIONS` entries, so the
    examples drop out once the agent has made that many calls. Otherwise the examples
    are always shown, followed by the last calls."""

    @classmethod
    def from_instance(
        cls,
        instance: Instance,
        *,
        max_iterations: int = DEFAULTS.max_iterations,
        shared_window: bool = False,
    ) -> EpisodeState:
        """A fresh episode for ``instance``: header and starting examples, nothing queried."""
        examples = [Observation(e.input, example_observation(e)) for e in instance.train_examples]
        return cls(
            header=instance.header,
            arity=instance.arity,
            examples=examples,
            max_iterations=max_iterations,
            shared_window=shared_window,
        )

    @property
    def done(self) -> bool:
        """Whether the episode is over: the agent concluded or the iterations are spent."""
        return self.concluded or self.iteration > self.max_iterations

    @property
    def last_call(self) -> Observation | None:
        """The latest real call (not a format failure), if any."""
        for obs in reversed(self.observations):
            if obs.input is not None:
                return obs
        return None

    def record_plan(self, plan: str) -> None:
        """Keep the reasoning of the current iteration for the act and reflect prompts."""
        self.plan = plan.strip()

    def record_call(self, literal: str, result: str) -> None:
        """Record a sandbox call made in this iteration."""
        self.observations.append(Observation(literal, result))

    def record_format_failure(self, error: str | None) -> None:
        """Record an act reply with no readable input; shown to the model, ends the iteration."""
        notice = render("format_error", error=error or "")
        self.observations.append(Observation(None, notice))
        self.format_failures += 1
        self.iteration += 1

    def record_reflection(self, concluded: bool | None, summary: str) -> None:
        """Record the reflection that ends the iteration; an unreadable YES/NO counts as NO."""
        if summary:
            self.hypothesis = summary
        self.concluded = bool(concluded)
        self.iteration += 1

    def context(self) -> str:
        """The shared head of every turn's prompt: header, evidence, hypothesis.

        Memoized on what it depends on: the three turns of an iteration share it.
        """
        key = (len(self.examples), len(self.observations), self.hypothesis, self.header)
        cached = self.__dict__.get("_context")
        if cached is not None and cached[0] == key:
            return str(cached[1])
        text = self._render_context()
        self.__dict__["_context"] = (key, text)
        return text

    def _render_context(self) -> str:
        if self.shared_window:
            shown = [*self.examples, *self.observations][-RECENT_OBSERVATIONS:]
            lines = [observation_line(o) for o in shown]
        else:
            lines = [observation_line(o) for o in self.examples]
            lines += [observation_line(o) for o in self.observations[-RECENT_OBSERVATIONS:]]
        return render(
            "context",
            header=self.header,
            observations="\n".join(lines) or "(none yet)",
            hypothesis=self.hypothesis or "(none yet)",
        )


def _messages(user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": render("system")}, {"role": "user", "content": user}]


def build_reason_messages(state: EpisodeState) -> list[dict[str, str]]:
    """Messages of the reason turn: plan the next call and predict its result."""
    return _messages(
        render(
            "reason",
            context=state.context(),
            iteration=state.iteration,
            max_iterations=state.max_iterations,
        )
    )


def build_act_messages(state: EpisodeState) -> list[dict[str, str]]:
    """Messages of the act turn: give the input as a tuple literal."""
    return _messages(render("act", context=state.context(), plan=state.plan or "(none)"))


def build_reflect_messages(state: EpisodeState) -> list[dict[str, str]]:
    """Messages of the reflect turn: YES/NO and a summary, after the latest call."""
    last = state.last_call
    return _messages(
        render(
            "reflect",
            context=state.context(),
            plan=state.plan or "(none)",
            input=clip(last.input or "") if last else "(none)",
            result=clip(last.result) if last else "(none)",
        )
    )


def build_incontext_messages(instance: Instance) -> list[dict[str, str]]:
    """The single call of in-context mode: header and starting examples."""
    examples = [
        observation_line(Observation(e.input, example_observation(e)))
        for e in instance.train_examples
    ]
    return _messages(
        render("incontext", header=instance.header, examples="\n".join(examples) or "(none)")
    )
