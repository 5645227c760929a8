"""Typed results of :mod:`pytest_pau.stats.inference` and :mod:`pytest_pau.stats.sequential`.

Frozen pydantic models, so the summary can put them into the JSON report with
``model_dump()`` unchanged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Verdict = Literal["pass", "fail", "undecided"]
"""A gate's state: decided either way, or not yet (only an early-stopping monitor)."""


class Interval(BaseModel):
    """A confidence interval around a point estimate."""

    model_config = ConfigDict(frozen=True)

    estimate: float
    """The point estimate: the sample mean (or mean difference, or proportion)."""
    low: float
    """Lower end, never below the lower bound of the scale."""
    high: float
    """Upper end, never above the upper bound of the scale."""
    confidence: float
    """Nominal coverage, e.g. ``0.95``."""
    n: int
    """Number of (non-missing) values or pairs behind the interval."""
    method: str
    """How it was computed, e.g. ``"tilted score"``, ``"wilson"``, ``"sign-flip exact"``."""


class PairedTest(BaseModel):
    """Two-sided paired sign-flip test of "the two runs do not differ" (``new - base``)."""

    model_config = ConfigDict(frozen=True)

    n: int
    """Number of complete pairs (pairs with a missing side are dropped)."""
    n_nonzero: int
    """Pairs whose difference is not zero: the only ones that carry evidence."""
    mean_diff: float
    """``mean(new - base)`` over the complete pairs."""
    interval: Interval | None
    """Tilted score interval of the mean difference on ``[low - high, high - low]`` (the
    interval :func:`~pytest_pau.stats.inference.mean_interval` gives the differences):
    valid without assuming symmetric differences. None below ``MIN_N`` pairs, or when
    the caller asked for no interval."""
    p_value: float
    """Randomised two-sided p-value (exactly uniform under the null: calibrated size)."""
    p_value_conservative: float
    """Ordinary two-sided p-value, ties counted in full (never below ``p_value``)."""
    alpha: float
    """Level the decision and the interval use (``1 - confidence``)."""
    rejected: bool
    """``p_value <= alpha``: the runs differ at this level."""
    method: Literal["exact", "monte carlo"]
    """Exact enumeration of all ``2**n`` sign patterns, or seeded random patterns."""
    resamples: int | None
    """Number of random sign patterns (Monte Carlo only)."""
    p_value_se: float
    """Monte Carlo standard error of ``p_value`` (0 when exact): ``sqrt(p(1-p)/resamples)``."""


class NonInferiority(BaseModel):
    """Paired non-inferiority test: is ``new`` worse than ``base`` by less than ``margin``?"""

    model_config = ConfigDict(frozen=True)

    n: int
    """Number of complete pairs."""
    mean_diff: float
    """``mean(new - base)``."""
    margin: float
    """The allowed regression ``delta`` (>= 0): H0 is ``mean diff <= -margin``."""
    lower_bound: float
    """One-sided ``confidence`` lower bound of the mean difference (clipped to the scale)."""
    interval: Interval
    """``(lower_bound, upper)``: the two one-sided ``confidence`` bounds, i.e. a
    ``1 - 2 alpha`` two-sided interval (the convention of equivalence testing)."""
    p_value: float
    """One-sided p-value of H0 ``mean diff <= -margin`` (ordinary, not randomised)."""
    confidence: float
    """``1 - alpha`` of the one-sided test."""
    verdict: Literal["pass", "fail"]
    """``pass`` when ``p_value <= alpha`` (equivalently ``lower_bound > -margin``)."""


class SequenceState(BaseModel):
    """Snapshot of an early-stopping gate (:class:`pytest_pau.stats.sequential.GateMonitor`)."""

    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    """Current verdict; sticky once decided (until every item is seen, then exact)."""
    seen: int
    """Values seen so far."""
    population: int | None
    """Size of the finite population (None: an unbounded stream)."""
    mean: float | None
    """Mean of the values seen (None before the first)."""
    low: float
    """Lower end of the confidence sequence (valid at every ``seen`` at once)."""
    high: float
    """Upper end of the confidence sequence."""
    threshold: float
    """The gate passes when the population mean is at or above this."""
    decided_at: int | None
    """``seen`` when the verdict was first decided (None while undecided)."""
    exact: bool
    """False once an item was excluded from the population after the start, which
    makes the without-replacement correction approximate."""
