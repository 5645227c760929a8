"""The HTML report's summary section: the verdict first, then the terminal summary's figures.

Every figure shown both here and in the terminal block is formatted by the same helpers
(:mod:`pytest_pau.report.fmt`, the gates' own formats), so a page never says "code match
0.67" where the terminal says "100.0%" (``tests/plugin/test_html_matches_terminal.py``
parses both). Model and provider text goes through :func:`html.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from pytest_pau.models import GateVerdict, Summary
from pytest_pau.report.fmt import num, pct, plural
from pytest_pau.report.gate_lines import (
    early_stop_text,
    failed_gate_names,
    gate_statistic,
    level_line,
    regression_line,
    verdict_line,
)


def _ci(ci: Sequence[float] | None, *, rate: bool = False) -> str:
    if not ci:
        return ""
    shown = (pct(ci[0]), pct(ci[1])) if rate else (num(ci[0]), num(ci[1]))
    return f"95% CI [{shown[0]}, {shown[1]}]"


def _card(key: str, value: str, ci: str = "") -> str:
    return (
        f'<div class="card"><div class="k">{escape(key)}</div><div class="v">{escape(value)}</div>'
        f'<div class="ci">{escape(ci)}</div></div>'
    )


def _gate_value(g: GateVerdict, value: float | None) -> str:
    """A gate's figure as the terminal's ``release gates`` lines show it."""
    return pct(value) if g.is_rate else num(value)


def _cards(summary: Summary) -> str:
    c = summary.counts
    judge, match = summary.judge, summary.code_match
    cards = [
        _card(
            "items",
            str(c.items),
            f"{c.passed} passed, {c.failed} failed, {c.errors} error{'' if c.errors == 1 else 's'}, "
            f"{c.skipped} skipped",
        ),
        _card("pass rate", pct(summary.pass_rate), _ci(summary.pass_rate_ci, rate=True)),
        _card("mean judge score", num(judge.mean), _ci(judge.ci)),
        _card("mean code match", num(match.mean), _ci(match.ci)),
        _card(
            "cost",
            f"${summary.cost_usd:.4f}",
            f"{summary.requests:,} requests made, {summary.cache_hits:,} cache hits (free)",
        ),
    ]
    return f'<div class="cards">{"".join(cards)}</div>'


def _modes(summary: Summary) -> str:
    modes = summary.failure_modes
    if not any(modes.values()):
        return ""
    rows = "".join(
        f'<tr><td>{escape(str(k))}</td><td class="num">{int(v)}</td></tr>'
        for k, v in modes.items()
        if v
    )
    return (
        '<h3>Failure modes</h3><table class="kv"><tr><th>mode</th><th class="num">items</th>'
        f"</tr>{rows}</table>"
    )


def _flagged(summary: Summary) -> str:
    """Judge and code match side by side: the code ran on held-back inputs."""
    if not summary.flagged:
        return ""
    rows = "".join(
        f'<tr><td>{escape(f.id)}</td><td class="num">{num(f.judge_raw, ".3g")}</td>'
        f'<td class="num">{num(f.judge_defended, ".3g")}</td>'
        f'<td class="num">{num(f.code_match)}</td>'
        f'<td class="{"st-passed" if f.passed else "st-failed"}">'
        f"{'passed' if f.passed else 'failed'}</td></tr>"
        for f in summary.flagged
    )
    return (
        '<h3>Addressed the grader</h3><p class="note">Scored without the text addressed '
        'to the grader; code match is the harder score to game.</p><table class="kv">'
        '<tr><th>item</th><th class="num">judge as written</th>'
        '<th class="num">judge defended</th><th class="num">code match</th>'
        f"<th>verdict</th></tr>{rows}</table>"
    )


_WORDS = {"passed": "met", "failed": "NOT MET", "not decided": "NOT DECIDED"}


def _gates(summary: Summary) -> str:
    """The gates' figures (the verdict itself is at the top)."""
    if not summary.gates:
        return ""
    rows = "".join(
        f"<tr><td>{escape(g.label)} ({escape(g.option)})</td>"
        f'<td class="num">{escape(gate_statistic(g))}</td>'
        f'<td class="num">{escape(_gate_value(g, g.threshold))}</td>'
        f'<td class="{"st-passed" if g.passed else "st-failed"}">'
        f"{_WORDS.get(g.status, 'NOT MET')}</td></tr>"
        for g in summary.gates
    )
    return (
        '<h3>Release gates</h3><table class="kv"><tr><th>gate</th><th class="num">value</th>'
        f'<th class="num">threshold</th><th>verdict</th></tr>{rows}</table>'
    )


def prose_html(text: str) -> str:
    """Our own line as HTML: its `command` spans as ``<code>``, the rest escaped.

    The terminal's lines quote commands in backticks; escaped as they are, the page showed
    the backticks. An odd number of backticks is no pairing: all escaped as text.
    """
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return escape(text)
    return "".join(
        f"<code>{escape(part)}</code>" if i % 2 else escape(part) for i, part in enumerate(parts)
    )


def notes_html(notes: Sequence[str], summary: Summary) -> str:
    """The terminal summary's ``note:`` lines and the calibration line, in the same words."""
    items = [f'<li class="note">note: {prose_html(n)}</li>' for n in notes]
    if summary.calibration is not None:
        from pytest_pau.report.calibration import calibration_line

        items.append(
            f'<li class="calibration">{prose_html(calibration_line(summary.calibration))}</li>'
        )
    if summary.judge_check is not None:
        from pytest_pau.stats.judge_check import check_line

        items.append(f'<li class="judge-check">{escape(check_line(summary.judge_check))}</li>')
    if not items:
        return ""
    return f'<h3>Notes</h3><ul id="pau-notes">{"".join(items)}</ul>'


def verdict_html(summary: Summary) -> str:
    """The release verdict, first on the page, as the terminal's closing line says it.

    Read from ``summary.verdict`` (what the exit status was), so the page never says
    "met" beside a run that exited 1: a gate not decided, an error or a missing output
    shows here as in the terminal.
    """
    v = summary.verdict
    if v is None:  # a summary built outside a run (an older report): from its gates
        if not summary.gates and summary.baseline is None:
            return (
                '<p class="verdict">No release gate set (<code>--pau-min-*</code>, '
                "<code>--pau-baseline</code>).</p>"
            )
        for status, words in (("failed", "NOT MET"), ("not decided", "NOT DECIDED")):
            names = failed_gate_names(summary, status)
            if names:
                return (
                    f'<p class="verdict st-failed">Release gates {words}: '
                    f"{escape(', '.join(names))}.</p>"
                )
        return '<p class="verdict st-passed">Release gates: all met.</p>'
    if v.rule == "pytest" and not summary.gates and summary.baseline is None:
        gates = (
            '<p class="verdict">No release gate set (<code>--pau-min-*</code>, '
            "<code>--pau-baseline</code>).</p>"
        )
        return gates + _verdict_reasons(v.status, v.reasons[1:])
    line = verdict_line(summary) or ""
    css = "st-passed" if v.status == "passed" else "st-failed"
    return f'<p class="verdict {css}">{escape(line)}</p>' + _verdict_reasons(
        v.status, with_values(summary, v.reasons)
    )


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


def _verdict_reasons(status: str, reasons: Sequence[str]) -> str:
    if not reasons or (status == "passed" and len(reasons) == 1):
        return ""
    items = "".join(f'<li class="reason">{escape(r)}</li>' for r in reasons)
    return f'<ul class="verdict-reasons">{items}</ul>'


def _baseline(summary: Summary) -> str:
    """The baseline gate's rows, in the terminal's formats (``+0.120``, ``p=0.003``)."""
    b = summary.baseline
    if b is None:
        return ""
    rows = "".join(
        f"<tr><td>{escape(r.label)} not worse by more than {r.margin:g}</td>"
        f'<td class="num">{r.n}</td><td class="num">{num(r.mean_diff, "+.3f")}</td>'
        f'<td class="num">{num(r.low, "+.3f")}</td><td class="num">{num(r.p_value, ".3f")}</td>'
        f'<td class="{"st-passed" if r.passed else "st-failed"}">'
        f"{_WORDS.get(r.status, 'NOT MET')}</td></tr>"
        for r in b.regressions
    )
    flips = (
        f'<p class="note">{len(b.pass_to_fail)} pass -&gt; fail, '
        f"{len(b.fail_to_pass)} fail -&gt; pass.</p>"
    )
    return (
        f"<h3>Baseline {escape(b.path)} (model {escape(b.model)}): "
        f"{plural(b.shared, 'instance')} in both runs</h3>"
        '<table class="kv"><tr><th>gate</th><th class="num">paired</th>'
        '<th class="num">mean difference</th><th class="num">lower bound</th>'
        f'<th class="num">p</th><th>verdict</th></tr>{rows}</table>{flips}'
    )


def summary_html(summary: Summary, notes: Sequence[str] = (), mode: str | None = None) -> str:
    """The summary section: verdict, cards, ceiling, notes, failure modes, flagged, gates."""
    match = summary.code_match
    parts = [verdict_html(summary), _cards(summary)]
    gold = summary.gold_code_match
    if gold is not None:
        from pytest_pau.report.render import ceiling_text

        text = ceiling_text(match.mean, gold.mean, gold.n)
        parts.append(f'<p class="note">Ceiling: {escape(text)}.</p>')
    own = summary.self_code_match
    if own is not None:
        parts.append(
            f'<p class="note">Self coder: code match {num(own.mean)} of the model\'s own code '
            f"beside {num(match.mean)} of the fixed coder (--pau-coder=self, n={own.n}).</p>"
        )
    if summary.paper is not None:
        from pytest_pau.report.render_paper import paper_lines

        lines = paper_lines(summary.paper, mode)
        parts.append(
            f'<h3>{escape(lines[0])}</h3><pre id="pau-paper">'
            + escape("\n".join(lines[1:]))
            + "</pre>"
        )
    if summary.coder_errors:
        parts.append(
            f'<p class="note">Coder limitations: {summary.coder_errors} failed items are '
            "<code>coder_error</code> (the coder misses the gold description too): not the "
            "model's fault, not counted in the failure modes.</p>"
        )
    parts += [notes_html(notes, summary), _modes(summary), _flagged(summary)]
    judge = summary.judge
    if judge.unparseable or judge.unparseable_answers:
        parts.append(
            f'<p class="note">Unparseable judge answers: {judge.unparseable_answers} '
            f"({judge.unparseable} item{'' if judge.unparseable == 1 else 's'} without a judge "
            "score).</p>"
        )
    parts += [_gates(summary), _baseline(summary)]
    if summary.early_stop is not None:
        parts.append(f'<p class="note">{escape(early_stop_text(summary.early_stop))}</p>')
    return "\n".join(p for p in parts if p)
