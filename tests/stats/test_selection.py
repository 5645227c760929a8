"""Verdicts about the selection when items have no score (:mod:`pytest_pau.stats.selection`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pytest_pau.stats import missing
from pytest_pau.stats.selection import bound_verdict, level_verdict, paired_bound_verdict
from tests.stats import score_models as sm
from tests.stats.test_exact import rejects, slack


def issue_selection() -> list[float]:
    """96 judge scores with mean 2.59, easiest first (a budget cut keeps the first 4)."""
    rng = np.random.default_rng(96)
    pop = sm.population_with_mean(sm.JUDGE_PMFS["judge weak"], 96, 249, rng)
    return [float(v) for v in np.sort(pop)[::-1]]


def test_the_issue_case_is_not_decided_by_either_gate() -> None:
    pop = issue_selection()
    assert sum(pop) / 96 == pytest.approx(2.59, abs=0.01)
    run = pop[:4] + [None] * 92  # four 5s finished before the budget was spent
    plain = level_verdict(run, threshold=3.0, bounds=(1, 5))
    assert (plain.verdict, plain.scored, plain.missing) == ("not decided", 4, 92)
    assert plain.worst == pytest.approx((20 + 92) / 96)
    assert plain.best == 5.0
    bound = bound_verdict(run, threshold=3.0, bounds=(1, 5))
    assert bound.verdict == "not decided"
    # The complete run fails both.
    assert level_verdict(pop, threshold=3.0, bounds=(1, 5)).verdict == "failed"
    assert bound_verdict(pop, threshold=3.0, bounds=(1, 5)).verdict == "failed"


def test_the_plain_gate_is_never_wrong_about_the_selection() -> None:
    rng = np.random.default_rng(96)
    x = sm.discrete(sm.JUDGE, np.array([0.27, 0.15, 0.2, 0.15, 0.23]))(rng, 300, 96)
    decided = 0
    for s in range(300):
        miss = rng.random(96) < rng.choice([0.02, 0.05, 0.3, 0.9])
        vals = [None if m else float(a) for a, m in zip(x[s], miss, strict=True)]
        got = level_verdict(vals, threshold=3.0, bounds=(1, 5)).verdict
        truth = "passed" if x[s].mean() >= 3.0 else "failed"
        assert got in (truth, "not decided")
        decided += got == truth
    assert decided > 0  # it does decide when few items are missing


def test_the_bound_gate_with_missing_items_holds_its_error_rate() -> None:
    """True mean exactly 3.0; the lowest 10% missing (the worst order a budget can cut)
    or errors on the hard items: P(PASS) stays under 5% (the bound on the scored items
    alone passed 47% and 29%)."""
    sims, n = 4000, 96
    rng = np.random.default_rng(5)
    x = (sm.discrete(sm.JUDGE, np.array([0.25, 0.15, 0.2, 0.15, 0.25]))(rng, sims, n) - 1) / 4
    lowest = np.argsort(x + 1e-6 * rng.random(x.shape), axis=1)[:, :10]
    cut = np.zeros_like(x, dtype=bool)
    np.put_along_axis(cut, lowest, True, axis=1)
    errors = (x <= 0.25) & (rng.random(x.shape) < 0.5)
    for gone in (cut, errors):
        # Missing scores count at the bottom of the scale (0), as bound_verdict does.
        assert rejects(np.where(gone, 0.0, x), 0.5).mean() <= slack(sims)


def test_the_pass_rate_gate_counts_missing_items_as_failures_or_passes() -> None:
    seen = [1.0] * 40 + [0.0] * 10
    v = bound_verdict(seen + [None] * 50, threshold=0.5, bounds=(0, 1), binary=True)
    assert v.verdict == "not decided"
    assert v.worst < 0.5 <= v.best
    assert bound_verdict([1.0] * 100, threshold=0.9, bounds=(0, 1), binary=True).verdict == "passed"


def test_the_baseline_gate_fills_a_missing_new_score_at_both_ends() -> None:
    base = [4.0] * 240
    same = [4.0] * 240
    assert paired_bound_verdict(same, base, margin=0.2, bounds=(1, 5)).verdict == "passed"
    gone = [4.0] * 230 + [None] * 10
    v = paired_bound_verdict(gone, base, margin=0.2, bounds=(1, 5))
    assert v.verdict == "not decided"
    assert v.missing == 10
    worse = [2.0] * 240
    assert paired_bound_verdict(worse, base, margin=0.2, bounds=(1, 5)).verdict == "failed"
    with pytest.raises(ValueError, match="aligned"):
        paired_bound_verdict([4.0], base, margin=0.2, bounds=(1, 5))


def test_missing_causes_are_named() -> None:
    from pytest_pau.models import InstanceResult

    def item(**kw: object) -> InstanceResult:
        return InstanceResult(id="x", source="s", arity=1, **kw)  # type: ignore[arg-type]

    assert missing.cause(item(), 3.0) is None
    assert missing.cause(None, None) == "no result"
    assert missing.cause(item(error="boom"), None) == "errored"
    budget = item(skipped="budget --pau-max-cost-usd spent: ...")
    assert missing.cause(budget, None) == "not run (budget spent)"
    early = item(skipped="not run: --pau-early-stop: every gate was decided after 3 of 9 items")
    assert missing.cause(early, None) == missing.EARLY_STOP
    assert missing.describe({"not run (budget spent)": 92, "errored": 1}, 96) == [
        "92 of 96 items not run (budget spent)",
        "1 of 96 items errored",
    ]
    assert math.isclose(level_verdict([3.0], threshold=3.0, bounds=(1, 5)).worst, 3.0)
    with pytest.raises(ValueError, match="empty"):
        level_verdict([], threshold=3.0, bounds=(1, 5))
