"""Whose fault a failed item is: the model's, or the scorers' (the coder's).

Code match measures the model's description *through* a coder model. When the coder cannot
reach the method's behaviour even from the gold description, a low code match says nothing
about the model under test: such an item is ``coder_error`` (a coder limitation), counted
apart from the model's failure modes. The gold control (the coder on the gold description)
settles it, and runs only where it decides something: for a failed item whose code match is
below the threshold, and before a self-contradiction verdict (which trusts the coder to be
faithful to the description). Like every model call it goes through the response cache.

One failure needs no model at all: an agent that made no query and whose description says
nothing specific (the ``null`` pseudo-model's, an empty one) explored insufficiently,
whatever the coder or a classifier would make of it (:func:`no_exploration`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_pau.errors import ConfigError
from pytest_pau.models import FailureMode, Usage
from pytest_pau.scoring.failure import mostly_format_failures, self_contradiction

if TYPE_CHECKING:
    from pytest_pau.models import CodeMatchResult, Instance, InstanceResult, Trajectory
    from pytest_pau.scoring.coder import Coder, CodeRunner, Observed

_GENERIC = """
    a an the this that these those it its they them their there here some any each
    every all certain given whatever something anything value values result results output
    outputs input inputs argument arguments arg args parameter parameters param params data
    thing things object objects function functions method methods procedure routine code
    callable takes take taking accepts accept receives receive gets get uses use used using
    returns return returned returning gives give giving produces produce yields yield
    computes compute computed computing calculates calculate calculated calculating derives
    derive derived processes process processed processing performs perform performed
    operation operations operates operate transformation transforms transform transformed
    based on upon from of to in into with by for and or then as is are be being been was
    does do did done some kind sort way ways according depending depends provided passed
    one or more specific particular appropriate corresponding related relevant
"""
#: Words that fit any function and so say nothing about this one. A description made of
#: them alone (with no number, symbol or quoted text) is content-free.
GENERIC_WORDS: frozenset[str] = frozenset(_GENERIC.split())
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
# Anything that is no plain word carries content: a digit, an operator, a bracket, a quote.
_SPECIFIC = re.compile(r"[\d\"'`+\-*/%<>=\[\]{}()|&^~#@$]")


def content_free(description: str) -> bool:
    """Whether ``description`` says nothing that could be true of one function only.

    Empty text is content-free; so is text whose words are all :data:`GENERIC_WORDS` and
    that holds no digit, operator, bracket or quote. Deliberately narrow: any specific
    word ("sorts", "vowels", "negative") makes a description contentful, and then the
    usual classification decides.
    """
    text = description.strip().lower()
    if _SPECIFIC.search(text):
        return False
    return all(word in GENERIC_WORDS for word in _WORD.findall(text))


def no_exploration(trajectory: Trajectory) -> str | None:
    """Why the item is ``insufficient_exploration`` without asking a model, or None.

    It is when the agent made no query (and no act reply failed to parse: that is
    ``format_following``'s evidence) and its description is :func:`content_free`.
    """
    acts = [s for s in trajectory.steps if s.kind == "act"]
    if trajectory.n_queries or any(s.format_error is not None for s in acts):
        return None
    if not content_free(trajectory.prediction):
        return None
    shown = trajectory.prediction.strip() or "(empty)"
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return f"no query made and a content-free description ({shown!r}): decided without a model"


def coder_limitation(gold_score: float, threshold: float) -> str:
    """The ``failure_detail`` of a ``coder_error`` item."""
    return (
        f"coder limitation: the coder reaches code match {gold_score:.2f} from the gold "
        f"description too (below --pau-match-threshold={threshold:g}), so a low code match "
        "says nothing about the model; set a stronger --pau-coder-model"
    )


def unfaithful_coder(gold_score: float, threshold: float) -> str:
    """Why a self-contradiction was not reported: the coder is not known to be faithful."""
    return (
        f"self-contradiction not reported: the coder reaches only {gold_score:.2f} from the "
        f"gold description (below {threshold:g}), so its code need not reflect the description"
    )


class GoldControl:
    """The coder on the gold description: run at most once per item, and only when asked.

    Args:
        coder: The run's coder.
        instance: The item.
        observed: The examples the coder was shown for the model's description (the same
            are shown for the gold one, so the two prompts differ in the description only).
        backend: Sandbox backend.
        reuse: Code match of the model's description when that description *is* the gold
            one (the ``oracle``): the same coder call, so no second one is made.
        usage: The episode's usage scope; the coder call's usage is added to it when the
            coder's client does not report to the scope itself (a foreign client).
    """

    def __init__(
        self,
        coder: Coder,
        instance: Instance,
        observed: Observed,
        *,
        backend: str,
        reuse: CodeMatchResult | None = None,
        usage: Usage | None = None,
    ) -> None:
        self.coder = coder
        self.instance = instance
        self.observed = observed
        self.backend = backend
        self.usage = usage
        self.result: CodeMatchResult | None = reuse
        """The gold control's code match, once computed (or reused)."""

    def score(self) -> float | None:
        """Code match of the coder on the gold description (None: no test inputs)."""
        if self.result is None:
            seen = self.usage.calls if self.usage is not None else 0
            self.result = self.coder.code_match(
                self.instance, self.instance.description, self.observed, backend=self.backend
            )
            if self.usage is not None and self.usage.calls == seen:
                self.usage.add(self.result.usage)
        return self.result.score


Classifier = Callable[[], tuple[str, bool, Usage]]
"""Asks the classifier model: ``() -> (label, parsed, usage)``."""


def attribute(
    instance: Instance,
    trajectory: Trajectory,
    result: InstanceResult,
    *,
    runner: CodeRunner,
    gold: GoldControl,
    match_threshold: float,
    hook: Callable[..., str | None] | None,
    classifier: Classifier,
) -> tuple[str, str, Usage]:
    """The failure mode of a failed item: whose fault first, then which of the model's.

    First that applies wins:

    1. The ``pytest_pau_classify_failure`` hook (the user's word comes first).
    2. ``insufficient_exploration``: no query and a content-free description
       (:func:`no_exploration`; no model call).
    3. ``coder_error``: code match is below ``match_threshold`` and so is the gold control
       (the coder cannot reach the behaviour from the gold description either).
    4. ``self_contradiction``: the coder's code disagrees with calls the agent saw, and the
       gold control shows the coder faithful (at or above ``match_threshold``).
    5. ``format_following``: most act replies had no readable input.
    6. The classifier model's label.

    Sets ``result.gold_code_match`` when the gold control ran, and clears
    ``result.overconfident`` for a coder limitation.

    Returns:
        ``(mode, detail, usage of the classifier call)``.
    """
    if hook is not None:
        label = hook(instance=instance, trajectory=trajectory, result=result)
        if label is not None:
            allowed = [str(m) for m in FailureMode.of_the_model()]
            if label not in allowed:
                raise ConfigError(
                    f"pytest_pau_classify_failure returned {label!r} for {instance.id}; "
                    f"expected one of {allowed} or None"
                )
            return label, "from the pytest_pau_classify_failure hook", Usage()
    why = no_exploration(trajectory)
    if why is not None:
        return FailureMode.INSUFFICIENT_EXPLORATION, why, Usage()
    if result.code_match is None or result.code_match < match_threshold:
        ceiling = result.gold_code_match = gold.score()
        if ceiling is not None and ceiling < match_threshold:
            # Concluding YES is no overconfidence when the coder is what failed.
            result.overconfident = False
            return FailureMode.CODER_ERROR, coder_limitation(ceiling, match_threshold), Usage()
    check = self_contradiction(result.code, trajectory, runner=runner)
    caveat = ""
    if check.fired:
        ceiling = result.gold_code_match = gold.score()
        if ceiling is None or ceiling >= match_threshold:
            return FailureMode.SELF_CONTRADICTION, check.detail(), Usage()
        caveat = unfaithful_coder(ceiling, match_threshold)
    if mostly_format_failures(trajectory):
        acts = [s for s in trajectory.steps if s.kind == "act"]
        bad = sum(1 for s in acts if s.format_error is not None and not s.truncated)
        detail = f"{bad} of {len(acts)} act replies had no readable input"
        return FailureMode.FORMAT_FOLLOWING, _join(detail, caveat), Usage()
    label, parsed, used = classifier()
    if parsed:
        return label, _join("classifier", caveat), used
    return label, _join(f"classifier answer unparseable: defaulted to {label}", caveat), used


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)
