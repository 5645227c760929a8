"""Early-stopping gate monitors of :mod:`pytest_pau.stats.sequential`."""

from __future__ import annotations

import numpy as np
import pytest

from pytest_pau.stats.sequential import (
    BettingGate,
    GateMonitor,
    PairedGateMonitor,
    ScalarGate,
    all_decided,
    early_stop_order,
    overall_verdict,
)
from tests.stats import error_models as em


def test_certain_bounds_decide_without_error() -> None:
    gate = GateMonitor(0.5, bounds=(0, 1), population=10)
    verdicts = [gate.update(1.0) for _ in range(5)]
    # After 5 of 10 passed the mean is at least 0.5 whatever comes next.
    assert verdicts == ["undecided"] * 4 + ["pass"]
    assert gate.state().decided_at == 5
    low = GateMonitor(0.5, bounds=(0, 1), population=10)
    for _ in range(6):
        low.update(0.0)  # at most 4 of 10 can pass now
    assert low.verdict == "fail"


def test_exact_verdict_after_every_item_and_threshold_passes_on_equality() -> None:
    gate = GateMonitor(3.0, bounds=(1, 5), population=4)
    for v in (1.0, 5.0, 3.0, 3.0):
        gate.update(v)
    state = gate.state()
    assert state.verdict == "pass"  # mean exactly 3.0: gates pass on >=
    assert state.low == pytest.approx(3.0)
    assert state.high == pytest.approx(3.0)
    assert state.mean == pytest.approx(3.0)
    with pytest.raises(ValueError, match="already seen"):
        gate.update(3.0)


def test_confidence_sequence_covers_the_population_mean_and_matches_the_verdict() -> None:
    rng = np.random.default_rng(11)
    pop = em.population_with_mean([0.3, 0.2, 0.15, 0.15, 0.2], em.JUDGE, 300, 2.7)
    for run in em.shuffled_runs(pop, rng, 20):
        gate = GateMonitor(3.0, bounds=(1, 5), population=pop.size)
        widths = []
        for t, value in enumerate(run):
            gate.update(value)
            if t % 25 == 0 or gate.verdict != "undecided":
                low, high = gate.confidence_sequence()
                assert low <= pop.mean() + 1e-9 <= high + 2e-9
                assert 1.0 <= low <= high <= 5.0
                widths.append(high - low)
                if gate.verdict == "fail":
                    assert high <= 3.0
                    break
                assert low < 3.0 < high or gate.verdict == "pass"
        assert widths[-1] < widths[0]


def test_undecided_stream_and_validation() -> None:
    stream = GateMonitor(0.5, bounds=(0, 1), population=None)
    for v in (0.4, 0.6) * 20:
        stream.update(v)
    assert stream.verdict == "undecided"
    assert stream.state().population is None
    with pytest.raises(ValueError, match="None"):
        stream.update(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside the bounds"):
        stream.update(1.5)
    with pytest.raises(ValueError, match="within bounds"):
        GateMonitor(6.0, bounds=(1, 5), population=10)
    with pytest.raises(ValueError, match="population"):
        GateMonitor(3.0, bounds=(1, 5), population=0)


def test_exclude_shrinks_the_population() -> None:
    gate = GateMonitor(0.5, bounds=(0, 1), population=4)
    gate.exclude()
    assert gate.population == 3
    assert gate.state().exact
    gate.update(1.0)
    gate.exclude()  # after the start: approximate from now on
    assert not gate.state().exact
    gate.update(1.0)  # 2 of the 2 left: the exact mean is 1.0
    assert gate.verdict == "pass"
    with pytest.raises(ValueError, match="exclude"):
        gate.exclude()


def test_paired_monitor_is_a_regression_gate() -> None:
    rng = np.random.default_rng(12)
    base = rng.integers(1, 6, 741).astype(float)
    new = np.clip(base + rng.choice([-1.0, 0.0, 0.0, 1.0], 741), 1, 5)  # no regression
    gate = PairedGateMonitor(0.2, bounds=(1, 5), population=741)
    for n_, b in zip(new, base, strict=True):
        if gate.update_pair(n_, b) != "undecided":
            break
    assert gate.verdict == "pass"
    assert gate.seen < 741
    with pytest.raises(ValueError, match="margin"):
        PairedGateMonitor(4.0, bounds=(1, 5), population=10)


def test_all_decided_and_overall_verdict() -> None:
    a = GateMonitor(0.5, bounds=(0, 1), population=2)
    b = GateMonitor(0.5, bounds=(0, 1), population=2)
    assert not all_decided([a, b])
    assert overall_verdict([a, b]) == "undecided"
    a.update(1.0)  # 1 of 2: pass for sure
    assert overall_verdict([a, b]) == "undecided"
    b.update(0.0)
    b.update(0.0)
    assert all_decided([a, b])
    assert overall_verdict([a, b]) == "fail"


def test_early_stop_order_is_a_seeded_permutation_of_the_set() -> None:
    ids = [f"builtin/m{i:03d}" for i in range(50)]
    order = early_stop_order(ids, seed=0)
    assert sorted(order) == list(range(50))
    assert order != list(range(50))
    assert early_stop_order(ids, seed=0) == order
    assert early_stop_order(ids, seed=1) != order
    reversed_ids = ids[::-1]
    # The same items given in another order run in the same order.
    assert [reversed_ids[i] for i in early_stop_order(reversed_ids, 0)] == [ids[i] for i in order]


def test_scalar_gate_matches_the_vectorised_gate_the_simulations_run() -> None:
    rng = np.random.default_rng(13)
    pops = [
        em.population_with_mean([0.25, 0.2, 0.15, 0.15, 0.25], em.JUDGE, 200, 3.0),
        em.population_with_mean([0.2, 0.15, 0.15, 0.2, 0.3], em.JUDGE, 200, 3.4),
    ]
    for pop in pops:
        runs = (em.shuffled_runs(pop, rng, 8) - 1.0) / 4.0
        for population in (pop.size, None):
            batch = BettingGate(0.5, population, 0.05, rows=8)
            scalars = [ScalarGate(0.5, population, 0.05) for _ in range(8)]
            for t in range(pop.size):
                batch.update(runs[:, t])
                for i, gate in enumerate(scalars):
                    gate.update(float(runs[i, t]))
            for i, gate in enumerate(scalars):
                assert gate.code == batch.code[i]
                assert gate.decided_at == batch.decided_at[i]
                assert gate.log_up == pytest.approx(batch.log_up[i], rel=1e-9, abs=1e-9)
                assert gate.log_down == pytest.approx(batch.log_down[i], rel=1e-9, abs=1e-9)
