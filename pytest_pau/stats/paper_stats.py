"""The PAU paper's statistics, computed as its reference implementation computes them.

The reference (``see.py`` of ``DhananjayAshok/PAU-Benchmark``) reads one file of results per
model and method and counts **every row**: a missing judge rating is 1, a missing code
match 0 (:func:`pytest_pau.stats.metrics.counted` under ``--pau-protocol=paper``). Per run
it reports (:func:`paper_statistics`):

* the judge score's mean and sample standard deviation (``ddof=1``, as pandas' ``std``),
  the share of rows at each level 1..5 (a score equal to the level) and the share at 3 or
  more;
* the queries' mean and standard deviation (rows without a count skipped: here the
  errored rows, whose episode may have been cut short), and the share that concluded;
* per coder, code match's mean and standard deviation, the shares at 1, at 0.5 or more
  and at 0, and the bins ``[0, .2) [.2, .4) [.4, .6) [.6, .8) [.8, 1]`` (lower edge
  included, the last bin closed).

Between runs: the ``Max`` row (:func:`max_values`: per instance the best value over the
runs, an upper bound on what they reach together), Spearman's rank correlation of every
pair (:func:`spearman_matrix`, average ranks for ties) and the reference's paired
bootstrap (:func:`paired_bootstrap`). Pure functions of per-item values; no IO.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from pytest_pau.models import Scored
from pytest_pau.models.paper import (
    MATCH_BINS,
    PAPER,
    PaperJudgeStats,
    PaperMatchStats,
    PaperStats,
)
from pytest_pau.stats.describe import spearman
from pytest_pau.stats.metrics import PAPER_FILL, counted

__all__ = [
    "BootstrapResult",
    "PaperItem",
    "PaperStats",
    "judge_block",
    "match_block",
    "max_values",
    "paired_bootstrap",
    "paper_statistics",
    "spearman_matrix",
]

#: The reference's bootstrap: resamples, and each resample's size as a share of the rows.
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_RATIO = 0.5
JUDGE_LEVELS = ("1", "2", "3", "4", "5")


class PaperItem(Scored, Protocol):
    """What the paper's statistics read of an item (an InstanceResult or a ScoresOnly):
    what a comparison reads, and more."""

    @property
    def self_code_match(self) -> float | None: ...
    @property
    def n_queries(self) -> int: ...
    @property
    def concluded(self) -> bool: ...


def _mean_std(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and ``ddof=1`` standard deviation (None below one and two values)."""
    if not values:
        return None, None
    arr = np.asarray(values, dtype=float)
    std = float(arr.std(ddof=1)) if arr.size > 1 else None
    return float(arr.mean()), std


def _share(hits: int, n: int) -> float | None:
    return hits / n if n else None


def judge_block(values: Sequence[float], *, filled: int = 0) -> PaperJudgeStats:
    """The description block of counted judge scores (fill values already in)."""
    n = len(values)
    mean, std = _mean_std(values)
    return PaperJudgeStats(
        n=n,
        filled=filled,
        mean=mean,
        std=std,
        # A level counts the scores equal to it, as the reference's ``== k``: a mean of
        # several judge samples (3.5) is at no level, and still counts in ">= 3".
        shares={k: sum(v == float(k) for v in values) / n for k in JUDGE_LEVELS} if n else {},
        share_3_plus=_share(sum(v >= 3 for v in values), n),
    )


def _bin(value: float) -> str:
    for label, low, high in MATCH_BINS:
        if low <= value < high:
            return label
    return MATCH_BINS[-1][0]  # 1.0 (and anything above): the last bin is closed


def match_block(values: Sequence[float], *, filled: int = 0) -> PaperMatchStats:
    """A code-match block of counted code matches (fill values already in)."""
    n = len(values)
    mean, std = _mean_std(values)
    bins = dict.fromkeys((label for label, _, _ in MATCH_BINS), 0)
    for v in values:
        bins[_bin(v)] += 1
    return PaperMatchStats(
        n=n,
        filled=filled,
        mean=mean,
        std=std,
        share_exact=_share(sum(v == 1.0 for v in values), n),
        share_half=_share(sum(v >= 0.5 for v in values), n),
        share_zero=_share(sum(v == 0.0 for v in values), n),
        bins={k: c / n for k, c in bins.items()} if n else {},
    )


def _self_values(rows: Sequence[PaperItem]) -> tuple[list[float], int]:
    raw = [r.self_code_match for r in rows]
    fill = PAPER_FILL["match"]
    return [fill if v is None else v for v in raw], sum(v is None for v in raw)


def paper_statistics(results: Sequence[PaperItem], *, self_coder: bool | None = None) -> PaperStats:
    """The paper's statistics block of one run, every item that ran counted.

    Args:
        results: The run's items (skipped ones are left out: they did not run).
        self_coder: Whether the run has the model's own code matches (``--pau-coder=self``);
            None: whether any item has one.

    Returns:
        :class:`~pytest_pau.models.PaperStats`; the means are those of
        ``--pau-protocol=paper`` (a missing judge rating 1, a missing code match 0).
    """
    rows = [r for r in results if r.skipped is None]
    judge = [counted(r, "judge", PAPER) for r in rows]
    match = [counted(r, "match", PAPER) for r in rows]
    queries = [float(r.n_queries) for r in rows if r.error is None]
    q_mean, q_std = _mean_std(queries)
    if self_coder is None:
        self_coder = any(r.self_code_match is not None for r in rows)
    self_match = None
    if self_coder:
        values, filled = _self_values(rows)
        self_match = match_block(values, filled=filled)
    return PaperStats(
        n=len(rows),
        not_run=len(results) - len(rows),
        errors=sum(r.error is not None for r in rows),
        judge=judge_block(
            [v for v in judge if v is not None],
            filled=sum(r.judge_score is None for r in rows),
        ),
        queries_mean=q_mean,
        queries_std=q_std,
        concluded_share=_share(sum(bool(r.concluded) for r in rows), len(rows)),
        match=match_block(
            [v for v in match if v is not None],
            filled=sum(r.code_match is None for r in rows),
        ),
        self_match=self_match,
    )


def max_values(columns: Sequence[Sequence[float]]) -> list[float]:
    """Per instance (position) the best value over the runs: the paper's ``Max`` row.

    Raises:
        ValueError: the runs are not aligned (columns of different lengths).
    """
    if not columns:
        return []
    if len({len(c) for c in columns}) > 1:
        raise ValueError(
            f"the Max row needs runs aligned on the same instances, got columns of lengths "
            f"{sorted({len(c) for c in columns})}"
        )
    return [max(row) for row in zip(*columns, strict=True)]


def spearman_matrix(columns: Sequence[Sequence[float]]) -> list[list[float | None]]:
    """Spearman's rho of every pair of aligned runs (1 on the diagonal; None: undefined,
    e.g. a run whose scores are all equal)."""
    k = len(columns)
    out: list[list[float | None]] = [[None] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i == j:
                constant = len(set(columns[i])) < 2
                out[i][j] = None if constant else 1.0
            elif j > i:
                out[i][j] = out[j][i] = spearman(list(columns[i]), list(columns[j]))
    return out


@dataclass(frozen=True)
class BootstrapResult:
    """The reference's paired bootstrap of two runs on the same instances."""

    n: int
    mean_a: float
    mean_b: float
    winner: str
    """``A``, ``B`` (the higher full-sample mean) or ``tie``."""
    wins_a: int
    wins_b: int
    ties: int
    p_value: float
    """``1 - max(wins) / resamples`` (1 when the wins are equal): how often the resampled
    better run does not come out ahead."""
    resamples: int
    seed: int


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    ratio: float = BOOTSTRAP_RATIO,
    seed: int = 0,
) -> BootstrapResult | None:
    """The paired bootstrap of the reference (``see.py`` ``paired_bootstrap``), seeded.

    Each of ``resamples`` draws ``floor(ratio * n)`` instances with replacement and counts
    which run has the higher mean on them; ``p = 1 - max(wins_a, wins_b) / resamples``,
    or 1 when the wins are equal (ties count against the winner). The reference draws
    from numpy's unseeded global generator; here the draws come from ``seed``.

    Error rate: with the half-size resamples this is conservative where it is used. For
    two runs with the same mean, ``p <= 0.05`` happens in about 2% of samples (normal
    approximation: ``2 (1 - Phi(sqrt(2) z_0.95))``), measured at 10 to 200 instances of
    1-5 scores in ``tests/stats/test_paper_stats.py``; it is not a two-sided p-value
    (above about 0.15 its level no longer holds).

    Returns:
        None when a resample would hold no instance (fewer than ``1 / ratio`` pairs).

    Raises:
        ValueError: the runs are not aligned (different lengths).
    """
    if len(a) != len(b):
        raise ValueError(
            f"the paired bootstrap needs runs on the same instances, got {len(a)} and {len(b)}"
        )
    n = len(a)
    size = math.floor(ratio * n)
    if size < 1 or resamples < 1:
        return None
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    rng = np.random.default_rng(seed)
    wins_a = wins_b = 0
    chunk = max(1, 2_000_000 // size)  # bound the index matrix's memory
    done = 0
    while done < resamples:
        rows = min(chunk, resamples - done)
        idx = rng.integers(0, n, size=(rows, size))
        diff = x[idx].mean(axis=1) - y[idx].mean(axis=1)
        wins_a += int((diff > 0).sum())
        wins_b += int((diff < 0).sum())
        done += rows
    mean_a, mean_b = float(x.mean()), float(y.mean())
    winner = "A" if mean_a > mean_b else "B" if mean_b > mean_a else "tie"
    p = 1.0 if wins_a == wins_b else 1.0 - max(wins_a, wins_b) / resamples
    return BootstrapResult(
        n=n,
        mean_a=mean_a,
        mean_b=mean_b,
        winner=winner,
        wins_a=wins_a,
        wins_b=wins_b,
        ties=resamples - wins_a - wins_b,
        p_value=p,
        resamples=resamples,
        seed=seed,
    )
