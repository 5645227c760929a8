"""The numerical core of :mod:`pytest_pau.stats.inference`: tilted score bounds.

For a sample of bounded scores and a candidate mean ``mu``, the distribution closest to
the sample (in Kullback-Leibler divergence) with mean ``mu`` is the exponential tilt
``w_i exp(lam * y_i)`` of the sample's weights. Its variance ``v(mu)`` is what a score
test of ``mu`` uses: the interval is ``{mu : n (ybar - mu)**2 <= crit * v(mu)}``. On 0/1
data the tilt is Bernoulli(mu) and the interval is Wilson's. A little prior weight on
the two bounds of the scale lets the tilt move even an all-equal sample.

Everything works on the [0, 1] scale and on batches (one sample per row), so the
simulation tests run the very code the summary runs. Also here: Student's t
distribution (scipy is not a runtime dependency) and the lattice step of scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

PSEUDO_WEIGHT = 0.5
"""Prior weight (in observations) spread equally on the two bounds of the scale. It only
matters when the sample alone can hardly move its mean (all values equal, or nearly);
0.5 is the smallest that kept coverage above 93% at n = 5-10 for samples with 90% of
their mass on one value (1.0 over-covers, 97-98% at n = 5)."""

_LAMBDA_MAX = 60.0  # tilt (on the [0, 1] scale) past which the tilted mean sits on a bound
_SCAN = 32  # grid points per side before bisection: finds the outermost crossing
_BISECT = 40


def clean_bounded(
    values: Sequence[float | None] | np.ndarray, bounds: tuple[float, float]
) -> np.ndarray:
    """The non-missing values as floats, checked to lie within ``bounds``.

    Raises:
        ValueError: ``bounds`` is not ``(low, high)`` with ``low < high``, or a value is
            NaN or outside the bounds (a silent wrong interval is worse than an error).
    """
    a, b = (float(x) for x in bounds)
    if not a < b:
        raise ValueError(f"bounds must be (low, high) with low < high, got {bounds!r}")
    arr = np.asarray([v for v in values if v is not None], dtype=float)
    bad = np.isnan(arr) | (arr < a) | (arr > b)
    if bad.any():
        raise ValueError(
            f"values must lie within bounds {bounds!r}, got {arr[bad][:5].tolist()!r}; "
            "pass the scale's true bounds (judge (1, 5), match (0, 1)) or drop bad values"
        )
    return arr


def support_weights(
    scaled: np.ndarray, pseudo: float = PSEUDO_WEIGHT
) -> tuple[np.ndarray, np.ndarray]:
    """One sample on [0, 1] as ``(1, m)`` support and weight rows, bounds appended."""
    support, counts = np.unique(scaled, return_counts=True)
    y = np.concatenate([support, [0.0, 1.0]])[None, :]
    w = np.concatenate([counts.astype(float), [pseudo / 2, pseudo / 2]])[None, :]
    return y, w


def batch_support(
    scaled: np.ndarray, pseudo: float = PSEUDO_WEIGHT
) -> tuple[np.ndarray, np.ndarray]:
    """``S`` samples of ``n`` values on [0, 1] as ``(S, m)`` support and weight rows.

    When the samples share few distinct values (judge ratings, pass, integer
    differences) each row holds counts over the common values, which makes the kernel
    many times faster; otherwise each value is its own support point of weight 1. The
    bounds 0 and 1 are appended with the prior weight.
    """
    rows, n = scaled.shape
    values, inverse = np.unique(scaled, return_inverse=True)
    if values.size <= 64:
        offsets = inverse.reshape(rows, n) + values.size * np.arange(rows)[:, None]
        counts = np.bincount(offsets.ravel(), minlength=rows * values.size)
        w = counts.reshape(rows, values.size).astype(float)
        y = np.broadcast_to(values, (rows, values.size))
    else:
        y, w = scaled, np.ones((rows, n))
    y = np.hstack([y, np.zeros((rows, 1)), np.ones((rows, 1))])
    w = np.hstack([w, np.full((rows, 2), pseudo / 2)])
    return y, w


def tilted_moments(y: np.ndarray, w: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, ...]:
    """Mean and variance of the weights ``w * exp(lam * y)`` on the support ``y``, per row."""
    z = lam[:, None] * y
    z -= z.max(axis=1, keepdims=True)  # no overflow: only ratios matter
    e = w * np.exp(z)
    e /= e.sum(axis=1, keepdims=True)
    mu = (e * y).sum(axis=1)
    var = (e * (y - mu[:, None]) ** 2).sum(axis=1)
    return mu, var


def tilted_variance_at(y: np.ndarray, w: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Variance of the tilt whose mean is ``mu`` (per row; the tilted mean grows with lam)."""
    lo = np.full(y.shape[0], -_LAMBDA_MAX * 4)
    hi = -lo
    for _ in range(64):
        mid = (lo + hi) / 2.0
        m, _ = tilted_moments(y, w, mid)
        lo, hi = np.where(m < mu, mid, lo), np.where(m < mu, hi, mid)
    return tilted_moments(y, w, (lo + hi) / 2.0)[1]


def tilted_score_bounds(
    y: np.ndarray,
    w: np.ndarray,
    n: np.ndarray,
    crit: float,
    correction: np.ndarray | float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Tilted score interval on the [0, 1] scale, one sample per row.

    Args:
        y: ``(S, m)`` support points in [0, 1]; the last two columns must be 0 and 1.
        w: ``(S, m)`` weights: counts of each support point (0 for padding), prior
            weights on the last two columns.
        n: ``(S,)`` sample sizes (the weights of the data columns add up to them).
        crit: Squared critical value (``z**2``).
        correction: Continuity correction subtracted from ``|ybar - mu|`` (scalar or
            ``(S,)``): half the lattice step of the mean, or 0.

    Returns:
        ``(low, high)`` arrays on the [0, 1] scale, each on the far side of ``ybar``.
    """
    ybar = (w[:, :-2] * y[:, :-2]).sum(axis=1) / n
    rows = y.shape[0]

    def accepted(lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mu, var = tilted_moments(y, w, lam)
        gap = np.maximum(np.abs(ybar - mu) - correction, 0.0)
        return n * gap * gap <= crit * var, mu

    ends = []
    for sign in (-1.0, 1.0):
        # Scan the tilt outward from 0; the accepted set could in principle have gaps, so
        # keep the outermost accepted grid point and bisect towards the next one.
        grid = sign * _LAMBDA_MAX * (np.arange(1, _SCAN + 1) / _SCAN) ** 2
        ok = np.stack([accepted(np.full(rows, lam))[0] for lam in grid], axis=1)
        last = np.where(ok.any(axis=1), _SCAN - 1 - np.argmax(ok[:, ::-1], axis=1), -1)
        inside = np.where(last >= 0, grid[np.clip(last, 0, None)], 0.0)
        outside = grid[np.clip(last + 1, 0, _SCAN - 1)]
        for _ in range(_BISECT):
            mid = (inside + outside) / 2.0
            good, _ = accepted(mid)
            inside, outside = np.where(good, mid, inside), np.where(good, outside, mid)
        end = tilted_moments(y, w, inside)[0]
        # Accepted even at the largest tilt: the interval reaches the bound.
        end = np.where(last == _SCAN - 1, 0.0 if sign < 0 else 1.0, end)
        ends.append(np.clip(end, 0.0, 1.0))
    return np.minimum(ends[0], ybar), np.maximum(ends[1], ybar)


def lattice_step(values: np.ndarray, max_denominator: int = 60) -> float:
    """The largest ``h`` with every value an integer multiple of it, or 0 if there is none.

    Judge and pass differences are integers (``h = 1``), means of 3 judge ratings are
    thirds; code-match differences with varying numbers of test cases have no small
    lattice, which returns 0 (no continuity correction).
    """
    step = Fraction(0)
    for v in np.unique(np.abs(values)):
        if v == 0:
            continue
        f = Fraction(float(v)).limit_denominator(max_denominator)
        if abs(float(f) - v) > 1e-9:
            return 0.0
        step = (
            f
            if step == 0
            else Fraction(
                math.gcd(step.numerator * f.denominator, f.numerator * step.denominator),
                step.denominator * f.denominator,
            )
        )
    return float(step)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_sf(t: float, df: float) -> float:
    """``P(T > t)`` for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def student_ppf(q: float, df: float) -> float:
    """Quantile of Student's t (bisection on :func:`student_sf`; ~1e-12 accurate)."""
    lo, hi = -1e3, 1e3
    for _ in range(100):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if 1.0 - student_sf(mid, df) < q else (lo, mid)
    return (lo + hi) / 2.0


def score_interval(
    values: np.ndarray, low: float, high: float, crit: float, correction: float = 0.0
) -> tuple[float, float]:
    """:func:`tilted_score_bounds` of one sample on ``[low, high]``, in its own units.

    ``correction`` is on the original scale (half the lattice step of the mean).
    """
    span = high - low
    y, w = support_weights((values - low) / span)
    lo, hi = tilted_score_bounds(y, w, np.array([float(values.size)]), crit, correction / span)
    return low + span * float(lo[0]), low + span * float(hi[0])
