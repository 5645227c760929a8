"""Why a selected item has no score for a gate: one vocabulary for verdicts and reports.

A gate is decided on the items the user selected (:mod:`pytest_pau.stats.selection`); an
item without a value is *unknown*, and the verdict says how many and why ("not decided:
92 of 96 items not run (budget spent)"). The causes are read from the result's fields:
no result, an ``error``, a :class:`~pytest_pau.models.SkipCause` (set where the skip was
decided), or no score; never from the words of a message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from pytest_pau.models import Scored, SkipCause

#: How a verdict names each skip cause.
NOT_RUN: dict[SkipCause, str] = {
    SkipCause.EARLY_STOP: "not run (early stop)",
    SkipCause.BUDGET: "not run (budget spent)",
    SkipCause.STREAK: "not run (failure streak)",
    SkipCause.INTERRUPTED: "not run (interrupted)",
    SkipCause.PYTEST_STOPPED: "not run (pytest stopped the run)",
    SkipCause.NOT_RUN: "not run",
}
EARLY_STOP = NOT_RUN[SkipCause.EARLY_STOP]
"""The one cause an early-stopping gate covers itself (its population stays N)."""


def cause(result: Scored | None, value: float | None) -> str | None:
    """Why ``result`` has no ``value`` (None when it has one).

    Args:
        result: The item's result, or None when the item ended without one (interrupted
            before it ran, an xdist worker died, a fixture failed first).
        value: Its value for the gate's metric (the getter's answer).
    """
    if value is not None:
        return None
    if result is None:
        return "no result"
    if result.error is not None:
        return "errored"
    if result.skipped is not None or result.skip_cause is not None:
        return NOT_RUN[result.skip_cause or SkipCause.NOT_RUN]
    return "unscored"


def describe(causes: Mapping[str, int], population: int) -> list[str]:
    """``["92 of 96 items not run (budget spent)", "2 of 96 items errored"]``, largest first."""
    return [
        f"{n} of {population} item{'s' if population != 1 else ''} {why}"
        for why, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))
        if n
    ]


def count(pairs: Iterable[tuple[Scored | None, float | None]]) -> Counter[str]:
    """The causes of every item without a value, counted."""
    out: Counter[str] = Counter()
    for result, value in pairs:
        why = cause(result, value)
        if why is not None:
            out[why] += 1
    return out
