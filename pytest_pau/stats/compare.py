"""Comparing runs: paired statistics between JSON reports (``pau compare``, ``--pau-baseline``).

Runs are compared on the instances their reports share, matched by id. For each metric
(judge score, code match, pass) the comparison holds each run's mean with its 95%
interval (:func:`~pytest_pau.stats.inference.mean_interval`: the tilted score interval,
Wilson's for pass), a ``Max`` row (per instance the best value over all runs: an upper
bound on what the compared models reach together), and for each pair of runs the paired
mean difference with the two-sided test of equal means and its interval (the inversion of
that test, :func:`~pytest_pau.stats.compare_tests.means_test`), the exact sign-flip p of
"the runs are interchangeable" (:func:`~pytest_pau.stats.signflip.sign_flip_test`), both
deterministic (no seed),
the Spearman rank correlation, and, for the pairs against the baseline, the
non-inferiority verdict at each regression margin
(:func:`~pytest_pau.stats.inference.non_inferiority`). The same functions serve the
summary, the in-run ``--pau-baseline`` gate and ``pau compare``.

Conventions:
    * An item that errored (infrastructure) or was skipped has no value for any metric in
      that run; a judge score that could not be parsed is missing for the judge metric.
      Runs of ``--pau-protocol=paper`` count as the paper does instead
      (:func:`~pytest_pau.stats.metrics.counted`); runs of different protocols are refused.
    * A run's mean uses its present values on the shared instances; a pair's difference
      uses the instances where both runs have a value.
    * Pair ``B - A`` is the later run minus the earlier one: positive means B is better.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Mapping, Sequence

import numpy as np

from pytest_pau.errors import ConfigError
from pytest_pau.models import AnyReport, Scored
from pytest_pau.stats import missing
from pytest_pau.stats.compare_models import (
    Comparison,
    Flips,
    MetricComparison,
    PairStat,
    Regression,
    RunEntry,
    RunStat,
)
from pytest_pau.stats.compare_tests import means_test
from pytest_pau.stats.describe import spearman
from pytest_pau.stats.inference import mean_interval
from pytest_pau.stats.metrics import (
    BOUNDS,
    CHECKED_FIELDS,
    METRICS,
    parse_fail_if_worse,
    parse_margins,
    parse_metric,
    value_getter,
)
from pytest_pau.stats.selection import paired_verdict
from pytest_pau.stats.signflip import sign_flip_test

__all__ = [
    "BOUNDS",
    "METRICS",
    "Comparison",
    "Flips",
    "MetricComparison",
    "PairStat",
    "Regression",
    "RunEntry",
    "RunStat",
    "compare_reports",
    "mismatches",
    "parse_fail_if_worse",
    "parse_margins",
    "parse_metric",
    "regression_message",
    "regressions",
    "same_protocol",
]


def _labels(count: int) -> list[str]:
    letters = string.ascii_uppercase
    return [letters[i] if i < 26 else f"R{i + 1}" for i in range(count)]


def same_protocol(reports: Sequence[AnyReport], names: Sequence[str]) -> str:
    """The one ``--pau-protocol`` of ``reports``; refuses runs of different protocols.

    The protocols count missing scores differently (a missing judge rating is no value, or
    1), so their means and pairs are not comparable.

    Raises:
        ConfigError: naming each run (by ``names``) and its protocol.
    """
    protocols = [r.run.protocol for r in reports]
    if len(set(protocols)) > 1:
        which = ", ".join(f"{n} {p!r}" for n, p in zip(names, protocols, strict=True))
        raise ConfigError(
            f"the runs were scored under different protocols ({which}): "
            "--pau-protocol=paper counts a missing judge rating as 1 and a missing code match "
            "as 0, pytest-pau leaves them out, so their numbers are not comparable; "
            "re-run one of them with the other's --pau-protocol"
        )
    return protocols[0] if protocols else "pytest-pau"


def mismatches(reports: Sequence[AnyReport], labels: Sequence[str]) -> dict[str, str]:
    """``{field: text}`` for each checked setting the runs differ in (see CHECKED_FIELDS)."""
    out: dict[str, str] = {}
    for field, name in CHECKED_FIELDS.items():
        values = [getattr(r.run, field) for r in reports]
        if len(set(values)) > 1:
            which = ", ".join(f"{lab} {v!r}" for lab, v in zip(labels, values, strict=True))
            out[field] = f"runs differ in {name} ({which})"
    for key in ("judge_threshold", "match_threshold"):
        values = [r.run.thresholds.get(key) for r in reports]
        if len(set(values)) > 1:
            which = ", ".join(f"{lab} {v!r}" for lab, v in zip(labels, values, strict=True))
            out[key] = f"runs differ in {key} ({which}): pass rates use different bars"
    return out


def other_tasks(a: AnyReport, b: AnyReport) -> tuple[list[str], int]:
    """The ids both runs list whose task digests differ (another gold code, description or
    examples under the same id), and how many ids both digests cover (0: a report has no
    digests, nothing checked)."""
    da, db = a.run.instance_digests, b.run.instance_digests
    common = [i for i in da if i in db]
    return [i for i in common if da[i] != db[i]], len(common)


def other_tasks_text(differ: Sequence[str], common: int, listed: int = 5) -> str:
    """``6 of the 6 instances both runs list are different tasks (...: a, b and 4 more)``."""
    more = f" and {len(differ) - listed} more" if len(differ) > listed else ""
    return (
        f"{len(differ)} of the {common} instances both runs list are different tasks (another "
        f"gold code, description or examples under the same id: "
        f"{', '.join(differ[:listed])}{more})"
    )


def _mismatch_warnings(reports: Sequence[AnyReport], labels: Sequence[str]) -> list[str]:
    return [
        text if "threshold" in field else f"{text}: differences may come from that, not the model"
        for field, text in mismatches(reports, labels).items()
    ]


def _shared_ids(reports: Sequence[AnyReport]) -> list[str]:
    others = [{r.id for r in rep.instances} for rep in reports[1:]]
    seen: set[str] = set()
    ids = []
    for r in reports[0].instances:
        if r.id not in seen and all(r.id in o for o in others):
            seen.add(r.id)
            ids.append(r.id)
    return ids


def _interval(
    values: Sequence[float | None], key: str, confidence: float
) -> tuple[float, float] | None:
    ci = mean_interval(values, bounds=BOUNDS[key], confidence=confidence)
    return None if ci is None else (ci.low, ci.high)


def _mean(values: Sequence[float | None]) -> tuple[float | None, int]:
    present = [v for v in values if v is not None]
    return (float(np.mean(present)) if present else None), len(present)


def _side_text(label: str, values: Sequence[float | None], rows: Sequence[Scored]) -> str | None:
    causes = missing.count(zip(rows, values, strict=True))
    found = missing.describe(causes, len(values))
    return f"{label}: {', '.join(found)}" if found else None


def _regression(
    key: str,
    margin: float,
    first: tuple[str, Sequence[float | None], Sequence[Scored]],
    later: tuple[str, Sequence[float | None], Sequence[Scored]],
    confidence: float,
) -> Regression:
    """Non-inferiority of ``later`` against ``first`` over every shared instance: one
    either run has no score for is unknown at both ends of its scale, whichever run
    lacks it (:func:`~pytest_pau.stats.selection.paired_verdict`), so a pass never rests
    on the instances one run dropped."""
    (a, base, base_rows), (b, new, new_rows) = first, later
    found = paired_verdict(new, base, margin=margin, bounds=BOUNDS[key], confidence=confidence)
    why = [t for t in (_side_text(a, base, base_rows), _side_text(b, new, new_rows)) if t]
    return Regression(
        a=a,
        b=b,
        margin=margin,
        n=found.n,
        population=len(base),
        scored_a=found.scored_baseline,
        scored_b=found.scored_here,
        mean_diff=found.mean_diff,
        lower_bound=found.low,
        upper_bound=found.high,
        best_bound=found.best,
        p_value=found.p_value,
        confidence=confidence,
        status=found.status,
        passed=found.status == "passed",
        detail="; ".join(why) or None,
    )


def compare_reports(
    reports: Sequence[AnyReport],
    *,
    sources: Sequence[str] | None = None,
    margins: Mapping[str, float] | None = None,
    confidence: float = 0.95,
    exact: bool = False,
) -> Comparison:
    """Compare two or more runs on the instances their reports share.

    Args:
        reports: The runs, oldest (the baseline) first; labelled ``A``, ``B``...
        sources: Where each report came from (paths), shown next to its label.
        margins: ``{metric: allowed regression}``: each later run's non-inferiority
            against ``A`` on those metrics (``MetricComparison.regressions``).
        confidence: Of every interval, and ``1 - alpha`` of the tests.
        exact: Ignored: the test of means is always the exact betting test (any
            distribution, any n); kept for older callers.

    Returns:
        The :class:`Comparison`; see the module docstring for the conventions.

    Raises:
        ConfigError: fewer than two reports, or no instance id in common.
    """
    if len(reports) < 2:
        raise ConfigError(f"pau compare needs at least two reports, got {len(reports)}")
    labels = _labels(len(reports))
    sources = list(sources) if sources is not None else [""] * len(reports)
    protocol = same_protocol(
        reports,
        [f"{lab} ({src})" if src else lab for lab, src in zip(labels, sources, strict=True)],
    )
    for lab, rep, src in zip(labels[1:], reports[1:], sources[1:], strict=True):
        differ, common = other_tasks(reports[0], rep)
        if differ:
            raise ConfigError(
                f"{labels[0]} and {lab} ({src or rep.run.model}) are not runs of the same "
                f"tasks: {other_tasks_text(differ, common)}; compare runs of one version of "
                "the dataset"
            )
    ids = _shared_ids(reports)
    if not ids:
        raise ConfigError(
            "the reports share no instance id; compare runs of the same dataset "
            f"(datasets: {', '.join(repr(r.run.dataset) for r in reports)})"
        )
    shared = set(ids)
    warnings = _mismatch_warnings(reports, labels)
    only: list[list[str]] = []
    for lab, rep, src in zip(labels, reports, sources, strict=True):
        extra = list(dict.fromkeys(r.id for r in rep.instances if r.id not in shared))
        only.append(extra)
        if extra:
            warnings.append(
                f"{lab} ({src or rep.run.model}) has {len(extra)} instances the other runs "
                "lack; they are left out of the comparison"
            )
    # Last result wins if a report lists an id twice (e.g. a re-run appended).
    by_id = [{r.id: r for r in rep.instances} for rep in reports]
    aligned = [[m[i] for i in ids] for m in by_id]
    pairs = list(itertools.combinations(range(len(reports)), 2))
    margins = dict(margins or {})

    metrics = []
    for key, (name, _getter) in METRICS.items():
        getter = value_getter(key, protocol)
        columns = [[getter(r) for r in run] for run in aligned]
        best = [
            max(present) if (present := [v for v in row if v is not None]) else None
            for row in zip(*columns, strict=True)
        ]
        runs = []
        for label, col in zip(labels, columns, strict=True):
            m, n = _mean(col)
            runs.append(RunStat(label=label, mean=m, ci=_interval(col, key, confidence), n=n))
        m, n = _mean(best)
        max_stat = RunStat(label="Max", mean=m, ci=_interval(best, key, confidence), n=n)
        pair_stats = []
        for i, j in pairs:
            both = [
                (x, y)
                for x, y in zip(columns[i], columns[j], strict=True)
                if x is not None and y is not None
            ]
            d = np.array([y - x for x, y in both], dtype=float)
            span = BOUNDS[key][1] - BOUNDS[key][0]
            test = means_test(d, span=span, confidence=confidence)
            pair_stats.append(
                PairStat(
                    a=labels[i],
                    b=labels[j],
                    n=len(both),
                    mean_diff=float(d.mean()) if d.size else None,
                    ci=None if test is None else (test.low, test.high),
                    p_value=None if test is None else test.p_value,
                    differ=test is not None and test.differ,
                    test=None if test is None else test.method,
                    p_sign_flip=sign_flip_test(d, span=span).p_value if d.size else None,
                    spearman=spearman([x for x, _ in both], [y for _, y in both]),
                )
            )
        regressions = []
        if key in margins:
            for j in range(1, len(reports)):
                regressions.append(
                    _regression(
                        key,
                        margins[key],
                        (labels[0], columns[0], aligned[0]),
                        (labels[j], columns[j], aligned[j]),
                        confidence,
                    )
                )
        metrics.append(
            MetricComparison(
                metric=key,
                name=name,
                runs=runs,
                max=max_stat,
                pairs=pair_stats,
                regressions=regressions,
            )
        )

    flips = []
    for i, j in pairs:
        f = Flips(a=labels[i], b=labels[j])
        passes = value_getter("pass", protocol)
        for ra, rb in zip(aligned[i], aligned[j], strict=True):
            pa, pb = passes(ra), passes(rb)
            if pa is not None and pb is not None and pa != pb:
                (f.pass_to_fail if ra.passed else f.fail_to_pass).append(ra.id)
        flips.append(f)

    return Comparison(
        runs=[
            RunEntry(
                label=lab,
                model=rep.run.model,
                source=src,
                instances=len({r.id for r in rep.instances}),
                only_here=extra,
                run=rep.run.model_dump(exclude={"instance_digests"}),
            )
            for lab, rep, src, extra in zip(labels, reports, sources, only, strict=True)
        ],
        shared=len(ids),
        confidence=confidence,
        exact=True,
        metrics=metrics,
        flips=flips,
        warnings=warnings,
    )


def regression_message(block: MetricComparison, reg: Regression) -> str:
    """Why ``reg`` did not pass, for people."""
    pct = f"{reg.confidence:.0%}"
    counts = f"{reg.a} scored {reg.scored_a}, {reg.b} {reg.scored_b}, of {reg.population}"
    if reg.status == "not decided":
        return (
            f"{reg.b} vs {reg.a} on {block.name}: not decided: {reg.detail} ({counts}); "
            f"{pct} lower bound between {reg.lower_bound:+.3f} and {reg.best_bound:+.3f} "
            f"whatever the missing scores are, against -{reg.margin:g}"
        )
    if reg.mean_diff is None or reg.lower_bound is None:
        return (
            f"{reg.b} vs {reg.a} on {block.name}: no instance scored in both runs, so "
            f"'not worse by more than {reg.margin:g}' cannot be shown"
        )
    p = "" if reg.p_value is None else f" (p={reg.p_value:.4f})"
    missing_text = f"; {reg.detail}" if reg.detail else ""
    return (
        f"{reg.b} vs {reg.a} on {block.name}: {reg.mean_diff:+.3f} over {reg.n} paired "
        f"instances ({counts}{missing_text}), {pct} lower bound {reg.lower_bound:+.3f} is not "
        f"above -{reg.margin:g}{p}: not shown to be within the allowed regression"
    )


def regressions(comparison: Comparison, metric: str | None = None) -> list[str]:
    """The non-inferiority verdicts that failed: one message each (empty: all passed).

    A later run passes on a metric when its paired mean difference to the baseline ``A``
    has a one-sided lower confidence bound above ``-margin``
    (:func:`~pytest_pau.stats.inference.non_inferiority`): it is *shown* to be worse by
    less than the margin. Too few shared instances therefore fail: nothing was shown.
    """
    out: list[str] = []
    for block in comparison.metrics:
        if metric is not None and block.metric != parse_metric(metric):
            continue
        out.extend(regression_message(block, r) for r in block.regressions if not r.passed)
    return out
