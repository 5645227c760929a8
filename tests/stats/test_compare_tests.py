"""``pau compare``'s tests: deterministic p-values, named for what they test."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from pytest_pau.stats import exact
from pytest_pau.stats.compare_tests import means_test
from pytest_pau.stats.inference import non_inferiority_batch
from pytest_pau.stats.signflip import lattice_step, sign_flip_test
from tests.stats import score_models as sm

ALPHA = 0.05


def slack(sims: int) -> float:
    return ALPHA + 2 * math.sqrt(ALPHA * (1 - ALPHA) / sims)


def brute_force_p(d: np.ndarray) -> float:
    """Two-sided sign-flip p by listing every sign pattern (ties counted in)."""
    nz = d[d != 0]
    if not nz.size:
        return 1.0
    sums = [
        abs(sum(s * v for s, v in zip(signs, nz, strict=True)))
        for signs in itertools.product((1, -1), repeat=nz.size)
    ]
    return min(1.0, sum(s >= abs(nz.sum()) - 1e-9 for s in sums) / len(sums))


def test_four_paired_minus_ones_are_not_a_difference() -> None:
    # The issue: p=0.0048 * beside a 95% interval [-2.47, +1.48] that contains 0.
    flip = sign_flip_test([-1.0] * 4, span=4.0)
    assert flip.p_value == 0.125  # 2 of 16 patterns are as extreme: exact, no coin
    test = means_test([-1.0] * 4, span=4.0)
    assert test is not None
    assert not test.differ
    assert test.low < 0 < test.high
    exact_test = means_test([-1.0] * 4, span=4.0, exact=True)
    assert exact_test is not None
    assert not exact_test.differ


def test_the_sign_flip_p_is_exact_and_deterministic() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        d = rng.choice([-2.0, -1.0, 0.0, 1.0, 2.0], size=int(rng.integers(5, 15)))
        assert sign_flip_test(d, span=4.0).p_value == pytest.approx(brute_force_p(d), abs=1e-12)
        assert sign_flip_test(d, span=4.0) == sign_flip_test(d.copy(), span=4.0)
    tenths = np.round(rng.uniform(-1, 1, 40), 1)
    assert lattice_step(tenths[tenths != 0]) == pytest.approx(0.1)
    continuous = rng.uniform(-1, 1, 30)
    assert sign_flip_test(continuous, span=1.0).method.startswith("rounded")


def test_the_star_is_the_interval_excluding_zero() -> None:
    rng = np.random.default_rng(5)
    for n in (3, 5, 10, 30, 100):
        for _ in range(4):
            shift = rng.choice([0, 0, 1])
            d = np.clip(rng.choice([-1.0, 0.0, 0.0, 1.0], size=n) + shift, -4, 4)
            test = means_test(d, span=4.0)
            assert test is not None
            assert test.differ == (test.p_value <= ALPHA) == (test.low >= 0 or test.high <= 0)


@pytest.mark.slow
def test_the_test_of_means_holds_its_size_where_the_sign_flip_does_not() -> None:
    sims = 2000
    d = sm.equal_mean_skewed_match(np.random.default_rng(10), sims, 10)
    flip = np.mean([sign_flip_test(r, span=1.0).p_value <= ALPHA for r in d])
    assert flip > 0.12  # what the sign flip tests: interchangeable runs, not equal means
    _, _, p_up = non_inferiority_batch(d, margin=0.0, span=1.0, alpha=ALPHA / 2)
    _, _, p_down = non_inferiority_batch(-d, margin=0.0, span=1.0, alpha=ALPHA / 2)
    assert np.mean(2 * np.minimum(p_up, p_down) <= ALPHA) <= slack(sims)
    y = (d + 1) / 2
    lams = exact.bet_grid(10, ALPHA / 2, exact.DIFF_SIGMA_RANGE)
    up = exact.max_log_capital(y, 0.5, lams)
    down = exact.max_log_capital(1 - y, 0.5, lams)
    assert np.mean(np.maximum(up, down) >= math.log(2 / ALPHA)) <= slack(sims)
    base, new = sm.same_quality_runs(np.random.default_rng(11), sims, 30, 0.5)
    rerun = new[0] - base[0]
    exch = np.mean([sign_flip_test(r, span=4.0).p_value <= ALPHA for r in rerun])
    assert exch <= slack(sims)
    _, _, p_up = non_inferiority_batch(rerun, margin=0.0, span=4.0, alpha=ALPHA / 2)
    _, _, p_down = non_inferiority_batch(-rerun, margin=0.0, span=4.0, alpha=ALPHA / 2)
    assert np.mean(2 * np.minimum(p_up, p_down) <= ALPHA) <= slack(sims)


def test_bad_differences_are_refused() -> None:
    with pytest.raises(ValueError, match="NaN"):
        means_test([0.5, float("nan"), 0.1], span=1.0)
    with pytest.raises(ValueError, match="NaN"):
        sign_flip_test([0.5, float("nan")], span=1.0)
    two = means_test([0.5, 0.1], span=1.0)  # exact from one pair on: no star from two
    assert two is not None
    assert not two.differ
