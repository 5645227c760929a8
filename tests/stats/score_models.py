"""Simulated PAU scores for the simulation scripts (pure; every draw takes a Generator).

Shapes follow PAU results: judge ratings on the 1-5 lattice (from strong and skewed to
bimodal 1/5), code match with mass at exact 0 and 1 and some in between, pass/fail.
Paired runs come from a latent item difficulty plus each run's own noise, so re-runs
of the same model agree on most items (realistic item-level correlation) and the three
metrics of one item move together.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

JUDGE = np.arange(1.0, 6.0)
JUDGE_PMFS: dict[str, list[float]] = {
    "judge weak": [0.35, 0.2, 0.15, 0.15, 0.15],
    "judge good": [0.1, 0.15, 0.2, 0.25, 0.3],
    "judge strong": [0.03, 0.04, 0.08, 0.25, 0.6],
    "judge bimodal 1/5": [0.5, 0.0, 0.0, 0.0, 0.5],
    "judge bimodal 45/55": [0.45, 0.0, 0.0, 0.0, 0.55],
    "judge mostly 3": [0.0, 0.05, 0.9, 0.05, 0.0],
    "judge 1 or 4-5": [0.3, 0.0, 0.0, 0.3, 0.4],
}
MATCH_MIXES: dict[str, tuple[float, float, bool]] = {
    # (share of exact 0s, share of exact 1s, middle on tenths?)
    "match 40% 0 / 35% 1": (0.4, 0.35, True),
    "match 70% 0 / 10% 1": (0.7, 0.1, True),
    "match 10% 0 / 75% 1": (0.1, 0.75, True),
    "match 45% 0 / 45% 1 cont": (0.45, 0.45, False),
}
Draw = Callable[[np.random.Generator, int, int], np.ndarray]


def judge_support(pmf: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """(values, probabilities) of a judge distribution, zero-probability values dropped."""
    p = np.asarray(pmf, dtype=float)
    return JUDGE[p > 0], p[p > 0] / p[p > 0].sum()


def match_support(zeros: float, ones: float) -> tuple[np.ndarray, np.ndarray]:
    """(values, probabilities) of a tenths code-match mix (middle: Beta(2,2) rounded)."""
    tenths = np.arange(1, 10) / 10.0
    # Beta(2, 2) mass of each rounding cell, the cells at 0.1 and 0.9 taking the tails.
    edges = np.concatenate([[0.0], (tenths[:-1] + tenths[1:]) / 2.0, [1.0]])
    cdf = 3 * edges**2 - 2 * edges**3
    middle = np.diff(cdf)
    values = np.concatenate([[0.0], tenths, [1.0]])
    probs = np.concatenate([[zeros], (1.0 - zeros - ones) * middle, [ones]])
    return values, probs


def discrete(values: np.ndarray, probs: np.ndarray) -> Draw:
    """Draw ``(S, n)`` i.i.d. values."""

    def draw(rng: np.random.Generator, sims: int, n: int) -> np.ndarray:
        return rng.choice(values, size=(sims, n), p=probs)

    return draw


def match_continuous(zeros: float, ones: float) -> Draw:
    """Exact 0s and 1s, the rest uniform on (0, 1) (no lattice)."""

    def draw(rng: np.random.Generator, sims: int, n: int) -> np.ndarray:
        u = rng.random((sims, n))
        return np.where(u < zeros, 0.0, np.where(u < zeros + ones, 1.0, rng.random((sims, n))))

    return draw


def level_cases() -> dict[str, tuple[Draw, float, tuple[float, float]]]:
    """name -> (draw, true mean, bounds) of every score distribution the bound is tested on."""
    out: dict[str, tuple[Draw, float, tuple[float, float]]] = {}
    for name, pmf in JUDGE_PMFS.items():
        v, p = judge_support(pmf)
        out[name] = (discrete(v, p), float(v @ p), (1.0, 5.0))
    for name, (zeros, ones, tenths) in MATCH_MIXES.items():
        if tenths:
            v, p = match_support(zeros, ones)
            out[name] = (discrete(v, p), float(v @ p), (0.0, 1.0))
        else:
            out[name] = (match_continuous(zeros, ones), ones + (1 - zeros - ones) / 2, (0.0, 1.0))
    return out


def population_with_mean(
    pmf: list[float], size: int, total: float, rng: np.random.Generator
) -> np.ndarray:
    """``size`` judge scores drawn from ``pmf`` then nudged by +-1 until they sum to ``total``."""
    pop = rng.choice(JUDGE, size=size, p=np.asarray(pmf) / sum(pmf))
    while pop.sum() != total:
        step = 1.0 if pop.sum() < total else -1.0
        movable = np.nonzero((pop + step >= 1) & (pop + step <= 5))[0]
        pop[rng.choice(movable)] += step
    return pop


# --- paired runs --------------------------------------------------------------------------

_CUTS = np.array([-0.9, -0.3, 0.3, 0.9])


def latent_scores(latent: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(judge, match, pass) of one run from latent item quality, same shape each."""
    judge = 1.0 + (latent[..., None] > _CUTS).sum(axis=-1).astype(float)
    middle = np.clip(np.round((latent + 1.2) / 2.4 * 10) / 10, 0.1, 0.9)
    match = np.where(latent < -0.6, 0.0, np.where(latent > 0.8, 1.0, middle))
    passed = (latent > 0.0).astype(float)
    return judge, match, passed


def same_quality_runs(
    rng: np.random.Generator, sims: int, n: int, noise: float
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Baseline and a same-quality re-run (not identical), each (judge, match, pass).

    Item quality ``z ~ N(0, 1)``; each run adds its own ``N(0, noise^2)``; both runs have
    the same law, so every metric's true mean difference is exactly 0. ``noise`` 0.35 to
    0.6 makes 30-50% of the judge scores change between runs.
    """
    z = rng.normal(size=(sims, n))
    base = latent_scores(z + rng.normal(0.0, noise, (sims, n)))
    new = latent_scores(z + rng.normal(0.0, noise, (sims, n)))
    return base, new


def equal_mean_not_exchangeable(rng: np.random.Generator, sims: int, n: int) -> np.ndarray:
    """Judge differences ``new - base`` with mean exactly 0 but not symmetric about 0.

    The new model fixes many items by one point and breaks a few by three (better on
    easy items, worse on hard ones): d = +1 w.p. 0.3, -3 w.p. 0.1, 0 otherwise.
    """
    u = rng.random((sims, n))
    return np.where(u < 0.3, 1.0, np.where(u < 0.4, -3.0, 0.0))


def equal_mean_skewed_match(rng: np.random.Generator, sims: int, n: int) -> np.ndarray:
    """Code-match differences with mean 0, skewed: +0.1 w.p. 0.5, -0.5 w.p. 0.1, else 0."""
    u = rng.random((sims, n))
    return np.where(u < 0.5, 0.1, np.where(u < 0.6, -0.5, 0.0))
