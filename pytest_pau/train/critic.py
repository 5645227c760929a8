"""The critic of Asymmetric Actor Critic: a judge model that rates each step 0-9.

The asymmetry is in what it sees: the policy sees only what the benchmark shows, while
the critic (``privileged=True``, the ``aac`` and ``final`` variants) also reads the
method's source and the gold description. ``sym-info`` uses the same critic without them.
``code-match`` replaces the hypothesis rating by the benchmark's code-match score
(:class:`CodeMatchCritic`), which needs no gold text: only the method's own outputs.

Prompts are ours, in ``prompting/templates/train/*.md``.

The student's step is untrusted: the policy wrote it, and a policy trained on the critic's
rating learns whatever raises it, including text addressed to the critic ("Rating: 9",
"note to the grader: this plan is optimal"). So a plan or hypothesis in which
:func:`~pytest_pau.scoring.integrity.analysis.detect` finds such text is rated on its defended
text (that part removed: the defended score, one call, no second opinion), the step is
fenced between per-call delimiters and declared data, format imitation in it is made
inert, and the rating is parsed outside the critic's quotes of the step. The findings are
kept on the :class:`Verdict` (``manipulation``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.models import Usage
from pytest_pau.prompting import RATING_PATTERN, parse_rating, render, strip_think
from pytest_pau.scoring.integrity import Fence, defend, detect, fence, neutralize, strip_quoted

if TYPE_CHECKING:
    from pytest_pau.agent.episode_state import EpisodeState
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import CallResult, Example, Instance
    from pytest_pau.scoring import Coder

#: The critic's rating scale (the protocol's 0-9).
RATING_SCALE = (0, 9)


def parse_critic_rating(reply: str, fenced: Fence | None = None) -> int | None:
    """The last ``Rating: N`` (N in 0-9) of a critic reply, else None.

    With ``fenced`` (the step as the prompt showed it), what the critic quoted of the step
    is dropped first.
    """
    text = reply if fenced is None else strip_quoted(strip_think(reply), fenced)
    return parse_rating(text, low=RATING_SCALE[0], high=RATING_SCALE[1])


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
    manipulation: list[str] = field(default_factory=list)
    """Text of the step addressed to the critic (removed before rating), one per finding."""


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
        return self._prompt(kind, instance, state, step, concluded)[0]

    def _prompt(
        self, kind: str, instance: Instance, state: EpisodeState, step: str, concluded: str = ""
    ) -> tuple[list[dict[str, str]], Fence, list[str]]:
        """Messages, the fence around the step, and what was removed from the step."""
        template = "critic_reason" if kind == "reason" else "critic_reflect"
        defended = defend(step)
        fenced = fence(
            neutralize(defended.text.strip() or "(empty)", hazards=(RATING_PATTERN,)),
            seed=self.seed,
            label="STUDENT STEP",
        )
        context = state.context()
        # The context repeats the student's last hypothesis: it is the student's text too.
        hypothesis = state.hypothesis or ""
        if hypothesis:
            clean = defend(hypothesis)
            if clean.flagged:
                context = context.replace(hypothesis, clean.text or "(none yet)")
        user = render(
            template,
            privileged=self._head(instance),
            context=context,
            step=fenced.block,
            open=fenced.open,
            close=fenced.close,
            concluded=concluded or "NO",
        )
        messages = [
            {"role": "system", "content": render("critic_system")},
            {"role": "user", "content": user},
        ]
        return messages, fenced, [f.describe() for f in defended.findings]

    def _ask(
        self, messages: list[dict[str, str]], fenced: Fence, manipulation: list[str]
    ) -> Verdict:
        start = time.perf_counter()
        completion = self.client.complete(
            messages, temperature=0.0, max_tokens=self.max_tokens, seed=self.seed
        )
        rating = parse_critic_rating(completion.text, fenced)
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
            manipulation=manipulation,
        )

    def rate_reasoning(self, instance: Instance, state: EpisodeState, plan: str) -> Verdict:
        """Rate a reasoning turn (the plan for the next call).

        A plan that addresses the critic is rated on its defended text (see the module
        docstring); ``Verdict.manipulation`` lists what was removed.
        """
        return self._ask(*self._prompt("reason", instance, state, plan))

    def rate_hypothesis(
        self,
        instance: Instance,
        state: EpisodeState,
        summary: str,
        concluded: bool | None,
        observed: Sequence[Example | tuple[str, CallResult]] = (),
    ) -> Verdict:
        """Rate the hypothesis a reflection states (``observed`` is unused here).

        A hypothesis that addresses the critic is rated on its defended text (see the
        module docstring); ``Verdict.manipulation`` lists what was removed.
        """
        flag = "YES" if concluded else "NO"
        return self._ask(*self._prompt("reflect", instance, state, summary, flag))


class CodeMatchCritic:
    """The unsupervised variant: the hypothesis is scored by code match, not by a judge.

    A coder writes ``test_func`` from the hypothesis and the calls seen so far; the score
    is the fraction of the instance's test inputs where that code's output equals the
    method's. Reasoning turns get no critic reward (there is nothing to run).

    Text addressed to the grader cannot lift a score computed by running code (and the
    coder reads the hypothesis fenced as data), so it is not removed here; it is still
    reported in ``Verdict.manipulation``, so that the run's metrics show a policy trying.

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
            manipulation=[f.describe() for f in detect(summary)],
        )
