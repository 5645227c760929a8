"""The paper's statistics (``stats/paper_stats.py``) against hand computations and the reference's
documented behaviour, and the paired bootstrap's error rate by seeded simulation."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from pytest_pau.models import InstanceResult
from pytest_pau.stats.paper_stats import (
    judge_block,
    match_block,
    max_values,
    paired_bootstrap,
    paper_statistics,
    spearman_matrix,
)


def _r(i: int, judge: float | None, match: float | None, **kw: object) -> InstanceResult:
    return InstanceResult(
        id=f"s/{i}", source="s", arity=1, judge_score=judge, code_match=match, **kw
    )  # type: ignore[arg-type]


def test_a_missing_rating_counts_1_and_std_is_ddof_1_as_the_reference_verified() -> None:
    # The reference's own check: scores 4, null, 4 -> 3.00 ± 1.73 (pandas std, ddof=1).
    rows = [
        _r(0, 4, 1.0, n_queries=3, concluded=True),
        _r(1, None, 0.5, error="the judge gave no parseable rating", n_queries=7),
        _r(2, 4, None, n_queries=5, concluded=True),
        _r(3, None, None, skipped="budget spent"),
    ]
    p = paper_statistics(rows)
    assert (p.n, p.not_run, p.errors) == (3, 1, 1)
    assert p.judge.mean == pytest.approx(3.0)
    assert p.judge.std == pytest.approx(math.sqrt(3.0))  # 1.732...
    assert p.judge.filled == 1
    assert p.judge.shares == {"1": 1 / 3, "2": 0.0, "3": 0.0, "4": 2 / 3, "5": 0.0}
    assert p.judge.share_3_plus == pytest.approx(2 / 3)
    # The errored item keeps its code match (0.5); the unmatched one counts 0.
    assert p.match.mean == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    assert p.match.std == pytest.approx(statistics.stdev([1.0, 0.5, 0.0]))
    assert p.match.filled == 1
    # Queries of errored rows are skipped (the reference's nulls); concluded over all rows.
    assert p.queries_mean == pytest.approx(4.0)
    assert p.queries_std == pytest.approx(statistics.stdev([3, 5]))
    assert p.concluded_share == pytest.approx(2 / 3)
    assert p.self_match is None


def test_code_match_bins_include_their_lower_edge_and_the_last_is_closed() -> None:
    values = [0.0, 0.19, 0.2, 0.25, 0.4, 0.6, 0.79, 0.8, 1.0, 1 / 5, 4 / 5]
    m = match_block(values)
    n = len(values)
    assert m.bins == {
        "0-19%": 2 / n,  # 0.0, 0.19
        "20-39%": 3 / n,  # 0.2, 0.25, 1/5
        "40-59%": 1 / n,
        "60-79%": 2 / n,  # 0.6, 0.79
        "80-100%": 3 / n,  # 0.8, 1.0, 4/5
    }
    assert m.share_exact == pytest.approx(1 / n)
    assert m.share_half == pytest.approx(5 / n)  # 0.6, 0.79, 0.8, 1.0, 4/5
    assert m.share_zero == pytest.approx(1 / n)


def test_judge_levels_count_exact_scores_and_a_single_row_has_no_std() -> None:
    j = judge_block([3.5])  # a mean of judge samples is at no level, still >= 3
    assert j.shares == {k: 0.0 for k in "12345"}
    assert j.share_3_plus == 1.0
    assert j.std is None
    assert judge_block([]).mean is None


def test_self_coder_block_fills_missing_with_0() -> None:
    rows = [
        _r(0, 5, 1.0, self_code_match=0.5),
        _r(1, 2, 0.0, self_code_match=None, self_code_error="LLMUnavailableError: down"),
    ]
    p = paper_statistics(rows)
    assert p.self_match is not None
    assert p.self_match.mean == pytest.approx(0.25)
    assert p.self_match.filled == 1


def test_max_row_and_spearman_with_average_ranks() -> None:
    a = [5.0, 1.0, 3.0, 3.0]
    b = [1.0, 2.0, 3.0, 4.0]
    assert max_values([a, b]) == [5.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="aligned"):
        max_values([a, b[:3]])
    m = spearman_matrix([a, b, [2.0, 2.0, 2.0, 2.0]])
    # Ranks of a with ties averaged: 4, 1, 2.5, 2.5; of b: 1, 2, 3, 4.
    ra, rb = np.array([4, 1, 2.5, 2.5]), np.array([1, 2, 3, 4.0])
    expected = np.corrcoef(ra, rb)[0, 1]
    assert m[0][1] == m[1][0] == pytest.approx(expected)
    assert m[0][0] == 1.0
    assert m[2][2] is None
    assert m[0][2] is None


def test_bootstrap_counts_wins_as_the_reference_and_is_seeded() -> None:
    better = [5.0, 4.0, 4.0, 3.0] * 10
    worse = [1.0, 2.0, 4.0, 3.0] * 10
    r = paired_bootstrap(better, worse, resamples=2000, seed=3)
    assert r is not None
    assert r.winner == "A"
    assert r.wins_a + r.wins_b + r.ties == 2000
    assert r.p_value == pytest.approx(1 - max(r.wins_a, r.wins_b) / 2000)
    assert paired_bootstrap(better, worse, resamples=2000, seed=3) == r
    same = paired_bootstrap(better, better, resamples=500)
    assert same is not None
    assert same.p_value == 1.0
    assert same.winner == "tie"
    assert paired_bootstrap([1.0], [2.0]) is None  # a half-size resample would be empty
    with pytest.raises(ValueError, match="same instances"):
        paired_bootstrap([1.0, 2.0], [1.0])


@pytest.mark.parametrize("n", [10, 50, 200])
def test_bootstrap_p_below_005_is_rare_when_two_runs_are_alike(n: int) -> None:
    """Two runs with the same distribution of 1-5 scores (paired, correlated through a
    shared difficulty): ``p <= 0.05`` must happen at most 5% of the time; the docstring's
    normal approximation says about 2%."""
    rng = np.random.default_rng(n)
    sims, hits = 300, 0
    for s in range(sims):
        difficulty = rng.integers(1, 6, n)
        a = np.clip(difficulty + rng.integers(-1, 2, n), 1, 5).astype(float)
        b = np.clip(difficulty + rng.integers(-1, 2, n), 1, 5).astype(float)
        r = paired_bootstrap(a.tolist(), b.tolist(), resamples=1000, seed=s)
        hits += r is not None and r.p_value <= 0.05
    rate = hits / sims
    # 300 draws: a true rate of 5% exceeds 0.08 with probability < 1%.
    assert rate <= 0.08, rate
