"""Typed results of :func:`pytest_pau.stats.compare.compare_reports` (``pau compare --json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from pytest_pau.stats.metrics import parse_metric


class RunStat(BaseModel):
    """One run's (or the Max row's) mean of a metric on the shared instances."""

    label: str
    """``A``, ``B``... in the order the reports were given, or ``Max``."""
    mean: float | None
    ci: tuple[float, float] | None
    """Interval of the mean at the comparison's confidence (None below 3 values)."""
    n: int
    """Shared instances with a value."""


class PairStat(BaseModel):
    """Paired statistics of ``b - a`` for one metric (on the instances both runs scored)."""

    a: str
    b: str
    n: int
    """Instances where both runs have a value."""
    mean_diff: float | None
    ci: tuple[float, float] | None
    """Interval of the mean difference: the inversion of the test of ``p_value`` (None
    below 3 pairs)."""
    p_value: float | None
    """Two-sided p of "the mean scores are equal" (:func:`~pytest_pau.stats.compare_tests.
    means_test`; deterministic)."""
    differ: bool = False
    """``ci`` excludes 0 (equivalently ``p_value <= alpha``): the means differ (the star)."""
    test: str | None = None
    """How ``p_value`` and ``ci`` were computed (``exact betting, two-sided``)."""
    p_sign_flip: float | None = None
    """Exact two-sided sign-flip p of "the runs are interchangeable" (not a test of means:
    shown without a star)."""
    spearman: float | None
    """Rank correlation of the two runs across instances; None when undefined."""


class Regression(BaseModel):
    """Non-inferiority of run ``b`` against the baseline ``a`` on one metric, over every
    shared instance (one either run has no score for is unknown at both ends)."""

    a: str
    b: str
    margin: float
    """The allowed regression: ``b`` passes when shown worse by less than this."""
    n: int
    """Instances both runs scored."""
    population: int = 0
    """Instances both reports list (the paired population)."""
    scored_a: int = 0
    """Of those, the instances ``a`` scored."""
    scored_b: int = 0
    """Of those, the instances ``b`` scored."""
    mean_diff: float | None
    lower_bound: float | None
    """Exact one-sided lower confidence bound of ``mean(b - a)`` (unknown pairs at their
    worst)."""
    upper_bound: float | None = None
    """Exact one-sided upper bound (complete pairs only)."""
    best_bound: float | None = None
    """The lower bound with unknown pairs at their best (None: none unknown)."""
    p_value: float | None
    """One-sided p-value of "``b`` is worse by the margin or more" (complete pairs)."""
    confidence: float
    status: Literal["passed", "failed", "not decided"] = "failed"
    """``not decided``: the instances one run has no score for could change it."""
    passed: bool
    """``status == "passed"``: shown not worse by more than ``margin`` at ``confidence``."""
    detail: str | None = None
    """Why instances are unknown, per run (``B: 40 of 100 items errored``)."""


class MetricComparison(BaseModel):
    """Every statistic of one metric."""

    metric: str
    """``judge``, ``match`` or ``pass``."""
    name: str
    runs: list[RunStat]
    max: RunStat
    pairs: list[PairStat]
    regressions: list[Regression] = Field(default_factory=list)
    """Against the baseline ``A``, when a margin was given for this metric."""


class Flips(BaseModel):
    """Instances whose verdict changed between two runs (both scored)."""

    a: str
    b: str
    pass_to_fail: list[str] = Field(default_factory=list)
    fail_to_pass: list[str] = Field(default_factory=list)


class RunEntry(BaseModel):
    """One compared report."""

    label: str
    model: str
    source: str = ""
    """Where the report came from (its path), when known."""
    instances: int
    only_here: list[str] = Field(default_factory=list)
    """Its instance ids that some other run lacks: left out of the comparison."""
    run: dict[str, object] = Field(default_factory=dict)


class Comparison(BaseModel):
    """The result of :func:`compare_reports`; ``model_dump_json`` gives ``pau compare --json``."""

    runs: list[RunEntry]
    shared: int
    """Instances present in every report."""
    confidence: float = 0.95
    exact: bool = True
    """The test of means is the exact betting test (always now; kept for readers)."""
    metrics: list[MetricComparison]
    flips: list[Flips]
    warnings: list[str] = Field(default_factory=list)

    def metric(self, key: str) -> MetricComparison:
        """The block of metric ``key`` (an alias such as ``code_match`` works too)."""
        key = parse_metric(key)
        return next(m for m in self.metrics if m.metric == key)
