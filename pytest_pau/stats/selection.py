"""Gate verdicts about the selection, when some selected items have no score.

A gate is about the N items the user selected. An item without a score (not run: budget
spent, failure streak, interruption; or errored; or the judge gave no usable answer)
is *unknown*: its score could be anything in ``[lo, hi]``. The functions take one value
per selected item, ``None`` for an unknown one; how an item counts is the caller's (the
metric getters of :mod:`pytest_pau.stats.metrics`: a protocol that counts an errored item
as a known score simply returns that score instead of ``None``). Each verdict here is computed
for the two extreme completions and is one of

* ``passed``: the gate passes even if every missing item scored ``lo``,
* ``failed``: it fails even if every missing item scored ``hi``,
* ``not decided``: the missing items decide it (the run fails closed, exit status 1,
  with the reason "not decided: 92 of 96 items not run (budget)").

Guarantee (no wrong PASS from missing items, whatever made them missing):

* Plain level gate (:func:`level_verdict`, "mean over the selection >= threshold"): the
  selection mean is ``(S_obs + S_miss) / N`` with ``S_miss`` in ``[u lo, u hi]``, so
  ``passed`` implies the selection mean is ``>= threshold`` and ``failed`` implies it
  is ``<`` threshold, for every possible value of the missing scores: the verdict is
  never wrong; it is the verdict of the complete run whenever it is not ``not decided``.
* Bound gate (:func:`bound_verdict`, ``--pau-gate-on-ci``): the finite-population
  analogue. The exact lower bound of :mod:`pytest_pau.stats.exact` is nondecreasing in every
  score, so the bound with the missing scores at ``lo`` is at most the bound the
  complete run would have had, and ``passed`` implies the complete run passes;
  ``P(passed) <= P(complete run passes) <= 1 - confidence`` when the true mean is at
  or below the threshold. ``failed`` implies the complete run fails.
* Baseline gate (:func:`paired_bound_verdict`, :func:`paired_verdict`): the same on paired
  differences ``new - base``; a missing score on either side makes the difference anything
  in its range (``[lo - base, hi - base]`` for a missing new score, ``[new - hi, new - lo]``
  for a missing baseline one), so both sides count the same way.

Measured (``tests/stats/test_selection.py``): 0 wrong plain verdicts in 300 selections of
96 with 5-90% of the items missing at random; the bound gate at the bar passes at most
0.4% of 4,000 runs with the lowest 10% of the items missing (the worst order a budget
can cut) or errors on the hard items, where the bound over the scored items alone
passed 47% and 29%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pytest_pau.stats.exact import (
    DIFF_SIGMA_RANGE,
    below_log_capital,
    binomial_lower_bound,
    mean_lower_bound,
)
from pytest_pau.stats.inference import non_inferiority

Decision = Literal["passed", "failed", "not decided"]
_TOL = 1e-12


@dataclass(frozen=True)
class SelectionVerdict:
    """One gate's verdict over the selection, with both extreme completions."""

    verdict: Decision
    """``passed``, ``failed`` or ``not decided``."""
    statistic: str
    """What was compared with the threshold, e.g. ``"mean"`` or ``"95% lower bound"``."""
    worst: float
    """The statistic with every missing score at ``lo`` (what ``passed`` needs)."""
    best: float
    """The statistic with every missing score at ``hi`` (below: ``failed``)."""
    threshold: float
    """The gate's threshold (``-margin`` for the baseline gate)."""
    scored: int
    """Items of the selection with a score."""
    missing: int
    """Items of the selection without one."""


def _decide(worst: float, best: float, threshold: float) -> Decision:
    if worst >= threshold - _TOL:
        return "passed"
    if best < threshold - _TOL:
        return "failed"
    return "not decided"


def level_verdict(
    values: Sequence[float | None], *, threshold: float, bounds: tuple[float, float]
) -> SelectionVerdict:
    """The plain level gate "mean over the selection >= threshold".

    Args:
        values: One entry per selected item; ``None``: no score.
        threshold: The gate's threshold.
        bounds: ``(lo, hi)`` of the scores.

    Returns:
        The verdict; never wrong about the selection mean (see the module docstring).

    Raises:
        ValueError: No item selected.
    """
    if not values:
        raise ValueError("the selection is empty: nothing to gate")
    lo, hi = float(bounds[0]), float(bounds[1])
    seen = [float(v) for v in values if v is not None]
    missing = len(values) - len(seen)
    total = sum(seen)
    worst = (total + missing * lo) / len(values)
    best = (total + missing * hi) / len(values)
    return SelectionVerdict(
        _decide(worst, best, threshold), "mean", worst, best, threshold, len(seen), missing
    )


def bound_verdict(
    values: Sequence[float | None],
    *,
    threshold: float,
    bounds: tuple[float, float],
    confidence: float = 0.95,
    binary: bool = False,
) -> SelectionVerdict:
    """The bound gate "exact one-sided lower bound >= threshold" over the selection.

    Args:
        values: One entry per selected item; ``None``: no score. (The default, order-free
            bound ignores their order.)
        threshold: The gate's threshold.
        bounds: ``(lo, hi)`` of the scores.
        confidence: Of the one-sided bound.
        binary: 0/1 scores (the pass rate): Clopper-Pearson instead of betting.

    Returns:
        The verdict. ``passed`` only when the bound with every missing score at ``lo``
        clears the threshold: wrong (true mean below the threshold) with probability
        at most ``1 - confidence``, whatever made items missing.
    """
    if not values:
        raise ValueError("the selection is empty: nothing to gate")
    seen = [v for v in values if v is not None]
    missing = len(values) - len(seen)
    pct = f"{confidence:.0%} lower bound"
    if binary:
        k = round(sum(seen))
        worst = binomial_lower_bound(k, len(seen), confidence=confidence, missing=missing)
        best = binomial_lower_bound(k + missing, len(values), confidence=confidence)
    else:
        lo, hi = float(bounds[0]), float(bounds[1])
        low_fill = [lo if v is None else v for v in values]
        high_fill = [hi if v is None else v for v in values]
        worst = mean_lower_bound(low_fill, bounds=bounds, confidence=confidence)
        best = mean_lower_bound(high_fill, bounds=bounds, confidence=confidence)
    return SelectionVerdict(
        _decide(worst, best, threshold), pct, worst, best, threshold, len(seen), missing
    )


def paired_bound_verdict(
    new: Sequence[float | None],
    base: Sequence[float | None],
    *,
    margin: float,
    bounds: tuple[float, float],
    confidence: float = 0.95,
) -> SelectionVerdict:
    """The baseline gate "mean(new - base) > -margin, shown at ``confidence``" over the
    paired population, each side's missing scores unknown.

    The test is the exact betting test of the differences (:func:`~pytest_pau.stats.
    exact.below_log_capital`: reject "mean <= -margin" when the final capital reaches
    ``1/alpha``): its size is at most ``alpha`` for any independent differences on
    ``[-span, span]`` and any n, lattice-valued or not (``tests/stats/test_sizes.py``
    enumerates it exactly). A missing score on either side makes that difference
    anything in its range: ``[lo - base_i, hi - base_i]`` when this run's is missing,
    ``[new_i - hi, new_i - lo]`` when the baseline's is, ``[lo - hi, hi - lo]`` when
    both are. The capital and the bound are nondecreasing in every difference, so the two
    extreme fills bound every completion: ``passed`` needs the worst fill to pass,
    ``failed`` the best fill to fail.

    Args:
        new: This run's scores, aligned with ``base``; ``None``: no score.
        base: The baseline's scores of the same items; ``None``: no score.
        margin: Allowed regression (judge 0.2, match and pass 0.05).
        bounds: ``(lo, hi)`` of the scores.
        confidence: Of the one-sided test and bound.

    Raises:
        ValueError: ``new`` and ``base`` differ in length or are empty.
    """
    if len(new) != len(base) or not base:
        raise ValueError(
            f"new and base must be aligned and non-empty, got {len(new)} and {len(base)}"
        )
    lo, hi = float(bounds[0]), float(bounds[1])
    span = hi - lo
    pairs = list(zip(new, base, strict=True))
    worst_d = [(lo if v is None else v) - (hi if b is None else b) for v, b in pairs]
    best_d = [(hi if v is None else v) - (lo if b is None else b) for v, b in pairs]
    diff_bounds = (-span, span)
    alpha = 1.0 - confidence
    target = math.log(1.0 / alpha)

    def shown(d: list[float]) -> bool:
        capital = below_log_capital(
            d,
            bounds=diff_bounds,
            at=-float(margin),
            confidence=confidence,
            sigma_range=DIFF_SIGMA_RANGE,
        )
        return capital >= target

    worst = mean_lower_bound(
        worst_d, bounds=diff_bounds, confidence=confidence, sigma_range=DIFF_SIGMA_RANGE
    )
    best = mean_lower_bound(
        best_d, bounds=diff_bounds, confidence=confidence, sigma_range=DIFF_SIGMA_RANGE
    )
    missing = sum(v is None or b is None for v, b in pairs)
    # Non-inferiority passes when "mean <= -margin" is rejected (the bound lies above it).
    verdict: Decision = (
        "passed" if shown(worst_d) else ("failed" if not shown(best_d) else "not decided")
    )
    return SelectionVerdict(
        verdict,
        f"{confidence:.0%} lower bound of the mean difference",
        worst,
        best,
        -float(margin),
        len(pairs) - missing,
        missing,
    )


@dataclass(frozen=True)
class PairedVerdict:
    """The paired non-inferiority verdict of :func:`paired_verdict` (the fields of the
    baseline gate's and ``pau compare --fail-if-worse``'s verdicts)."""

    status: Decision
    n: int
    """Pairs both sides scored."""
    mean_diff: float | None
    """``mean(new - base)`` over those."""
    low: float
    """Exact lower bound of the mean difference (unknown pairs at their worst)."""
    high: float | None
    """Exact upper bound (complete pairs only)."""
    best: float | None
    """The lower bound with unknown pairs at their best (None: none unknown)."""
    p_value: float | None
    """Of "worse by the margin or more" (complete pairs only)."""
    scored_here: int
    """Pairs whose new side has a score."""
    scored_baseline: int
    """Pairs whose baseline side has a score."""


def paired_verdict(
    new: Sequence[float | None],
    base: Sequence[float | None],
    *,
    margin: float,
    bounds: tuple[float, float],
    confidence: float = 0.95,
) -> PairedVerdict:
    """Non-inferiority of ``new`` against ``base`` over every pair, each side's missing
    scores unknown at both ends of the scale (one rule for both sides).

    Complete pairs: :func:`~pytest_pau.stats.inference.non_inferiority` (the p-value and
    both bounds); otherwise :func:`paired_bound_verdict` over both fills. Both are the
    same exact betting test, so a missing score on either side can only move the verdict
    towards ``not decided``, never to ``passed``.

    Raises:
        ValueError: ``new`` and ``base`` differ in length or are empty.
    """
    if len(new) != len(base) or not base:
        raise ValueError(
            f"new and base must be aligned and non-empty, got {len(new)} and {len(base)}"
        )
    known = [(v, b) for v, b in zip(new, base, strict=True) if v is not None and b is not None]
    mean_diff = sum(v - b for v, b in known) / len(known) if known else None
    here = sum(v is not None for v in new)
    there = sum(b is not None for b in base)
    if len(known) == len(new):
        test = non_inferiority(
            [b for _, b in known],
            [v for v, _ in known],
            margin=margin,
            bounds=bounds,
            confidence=confidence,
        )
        assert test is not None  # every pair is complete and there is one
        return PairedVerdict(
            "passed" if test.verdict == "pass" else "failed",
            len(known),
            mean_diff,
            test.lower_bound,
            test.interval.high,
            None,
            test.p_value,
            here,
            there,
        )
    exact = paired_bound_verdict(new, base, margin=margin, bounds=bounds, confidence=confidence)
    return PairedVerdict(
        exact.verdict, len(known), mean_diff, exact.worst, None, exact.best, None, here, there
    )
