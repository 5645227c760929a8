"""Drawing the release-gate part of the summary: level gates, the baseline, the early stop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_pau.report.fmt import num, pct, plural
from pytest_pau.stats.inference import MIN_N

if TYPE_CHECKING:
    from pytest_pau.models import BaselineSummary, EarlyStop, GateVerdict, Summary
    from pytest_pau.report.writer import Writer

#: Instance ids listed per line before "+N more".
LISTED = 5


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:LISTED])
    return shown + (f", +{len(ids) - LISTED} more" if len(ids) > LISTED else "")


def _statistic(g: GateVerdict, fmt: Callable[[float | None], str]) -> str:
    if g.statistic == "ci_low":
        return f"{g.detail or 'lower confidence bound'} {fmt(g.value)}"
    if g.statistic == "sequential":
        return f"{fmt(g.value)} ({g.detail})" if g.detail else fmt(g.value)
    return fmt(g.value)


def _level(writer: Writer, g: GateVerdict) -> None:
    fmt: Callable[[float | None], str] = pct if g.is_rate else num
    head = f"{g.label} >= {fmt(g.threshold)}: {_statistic(g, fmt)}"
    if g.passed:
        writer.write("  PASS ", green=True, bold=True)
        writer.line(f"{head}  ({g.option})")
        return
    if g.value is None and g.statistic == "ci_low":
        short = f"too few scored items for it (at least {MIN_N} are needed)"
    elif g.value is None or g.margin is None:
        short = g.detail or "no scored item"
    elif g.statistic == "sequential" and g.detail and g.detail.startswith("undecided"):
        short = "not shown to reach it"
    elif g.is_rate:
        short = (
            f"short by {100 * -g.margin:.1f} points" if g.margin < 0 else "not shown to reach it"
        )
    else:
        short = f"short by {num(-g.margin)}" if g.margin < 0 else "not shown to reach it"
    writer.write("  FAIL ", red=True, bold=True)
    writer.line(f"{head}, {short}  ({g.option})", red=True)


def _baseline(writer: Writer, b: BaselineSummary) -> None:
    level = f"{b.confidence:.0%}"
    writer.line(
        f"baseline {b.path} (model {b.model}): {plural(b.shared, 'instance')} in both runs",
        bold=True,
    )
    for r in b.regressions:

        def fmt(x: float | None) -> str:
            return num(x, "+.3f")

        if r.mean_diff is None:
            stat = r.detail or "no instance scored in both runs"
        elif r.method == "sequential":
            stat = (
                f"{fmt(r.mean_diff)} over {r.n} paired items, confidence sequence "
                f"[{fmt(r.low)}, {fmt(r.high)}] ({r.detail})"
            )
        else:
            differ = "" if r.p_difference is None else f"; differ p={r.p_difference:.3f}"
            stat = (
                f"{fmt(r.mean_diff)} over {r.n}, {level} lower bound {fmt(r.low)} "
                f"(p={num(r.p_value, '.3f')}{differ})"
            )
        needed = None if r.passed or not r.n else pairs_needed(r.metric, r.margin, b.confidence)
        if needed is not None and r.n < needed:
            stat += (
                f"; too few to decide: {plural(r.n, 'instance')} in both runs, and at {level} "
                f"even two runs that agree exactly need {needed}"
            )
        text = f"{r.label} not worse by more than {r.margin:g}: {stat}  (--pau-max-regression)"
        if r.passed:
            writer.write("  PASS ", green=True, bold=True)
            writer.line(text)
        else:
            writer.write("  FAIL ", red=True, bold=True)
            writer.line(text, red=True)
    if b.pass_to_fail or b.fail_to_pass:
        parts = []
        if b.pass_to_fail:
            parts.append(f"{len(b.pass_to_fail)} pass -> fail ({_ids(b.pass_to_fail)})")
        if b.fail_to_pass:
            parts.append(f"{len(b.fail_to_pass)} fail -> pass ({_ids(b.fail_to_pass)})")
        writer.line("  flipped: " + "; ".join(parts))
    if b.only_here:
        writer.line(f"  only in this run (not compared): {len(b.only_here)} ({_ids(b.only_here)})")
    if b.only_baseline:
        writer.line(
            f"  scored in the baseline, not here: {len(b.only_baseline)} ({_ids(b.only_baseline)})"
        )
    for w in b.warnings:
        writer.line(f"  note: {w}", yellow=True)


def early_stop_text(e: EarlyStop) -> str:
    """The early-stop line (the terminal's and the HTML's)."""
    if e.decided_after is None:
        return f"early stop: the verdicts needed every item ({e.population}); nothing was saved"
    cost = ""
    if e.full_cost_usd is not None and e.full_cost_usd > 0:
        cost = f"; spent ${e.cost_usd:.4f}, the full run would have cost ~${e.full_cost_usd:.4f}"
    return (
        f"early stop: every verdict known at {e.confidence:.0%} after {e.decided_after} of "
        f"{e.population} items; {plural(e.not_run, 'item')} not run{cost}"
    )


def _early(writer: Writer, e: EarlyStop) -> None:
    writer.line(early_stop_text(e), bold=e.decided_after is not None)


def render_gates(summary: Summary, writer: Writer) -> None:
    """The release gates' lines of the summary (nothing when no gate is set)."""
    if summary.gates:
        writer.line("release gates", bold=True)
        for g in summary.gates:
            _level(writer, g)
    if summary.baseline is not None:
        _baseline(writer, summary.baseline)
    if summary.early_stop is not None:
        _early(writer, summary.early_stop)


def failed_gate_names(summary: Summary) -> list[str]:
    """The failed gates as the options that set them (``--pau-min-pass-rate=0.7``,
    ``--pau-max-regression=judge:0.2``)."""
    failed = [f"{g.option}={g.threshold:g}" for g in summary.failed_gates]
    if summary.baseline is not None:
        failed += [
            f"--pau-max-regression={r.metric}:{r.margin:g}"
            for r in summary.baseline.regressions
            if not r.passed
        ]
    return failed


@lru_cache(maxsize=64)
def pairs_needed(metric: str, margin: float, confidence: float) -> int | None:
    """The fewest shared instances with which the baseline gate can pass at all: the
    paired test on two runs that agree exactly (every difference 0). None past 4,096."""
    from pytest_pau.models.metrics import METRICS
    from pytest_pau.stats.inference import non_inferiority

    if metric not in METRICS or margin <= 0:
        return None
    bounds = METRICS[metric][1]

    def passes(n: int) -> bool:
        same = [bounds[1]] * n
        found = non_inferiority(same, same, margin=margin, bounds=bounds, confidence=confidence)
        return found is not None and found.lower_bound > -margin

    high = 2
    while not passes(high):  # doubling, then halving: a few tests of small samples
        if high >= 4096:
            return None
        high *= 2
    low = high // 2 + 1 if high > 2 else 2
    while low < high:  # the bound narrows as n grows: the first n that passes
        mid = (low + high) // 2
        low, high = (low, mid) if passes(mid) else (mid + 1, high)
    return low


def gate_failure_line(summary: Summary) -> str | None:
    """The closing line of a run whose release gates failed (None when they passed)."""
    failed = failed_gate_names(summary)
    if not failed:
        return None
    names = ", ".join(failed)
    if not summary.counts.items:
        # Without this the run would exit 1 with nothing saying why.
        return (
            f"PAU release gate failed ({names}): no PAU item produced a result "
            "to measure (check -k/-m and --pau-limit): exit status 1"
        )
    return f"PAU release gate failed ({names}): exit status 1"
