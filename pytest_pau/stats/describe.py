"""Small statistics shared by the summary, the inference and ``pau compare``: means of
values with gaps, pairing, Spearman's rank correlation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def clean(values: Sequence[float | None]) -> np.ndarray:
    """The non-missing values as a float array (None marks a missing value)."""
    return np.asarray([v for v in values if v is not None], dtype=float)


def mean(values: Sequence[float | None]) -> float | None:
    """Mean of the non-missing values, None when there are none."""
    arr = clean(values)
    return float(arr.mean()) if arr.size else None


def _paired(a: Sequence[float | None], b: Sequence[float | None]) -> tuple[np.ndarray, np.ndarray]:
    """The pairs where both values are present, as two float arrays."""
    if len(a) != len(b):
        raise ValueError(
            f"paired samples must have the same length, got {len(a)} and {len(b)}; "
            "align both runs on the same instances first"
        )
    x = np.asarray([np.nan if v is None else v for v in a], dtype=float)
    y = np.asarray([np.nan if v is None else v for v in b], dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    return x[keep], y[keep]


def average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``x``, ties sharing the average of the ranks they span."""
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    return (ends - (counts - 1) / 2.0)[inverse]


def spearman(a: Sequence[float | None], b: Sequence[float | None]) -> float | None:
    """Spearman rank correlation of two paired samples (average ranks for ties).

    Pairs with a missing value are dropped. Returns None when it is undefined: fewer
    than two complete pairs, or one side constant (no ranking to correlate).
    """
    x, y = _paired(a, b)
    if x.size < 2:
        return None
    rx, ry = average_ranks(x), average_ranks(y)
    rx -= rx.mean()
    ry -= ry.mean()
    denom = float(np.sqrt((rx * rx).sum() * (ry * ry).sum()))
    if denom == 0.0:
        return None
    return float(np.clip((rx * ry).sum() / denom, -1.0, 1.0))
