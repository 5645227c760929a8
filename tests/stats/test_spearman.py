"""Spearman and ranks against known answers (scipy is used here only)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats  # type: ignore[import-untyped]  # no stubs; dev extra, tests only

from pytest_pau.stats.describe import (
    average_ranks,
    spearman,
)


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
