"""Realistic simulated PAU results, for the error-rate tests and ``benchmarks/stats_bench.py``.

Every generator takes an explicit ``numpy.random.Generator`` and returns float arrays of
shape ``(S, n)`` (``S`` simulated runs of ``n`` instances) together with the true mean.
The shapes follow PAU results: judge ratings 1-5 with heavy ties (or means of three
ratings), code match with many exact 0s and 1s and the rest in tenths, and pass/fail.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

JUDGE = np.arange(1.0, 6.0)

JUDGE_PMFS: dict[str, list[float]] = {
    "judge weak": [0.35, 0.2, 0.15, 0.15, 0.15],
    "judge good": [0.1, 0.15, 0.2, 0.25, 0.3],
    "judge very weak": [0.6, 0.2, 0.1, 0.05, 0.05],
    "judge strong": [0.03, 0.04, 0.08, 0.25, 0.6],
}
"""Rating distributions: the brief's two plus a weak and a strong (skewed) model."""

MATCH_MIXES: dict[str, tuple[float, float]] = {
    "match 40% 0 / 35% 1": (0.4, 0.35),
    "match 70% 0 / 10% 1": (0.7, 0.1),
    "match 10% 0 / 75% 1": (0.1, 0.75),
}
"""(share of exact 0s, share of exact 1s); the rest is Beta(2, 2) rounded to tenths."""

Generator = Callable[[np.random.Generator, int, int], tuple[np.ndarray, float]]


def judge(pmf: list[float]) -> Generator:
    """Integer ratings with probabilities ``pmf``."""
    p = np.asarray(pmf)

    def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
        return rng.choice(JUDGE, size=(sims, n), p=p), float(p @ JUDGE)

    return draw


def judge_mean_of_three(pmf: list[float]) -> Generator:
    """Means of three ratings (``--pau-judge-samples=3``): each is the instance's rating
    moved by -1/0/+1 with probabilities 0.15/0.7/0.15, clipped to 1-5."""
    p = np.asarray(pmf)
    # True mean: enumerate the instance rating and the (independent) noise.
    noise, noise_p = np.array([-1.0, 0.0, 1.0]), np.array([0.15, 0.7, 0.15])
    true = float(
        sum(
            pi * qi * np.clip(r + e, 1, 5)
            for r, pi in zip(JUDGE, p, strict=True)
            for e, qi in zip(noise, noise_p, strict=True)
        )
    )

    def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
        base = rng.choice(JUDGE, size=(sims, n, 1), p=p)
        ratings = np.clip(base + rng.choice(noise, size=(sims, n, 3), p=noise_p), 1, 5)
        return ratings.mean(axis=2), true

    return draw


def match(zeros: float, ones: float) -> Generator:
    """Code match: exact 0s and 1s, the rest Beta(2, 2) in tenths (0.1-0.9, mean 0.5)."""

    def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
        u = rng.random((sims, n))
        middle = np.clip(np.round(rng.beta(2.0, 2.0, (sims, n)) * 10) / 10, 0.1, 0.9)
        values = np.where(u < zeros, 0.0, np.where(u < zeros + ones, 1.0, middle))
        return values, ones + (1.0 - zeros - ones) * 0.5

    return draw


def passes(p: float) -> Generator:
    """Pass/fail with pass probability ``p``."""

    def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
        return (rng.random((sims, n)) < p).astype(float), p

    return draw


def summary_generators() -> dict[str, tuple[Generator, tuple[float, float]]]:
    """name -> (generator, bounds) of every distribution the interval tests use."""
    out: dict[str, tuple[Generator, tuple[float, float]]] = {
        name: (judge(pmf), (1.0, 5.0)) for name, pmf in JUDGE_PMFS.items()
    }
    out["judge weak, mean of 3"] = (judge_mean_of_three(JUDGE_PMFS["judge weak"]), (1.0, 5.0))
    out.update({name: (match(*mix), (0.0, 1.0)) for name, mix in MATCH_MIXES.items()})
    return out


# --- paired runs -----------------------------------------------------------------------


def _latent_scores(kind: str, latent: np.ndarray) -> np.ndarray:
    """A run's scores from instance difficulty plus the run's own noise (same law for
    both runs, so two runs are exchangeable on every instance)."""
    if kind == "judge":
        cuts = np.array([-0.4, 0.1, 0.5, 1.0])
        return np.asarray(1.0 + (latent[..., None] > cuts).sum(axis=-1), dtype=float)
    if kind == "match":
        middle = np.clip(np.round((latent + 1.0) / 2.5 * 10) / 10, 0.1, 0.9)
        return np.where(latent < -0.3, 0.0, np.where(latent > 0.5, 1.0, middle))
    if kind == "pass":
        return (latent > 0.2).astype(float)
    raise ValueError(f"kind must be judge, match or pass, got {kind!r}")


def paired_null(
    kind: str, rng: np.random.Generator, sims: int, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Two interchangeable runs on the same instances: ``(base, new)``, each ``(S, n)``.

    About half of the judge differences are 0 and most of the rest +-1 (realistic ties);
    match differences have many exact 0s; pass differences are -1/0/+1.
    """
    difficulty = rng.normal(size=(sims, n))
    base = _latent_scores(kind, difficulty + rng.normal(0.0, 0.6, (sims, n)))
    new = _latent_scores(kind, difficulty + rng.normal(0.0, 0.6, (sims, n)))
    return base, new


BOUNDS = {"judge": (1.0, 5.0), "match": (0.0, 1.0), "pass": (0.0, 1.0)}
MARGINS = {"judge": 0.2, "match": 0.05, "pass": 0.05}

_SYM_JUDGE = np.array([0.0, 0.01, 0.04, 0.2, 0.5, 0.2, 0.04, 0.01, 0.0])
_JUDGE_DIFFS = np.arange(-4.0, 5.0)


def boundary_differences() -> dict[str, tuple[str, Generator]]:
    """name -> (kind, generator) of differences whose true mean is exactly ``-margin``.

    The mass that makes the mean ``-margin`` sits asymmetrically (a regression moves
    some instances down, not a symmetric shift), as real regressions do.
    """

    def judge_pmf(moves: dict[int, float]) -> Generator:
        pmf = _SYM_JUDGE.copy()
        for diff, mass in moves.items():
            pmf[int(diff) + 4] += mass
        assert abs(pmf @ _JUDGE_DIFFS + 0.2) < 1e-12
        assert abs(pmf.sum() - 1) < 1e-12

        def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
            return rng.choice(_JUDGE_DIFFS, size=(sims, n), p=pmf), -0.2

        return draw

    def pass_pmf(up: float, down: float) -> Generator:
        def draw(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
            u = rng.random((sims, n))
            return np.where(u < up, 1.0, np.where(u < up + down, -1.0, 0.0)), up - down

        return draw

    def match_mix(rng: np.random.Generator, sims: int, n: int) -> tuple[np.ndarray, float]:
        # 10% +1, 15% -1, 40% exactly 0, 35% a symmetric spread (mean 0): mean -0.05.
        u = rng.random((sims, n))
        spread = np.round(rng.uniform(-1, 1, (sims, n)) * rng.random((sims, n)), 1)
        return np.where(
            u < 0.1, 1.0, np.where(u < 0.25, -1.0, np.where(u < 0.65, 0.0, spread))
        ), -0.05

    return {
        "judge, +1 -> -1": ("judge", judge_pmf({-1: 0.1, 1: -0.1})),
        "judge, 0 -> -2": ("judge", judge_pmf({-2: 0.1, 0: -0.1})),
        "pass 10%/15%": ("pass", pass_pmf(0.10, 0.15)),
        "pass 2%/7%": ("pass", pass_pmf(0.02, 0.07)),
        "pass 30%/35%": ("pass", pass_pmf(0.30, 0.35)),
        "match": ("match", match_mix),
    }


# --- finite populations for the early-stopping gates --------------------------------------


def population_with_mean(
    pmf: list[float], values: np.ndarray, size: int, mean: float
) -> np.ndarray:
    """``size`` values distributed like ``pmf`` whose mean is as close to ``mean`` as the
    integers allow (exact when ``mean * size`` is a multiple of the values' step)."""
    counts = np.floor(np.asarray(pmf) * size).astype(int)
    counts[int(np.argmax(pmf))] += size - counts.sum()
    step = float(values[1] - values[0])
    target = round(mean * size / step)
    for _ in range(10 * size):
        total = round(float(counts @ values) / step)
        if total == target:
            break
        if total < target:  # move one item up a category
            i = max(k for k in range(len(counts) - 1) if counts[k] > 0)
            counts[i], counts[i + 1] = counts[i] - 1, counts[i + 1] + 1
        else:
            i = min(k for k in range(1, len(counts)) if counts[k] > 0)
            counts[i], counts[i - 1] = counts[i] - 1, counts[i - 1] + 1
    return np.repeat(values, counts).astype(float)


def shuffled_runs(population: np.ndarray, rng: np.random.Generator, runs: int) -> np.ndarray:
    """``(runs, N)``: independent uniformly random orders of the population."""
    return population[np.argsort(rng.random((runs, population.size)), axis=1)]


def run_early_stop(
    population: np.ndarray,
    threshold: float,
    bounds: tuple[float, float],
    rng: np.random.Generator,
    runs: int,
    confidence: float = 0.95,
) -> tuple[np.ndarray, np.ndarray]:
    """Run ``runs`` early-stopping gates (the real :class:`AnytimeGate`) on shuffles.

    Returns:
        ``(verdict, stopped_at)``: the procedure's final verdict per run (+1 pass, -1
        fail: the first decision, or the exact one after all N items), and the number
        of items it ran.
    """
    from pytest_pau.stats.anytime import AnytimeGate

    a, b = bounds
    orders = (shuffled_runs(population, rng, runs) - a) / (b - a)
    gate = AnytimeGate((threshold - a) / (b - a), population.size, 1.0 - confidence, runs)
    first = np.zeros(runs, dtype=np.int8)
    for t in range(population.size):
        gate.update(orders[:, t])
        first = np.where(first == 0, gate.code, first)
        if (first != 0).all():
            break
    stopped = np.where(gate.decided_at > 0, gate.decided_at, population.size)
    return first, stopped
