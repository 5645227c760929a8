"""The critic of Asymmetric Actor Critic: a judge model that rates each step 0-9.

The asymmetry is in what it sees: the policy sees only what the benchmark shows, while
the critic (``privileged=True``, the ``aac`` and ``final`` variants) also reads the
method's source and the gold description. ``sym-info`` uses the same critic without them.
``code-match`` replaces the hypothesis rating by the benchmark's code-match score
(:class:`CodeMatchCritic`), which needs no gold text: only the method's own outputs.

Prompts are ours, in ``prompting/templates/train/*.md``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.models import Usage
from pytest_pau.prompting import parse_rating, render

if TYPE_CHECKING:
    from pytest_pau.agent.state import EpisodeState
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import CallResult, Example, Instance
    from pytest_pau.scoring import Coder

#: The critic's rating scale (the protocol's 0-9).
RATING_SCALE = (0, 9)


def parse_critic_rating(reply: str) -> int | None:
    """The last ``Rating: N`` (N in 0-9) of a critic reply, else None."""
    return parse_rating(reply, low=RATING_SCALE[0], high=RATING_SCALE[1])


@dataclass
class Verdict:
    """One critic answer."""

    score: float
    """In [0, 1]: rating / 9 (0 when unparseable), or the code-match fraction."""
    rating: int | None = None
    """The parsed 0-9 rating; None when unparseable or not a rating (code match)."""
    unparseable: bool = False
    reply: str = ""
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0


class Critic:
    """Rates reasoning and hypotheses with a judge model.

    Args:
        client: The critic model's client (``pytest_pau.llm.make_client(...)``).
        privileged: Show the gold source and description (AAC); False for SYM-INFO.
        seed: Seed of every critic call (answers are cached per prompt and seed).
        max_tokens: Cap on each critic answer; a short justification and the rating fit.
    """

    def __init__(
        self,
        client: SupportsComplete,
        *,
        privileged: bool = True,
        seed: int = 0,
        max_tokens: int = DEFAULT_CAPS.critic,
    ) -> None:
        self.client = client
        self.privileged = privileged
        self.seed = seed
        self.max_tokens = max_tokens
        self.calls = 0
        self.unparseable = 0

    def _head(self, instance: Instance) -> str:
        if self.privileged:
            return render("privileged", code=instance.code, description=instance.description)
        return render("symmetric")

    def messages(
        self, kind: str, instance: Instance, state: EpisodeState, step: str, concluded: str = ""
    ) -> list[dict[str, str]]:
        """The critic's prompt for a ``reason`` or ``reflect`` step."""
        template = "critic_reason" if kind == "reason" else "critic_reflect"
        user = render(
            template,
            privileged=self._head(instance),
            context=state.context(),
            step=step.strip() or "(empty)",
            concluded=concluded or "NO",
        )
        return [
            {"role": "system", "content": render("critic_system")},
            {"role": "user", "content": user},
        ]

    def _ask(self, messages: list[dict[str, str]]) -> Verdict:
        start = time.perf_counter()
        completion = self.client.complete(
            messages, temperature=0.0, max_tokens=self.max_tokens, seed=self.seed
        )
        rating = parse_critic_rating(completion.text)
        self.calls += 1
        if rating is None:
            self.unparseable += 1
        return Verdict(
            score=(rating or 0) / 9.0,
            rating=rating,
            unparseable=rating is None,
            reply=completion.text,
            usage=completion.usage(),
            seconds=time.perf_counter() - start,
        )

    def rate_reasoning(self, instance: Instance, state: EpisodeState, plan: str) -> Verdict:
        """Rate a reasoning turn (the plan for the next call)."""
        return self._ask(self.messages("reason", instance, state, plan))

    def rate_hypothesis(
        self,
        instance: Instance,
        state: EpisodeState,
        summary: str,
        concluded: bool | None,
        observed: Sequence[Example | tuple[str, CallResult]] = (),
    ) -> Verdict:
        """Rate the hypothesis a reflection states (``observed`` is unused here)."""
        flag = "YES" if concluded else "NO"
        return self._ask(self.messages("reflect", instance, state, summary, flag))


class CodeMatchCritic:
    """The unsupervised variant: the hypothesis is scored by code match, not by a judge.

    A coder writes ``test_func`` from the hypothesis and the calls seen so far; the score
    is the fraction of the instance's test inputs where that code's output equals the
    method's. Reasoning turns get no critic reward (there is nothing to run).

    Args:
        coder: The benchmark's :class:`pytest_pau.scoring.Coder`.
        backend: Sandbox backend the coder's code runs in.
    """

    privileged = False

    def __init__(self, coder: Coder, *, backend: str = "wasm") -> None:
        self.coder = coder
        self.backend = backend
        self.calls = 0
        self.unparseable = 0

    def rate_reasoning(self, instance: Instance, state: EpisodeState, plan: str) -> Verdict:
        """No signal for a plan: score 0, no model call."""
        return Verdict(score=0.0)

    def rate_hypothesis(
        self,
        instance: Instance,
        state: EpisodeState,
        summary: str,
        concluded: bool | None,
        observed: Sequence[Example | tuple[str, CallResult]] = (),
    ) -> Verdict:
        """Code match of ``summary`` on the instance's test inputs (0 when not computable)."""
        start = time.perf_counter()
        result = self.coder.code_match(instance, summary, list(observed), backend=self.backend)
        self.calls += 1
        return Verdict(
            score=float(result.score or 0.0),
            usage=result.usage,
            reply=result.code,
            seconds=time.perf_counter() - start,
        )
