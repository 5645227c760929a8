"""Drawing the summary block: text and colour only, from a summary dict.

:func:`render` writes through any object with pytest's ``TerminalReporter`` methods
``write``, ``line`` and ``write_sep`` (so pytest decides about colours and width);
:class:`TextWriter` implements them over a string for ``pau show``, tests and logs.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_pau.report.fmt import num as _num
from pytest_pau.report.fmt import pct as _pct
from pytest_pau.report.fmt import plural
from pytest_pau.report.gate_lines import gate_failure_line, render_gates
from pytest_pau.report.render_provider import provider_lines
from pytest_pau.report.safe_text import safe_text
from pytest_pau.report.writer import Writer
from pytest_pau.stats.inference import MIN_N

__all__ = [
    "TextWriter",
    "Writer",
    "bar",
    "ci_text",
    "cost_lines",
    "gate_failure_line",
    "items_line",
    "render",
    "run_line",
]

if TYPE_CHECKING:
    from pytest_pau.models import GroupStats, RunInfo, Summary

BAR_WIDTH = 30
MAX_ERRORS = 3
"""Infrastructure errors listed by name in the summary; the rest are counted (``+K more``)."""
ERROR_CHARS = 500
"""How much of an item's error the summary shows (the report and ``pau show`` have all)."""
_PARTIALS = " ▏▎▍▌▋▊▉"


class _SafeWriter:
    """A :class:`Writer` that shows control characters as escapes (model and provider text)."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def write(self, content: str, **markup: bool) -> None:
        self.writer.write(safe_text(content), **markup)

    def line(self, msg: str = "", **markup: bool) -> None:
        self.writer.line(safe_text(msg), **markup)

    def write_sep(self, sep: str, title: str | None = None, **markup: bool) -> None:
        self.writer.write_sep(sep, None if title is None else safe_text(title), **markup)


class TextWriter:
    """A :class:`Writer` into a string; markup is dropped."""

    def __init__(self, width: int = 88) -> None:
        self.width = width
        self.parts: list[str] = []

    def write(self, content: str, **markup: bool) -> None:
        self.parts.append(content)

    def line(self, msg: str = "", **markup: bool) -> None:
        self.parts.append(msg + "\n")

    def write_sep(self, sep: str, title: str | None = None, **markup: bool) -> None:
        if title:
            side = max(1, (self.width - len(title) - 2) // (2 * len(sep)))
            self.parts.append(f"{sep * side} {title} {sep * side}\n")
        else:
            self.parts.append(sep * (self.width // len(sep)) + "\n")

    def getvalue(self) -> str:
        return "".join(self.parts)


def bar(fraction: float, width: int = BAR_WIDTH, *, unicode: bool = True) -> str:
    """A horizontal bar ``width`` cells wide at full scale (eighth-cell steps in unicode)."""
    fraction = min(1.0, max(0.0, fraction))
    if not unicode:
        return "#" * round(fraction * width)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (_PARTIALS[rest] if rest else "")


def ci_text(ci: Sequence[float] | None, n: int, fmt: str = ".2f", pct: bool = False) -> str:
    """``95% CI [low, high]``; below MIN_N values, why there is none (the terminal's words)."""
    if not ci:
        # Below MIN_N values no interval holds its coverage: say so instead of printing one.
        return f"(n={n}: too few for a 95% CI)" if 0 < n < MIN_N else ""
    if pct:
        return f"95% CI [{_pct(ci[0])}, {_pct(ci[1])}]"
    return f"95% CI [{format(ci[0], fmt)}, {format(ci[1], fmt)}]"


def _histogram(
    writer: Writer, hist: dict[str, int], order: Sequence[str], *, unicode: bool, label_w: int
) -> None:
    total = sum(hist.values())
    peak = max(hist.values(), default=0)
    for key in order:
        count = hist.get(key, 0)
        share = count / total if total else 0.0
        writer.write(f"  {key:>{label_w}} ")
        drawn = bar(count / peak if peak else 0.0, unicode=unicode)
        writer.write(drawn, cyan=True)
        writer.line(f"{' ' * (BAR_WIDTH - len(drawn))} {count:>5}  {_pct(share):>6}")


def ceiling_text(model: float | None, gold: float | None, n: int) -> str:
    """The gold control beside the model's code match (the terminal's and the HTML's line).

    The coder's score on the gold descriptions bounds what a description can get from this
    coder only where the model stays at or below it; above it, the coder missed on gold
    descriptions, and the line says so rather than call it the most the coder allows.
    """
    head = (
        f"code match {_num(model)} of the model beside {_num(gold)} of the coder on the gold "
        f"descriptions (gold control, n={n})"
    )
    if model is not None and gold is not None and model > gold:
        return (
            f"{head}: the model is above it, so this coder misses some gold descriptions; "
            "no ceiling"
        )
    return f"{head}: the most this coder gets from a perfect description"


def _table(writer: Writer, title: str, groups: dict[str, GroupStats], limit: int = 12) -> None:
    if not any(g.scored for g in groups.values()):
        return  # rows of n/a say nothing: no item of any group was scored
    name_w = max(12, *(len(k) for k in list(groups)[:limit]))
    writer.line(
        f"{title:<{name_w + 2}}{'items':>6} {'passed':>7} {'pass':>7} {'judge':>6} {'match':>6}",
        bold=True,
    )
    for i, (key, g) in enumerate(groups.items()):
        if i == limit:
            writer.line(f"  ... {len(groups) - limit} more in the JSON report")
            break
        writer.line(
            f"  {key:<{name_w}}{g.items:>6} {g.passed:>7} {_pct(g.pass_rate):>7} "
            f"{_num(g.judge_mean):>6} {_num(g.match_mean):>6}"
        )


def _error_lines(writer: Writer, item: str, error: str) -> None:
    """An item's error, wrapped: long enough to say why (cut at ERROR_CHARS)."""
    text = " ".join(error.split()) or "(no message)"
    if len(text) > ERROR_CHARS:
        text = text[: ERROR_CHARS - 3].rstrip() + "..."
    lines = textwrap.wrap(f"{item}: {text}", 96, subsequent_indent="    ") or [""]
    for line in lines:
        writer.line(f"  {line}")


def _scores(summary: Summary, writer: Writer, *, run: RunInfo | None, unicode: bool) -> None:
    """Pass rate, judge and code-match distributions, the group tables (scored items only)."""
    c = summary.counts
    writer.write("pass rate    ")
    rate = summary.pass_rate
    writer.write(
        f"{_pct(rate):>6}",
        bold=True,
        green=bool(rate and rate >= 0.5),
        red=bool(rate is not None and rate < 0.5),
    )
    if summary.protocol == "paper":
        within = f"({c.passed}/{c.counted} run, errors counted as the paper does)"
    else:
        within = f"({c.passed}/{c.scored} scored)"
    writer.line(f"  {ci_text(summary.pass_rate_ci, c.counted or c.scored, pct=True)}  {within}")

    j = summary.judge
    writer.line("")
    unparseable = f"  unparseable {j.unparseable}" if j.unparseable else ""
    writer.line(
        f"judge score  mean {_num(j.mean)}  {ci_text(j.ci, j.n)}  n={j.n}{unparseable}", bold=True
    )
    if j.n:
        _histogram(writer, j.histogram, ("5", "4", "3", "2", "1"), unicode=unicode, label_w=3)
    m = summary.code_match
    writer.line(f"code match   mean {_num(m.mean)}  {ci_text(m.ci, m.n)}  n={m.n}", bold=True)
    if m.n:
        order = tuple(reversed(list(m.histogram)))
        _histogram(writer, m.histogram, order, unicode=unicode, label_w=3)
    own = summary.self_code_match
    if own:
        # Items whose own code never ran (the model's call failed) are not in n: say so.
        missing = summary.counts.scored - own.n if summary.protocol != "paper" else 0
        writer.line(
            f"self coder   code match {_num(own.mean)} of the model's own code beside "
            f"{_num(m.mean)} of the fixed coder (--pau-coder=self, n={own.n})"
            + (
                f"; {plural(missing, 'item')} without: the model's call failed"
                if missing > 0
                else ""
            )
        )
    elif run is not None and run.coder == "self" and summary.counts.scored:
        # Every call of the model as coder failed (an HTTP 400 on each): not a silent gap.
        writer.line(
            "self coder   no code match: none of the model's own code ran (--pau-coder=self; "
            "every call failed: `pau show REPORT ITEM` says why)",
            yellow=True,
        )
    gold = summary.gold_code_match
    if gold:
        writer.line(f"ceiling      {ceiling_text(m.mean, gold.mean, gold.n)}")

    writer.line("")
    _table(writer, "by arity", {f"arity{k}": v for k, v in summary.by_arity.items()})
    if len(summary.by_source) > 1 or run is None:
        _table(writer, "by source", summary.by_source)
    else:
        _table(writer, "by source", summary.by_source, limit=1)


#: Flagged items listed by name in the summary block; the JSON report has them all.
FLAGGED_SHOWN = 10


def _flagged(writer: Writer, summary: Summary) -> None:
    """Items whose prediction addressed the grader: judge and code match side by side.

    The code match runs the coder's code on held-back inputs, which a note to the grader
    cannot move: when it agrees with the defended judge score, the defence decided.
    """
    items = summary.flagged
    if not items:
        return
    writer.line(
        f"addressed the grader {len(items)} (scored without that text; code match is "
        "harder to game)",
        yellow=True,
    )
    for f in items[:FLAGGED_SHOWN]:
        writer.line(
            f"  {f.id:<34} judge {_num(f.judge_raw, '.3g')} as written, "
            f"{_num(f.judge_defended, '.3g')} defended  code match {_num(f.code_match)}  "
            f"{'passed' if f.passed else 'failed'}"
        )
    if len(items) > FLAGGED_SHOWN:
        writer.line(f"  ... {len(items) - FLAGGED_SHOWN} more in the JSON report (summary.flagged)")


def run_line(run: RunInfo) -> str:
    """What produced the run: model, dataset, mode, judge, coder (the block's first line)."""
    return (
        f"model {run.model} on {run.dataset}/{run.split}: "
        f"{run.mode}, max {run.max_iterations} iterations, "
        f"seed {run.seed}; judge {run.judge_model}, "
        f"coder {run.coder_model}" + ("; protocol paper" if run.protocol == "paper" else "")
    )


def items_line(summary: Summary, run: RunInfo | None) -> str:
    """``items 5: 3 passed, 1 failed, 1 error (infrastructure)`` and what is missing."""
    c = summary.counts
    parts = [f"{c.passed} passed", f"{c.failed} failed"]
    if c.errors:
        parts.append(f"{c.errors} error{'s' if c.errors != 1 else ''} (infrastructure)")
    if c.skipped:
        parts.append(f"{c.skipped} skipped")
    head = f"items {c.items}: " + ", ".join(parts)
    if c.selected > c.items:
        if run and run.interrupted:
            head += f"  (of {c.selected} selected: run interrupted)"
        else:
            head += f"  (of {c.selected} selected; {c.selected - c.items} without a result)"
    return head


def cost_lines(summary: Summary) -> list[str]:
    """Requests made, cost and cache hits; tokens."""
    t = summary.tokens
    calls, hits = summary.model_calls, summary.cache_hits
    hit_share = f" ({_pct(hits / calls)} of answers)" if calls else ""
    reasoning = f" + {t.reasoning:,} reasoning" if t.reasoning else ""
    # Requests made and cache hits apart: "calls" alone would count free answers as paid.
    return [
        f"model requests {summary.requests:,} made, cost ${summary.cost_usd:.4f}; "
        f"cache hits {hits:,}{hit_share}, free",
        f"tokens {t.prompt:,} prompt + {t.completion:,} completion{reasoning} "
        "(of every answer, cached ones included)",
    ]


def render(
    summary: Summary,
    writer: Writer,
    *,
    run: RunInfo | None = None,
    notes: Sequence[str] = (),
    extra_lines: Sequence[str] = (),
    unicode: bool = True,
) -> None:
    """Write the PAU summary block.

    Args:
        summary: The run's :class:`~pytest_pau.models.Summary`.
        writer: Where to write (pytest's terminal reporter or a :class:`TextWriter`).
        run: The report's ``run`` block, for the header line (model, dataset...) and
            whether the run was interrupted.
        notes: Warnings to print before the gates (low-fidelity judge...).
        extra_lines: Lines from ``pytest_pau_summary_extra`` implementations.
        unicode: Draw bars with block characters (else ``#``).
    """
    c = summary.counts
    # Errors, skip reasons, notes and ids hold provider and model text: escaped, never obeyed.
    writer = _SafeWriter(writer)
    writer.write_sep("=", "PAU summary", bold=True)
    if run:
        writer.line(run_line(run))
    writer.line(items_line(summary, run))
    if not c.scored:
        # Nothing to draw: no histogram, table or rate of zero items (every one errored,
        # was skipped or produced no result). What happened follows below.
        writer.line("pass rate    n/a  (no item was scored)")
    else:
        _scores(summary, writer, run=run, unicode=unicode)
    if summary.paper is not None:
        from pytest_pau.report.render_paper import render_paper

        render_paper(summary.paper, writer, None if run is None else run.mode)

    modes = {k: v for k, v in summary.failure_modes.items() if v}
    of_model = c.failed - summary.coder_errors
    if of_model and modes:
        writer.line(f"failure modes ({of_model} failed by the model)", bold=True)
        for mode, count in sorted(modes.items(), key=lambda kv: -kv[1]):
            writer.line(f"  {mode:<26}{count:>5}  {_pct(count / of_model):>6}")
    if summary.coder_errors:
        writer.line(
            f"coder limitations {summary.coder_errors} (coder_error: the coder misses the "
            "gold description too; not the model's fault, not counted above)",
            yellow=True,
        )
    _flagged(writer, summary)
    if summary.infrastructure_errors:
        counted_how = (
            "counted above with the paper's fill values"
            if summary.protocol == "paper"
            else "not counted above"
        )
        writer.line(
            f"infrastructure errors {summary.infrastructure_errors} "
            f"(not the model's fault; {counted_how})",
            yellow=True,
        )
        for e in summary.errors[:MAX_ERRORS]:
            _error_lines(writer, e.id, e.error or "")
        if len(summary.errors) > MAX_ERRORS:
            writer.line(f"  +{len(summary.errors) - MAX_ERRORS} more (each is an E above)")
    for reason, count in summary.skipped_reasons.items():
        writer.line(f"skipped {count}: {reason}", yellow=True)
    j = summary.judge
    if c.scored:
        writer.line(
            f"concluded {summary.concluded}/{c.scored}  overconfident "
            f"{summary.overconfident} (concluded YES and failed)  "
            f"unparseable judge answers {j.unparseable_answers}"
        )
    elif j.unparseable_answers:
        writer.line(f"unparseable judge answers {j.unparseable_answers}")
    for line in [*cost_lines(summary), *provider_lines(summary)]:
        writer.line(line)
    ran = c.items - c.skipped
    each = f", {summary.item_time_s / ran:.1f} s per item" if ran > 0 else ""
    writer.line(
        f"wall {_num(summary.wall_s, '.1f')} s  (item time {summary.item_time_s:.1f} s{each})"
    )
    if summary.max_cost_usd is not None and summary.cost_usd > summary.max_cost_usd:
        writer.line(
            f"budget: spent ${summary.cost_usd:.4f} of ${summary.max_cost_usd:g}; the calls "
            "already in flight when it was reached went on (--pau-max-cost-usd)",
            yellow=True,
        )
    if summary.rate_limited:
        low = summary.connection_caps_lowest
        caps = ", ".join(
            f"{e} {c:.0f}" + (f" (lowest {low[e]:.0f})" if e in low else "")
            for e, c in sorted(summary.connection_caps.items())
        )
        writer.line(
            f"rate limited {summary.rate_limited} time{'s' if summary.rate_limited != 1 else ''} "
            f"(HTTP 429, retried); connection cap at the end: {caps or 'n/a'} "
            "(--pau-max-connections)",
            yellow=True,
        )
    for note in notes:
        writer.line(f"note: {note}", yellow=True)
    if summary.calibration is not None:
        from pytest_pau.report.calibration import calibration_line

        writer.line(calibration_line(summary.calibration))
    if summary.judge_check is not None:
        from pytest_pau.stats.judge_check import check_line

        writer.line(check_line(summary.judge_check), yellow=not summary.judge_check.discriminates)
    for extra in extra_lines:
        writer.line(extra)

    render_gates(summary, writer)
