"""``pau compare A.json B.json [C.json ...]``: paired statistics between runs.

Prints, per metric, each run's mean with its 95% interval, the ``Max`` row, and for each
pair (on the instances both runs scored) the paired mean difference, its interval and the
two-sided test of equal means whose inversion that interval is (a star when they differ),
the exact sign-flip p of "the runs are interchangeable" (no star: it is not a test of
means) and the Spearman rank correlation; then the instances that flipped between pass
and fail, those only one run has, and any warning about runs that are not comparable.
Every p-value is deterministic: the same reports always print the same numbers. ``--fail-if-worse METRIC:DELTA`` makes it a CI gate (non-inferiority):
exit status 1 unless every later run is shown, at ``--confidence``, to be worse than the
first by less than DELTA.

An instance both reports list that either run has no score for is unknown to the gate (at
both ends of its scale): the gate is then ``not decided`` unless it holds whatever that
score is. Reports of different tasks under the same ids, or that list an id twice or hold
a score that is not a number, are refused.

Exit status: 0 compared (and every gate passed), 1 a ``--fail-if-worse`` gate failed or
was not decided, 2 bad arguments or unreadable reports.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from pytest_pau.errors import ConfigError
from pytest_pau.report.compare_io import read_scores
from pytest_pau.settings.values import parse_confidence
from pytest_pau.stats.compare import (
    Comparison,
    Regression,
    compare_reports,
    parse_fail_if_worse,
    regressions,
)


def _gate(text: str) -> tuple[str, float]:
    try:
        return parse_fail_if_worse(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau compare``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "compare",
        help="Compare runs: paired statistics between JSON reports.",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument(
        "reports", nargs="+", metavar="REPORT", help="JSON reports (--pau-report), baseline first."
    )
    p.add_argument(
        "--fail-if-worse",
        action="append",
        type=_gate,
        default=[],
        metavar="METRIC:DELTA",
        help="Exit 1 unless every later run is shown (paired non-inferiority test at "
        "--confidence) to be worse than the first by less than DELTA; METRIC is judge, match "
        "or pass; repeatable. Default: no gate.",
    )
    p.add_argument(
        "--confidence",
        type=parse_confidence,
        default=0.95,
        help="Confidence of the intervals and the --fail-if-worse test (default 0.95).",
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help="Ignored: the test of means is always the exact betting test (valid for any "
        "scores and any number of instances); kept so that older scripts still run.",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="Ignored: every p-value is exact or deterministic (no randomisation); kept so "
        "that older scripts still run.",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=None,
        help="Ignored: the sign-flip test is exact at every size; kept so that older scripts "
        "still run.",
    )
    p.add_argument(
        "--json",
        type=Path,
        metavar="PATH",
        help="Also write the comparison as JSON to PATH (atomically; never over a REPORT; "
        "checked before any report is read).",
    )
    p.add_argument(
        "--max-flips",
        type=int,
        default=20,
        metavar="N",
        help="Instance ids listed per flip direction (default 20).",
    )
    return p


def _num(value: float | None, fmt: str = ".3f") -> str:
    return "-" if value is None else format(value, fmt)


def _ci(ci: tuple[float, float] | None, fmt: str = ".3f") -> str:
    return "" if ci is None else f"[{format(ci[0], fmt)}, {format(ci[1], fmt)}]"


def _p(p: float | None, star: bool = False) -> str:
    if p is None:
        return "-"
    text = "<0.0001" if p < 0.0001 else f"{p:.4f}"
    return text + (" *" if star else "")


def _ids(ids: list[str], limit: int) -> str:
    more = f" (+{len(ids) - limit} more)" if len(ids) > limit else ""
    return ", ".join(ids[:limit]) + more


def render_comparison(comp: Comparison, *, max_flips: int = 20) -> str:
    """The comparison as the text ``pau compare`` prints."""
    alpha = round(1 - comp.confidence, 12)
    pct = f"{comp.confidence:.0%}"
    test = "exact betting"
    lines = [
        f"pau compare: {len(comp.runs)} runs, {comp.shared} shared instances "
        f"(test of means: {test}, two-sided; no randomisation)"
    ]
    for run in comp.runs:
        src = f"  {run.source}" if run.source else ""
        lines.append(f"  {run.label}  {run.model}  ({run.instances} instances){src}")
    for block in comp.metrics:
        # The pass rate in percent, as the run's summary shows it; differences in points.
        level, change = (".1%", "+.1%") if block.metric == "pass" else (".3f", "+.3f")
        lines.append("")
        lines.append(f"{block.name:<14} {'mean':>8}  {pct + ' CI':<18} {'n':>6}")
        for stat in [*block.runs, block.max]:
            lines.append(
                f"  {stat.label:<12} {_num(stat.mean, level):>8}  {_ci(stat.ci, level):<18} "
                f"{stat.n:>6}"
            )
        for pair in block.pairs:
            diff = _num(pair.mean_diff, change)
            higher = ""
            if pair.differ and pair.mean_diff is not None:
                higher = f" ({pair.b if pair.mean_diff > 0 else pair.a} higher)"
            lines.append(
                f"  {pair.b + ' - ' + pair.a:<12} {diff:>8}  {_ci(pair.ci, change):<18} {pair.n:>6}"
                f"  p(means)={_p(pair.p_value, pair.differ)}{higher}"
                f"  sign-flip p={_p(pair.p_sign_flip)} (are the runs interchangeable?)"
                f"  spearman {_num(pair.spearman)}"
            )
        for reg in block.regressions:
            lines.append(f"  {regression_text(reg, pct)}")
    lines.append("")
    lines.append(
        f"* the means differ at {alpha:g}: the {pct} CI of the difference excludes 0 (it is the "
        f"{test} test of equal means, inverted); sign-flip p tests whether the runs are "
        "interchangeable, not their means (no star). Max: per instance the best value over "
        "the runs (an upper bound)"
    )
    for f in comp.flips:
        lines.append("")
        lines.append(
            f"flips {f.a} -> {f.b}: {len(f.pass_to_fail)} pass -> fail, {len(f.fail_to_pass)} fail -> pass"
        )
        for name, ids in (("pass -> fail", f.pass_to_fail), ("fail -> pass", f.fail_to_pass)):
            if ids:
                lines.append(f"  {name}: {_ids(ids, max_flips)}")
    for run in comp.runs:
        if run.only_here:
            lines.append(f"only in {run.label}: {_ids(run.only_here, max_flips)}")
    if comp.warnings:
        lines.append("")
        lines.extend(f"warning: {w}" for w in comp.warnings)
    return "\n".join(lines)


def regression_text(reg: Regression, pct: str) -> str:
    """One ``--fail-if-worse`` verdict: ``B vs A not worse by 0.2: not decided (...)``."""
    counts = f"{reg.a} scored {reg.scored_a}, {reg.b} {reg.scored_b}, of {reg.population}"
    if reg.population == 0:  # a comparison written before both sides were counted
        counts = f"n={reg.n}"
    word = {"passed": "passed", "failed": "FAILED", "not decided": "NOT DECIDED"}[reg.status]
    if reg.best_bound is not None:
        bound = (
            f"{pct} lower bound between {_num(reg.lower_bound, '+.3f')} and "
            f"{_num(reg.best_bound, '+.3f')}, {counts}; {reg.detail}"
        )
    else:
        bound = f"{pct} lower bound {_num(reg.lower_bound, '+.3f')}, p={_p(reg.p_value)}, {counts}"
    return f"{reg.b} vs {reg.a} not worse by {reg.margin:g}: {word} ({bound})"


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``pau compare``; returns the exit status."""
    out = out or sys.stdout
    if len(args.reports) < 2:
        raise ConfigError(
            f"pau compare needs at least two reports, got {len(args.reports)}: {args.reports!r}"
        )
    margins: dict[str, float] = {}
    for metric, delta in args.fail_if_worse:
        if metric in margins and margins[metric] != delta:
            raise ConfigError(
                f"--fail-if-worse names {metric!r} twice ({margins[metric]:g} and {delta:g})"
            )
        margins[metric] = delta
    if args.json is not None:
        # The one guard over outputs, before any report is read: --json is no report
        # compared, no folder, FIFO or device, and its folder takes a file.
        from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg

        check_outputs(
            [output_arg("--json", args.json)],
            [output_arg("report", p, what="a report compared") for p in args.reports],
            checked=WRITE_CHECKED,
        )
    reports = [read_scores(p) for p in args.reports]
    comp = compare_reports(
        reports,
        sources=list(args.reports),
        margins=margins,
        confidence=args.confidence,
        exact=args.exact,
    )
    print(render_comparison(comp, max_flips=args.max_flips), file=out)
    if args.json is not None:
        from pytest_pau.paths import write_text_atomic

        try:
            write_text_atomic(args.json, comp.model_dump_json(indent=1))
        except OSError as exc:
            raise ConfigError(
                f"--json={str(args.json)!r}: could not write it ({exc.strerror or exc}); the "
                "file there, if any, is left as it was"
            ) from None
        print(f"comparison written to {args.json}", file=out)
    failed = []
    for metric, delta in margins.items():
        found = regressions(comp, metric)
        block = comp.metric(metric)
        undecided = any(r.status == "not decided" for r in block.regressions)
        word = (
            "FAILED"
            if any(r.status == "failed" for r in block.regressions)
            else ("not decided" if undecided else "passed")
        )
        print(f"gate --fail-if-worse {metric}:{delta:g}: {word}", file=out)
        failed.extend(found)
    for msg in failed:
        print(f"regression: {msg}", file=out)
    return 1 if failed else 0
