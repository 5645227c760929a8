"""The summary's and ``pau compare``'s statistics before issue 13, kept as the baseline of
``stats_bench.py`` and ``compare_bench.py`` (percentile bootstrap intervals, a paired
bootstrap test). The product no longer uses them: they were over-confident at small n.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from pytest_pau.stats.describe import _paired, clean

DEFAULT_RESAMPLES = 10_000


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


# ---------------------------------------------------------------------------
# Paired statistics for ``pau compare``
# ---------------------------------------------------------------------------


def resample_counts(
    n: int, resamples: int, rng: np.random.Generator, *, chunk_cells: int = 4_000_000
) -> Iterator[np.ndarray]:
    """Bootstrap resamples of ``n`` items as count matrices, in chunks.

    Each yielded array has shape ``(rows, n)``: row ``r`` says how many times each item
    was drawn in that resample (the rows of all chunks add up to ``resamples``). A
    resample's mean of any column vector ``x`` is then ``counts @ x / n``: one matrix
    product serves every metric and every run at once, which is what makes comparing
    two 5,000-instance reports with 10,000 resamples take well under a second.
    """
    rows = max(1, chunk_cells // max(n, 1))
    done = 0
    while done < resamples:
        m = min(rows, resamples - done)
        idx = rng.integers(0, n, size=(m, n))
        idx += np.arange(m)[:, None] * n  # one bincount for the whole chunk
        yield np.bincount(idx.ravel(), minlength=m * n).reshape(m, n).astype(np.float64)
        done += m


def bootstrap_means(
    values: np.ndarray, present: np.ndarray, *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> np.ndarray:
    """Bootstrap distributions of several means that share one set of resamples.

    Args:
        values: ``(n, k)``: ``k`` columns over the same ``n`` items (missing cells any
            finite number).
        present: ``(n, k)`` booleans: which cells hold a value. A resample's mean of a
            column is the mean over its present cells (a ratio estimator), so columns
            with missing values are resampled by item like the rest.
        resamples: Number of resamples.
        seed: Seed of the generator; the same seed draws the same item resamples.

    Returns:
        ``(resamples, k)`` resampled means; NaN where a resample drew no present cell.
    """
    present = np.asarray(present, dtype=bool)
    n, k = values.shape
    full = bool(present.all())
    # One matrix product per chunk: the value sums, and (when some cells are missing)
    # the counts of present cells, side by side.
    columns = np.where(present, values, 0.0).astype(np.float64)
    if not full:
        columns = np.hstack([columns, present.astype(np.float64)])
    out = np.empty((resamples, k))
    rng = np.random.default_rng(seed)
    start = 0
    for counts in resample_counts(n, resamples, rng):
        sums = counts @ columns
        stop = start + len(counts)
        if full:
            out[start:stop] = sums / n
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                out[start:stop] = sums[:, :k] / sums[:, k:]
        start = stop
    return out


def percentile_ci(draws: np.ndarray, confidence: float = 0.95) -> tuple[float, float] | None:
    """Percentile interval of a bootstrap distribution (NaN draws ignored)."""
    draws = draws[~np.isnan(draws)]
    if draws.size == 0:
        return None
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [alpha, 1.0 - alpha])
    return float(low), float(high)


def bootstrap_p_value(draws: np.ndarray, observed: float) -> float:
    """Two-sided bootstrap p-value of "the true mean difference is 0".

    The bootstrap distribution is shifted to the null (centred on 0), and ``p`` is the
    share of its draws at least as far from 0 as the observed difference, counting the
    observed sample itself once (``(1 + hits) / (1 + resamples)``), so that ``p`` is
    never exactly 0 and equals 1 when the observed difference is 0.
    """
    draws = draws[~np.isnan(draws)]
    if draws.size == 0:
        return 1.0
    # A tolerance so that float noise in identical differences does not count as a miss.
    tol = 1e-12 * max(1.0, abs(observed))
    hits = int(np.count_nonzero(np.abs(draws - observed) >= abs(observed) - tol))
    return min(1.0, (1 + hits) / (1 + draws.size))


def paired_bootstrap(
    a: Sequence[float | None],
    b: Sequence[float | None],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float | None, tuple[float, float] | None, float | None]:
    """Paired bootstrap test of the mean difference ``b - a``.

    Items are resampled with replacement as pairs, so differences in item difficulty,
    which both systems share, cancel out: this is far more sensitive than comparing two
    unpaired confidence intervals.

    Args:
        a: Scores of system A per item; ``None`` marks a missing value and drops the pair.
        b: Scores of system B on the same items, in the same order.
        resamples: Number of bootstrap resamples.
        seed: Seed of the resampling generator.
        confidence: Coverage of the interval.

    Returns:
        ``(mean_diff, (low, high), p_value)`` with ``mean_diff = mean(b - a)`` over the
        complete pairs and a two-sided ``p_value`` (see :func:`bootstrap_p_value`);
        ``(None, None, None)`` when no pair is complete.

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    x, y = _paired(a, b)
    if x.size == 0:
        return None, None, None
    d = y - x
    observed = float(d.mean())
    draws = bootstrap_means(
        d[:, None], np.ones((d.size, 1), dtype=bool), resamples=resamples, seed=seed
    )[:, 0]
    return observed, percentile_ci(draws, confidence), bootstrap_p_value(draws, observed)
