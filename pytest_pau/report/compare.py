"""Comparing runs: paired statistics between JSON reports (``pau compare``).

Runs are compared on the instances their reports share, matched by id. For each metric
(judge score, code match, pass) the comparison holds each run's mean with its 95%
bootstrap interval, a ``Max`` row (per instance the best value over all runs: an upper
bound on what the compared models reach together), and for each pair of runs the paired
bootstrap mean difference, its interval, a two-sided p-value and the Spearman rank
correlation across instances. All intervals of one comparison come from one shared set
of seeded resamples (:func:`pytest_pau.report.stats.bootstrap_means`), so a comparison is
reproducible and two 5,000-instance reports compare in well under a second.

Conventions:
    * An item that errored (infrastructure) or was skipped has no value for any metric in
      that run; a judge score that could not be parsed is missing for the judge metric.
    * A run's mean uses its present values on the shared instances; a pair's difference
      uses the instances where both runs have a value.
    * Pair ``B - A`` is the later run minus the earlier one: positive means B is better.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Sequence

import numpy as np
from pydantic import BaseModel, Field

from pytest_pau.errors import ConfigError
from pytest_pau.report.compare_io import AnyReport, Scored
from pytest_pau.report.stats import (
    DEFAULT_RESAMPLES,
    bootstrap_means,
    bootstrap_p_value,
    percentile_ci,
    spearman,
)

Getter = Callable[[Scored], "float | None"]


def _scored(r: Scored) -> bool:
    return r.error is None and r.skipped is None


#: metric key -> (display name, value getter). Errors and skips are missing values.
METRICS: dict[str, tuple[str, Getter]] = {
    "judge": ("judge score", lambda r: r.judge_score if _scored(r) else None),
    "match": ("code match", lambda r: r.code_match if _scored(r) else None),
    "pass": ("pass rate", lambda r: float(r.passed) if _scored(r) else None),
}
#: other spellings accepted by ``--fail-if-worse``.
METRIC_ALIASES = {
    "judge_score": "judge",
    "code_match": "match",
    "pass_rate": "pass",
    "passed": "pass",
}
SIGNIFICANCE = 0.05
#: RunInfo fields that make scores incomparable when they differ, with their names.
CHECKED_FIELDS = {
    "dataset": "dataset",
    "split": "split",
    "mode": "mode",
    "prompts_version": "prompts version",
    "judge_model": "judge model",
    "coder_model": "coder model",
}


class RunStat(BaseModel):
    """One run's (or the Max row's) mean of a metric on the shared instances."""

    label: str
    """``A``, ``B``... in the order the reports were given, or ``Max``."""
    mean: float | None
    ci: tuple[float, float] | None
    """95% percentile bootstrap interval of the mean."""
    n: int
    """Shared instances with a value."""


class PairStat(BaseModel):
    """Paired statistics of ``b - a`` for one metric."""

    a: str
    b: str
    n: int
    """Instances where both runs have a value."""
    mean_diff: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    """Two-sided paired bootstrap p-value of "no difference"."""
    spearman: float | None
    """Rank correlation of the two runs across instances; None when undefined."""


class MetricComparison(BaseModel):
    """Every statistic of one metric."""

    metric: str
    """``judge``, ``match`` or ``pass``."""
    name: str
    runs: list[RunStat]
    max: RunStat
    pairs: list[PairStat]


class Flips(BaseModel):
    """Instances whose verdict changed between two runs (both scored)."""

    a: str
    b: str
    pass_to_fail: list[str] = Field(default_factory=list)
    fail_to_pass: list[str] = Field(default_factory=list)


class RunEntry(BaseModel):
    """One compared report."""

    label: str
    model: str
    source: str = ""
    """Where the report came from (its path), when known."""
    instances: int
    run: dict[str, object] = Field(default_factory=dict)


class Comparison(BaseModel):
    """The result of :func:`compare_reports`; ``model_dump_json`` gives ``pau compare --json``."""

    runs: list[RunEntry]
    shared: int
    """Instances present in every report."""
    resamples: int
    seed: int
    metrics: list[MetricComparison]
    flips: list[Flips]
    warnings: list[str] = Field(default_factory=list)

    def metric(self, key: str) -> MetricComparison:
        """The block of metric ``key`` (an alias such as ``code_match`` works too)."""
        key = parse_metric(key)
        return next(m for m in self.metrics if m.metric == key)


def parse_metric(text: str) -> str:
    """The canonical metric key for ``text``.

    Raises:
        ConfigError: ``text`` names no metric.
    """
    key = METRIC_ALIASES.get(text.strip().lower(), text.strip().lower())
    if key not in METRICS:
        raise ConfigError(
            f"unknown metric {text!r}; expected one of {', '.join(METRICS)} "
            f"(or {', '.join(METRIC_ALIASES)})"
        )
    return key


def parse_fail_if_worse(text: str) -> tuple[str, float]:
    """Parse ``--fail-if-worse METRIC:DELTA`` (``judge:0.1``, ``pass:0.02``).

    Raises:
        ConfigError: not ``METRIC:DELTA`` with a known metric and a number >= 0.
    """
    metric, sep, delta_text = text.partition(":")
    if not sep:
        raise ConfigError(f"--fail-if-worse expects METRIC:DELTA such as 'judge:0.1', got {text!r}")
    key = parse_metric(metric)
    try:
        delta = float(delta_text)
    except ValueError:
        raise ConfigError(
            f"--fail-if-worse {text!r}: DELTA must be a number such as 0.1, got {delta_text!r}"
        ) from None
    if not delta >= 0:
        raise ConfigError(f"--fail-if-worse {text!r}: DELTA must be >= 0, got {delta!r}")
    return key, delta


def _labels(count: int) -> list[str]:
    letters = string.ascii_uppercase
    return [letters[i] if i < 26 else f"R{i + 1}" for i in range(count)]


def _mismatch_warnings(reports: Sequence[AnyReport], labels: Sequence[str]) -> list[str]:
    warnings = []
    for field, name in CHECKED_FIELDS.items():
        values = [getattr(r.run, field) for r in reports]
        if len(set(values)) > 1:
            which = ", ".join(f"{lab} {v!r}" for lab, v in zip(labels, values, strict=True))
            warnings.append(
                f"runs differ in {name} ({which}): differences may come from that, not the model"
            )
    for key in ("judge_threshold", "match_threshold"):
        values = [r.run.thresholds.get(key) for r in reports]
        if len(set(values)) > 1:
            which = ", ".join(f"{lab} {v!r}" for lab, v in zip(labels, values, strict=True))
            warnings.append(f"runs differ in {key} ({which}): pass rates use different bars")
    return warnings


def _shared_ids(reports: Sequence[AnyReport]) -> list[str]:
    others = [{r.id for r in rep.instances} for rep in reports[1:]]
    seen: set[str] = set()
    ids = []
    for r in reports[0].instances:
        if r.id not in seen and all(r.id in o for o in others):
            seen.add(r.id)
            ids.append(r.id)
    return ids


def compare_reports(
    reports: Sequence[AnyReport],
    *,
    sources: Sequence[str] | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> Comparison:
    """Compare two or more runs on the instances their reports share.

    Args:
        reports: The runs, oldest (the baseline) first; labelled ``A``, ``B``...
        sources: Where each report came from (paths), shown next to its label.
        resamples: Bootstrap resamples shared by every interval and test.
        seed: Seed of the resampling.

    Returns:
        The :class:`Comparison`; see the module docstring for the conventions.

    Raises:
        ConfigError: fewer than two reports, or no instance id in common.
    """
    if len(reports) < 2:
        raise ConfigError(f"pau compare needs at least two reports, got {len(reports)}")
    labels = _labels(len(reports))
    sources = list(sources) if sources is not None else [""] * len(reports)
    ids = _shared_ids(reports)
    if not ids:
        raise ConfigError(
            "the reports share no instance id; compare runs of the same dataset "
            f"(datasets: {', '.join(repr(r.run.dataset) for r in reports)})"
        )
    warnings = _mismatch_warnings(reports, labels)
    for lab, rep, src in zip(labels, reports, sources, strict=True):
        extra = len({r.id for r in rep.instances}) - len(ids)
        if extra:
            warnings.append(
                f"{lab} ({src or rep.run.model}) has {extra} instances the other runs lack; "
                "they are left out of the comparison"
            )
    # Last result wins if a report lists an id twice (e.g. a re-run appended).
    by_id = [{r.id: r for r in rep.instances} for rep in reports]
    aligned = [[m[i] for i in ids] for m in by_id]
    pairs = list(itertools.combinations(range(len(reports)), 2))

    # Build every column (runs, Max, pair differences; for every metric) and resample
    # them together: one pass over shared resamples serves the whole comparison.
    columns: list[np.ndarray] = []
    present: list[np.ndarray] = []
    layout: list[tuple[str, list[int], int, list[int]]] = []
    for key, (_, getter) in METRICS.items():
        vals = np.array(
            [[np.nan if (v := getter(r)) is None else v for r in run] for run in aligned],
            dtype=float,
        ).T  # (n, runs)
        have = ~np.isnan(vals)
        run_cols = []
        for j in range(len(reports)):
            run_cols.append(len(columns))
            columns.append(vals[:, j])
            present.append(have[:, j])
        max_col = len(columns)
        any_have = have.any(axis=1)
        columns.append(np.where(any_have, np.nanmax(np.where(have, vals, -np.inf), axis=1), 0.0))
        present.append(any_have)
        pair_cols = []
        for i, j in pairs:
            pair_cols.append(len(columns))
            columns.append(vals[:, j] - vals[:, i])
            present.append(have[:, i] & have[:, j])
        layout.append((key, run_cols, max_col, pair_cols))

    values = np.nan_to_num(np.column_stack(columns))
    mask = np.column_stack(present)
    draws = bootstrap_means(values, mask, resamples=resamples, seed=seed)

    def observed(col: int) -> tuple[float | None, int]:
        n = int(mask[:, col].sum())
        return (float(values[mask[:, col], col].mean()) if n else None), n

    def run_stat(label: str, col: int) -> RunStat:
        mean_value, n = observed(col)
        ci = percentile_ci(draws[:, col]) if n else None
        return RunStat(label=label, mean=mean_value, ci=ci, n=n)

    metrics = []
    for key, run_cols, max_col, pair_cols in layout:
        pair_stats = []
        for (i, j), col in zip(pairs, pair_cols, strict=True):
            diff, n = observed(col)
            a_col, b_col = run_cols[i], run_cols[j]
            both = mask[:, col]
            pair_stats.append(
                PairStat(
                    a=labels[i],
                    b=labels[j],
                    n=n,
                    mean_diff=diff,
                    ci=percentile_ci(draws[:, col]) if n else None,
                    p_value=bootstrap_p_value(draws[:, col], diff) if diff is not None else None,
                    spearman=spearman(values[both, a_col].tolist(), values[both, b_col].tolist()),
                )
            )
        metrics.append(
            MetricComparison(
                metric=key,
                name=METRICS[key][0],
                runs=[run_stat(labels[j], c) for j, c in enumerate(run_cols)],
                max=run_stat("Max", max_col),
                pairs=pair_stats,
            )
        )

    flips = []
    for i, j in pairs:
        f = Flips(a=labels[i], b=labels[j])
        for ra, rb in zip(aligned[i], aligned[j], strict=True):
            if _scored(ra) and _scored(rb) and ra.passed != rb.passed:
                (f.pass_to_fail if ra.passed else f.fail_to_pass).append(ra.id)
        flips.append(f)

    return Comparison(
        runs=[
            RunEntry(
                label=lab,
                model=rep.run.model,
                source=src,
                instances=len(rep.instances),
                run=rep.run.model_dump(),
            )
            for lab, rep, src in zip(labels, reports, sources, strict=True)
        ],
        shared=len(ids),
        resamples=resamples,
        seed=seed,
        metrics=metrics,
        flips=flips,
        warnings=warnings,
    )


def regressions(comparison: Comparison, metric: str, delta: float) -> list[str]:
    """The ``--fail-if-worse METRIC:DELTA`` verdict: one message per regressed run.

    A run regresses when, against the baseline ``A`` (the first report), its paired mean
    difference is below ``-delta`` and the paired bootstrap p-value is below 0.05. An
    empty list means the gate passes.
    """
    block = comparison.metric(metric)
    out = []
    for pair in block.pairs:
        if pair.a != comparison.runs[0].label or pair.mean_diff is None or pair.p_value is None:
            continue
        if pair.mean_diff < -delta and pair.p_value < SIGNIFICANCE:
            out.append(
                f"{pair.b} is worse than {pair.a} on {block.name}: {pair.mean_diff:+.3f} "
                f"(95% CI [{pair.ci[0]:+.3f}, {pair.ci[1]:+.3f}], p={pair.p_value:.4f}) "  # type: ignore[index]
                f"is below -{delta:g} with p < {SIGNIFICANCE}"
            )
    return out
