"""Anytime-valid gates whose population stays the selection (:mod:`pytest_pau.stats.anytime`)
and the tracker behind ``--pau-early-stop`` (:mod:`pytest_pau.stats.early_stop`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pytest_pau.models import InstanceResult
from pytest_pau.stats.anytime import (
    FAIL,
    PASS,
    UNDECIDED,
    AnytimeGate,
    AnytimeMonitor,
    early_stop_order,
)
from pytest_pau.stats.early_stop import EarlyStopTracker
from tests.stats import score_models as sm

ALPHA = 0.05


def slack(runs: int) -> float:
    return ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / runs)


def budget_run(pop: np.ndarray, skipped: float, orders: int, seed: int) -> np.ndarray:
    """The plain gate at 3.0 on ``pop`` (judge scores) in random orders, a budget that runs
    out after ``1 - skipped`` of the total cost (hard items cost more), final codes."""
    rng = np.random.default_rng(seed)
    n = pop.size
    cost = 1.0 + (5.0 - pop) / 2.0 + 0.5 * rng.random(n)
    order = np.argsort(rng.random((orders, n)), axis=1)
    x, c = (pop[order] - 1) / 4, cost[order]
    runs = np.cumsum(c, axis=1) - c < (1 - skipped) * cost.sum()
    gate = AnytimeGate(0.5, n, ALPHA, rows=orders)
    for t in range(n):
        gate.update(x[:, t], active=runs[:, t])
    return gate.final(selection=n, fail_when_undecided=False)


def test_early_stop_with_a_spent_budget_rarely_passes_a_failing_selection() -> None:
    """The issue's case: selection mean 2.946, gate 3.0 (every PASS is wrong), a budget
    that skips 10-90% of the items. The rule this replaces passed 13-49% at N = 96."""
    rng = np.random.default_rng(2946)
    pop96 = sm.population_with_mean([0.27, 0.15, 0.2, 0.15, 0.23], 96, 283, rng)
    pop741 = sm.population_with_mean([0.27, 0.15, 0.2, 0.15, 0.23], 741, 2183, rng)
    assert pop96.mean() < 3.0
    for pop, skipped, orders in (
        (pop96, 0.1, 2000),
        (pop96, 0.5, 2000),
        (pop96, 0.9, 2000),
        (pop741, 0.5, 1000),
    ):
        code = budget_run(pop, skipped, orders, seed=int(100 * skipped) + pop.size)
        assert np.mean(code == PASS) <= slack(orders), (pop.size, skipped)


def test_errors_on_hard_items_fed_as_unknown_keep_the_early_stop_honest() -> None:
    rng = np.random.default_rng(7)
    pop = sm.population_with_mean([0.27, 0.15, 0.2, 0.15, 0.23], 96, 283, rng)
    orders = 2000
    order = np.argsort(rng.random((orders, pop.size)), axis=1)
    x = (pop[order] - 1) / 4
    unknown = x <= 0.25  # every 1 and 2 errors
    gate = AnytimeGate(0.5, pop.size, ALPHA, rows=orders)
    for t in range(pop.size):
        gate.update(np.where(unknown[:, t], 0.0, x[:, t]), np.where(unknown[:, t], 1.0, x[:, t]))
    code = gate.final(selection=pop.size, fail_when_undecided=False)
    assert np.mean(code == PASS) <= slack(orders)


@pytest.mark.slow
def test_bound_and_baseline_gates_keep_their_meaning_under_early_stop() -> None:
    """A model exactly at the bar: the i.i.d. anytime test passes at most 5% (the observed
    mean of the items run, which early stop used before, passed 44-52%)."""
    n, sims = 741, 2000
    cases = [
        (sm.JUDGE, np.array([0.25, 0.15, 0.2, 0.15, 0.25]), 1.0, 5.0),  # judge at 3.0
        (np.array([0.0, 1.0]), np.array([0.5, 0.5]), 0.0, 1.0),  # pass rate at 0.5
        (np.array([-1.0, 0.0, 1.0]), np.array([0.125, 0.8, 0.075]), -1.0, 1.0),  # baseline pass
    ]
    for i, (v, p, lo, hi) in enumerate(cases):
        y = (np.random.default_rng(i).choice(v, size=(sims, n), p=p) - lo) / (hi - lo)
        gate = AnytimeGate(float(v @ p - lo) / (hi - lo), None, ALPHA, rows=sims)
        for t in range(n):
            gate.update(y[:, t])
        code = gate.final(selection=n, fail_when_undecided=True)
        assert np.mean(code == PASS) <= slack(sims), i
        assert set(np.unique(code).tolist()) <= {PASS, FAIL}


def test_the_monitor_and_the_vectorised_gate_agree() -> None:
    rng = np.random.default_rng(4)
    for population in (60, None):
        for m in (0.3, 0.5, 0.62):
            rows = 40
            x = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=(rows, 60))
            unknown = rng.random((rows, 60)) < 0.1
            gate = AnytimeGate(m, population, ALPHA, rows=rows)
            monitors = [AnytimeMonitor(m, population, ALPHA) for _ in range(rows)]
            for t in range(60):
                low = np.where(unknown[:, t], 0.0, x[:, t])
                high = np.where(unknown[:, t], 1.0, x[:, t])
                gate.update(low, high)
                for r, mon in enumerate(monitors):
                    mon.update(float(low[r]), float(high[r]))
            assert [mon.code for mon in monitors] == gate.code.tolist()
            assert [mon.decided_at or 0 for mon in monitors] == gate.decided_at.tolist()
            for r in range(rows):
                assert monitors[r].log_up == pytest.approx(gate.log_up[r], abs=1e-9)


def test_certain_bounds_and_the_exact_verdict() -> None:
    gate = AnytimeMonitor(0.5, 10, ALPHA)
    codes = [gate.update(1.0) for _ in range(5)]
    assert codes == [UNDECIDED] * 4 + [PASS]  # 5 of 10 at 1: the mean is >= 0.5 already
    low = AnytimeMonitor(0.5, 10, ALPHA)
    for _ in range(6):
        low.update(0.0)
    assert low.code == FAIL
    exact = AnytimeMonitor(0.5, 4, ALPHA)
    for v in (0.0, 1.0, 0.5, 0.5):
        exact.update(v)
    assert exact.code == PASS  # mean exactly 0.5: gates pass on >=
    with pytest.raises(ValueError, match="NaN"):
        AnytimeMonitor(0.5, 4, ALPHA).update(float("nan"))
    unknown = AnytimeMonitor(0.5, 2, ALPHA)
    unknown.update(0.0, 1.0)
    unknown.update(0.0, 1.0)
    assert unknown.final(selection=2, fail_when_undecided=False) == UNDECIDED
    with pytest.raises(ValueError, match="already fed"):
        unknown.update(0.5)


def test_steps_to_decide_is_what_the_best_case_needs() -> None:
    gate = AnytimeMonitor(0.5, 10, ALPHA)
    assert gate.steps_to_decide(64) == 5  # five 1s decide a population of 10 at 0.5
    for _ in range(3):
        gate.update(1.0)
    assert gate.steps_to_decide(64) == 2
    iid = AnytimeMonitor(0.5, None, ALPHA)
    first = iid.steps_to_decide(64)
    assert 1 <= first <= 64
    copy = AnytimeMonitor(0.5, None, ALPHA)
    for _ in range(first):
        copy.update(1.0)
    assert copy.code == PASS  # the look-ahead is reachable, not a guess
    assert iid.t == 0  # and it did not feed the gate itself


def _result(i: int, judge: float | None, **kw: object) -> InstanceResult:
    return InstanceResult(id=f"s/{i}", source="s", arity=1, judge_score=judge, code_match=0.0, **kw)  # type: ignore[arg-type]


def test_the_tracker_keeps_the_population_and_says_why_it_is_not_decided() -> None:
    order = [f"s/{i}" for i in range(20)]
    tracker = EarlyStopTracker(order, levels={"min_mean_judge": 3.0})
    for i in range(4):
        tracker.add(f"s/{i}", _result(i, 5.0))
    for i in range(4, 20):
        tracker.add(f"s/{i}", _result(i, None, skipped="budget --pau-max-cost-usd spent: x"))
    tracker.finish()
    (gate,) = tracker.level_verdicts()
    assert gate.status == "not decided"
    assert gate.statistic == "sequential"
    assert "16 of 20 items not run (budget spent)" in (gate.detail or "")
    on_ci = EarlyStopTracker(order, levels={"min_mean_judge": 3.0}, on_ci=True)
    for i in range(20):
        on_ci.add(f"s/{i}", _result(i, 3.0))
    on_ci.finish()
    (bound,) = on_ci.level_verdicts()
    # All 20 seen at exactly the bar: the plain mean would pass, the bound is not shown.
    assert (bound.statistic, bound.status) == ("anytime_bound", "failed")
    assert "not shown after all 20 items" in (bound.detail or "")


def test_the_window_shrinks_as_the_decision_nears() -> None:
    order = [f"s/{i}" for i in range(40)]
    tracker = EarlyStopTracker(order, levels={"min_mean_judge": 3.0})
    first = tracker.window(64)
    for i in range(10):
        tracker.add(f"s/{i}", _result(i, 1.0))
    assert 1 <= tracker.window(64) <= first
    assert tracker.window(3) <= 3


def test_early_stop_order_is_a_seeded_permutation_of_the_set() -> None:
    ids = [f"x/{i}" for i in range(50)]
    a, b = early_stop_order(ids, 0), early_stop_order(list(reversed(ids)), 0)
    assert sorted(a) == list(range(50))
    assert [ids[i] for i in a] == [list(reversed(ids))[i] for i in b]
    assert early_stop_order(ids, 1) != a
