"""Statistics shared by the terminal summary and ``pau compare``.

All resampling is seeded, so the same data gives the same intervals on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

DEFAULT_RESAMPLES = 10_000


def clean(values: Sequence[float | None]) -> np.ndarray:
    """The non-missing values as a float array (None marks a missing value)."""
    return np.asarray([v for v in values if v is not None], dtype=float)


def mean(values: Sequence[float | None]) -> float | None:
    """Mean of the non-missing values, None when there are none."""
    arr = clean(values)
    return float(arr.mean()) if arr.size else None


def bootstrap_ci(
    values: Sequence[float | None],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap confidence interval of the mean.

    Args:
        values: The sample; ``None`` entries are dropped as missing.
        resamples: Number of bootstrap resamples.
        seed: Seed of the resampling generator.
        confidence: Coverage of the interval.

    Returns:
        ``(low, high)``, or None when no value is present. A single value gives a
        zero-width interval.
    """
    arr = clean(values)
    if arr.size == 0:
        return None
    if arr.size == 1:
        return float(arr[0]), float(arr[0])
    rng = np.random.default_rng(seed)
    # Resample in chunks so 10,000 x 5,000 never needs a 400 MB index matrix at once.
    means = np.empty(resamples)
    chunk = max(1, 2_000_000 // arr.size)
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        idx = rng.integers(0, arr.size, size=(stop - start, arr.size))
        means[start:stop] = arr[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)
