"""Paired bootstrap and Spearman against known answers (scipy is used here only)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats  # type: ignore[import-untyped]  # no stubs; dev extra, tests only

from pytest_pau.report.stats import (
    average_ranks,
    bootstrap_ci,
    bootstrap_means,
    bootstrap_p_value,
    paired_bootstrap,
    percentile_ci,
    spearman,
)


def test_constant_shift_has_exact_difference_and_smallest_p() -> None:
    a = [1.0, 2.0, 5.0, 3.0, 4.0, 2.0]
    b = [x + 0.5 for x in a]
    diff, ci, p = paired_bootstrap(a, b, resamples=2000)
    assert diff == pytest.approx(0.5)
    assert ci == pytest.approx((0.5, 0.5))
    # Every resample shows the same shift: the smallest p the test can give.
    assert p == pytest.approx(1 / 2001)


def test_identical_runs_show_no_difference() -> None:
    a = [1, 3, 2, 5, 4, 4, 1]
    assert paired_bootstrap(a, a, resamples=500) == (0.0, (0.0, 0.0), 1.0)


def test_sign_follows_b_minus_a() -> None:
    a = [3.0] * 20
    b = [2.0] * 20
    diff, ci, _ = paired_bootstrap(a, b, resamples=200)
    assert diff == pytest.approx(-1.0)
    assert ci is not None
    assert ci[1] < 0


def test_p_value_and_interval_agree_with_the_paired_t_test_on_normal_data() -> None:
    # Differences drawn from a normal law: the bootstrap must agree with the exact test.
    rng = np.random.default_rng(7)
    a = rng.normal(3.0, 1.0, 600)
    b = a + rng.normal(0.09, 1.0, 600)
    diff, ci, p = paired_bootstrap(a.tolist(), b.tolist())
    d = b - a
    t = scipy.stats.ttest_rel(b, a)
    assert diff == pytest.approx(d.mean())
    assert 0.005 < t.pvalue < 0.2, "the data should make a borderline case"
    assert p == pytest.approx(t.pvalue, abs=0.015)
    half = 1.96 * d.std(ddof=1) / math.sqrt(d.size)
    assert ci is not None
    assert ci[0] == pytest.approx(d.mean() - half, abs=0.01)
    assert ci[1] == pytest.approx(d.mean() + half, abs=0.01)


def test_pairing_detects_a_shift_that_unpaired_intervals_cannot() -> None:
    # Instance difficulty varies a lot, the systems differ by a small consistent amount.
    rng = np.random.default_rng(3)
    difficulty = rng.normal(0, 3.0, 300)
    a = difficulty
    b = difficulty + 0.2 + rng.normal(0, 0.3, 300)
    ci_a, ci_b = bootstrap_ci(a.tolist()), bootstrap_ci(b.tolist())
    assert ci_a is not None
    assert ci_b is not None
    assert ci_b[0] < ci_a[1], "unpaired intervals overlap"
    _, ci, p = paired_bootstrap(a.tolist(), b.tolist())
    assert p is not None
    assert p < 0.001
    assert ci is not None
    assert ci[0] > 0


def test_seeded_results_repeat_and_the_seed_matters() -> None:
    rng = np.random.default_rng(11)
    a, b = rng.random(200).tolist(), rng.random(200).tolist()
    first = paired_bootstrap(a, b, seed=4, resamples=1000)
    assert paired_bootstrap(a, b, seed=4, resamples=1000) == first
    assert paired_bootstrap(a, b, seed=5, resamples=1000)[1] != first[1]


def test_missing_values_drop_the_pair() -> None:
    a = [1.0, None, 3.0, 4.0]
    b = [2.0, 9.0, None, 5.0]
    diff, _, _ = paired_bootstrap(a, b, resamples=200)
    assert diff == pytest.approx(1.0)  # only pairs 0 and 3 count
    assert paired_bootstrap([None], [1.0]) == (None, None, None)


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="same length, got 2 and 3"):
        paired_bootstrap([1, 2], [1, 2, 3])


def test_bootstrap_means_with_missing_cells_is_a_ratio_estimator() -> None:
    values = np.array([[1.0, 10.0], [2.0, 0.0], [3.0, 30.0], [4.0, 0.0]])
    present = np.array([[True, True], [True, False], [True, True], [True, False]])
    draws = bootstrap_means(values, present, resamples=3000, seed=1)
    assert draws.shape == (3000, 2)
    # Column 1 only ever averages 10 and 30; resamples that drew neither are NaN.
    col = draws[:, 1][~np.isnan(draws[:, 1])]
    assert col.min() >= 10.0
    assert col.max() <= 30.0
    assert col.mean() == pytest.approx(20.0, abs=0.5)
    assert draws[:, 0].mean() == pytest.approx(2.5, abs=0.05)


def test_percentile_ci_and_p_value_edge_cases() -> None:
    assert percentile_ci(np.array([np.nan, np.nan])) is None
    assert bootstrap_p_value(np.array([]), 0.3) == 1.0
    # Draws spread evenly around the observed 0.5: 251 + 251 of them lie at least 0.5
    # away from it; the observed sample counts once more.
    draws = 0.5 + np.linspace(-1, 1, 1001)
    assert bootstrap_p_value(draws, 0.5) == pytest.approx((1 + 502) / 1002)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]),
        ([1, 1, 2, 2, 3, 3, 4], [2, 1, 2, 3, 3, 5, 5]),  # ties on both sides
        ([5, 4, 3, 2, 1], [1, 2, 3, 4, 5]),  # perfectly reversed
        ([0, 0, 1, 1, 0, 1], [1, 0, 1, 1, 0, 0]),  # pass/fail data: almost all ties
    ],
)
def test_spearman_matches_scipy(a: list[float], b: list[float]) -> None:
    expected = scipy.stats.spearmanr(a, b).statistic
    assert spearman(a, b) == pytest.approx(expected, abs=1e-12)


def test_spearman_matches_scipy_on_many_tied_scores() -> None:
    rng = np.random.default_rng(5)
    a = rng.integers(1, 6, 2000).astype(float)
    b = np.clip(a + rng.integers(-2, 3, 2000), 1, 5)
    assert spearman(a.tolist(), b.tolist()) == pytest.approx(
        scipy.stats.spearmanr(a, b).statistic, abs=1e-12
    )


def test_spearman_undefined_cases_give_none() -> None:
    assert spearman([1.0], [2.0]) is None
    assert spearman([1, 1, 1], [1, 2, 3]) is None  # scipy gives nan: no ranking
    assert spearman([1, None, 3, 4], [2, 5, None, 8]) == pytest.approx(1.0)


def test_average_ranks_share_ties() -> None:
    assert average_ranks(np.array([10, 20, 20, 5])).tolist() == [2.0, 3.5, 3.5, 1.0]
