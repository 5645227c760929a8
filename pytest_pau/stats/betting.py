"""The betting capitals behind :mod:`pytest_pau.stats.sequential` (see its docstring).

Two implementations of one arithmetic: :class:`ScalarGate` on Python floats (what a
:class:`~pytest_pau.stats.sequential.GateMonitor` runs, ~10 us per update) and
:class:`BettingGate` on numpy rows (thousands of simulated gates at once, for the
error-rate tests); ``tests/stats/test_sequential.py`` checks that they agree.
"""

from __future__ import annotations

import math

import numpy as np

TRUNCATION = 0.5
"""Largest bet as a fraction of the most the capital can lose (1 = all of it). Measured
while choosing it (741 items, 1,000 shuffles), mean stopping point 0.3 judge points or
0.1 of pass rate from the threshold: 0.3 -> 129-153 items, 0.5 -> 139-158, 0.8 ->
154-173, 1.0 -> up to 296 (aGRAPA over-bets while its estimates are noisy); regression
gates (differences: small spread for their scale): 0.3 -> 148-336, 0.5 -> 109-345,
0.8 -> 104-352."""

_TOL = 1e-12


class BettingGate:
    """Vectorised twin of :class:`ScalarGate`: ``rows`` independent gates, one step each.

    The simulation tests run thousands of gates at once with it; ``test_sequential.py``
    checks that it and :class:`ScalarGate` (what :class:`GateMonitor` runs, ten times
    faster per update) take the same bets and reach the same verdicts.

    Args:
        threshold: Threshold on the [0, 1] scale.
        population: N, or None for an unbounded i.i.d. stream.
        alpha: Error level of each one-sided test.
        rows: Number of gates updated together.
    """

    def __init__(
        self,
        threshold: float,
        population: int | None,
        alpha: float,
        rows: int = 1,
    ) -> None:
        self.m = float(threshold)
        self.population = population
        self.log_target = math.log(1.0 / alpha)
        self.t = 0
        self.total = np.zeros(rows)
        self.sq = np.zeros(rows)  # sum of squared deviations from the running mean
        self.log_up = np.zeros(rows)
        self.log_down = np.zeros(rows)
        self.code = np.zeros(rows, dtype=np.int8)
        self.decided_at = np.zeros(rows, dtype=np.int64)

    def null_mean(self) -> np.ndarray:
        """``m_t``: the next item's mean if the population mean were the threshold."""
        if self.population is None:
            return np.full_like(self.total, self.m)
        return (self.population * self.m - self.total) / (self.population - self.t)

    def update(self, y: np.ndarray) -> None:
        """Add one value per row (on the [0, 1] scale)."""
        if self.population is not None and self.t >= self.population:
            raise ValueError(
                f"all {self.population} items of the population were already seen; "
                "a monitor serves one run: create a new one"
            )
        m_t = self.null_mean()
        est = (0.5 + self.total) / (self.t + 1)
        var = (0.25 + self.sq) / (self.t + 1)
        gap = est - self.m
        if self.population is not None:
            gap = gap * self.population / (self.population - self.t)
        kelly = gap / (var + gap * gap)
        inner = np.clip(m_t, 1e-12, 1.0 - 1e-12)
        lam_up = np.clip(kelly, 0.0, TRUNCATION / inner)
        lam_down = np.clip(-kelly, 0.0, TRUNCATION / (1.0 - inner))
        with np.errstate(divide="ignore", invalid="ignore"):
            self.log_up += np.log(np.maximum(1.0 + lam_up * (y - m_t), 0.0))
            self.log_down += np.log(np.maximum(1.0 - lam_down * (y - m_t), 0.0))
        new_mean = (0.5 + self.total + y) / (self.t + 2)
        self.sq += (y - new_mean) ** 2
        self.total += y
        self.t += 1
        self._decide()

    def _decide(self) -> None:
        undecided = self.code == 0
        up = self.log_up >= self.log_target
        down = self.log_down >= self.log_target
        if self.population is not None:
            n = self.population
            lowest = self.total / n  # every remaining item at 0
            highest = (self.total + (n - self.t)) / n
            up |= lowest >= self.m - _TOL
            down |= highest < self.m - _TOL
        # Both can hold only when the capitals disagree with certainty; the deterministic
        # bounds are never wrong, so they win.
        verdict = np.where(up & ~down, 1, np.where(down & ~up, -1, 0)).astype(np.int8)
        if self.population is not None:
            verdict = np.where(lowest >= self.m - _TOL, 1, verdict)
            verdict = np.where(highest < self.m - _TOL, -1, verdict)
        newly = undecided & (verdict != 0)
        self.code = np.where(newly, verdict, self.code)
        self.decided_at = np.where(newly, self.t, self.decided_at)
        if self.population is not None and self.t == self.population:
            # Every item seen: the verdict is the exact one, whatever was said before.
            self.code = np.where(self.total / n >= self.m - _TOL, 1, -1).astype(np.int8)


class ScalarGate:
    """One gate, the arithmetic of :class:`BettingGate` on Python floats (about 10 us per
    update instead of 250 us of numpy calls on one-element arrays, on a loaded machine),
    plus the history of bets that :meth:`GateMonitor.confidence_sequence` needs."""

    def __init__(self, threshold: float, population: int | None, alpha: float) -> None:
        self.m = float(threshold)
        self.population = population
        self.log_target = math.log(1.0 / alpha)
        self.t = 0
        self.total = 0.0
        self.sq = 0.0
        self.log_up = 0.0
        self.log_down = 0.0
        self.code = 0
        self.decided_at = 0
        self.history: list[tuple[float, float, float, float, float]] = []

    def update(self, y: float) -> None:
        n = self.population
        if n is not None and self.t >= n:
            raise ValueError(
                f"all {n} items of the population were already seen; "
                "a monitor serves one run: create a new one"
            )
        m_t = self.m if n is None else (n * self.m - self.total) / (n - self.t)
        est = (0.5 + self.total) / (self.t + 1)
        var = (0.25 + self.sq) / (self.t + 1)
        gap = est - self.m
        if n is not None:
            gap = gap * n / (n - self.t)
        kelly = gap / (var + gap * gap)
        inner = min(max(m_t, 1e-12), 1.0 - 1e-12)
        lam_up = min(max(kelly, 0.0), TRUNCATION / inner)
        lam_down = min(max(-kelly, 0.0), TRUNCATION / (1.0 - inner))
        up = 1.0 + lam_up * (y - m_t)
        down = 1.0 - lam_down * (y - m_t)
        self.log_up += math.log(up) if up > 0 else -math.inf
        self.log_down += math.log(down) if down > 0 else -math.inf
        self.history.append((y, lam_up, lam_down, self.total, float(self.t)))
        new_mean = (0.5 + self.total + y) / (self.t + 2)
        self.sq += (y - new_mean) ** 2
        self.total += y
        self.t += 1
        self.decide()

    def decide(self) -> None:
        n = self.population
        up = self.log_up >= self.log_target
        down = self.log_down >= self.log_target
        verdict = 1 if up and not down else (-1 if down and not up else 0)
        if n is not None:
            if self.total / n >= self.m - _TOL:  # every remaining item at 0 still passes
                verdict = 1
            elif (self.total + (n - self.t)) / n < self.m - _TOL:
                verdict = -1
        if self.code == 0 and verdict != 0:
            self.code, self.decided_at = verdict, self.t
        if n is not None and self.t == n:
            self.code = 1 if self.total / n >= self.m - _TOL else -1
