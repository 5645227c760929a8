"""Typed results of :mod:`pytest_pau.stats.inference`.

Frozen pydantic models, so the summary can put them into the JSON report with
``model_dump()`` unchanged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


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
