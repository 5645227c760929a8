"""The release gates in words: level gates, the baseline, the early stop and the closing
verdict line, drawn into the terminal summary and shared by the Markdown, HTML, GitHub and
JUnit outputs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_pau.report.fmt import num, pct, plural

if TYPE_CHECKING:
    from pytest_pau.models import (
        BaselineSummary,
        EarlyStop,
        GateVerdict,
        RegressionVerdict,
        Summary,
    )
    from pytest_pau.report.writer import Writer

#: Instance ids listed per line before "+N more".
LISTED = 5


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:LISTED])
    return shown + (f", +{len(ids) - LISTED} more" if len(ids) > LISTED else "")


def gate_statistic(g: GateVerdict) -> str:
    """The gate's figure as the terminal and the HTML report show it."""
    return _statistic(g, pct if g.is_rate else num)


def _statistic(g: GateVerdict, fmt: Callable[[float | None], str]) -> str:
    """The gate's figure, named for what it is (and how the unknown items bound it)."""
    level = f"{g.confidence:.0%}" if g.confidence is not None else ""
    if g.statistic == "sequential":
        return f"{fmt(g.value)} (mean over the selection, sequential: {g.detail})"
    if g.statistic == "anytime_bound":
        return f"{fmt(g.value)} ({level} anytime test of the model's mean: {g.detail})"
    name = f"{level} lower confidence bound (exact)" if g.statistic == "ci_low" else ""
    if g.best is None:
        return f"{name} {fmt(g.value)}".strip()
    seen = f"{fmt(g.observed)} over {plural(g.scored, 'scored item')}"
    if g.status == "passed":
        over = f"at least {fmt(g.value)}"
    elif g.status == "failed":
        over = f"at most {fmt(g.best)}"
    else:
        over = f"between {fmt(g.value)} and {fmt(g.best)}"
    what = f"{name} " if name else ""
    return f"{seen}; {what}{over} over all {g.population} selected ({g.detail})"


_HEADS = {
    "passed": ("PASS", "green"),
    "failed": ("FAIL", "red"),
    "not decided": ("NOT DECIDED", "red"),
}


def status_word(status: str) -> str:
    """The word written before a gate's line: ``PASS``, ``FAIL`` or ``NOT DECIDED``."""
    return _HEADS[status][0]


def _head(writer: Writer, status: str) -> bool:
    """Writes ``PASS``/``FAIL``/``NOT DECIDED``; True when the line is red."""
    word, colour = _HEADS.get(status, ("FAIL", "red"))
    writer.write(f"  {word} ", **{colour: True}, bold=True)
    return colour == "red"


def level_line(g: GateVerdict) -> str:
    """A level gate's line after its PASS/FAIL/NOT DECIDED (the terminal's, JUnit's,
    Markdown's)."""
    fmt: Callable[[float | None], str] = pct if g.is_rate else num
    head = f"{g.label} >= {fmt(g.threshold)}: {_statistic(g, fmt)}"
    if g.status == "failed" and g.best is None and g.margin is not None and g.margin < 0:
        short = (
            f", short by {100 * -g.margin:.1f} points"
            if g.is_rate
            else f", short by {num(-g.margin)}"
        )
    elif g.status == "failed" and g.value is None:
        short = f", {g.detail or 'no scored item'}"
    elif g.status == "failed" and g.statistic in ("ci_low", "anytime_bound"):
        short = ", not shown to reach it"
    else:
        short = ""
    return f"{head}{short}  ({g.option})"


def level_name(g: GateVerdict) -> str:
    """A level gate in a few words: ``pass rate >= 90.0%``."""
    return f"{g.label} >= {pct(g.threshold) if g.is_rate else num(g.threshold)}"


def _level(writer: Writer, g: GateVerdict) -> None:
    red = _head(writer, g.status)
    writer.line(level_line(g), red=red)


def regression_name(r: RegressionVerdict) -> str:
    """A regression gate in a few words: ``judge score not worse by more than 0.2``."""
    return f"{r.label} not worse by more than {r.margin:g}"


def regression_line(b: BaselineSummary, r: RegressionVerdict) -> str:
    """A regression gate's line after its PASS/FAIL/NOT DECIDED (the terminal's, JUnit's,
    Markdown's)."""
    level = f"{b.confidence:.0%}"

    def fmt(x: float | None) -> str:
        return num(x, "+.3f")

    # Which p decides: the non-inferiority test's. The sign-flip p beside it tests whether
    # the runs are interchangeable; shown bare, a reader took the smaller one for the verdict.
    flip = (
        ""
        if r.p_difference is None
        else f"; sign-flip p={r.p_difference:.3f} (are the runs interchangeable?) decides nothing"
    )
    if r.mean_diff is None:
        stat = r.detail or "no instance scored in both runs"
    elif r.method == "sequential":
        stat = (
            f"{fmt(r.mean_diff)} over {r.n} paired items ({level} anytime non-inferiority "
            f"test: {r.detail})"
        )
    else:
        counts = ""
        if r.scored_here or r.scored_baseline:  # reports before both sides were counted
            counts = (
                f" (this run scored {r.scored_here}, the baseline {r.scored_baseline}, "
                f"of {r.population})"
            )
        needed = None if r.passed or not r.n else pairs_needed(r.metric, r.margin, b.confidence)
        if r.best is not None:
            stat = (
                f"{fmt(r.mean_diff)} over {r.n} of {r.population} paired items{counts}; "
                f"{level} exact lower bound between {fmt(r.low)} and {fmt(r.best)} "
                f"({r.detail}){flip}"
            )
        else:
            if needed is not None and r.n < needed:
                # Says how many would do, which a bare "failed" leaves unsaid.
                few = (
                    f"; too few to decide: {plural(r.n, 'instance')} in both runs, and at "
                    f"{level} even two runs that agree exactly need {needed}"
                )
            else:
                few = f"; {r.detail}" if r.detail else ""
            stat = (
                f"{fmt(r.mean_diff)} over {r.n}{counts}, {level} lower bound {fmt(r.low)} "
                f"(p={num(r.p_value, '.3f')} decides{flip}){few}"
            )
    return f"{regression_name(r)}: {stat}  (--pau-max-regression)"


def baseline_head(b: BaselineSummary) -> str:
    """The baseline block's first line."""
    return f"baseline {b.path} (model {b.model}): {plural(b.shared, 'instance')} in both runs"


def _baseline(writer: Writer, b: BaselineSummary) -> None:
    writer.line(baseline_head(b), bold=True)
    for r in b.regressions:
        red = _head(writer, r.status)
        writer.line(regression_line(b, r), red=red)
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


def failed_gate_names(summary: Summary, status: str = "failed") -> list[str]:
    """The gates of ``status`` as options (``--pau-min-pass-rate=0.7``,
    ``--pau-max-regression=judge:0.2``)."""
    names = [f"{g.option}={g.threshold:g}" for g in summary.gates if g.status == status]
    if summary.baseline is not None:
        names += [
            f"--pau-max-regression={r.metric}:{r.margin:g}"
            for r in summary.baseline.regressions
            if r.status == status
        ]
    return names


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


def verdict_line(summary: Summary) -> str | None:
    """The run's closing line, from ``summary.verdict`` (None without a verdict).

    The terminal prints it last; the HTML report shows it first; ``pau show`` prints it.
    """
    v = summary.verdict
    if v is None:
        return None
    end = f": exit status {v.exit_status}"
    if v.rule == "shard":
        # A shard decides no gate: its first reason says who does.
        if v.status == "failed":
            return f"PAU {v.reasons[0]}, but the run failed: {'; '.join(v.reasons[1:])}{end}"
        return f"PAU {v.reasons[0]}{end}"
    if v.rule == "pytest":
        if v.status == "not decided" and v.reasons:
            return f"PAU release verdict not decided ({v.reasons[0]}){end}"
        return f"PAU run {v.status} (no release gate set){end}"
    if v.status == "failed" and v.rule == "gates" and failed_gate_names(summary):
        names = ", ".join(failed_gate_names(summary))
        if not summary.counts.items:
            # Without this the run would exit 1 with nothing saying why.
            return (
                f"PAU release gate failed ({names}): no PAU item produced a result "
                f"to measure (check -k/-m and --pau-limit){end}"
            )
        return f"PAU release gate failed ({names}){end}"
    if v.status == "not decided":
        why = "; ".join(r for r in v.reasons if "not decided" in r) or "; ".join(v.reasons)
        return f"PAU release gates not decided ({why}){end}"
    if v.status == "failed":
        if v.rule == "items":
            items = plural(summary.counts.failed, "item")
            return f"PAU release gates passed, but --pau-exit=items and {items} failed{end}"
        return f"PAU release gates passed, but the run failed: {'; '.join(v.reasons[1:])}{end}"
    below = summary.counts.failed
    if not below:
        return f"PAU release gates passed{end}"
    return (
        f"PAU release gates passed{end} ({plural(below, 'item')} below their thresholds "
        "count in the gates, not as run failures; --pau-exit=items makes them fail it)"
    )


def gate_failure_line(summary: Summary) -> str | None:
    """The closing line when the verdict is not ``passed`` (None when it passed)."""
    if summary.verdict is None or summary.verdict.status == "passed":
        return None
    return verdict_line(summary)


def with_values(summary: Summary, reasons: Sequence[str]) -> list[str]:
    """The verdict's reasons, each gate's with its value and bound.

    A gate's reason names the gate and how it was decided (``--pau-min-pass-rate=0.9
    failed: exact: all 240 items seen``), not the figure that decided it; the gates' own
    lines (the terminal's) carry it. The reasons :func:`~pytest_pau.stats.verdict.
    gate_reasons` gives lead the list, one per gate that did not pass, in order.
    """
    from pytest_pau.stats.verdict import gate_reasons

    _, own = gate_reasons(summary)
    if not own or list(reasons[: len(own)]) != own:
        return list(reasons)
    lines = [f"{g.status}: {level_line(g)}" for g in summary.gates if g.status != "passed"]
    b = summary.baseline
    if b is not None:
        lines += [
            f"{r.status}: {regression_line(b, r)}" for r in b.regressions if r.status != "passed"
        ]
    if len(lines) != len(own):
        return list(reasons)
    return [f"{line}; {reason}" for line, reason in zip(lines, own, strict=True)] + list(
        reasons[len(own) :]
    )
