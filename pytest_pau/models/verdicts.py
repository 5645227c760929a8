"""The release gates' verdicts and the run's verdict, as the JSON report's ``summary`` holds them.

Split from :mod:`pytest_pau.models.summary` (which re-exports every name): a level gate's
:class:`GateVerdict`, the baseline gate's :class:`RegressionVerdict` per metric and its
:class:`BaselineSummary`, the early stop's :class:`EarlyStop`, and the run's
:class:`Verdict` (what the exit status says, and why).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_pau.models.metrics import LEVEL_GATES

#: Readers ignore keys they do not know, so a newer report still loads.
_TOLERANT = ConfigDict(extra="ignore")

Decision = Literal["passed", "failed", "not decided"]
"""A gate's, or the run's, verdict: decided either way on the selection, or not decided
(the items without a score could change it: the run fails closed)."""


class GateVerdict(BaseModel):
    """One release gate's verdict, about the selected items.

    Items of the selection without a score (not run: budget, failure streak,
    interruption; errored; no result) are *unknown*: the gate is ``passed`` only when it
    passes whatever their scores, ``failed`` when it fails whatever they are, and ``not
    decided`` otherwise (:mod:`pytest_pau.stats.selection`).
    """

    model_config = _TOLERANT

    name: str
    """The gate's key in :data:`~pytest_pau.models.metrics.LEVEL_GATES`: ``min_mean_judge``..."""
    label: str
    """What it measures, for people: ``mean judge score``."""
    option: str
    """The option that set it: ``--pau-min-mean-judge``."""
    threshold: float
    statistic: str = "mean"
    """``mean`` (the mean over the selection); ``ci_low`` (the exact one-sided lower bound
    at ``--pau-gate-confidence``, ``--pau-gate-on-ci``); with ``--pau-early-stop``:
    ``sequential`` (the mean over the selection, anytime-valid without replacement) or
    ``anytime_bound`` (the model's mean, anytime-valid, with ``--pau-gate-on-ci``)."""
    status: Decision = "failed"
    """``passed``, ``failed`` or ``not decided``."""
    value: float | None = None
    """The statistic with every unknown item at the bottom of the scale (what ``passed``
    needs); the plain statistic when no item is unknown. For ``sequential`` and
    ``anytime_bound``: the mean of the items seen. None when nothing could be measured."""
    best: float | None = None
    """The statistic with every unknown item at the top of the scale (below the threshold:
    ``failed``); None when no item is unknown."""
    observed: float | None = None
    """Mean of the scored items (what the run saw)."""
    scored: int = 0
    """Selected items with a score."""
    population: int = 0
    """Selected items (the gate is about them)."""
    confidence: float | None = None
    """Of the bound or the anytime test (``--pau-gate-confidence``); None for ``mean``."""
    margin: float | None = None
    """``value - threshold``."""
    passed: bool = False
    """``status == "passed"`` (for readers of older reports)."""
    detail: str | None = None
    """Why, when the verdict is not plain arithmetic (``decided after 120 of 741 items``,
    ``92 of 96 items not run (budget spent)``)."""

    @property
    def is_rate(self) -> bool:
        """Whether the value is a share, shown in percent."""
        gate = LEVEL_GATES.get(self.name)
        return gate is not None and gate.percent


class RegressionVerdict(BaseModel):
    """The baseline gate on one metric: is this run worse by less than ``margin``?"""

    model_config = _TOLERANT

    metric: str
    """``judge``, ``match`` or ``pass``."""
    label: str
    """``judge score``, ``code match``, ``pass rate``."""
    margin: float
    """The allowed regression (``--pau-max-regression``)."""
    n: int = 0
    """Instances both runs scored (the paired sample)."""
    mean_diff: float | None = None
    """``mean(this run - baseline)`` over those."""
    low: float | None = None
    """One-sided lower confidence bound of the mean difference (the verdict's statistic)."""
    high: float | None = None
    """Upper end of the interval (the one-sided upper bound, or the confidence sequence's)."""
    p_value: float | None = None
    """Non-inferiority p-value of "worse by the margin or more" (None for ``sequential``)."""
    p_difference: float | None = None
    """Two-sided paired sign-flip p-value of "the runs differ at all"."""
    method: str = "exact non-inferiority"
    """``exact non-inferiority`` (the paired exact betting test after the run; paired
    items without a score on either side at both ends of their range) or ``sequential``
    (the anytime-valid test, ``--pau-early-stop``)."""
    status: Decision = "failed"
    """``passed``, ``failed`` or ``not decided`` (paired items without a score on either
    side could change it)."""
    best: float | None = None
    """With unknown items: the lower bound with each of them at the top of the scale."""
    population: int = 0
    """Selected items the baseline's report lists (the paired population)."""
    scored_here: int = 0
    """Of those, the items this run has a score for."""
    scored_baseline: int = 0
    """Of those, the items the baseline has a score for (one without is unknown, as one
    without a score here is)."""
    passed: bool = False
    """``status == "passed"``."""
    detail: str | None = None


class BaselineSummary(BaseModel):
    """``--pau-baseline``: this run against the released model's report, paired."""

    model_config = _TOLERANT

    path: str
    model: str
    """The baseline's ``--pau-model``."""
    confidence: float = 0.95
    shared: int = 0
    """Instances both runs have a result for."""
    regressions: list[RegressionVerdict] = Field(default_factory=list)
    pass_to_fail: list[str] = Field(default_factory=list)
    """Passed in the baseline, failed here."""
    fail_to_pass: list[str] = Field(default_factory=list)
    only_here: list[str] = Field(default_factory=list)
    """Scored here, absent from the baseline: not in the comparison."""
    only_baseline: list[str] = Field(default_factory=list)
    """Selected here and scored in the baseline, but without a score here."""
    warnings: list[str] = Field(default_factory=list)
    """Settings the runs differ in that may change scores."""

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.regressions)

    @property
    def status(self) -> Decision:
        """``failed`` if a margin failed, ``not decided`` if one is, else ``passed``."""
        statuses = {r.status for r in self.regressions}
        if "failed" in statuses:
            return "failed"
        return "not decided" if "not decided" in statuses else "passed"


class EarlyStop(BaseModel):
    """``--pau-early-stop``: when the verdicts were known, and what the rest would cost."""

    model_config = _TOLERANT

    confidence: float = 0.95
    population: int = 0
    """Selected items the gates are about."""
    decided_after: int | None = None
    """Items seen (in the seeded order) when every verdict was decided; None: never early."""
    not_run: int = 0
    """Items skipped because the verdicts were known."""
    ran: int = 0
    """Items that ran: the decision needed ``decided_after`` of them, the rest were in
    flight when it came (``--pau-early-stop`` keeps no more in flight than the next
    decision could need)."""
    cost_usd: float = 0.0
    """What the run spent."""
    full_cost_usd: float | None = None
    """Estimated cost of running every item (spend per item that ran, times the population)."""


class Verdict(BaseModel):
    """The run's release verdict: what the exit status says, and why (``summary.verdict``).

    Built once on the controller (:func:`pytest_pau.stats.verdict.release_verdict`) and
    read by the terminal's closing line, the HTML report and ``pau show``.
    """

    model_config = _TOLERANT

    status: Decision
    """``passed`` (exit status 0), ``failed`` or ``not decided`` (both non-zero)."""
    exit_status: int
    """The exit status of the run."""
    rule: str
    """What decided it: ``gates`` (the release gates, ``--pau-exit=gates``), ``items``
    (``--pau-exit=items``: every failed item fails the run too) or ``pytest`` (no gate
    set, or pytest's own status: interrupted, internal error)."""
    reasons: list[str] = Field(default_factory=list)
    """Every reason, one sentence each: gates failed or not decided, items not run or
    errored, other failures, missing outputs."""
