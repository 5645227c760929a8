"""Intervals and paired tests of :mod:`pytest_pau.stats.inference`: known values, edges."""

from __future__ import annotations

import numpy as np
import pytest

from pytest_pau.stats.inference import (
    MIN_N,
    mean_interval,
    mean_interval_batch,
    non_inferiority,
    non_inferiority_batch,
    proportion_interval,
)
from pytest_pau.stats.tilted import lattice_step, student_ppf, student_sf

# --- mean_interval -------------------------------------------------------------------------


def test_too_few_values_give_no_interval() -> None:
    assert mean_interval([], bounds=(1, 5)) is None
    assert mean_interval([4.0], bounds=(1, 5)) is None
    assert mean_interval([None, 3.0, None, 4.0], bounds=(1, 5)) is None  # 2 < MIN_N
    assert mean_interval([3.0] * MIN_N, bounds=(1, 5)) is not None


def test_missing_values_are_dropped() -> None:
    full = mean_interval([1.0, 2.0, 5.0, 4.0, 3.0], bounds=(1, 5))
    holes = mean_interval([1.0, None, 2.0, 5.0, None, 4.0, 3.0], bounds=(1, 5))
    assert full == holes
    assert full is not None
    assert full.n == 5
    assert full.estimate == pytest.approx(3.0)


def test_all_equal_values_still_get_an_honest_interval() -> None:
    top = mean_interval([5.0] * 10, bounds=(1, 5))
    assert top is not None
    assert top.high == 5.0
    assert top.estimate == 5.0
    # An all-5 sample of 10 is Wilson's 10/10 on the rescaled scale: lower end 0.722.
    assert (top.low - 1) / 4 == pytest.approx(10 / (10 + 1.959963984540054**2))
    middle = mean_interval([3.0] * 10, bounds=(1, 5))
    assert middle is not None
    assert middle.low < 3.0 < middle.high
    assert middle.low - 1 == pytest.approx(5 - middle.high)  # symmetric data, symmetric interval


@pytest.mark.slow
def test_interval_respects_bounds_and_contains_the_mean() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(MIN_N, 40))
        values = rng.choice([0.0, 0.0, 1.0, 1.0, 0.3, 0.7], size=n).tolist()
        ci = mean_interval(values, bounds=(0, 1))
        assert ci is not None
        assert 0.0 <= ci.low <= ci.estimate <= ci.high <= 1.0
        wider = mean_interval(values, bounds=(0, 1), confidence=0.99)
        assert wider is not None
        assert wider.low <= ci.low
        assert wider.high >= ci.high


def test_zero_one_values_give_wilson_and_proportion_interval_agrees() -> None:
    ci = mean_interval([1.0] * 7 + [0.0] * 3, bounds=(0, 1))
    wilson = proportion_interval(7, 10)
    assert ci is not None
    assert wilson is not None
    # Wilson's 95% interval for 7/10 (textbook value).
    assert wilson.low == pytest.approx(0.3968, abs=1e-4)
    assert wilson.high == pytest.approx(0.8922, abs=1e-4)
    assert ci.low == pytest.approx(wilson.low, abs=1e-9)
    assert ci.high == pytest.approx(wilson.high, abs=1e-9)


def test_skewed_sample_interval_leans_towards_the_long_tail() -> None:
    ci = mean_interval([5.0] * 8 + [4.0, 1.0], bounds=(1, 5))
    assert ci is not None
    assert ci.estimate - ci.low > ci.high - ci.estimate


def test_bad_values_and_bounds_fail_loudly() -> None:
    with pytest.raises(ValueError, match="within bounds"):
        mean_interval([1.0, 6.0, 3.0], bounds=(1, 5))
    with pytest.raises(ValueError, match="within bounds"):
        mean_interval([1.0, float("nan"), 3.0], bounds=(1, 5))
    with pytest.raises(ValueError, match="low < high"):
        mean_interval([1.0, 2.0, 3.0], bounds=(5, 1))
    with pytest.raises(ValueError, match="confidence"):
        mean_interval([1.0, 2.0, 3.0], bounds=(1, 5), confidence=95)


def test_batch_kernel_is_the_public_function() -> None:
    rng = np.random.default_rng(4)
    values = rng.choice([1.0, 2.0, 3.0, 4.0, 5.0], size=(6, 25))
    low, high = mean_interval_batch(values, bounds=(1, 5))
    for i in range(6):
        ci = mean_interval(values[i].tolist(), bounds=(1, 5))
        assert ci is not None
        assert (ci.low, ci.high) == pytest.approx((low[i], high[i]), abs=1e-9)


# --- proportion_interval ----------------------------------------------------------------------


def test_proportion_interval_edges() -> None:
    assert proportion_interval(0, 0) is None
    assert proportion_interval(1, 2) is None
    none = proportion_interval(0, 10)
    every = proportion_interval(10, 10)
    assert none is not None
    assert every is not None
    assert none.low == 0.0
    assert none.high > 0.2
    assert every.high == 1.0
    assert every.low == pytest.approx(1 - none.high)
    with pytest.raises(ValueError, match="successes"):
        proportion_interval(11, 10)


# --- non_inferiority --------------------------------------------------------------------------


def test_non_inferiority_verdicts() -> None:
    rng = np.random.default_rng(5)
    base = rng.integers(1, 6, 240).astype(float)
    same = np.clip(base + rng.choice([-1, 0, 0, 0, 1], 240), 1, 5)
    worse = np.clip(base - rng.choice([0, 1, 1, 2], 240), 1, 5)
    ok = non_inferiority(base, same, margin=0.2, bounds=(1, 5))
    bad = non_inferiority(base, worse, margin=0.2, bounds=(1, 5))
    assert ok is not None
    assert bad is not None
    assert ok.verdict == "pass"
    assert ok.lower_bound > -0.2
    assert ok.p_value <= 0.05
    assert bad.verdict == "fail"
    assert bad.interval.high < -0.2  # clearly worse
    assert ok.interval.confidence == pytest.approx(0.9)  # two one-sided 95% bounds


def test_non_inferiority_small_n_and_validation() -> None:
    assert non_inferiority([], [], margin=0.1, bounds=(0, 1)) is None
    tiny = non_inferiority([1, 0], [1, 1], margin=0.05, bounds=(0, 1))
    assert tiny is not None
    assert tiny.verdict == "fail"  # two pairs show nothing at 5%
    assert tiny.lower_bound < -0.05
    four = non_inferiority([3, 3, 3, 3], [5, 5, 5, 5], margin=0.2, bounds=(1, 5))
    assert four is not None
    assert four.verdict == "fail"  # four pairs cannot demonstrate anything at 5%
    with pytest.raises(ValueError, match="margin"):
        non_inferiority([1.0], [1.0], margin=-0.1, bounds=(0, 1))
    with pytest.raises(ValueError, match="margin"):
        non_inferiority([1.0], [1.0], margin=1.0, bounds=(0, 1))


def test_non_inferiority_batch_is_the_public_function_and_verdict_matches_bound() -> None:
    rng = np.random.default_rng(6)
    d = rng.choice([-1.0, 0.0, 0.0, 1.0], size=(40, 30))
    base = np.where(d < 0, 1.0, 0.0)
    low, _, p = non_inferiority_batch(d, margin=0.05, span=1.0, alpha=0.05)
    for i in range(40):
        res = non_inferiority(base[i], base[i] + d[i], margin=0.05, bounds=(0, 1))
        assert res is not None
        assert res.lower_bound == pytest.approx(low[i], abs=1e-9)
        assert res.p_value == pytest.approx(p[i], abs=1e-9)
        assert (res.verdict == "pass") == (res.lower_bound > -0.05)


# --- helpers ------------------------------------------------------------------------------------


def test_student_t_known_values() -> None:
    assert student_ppf(0.975, 10) == pytest.approx(2.228138851986, abs=1e-9)
    assert student_ppf(0.95, 1) == pytest.approx(6.313751514675, abs=1e-9)
    assert student_sf(0.0, 5) == pytest.approx(0.5)
    assert student_sf(2.0, 30) == pytest.approx(0.027312522, abs=1e-8)
    assert student_sf(-2.0, 30) == pytest.approx(1 - 0.027312522, abs=1e-8)


def test_lattice_step() -> None:
    assert lattice_step(np.array([0.0, 1.0, -2.0, 3.0])) == 1.0
    assert lattice_step(np.array([1 / 3, -2 / 3, 1.0])) == pytest.approx(1 / 3)
    assert lattice_step(np.array([0.0, 0.0])) == 0.0
    assert lattice_step(np.array([0.123456789])) == 0.0
