"""The HTML report (``--pau-html=PATH``): one self-contained file, no network.

The page holds the run summary, the plots (base64 PNG data URIs) and a table of
instances that filters by status, arity, failure mode and id; clicking a row opens its
trajectory: each query with its input and output, the hypotheses as they evolved, the
judge's explanation, and the code written from the prediction with its mismatches.

Everything the models wrote is untrusted. Cells drawn here go through
:func:`html.escape`; the trajectories travel as a JSON block with ``<``, ``>`` and ``&``
written as ``\\u003c``... (so no ``</script>`` can close it) and the page's script puts
them in the DOM with ``textContent`` only. A Content-Security-Policy forbids every
network fetch, so the file renders the same offline and cannot leak data.

The summary section gives the verdict first, then the terminal summary's figures. Every
figure shown both here and in the terminal block is formatted by the same helpers
(:mod:`pytest_pau.report.fmt`, the gates' own formats), so a page never says "code match
0.67" where the terminal says "100.0%" (``tests/plugin/test_html_matches_terminal.py``
parses both).
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.models import FAILURE_MODES, GateVerdict, InstanceResult, Report, Step, Summary
from pytest_pau.paths import write_text_atomic
from pytest_pau.report.fmt import num, pct, plural
from pytest_pau.report.gate_lines import (
    early_stop_text,
    failed_gate_names,
    gate_statistic,
    verdict_line,
    with_values,
)
from pytest_pau.report.summary import build_summary
from pytest_pau.report.text_cap import capped

if TYPE_CHECKING:
    from pytest_pau.report.outputs import OutputContext

#: Longest model text kept per field; the rest is cut with a note (keeps big runs usable).
MAX_TEXT = 6000
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
STATUSES = ("passed", "failed", "error", "skipped")


def _asset(name: str) -> str:
    return (
        resources.files("pytest_pau.report")
        .joinpath("html_assets", name)
        .read_text(encoding="utf-8")
    )


def _cut(text: str | None) -> str:
    text = text or ""
    if len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + f"\n[... {len(text) - MAX_TEXT} more characters not shown]"


def status_of(r: InstanceResult) -> str:
    """``passed``, ``failed``, ``error`` (infrastructure) or ``skipped``."""
    if r.error is not None:
        return "error"
    if r.skipped is not None:
        return "skipped"
    return "passed" if r.passed else "failed"


def _step(s: Step) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": s.kind, "iteration": s.iteration, "concluded": s.concluded}
    if s.kind == "act":
        out["input"] = s.parsed_input
        out["format_error"] = s.format_error
        out["text"] = _cut(s.response)
        out["ok"] = bool(s.result and s.result.ok)
        out["output"] = _cut(s.result.observation()) if s.result is not None else None
    else:
        out["text"] = _cut(s.response)
    return out


def instance_data(r: InstanceResult) -> dict[str, Any]:
    """What the page's script needs to draw one instance's trajectory."""
    return {
        "id": r.id,
        "status": status_of(r),
        "judge": r.judge_score,
        "match": r.code_match,
        "explanation": _cut(r.judge_explanation),
        "gold": _cut(r.gold),
        "prediction": _cut(r.prediction),
        "concluded": r.concluded,
        "n_queries": r.n_queries,
        "code": _cut(r.code),
        "mismatches": [[_cut(m.input), _cut(m.expected), _cut(m.got)] for m in r.mismatches],
        "failure_mode": r.failure_mode,
        "failure_detail": _cut(r.failure_detail),
        "error": r.error,
        "skipped": r.skipped,
        "steps": [_step(s) for s in r.trajectory],
    }


def script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--`` or entity can form."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _fmt(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def _run_html(report: Report) -> str:
    run = report.run
    fields = [
        ("model", run.model),
        ("judge model", run.judge_model),
        ("coder model", run.coder_model),
        ("dataset", f"{run.dataset} ({run.split})"),
        ("mode", f"{run.mode}, max {run.max_iterations} iterations"),
        ("seed", run.seed),
        ("prompts version", run.prompts_version),
        ("thresholds", ", ".join(f"{k} {v}" for k, v in run.thresholds.items() if v is not None)),
        ("started", run.started),
        ("finished", run.finished + (" (interrupted)" if run.interrupted else "")),
        ("pytest-pau", run.plugin_version),
        ("python", run.python),
    ]
    rows = "".join(
        f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>"
        for k, v in fields
        if v not in ("", None)
    )
    return f'<table class="kv">{rows}</table>'


def _plots_html(report: Report) -> str:
    try:
        from pytest_pau.report.plots import render_pngs

        pngs = render_pngs([report])
    except ConfigError as exc:
        return f'<p class="note">No plots: {escape(str(exc))}</p>'
    imgs = "".join(
        f'<img alt="{escape(name)}" src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}">'
        for name, data in pngs.items()
    )
    return f'<div class="plots">{imgs}</div>'


def _options(values: list[str], label: str) -> str:
    opts = [f'<option value="">all {escape(label)}</option>']
    opts += [f'<option value="{escape(v)}">{escape(v)}</option>' for v in values]
    return "".join(opts)


def _table_html(report: Report) -> str:
    rows = []
    for idx, r in enumerate(report.instances):
        st = status_of(r)
        tags = "".join(f'<span class="tag">{escape(t)}</span>' for t in r.tags)
        rows.append(
            f'<tr class="inst" tabindex="0" data-idx="{idx}" data-id="{escape(r.id)}" data-status="{st}" '
            f'data-arity="{r.arity}" data-mode="{escape(r.failure_mode)}">'
            f'<td>{escape(r.id)} {tags}</td><td class="st-{st}">{st}</td><td class="num">{r.arity}</td>'
            f'<td class="num">{_fmt(r.judge_score, "g")}</td><td class="num">{_fmt(r.code_match)}</td>'
            f'<td class="num">{r.n_queries}</td><td>{escape(r.failure_mode)}</td></tr>'
        )
    arities = sorted({str(r.arity) for r in report.instances}, key=int)
    modes = [m for m in FAILURE_MODES if any(r.failure_mode == m for r in report.instances)]
    present = [s for s in STATUSES if any(status_of(r) == s for r in report.instances)]
    filters = (
        '<div class="filters">'
        f'<label>Status <select id="f-status">{_options(present, "statuses")}</select></label>'
        f'<label>Arity <select id="f-arity">{_options(arities, "arities")}</select></label>'
        f'<label>Failure mode <select id="f-mode">{_options(modes, "modes")}</select></label>'
        '<label>Id <input id="f-text" type="search" placeholder="filter ids"></label>'
        '<span id="shown"></span></div>'
    )
    head = (
        '<thead><tr><th>instance</th><th>status</th><th class="num">arity</th><th class="num">judge</th>'
        '<th class="num">match</th><th class="num">queries</th><th>failure mode</th></tr></thead>'
    )
    return f'{filters}<table id="pau-instances">{head}<tbody>{"".join(rows)}</tbody></table>'


# -- the summary section ------------------------------------------------------------
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


def notes_html(notes: Sequence[str], summary: Summary, extra: Sequence[str] = ()) -> str:
    """The terminal summary's ``note:`` lines, the calibration and judge check lines and the
    project's own lines (``pytest_pau_summary_extra``), in the same words."""
    items = [f'<li class="note">note: {prose_html(n)}</li>' for n in notes]
    if summary.calibration is not None:
        from pytest_pau.report.calibration import calibration_line

        items.append(
            f'<li class="calibration">{prose_html(calibration_line(summary.calibration))}</li>'
        )
    if summary.judge_check is not None:
        from pytest_pau.stats.judge_check import check_line

        items.append(f'<li class="judge-check">{escape(check_line(summary.judge_check))}</li>')
    notes = f'<h3>Notes</h3><ul id="pau-notes">{"".join(items)}</ul>' if items else ""
    if extra:  # the project's own lines, often a small table: spacing kept
        notes += f'<pre id="pau-extra">{escape(chr(10).join(extra))}</pre>'
    return notes


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


def summary_html(
    summary: Summary,
    notes: Sequence[str] = (),
    mode: str | None = None,
    extra: Sequence[str] = (),
) -> str:
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
    parts += [notes_html(notes, summary, extra), _modes(summary), _flagged(summary)]
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


# -- the page -------------------------------------------------------------------------
def render_html(report: Report, *, plots: bool = True) -> str:
    """The whole page as a string (see the module docstring)."""
    report = capped(report)  # each text field at most MAX_STORED_CHARS (report/text_cap.py)
    # A report whose summary was not filled in (a hand-made one) gets one computed.
    summary = report.summary if report.summary.counts.items else build_summary(report.instances)
    title = f"PAU report: {report.run.model} on {report.run.dataset}"
    data = {"instances": [instance_data(r) for r in report.instances]}
    plots_section = f"<h2>Plots</h2>{_plots_html(report)}" if plots else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_asset('report.css')}</style></head>\n<body>\n"
        f"<h1>{escape(title)}</h1>"
        f'<pre id="pau-errors" hidden></pre>'
        f"<h2>Summary</h2>{summary_html(summary, report.notes, report.run.mode, report.extra)}"
        f"<h3>Run</h3>{_run_html(report)}\n"
        f"{plots_section}\n"
        f"<h2>Instances</h2>"
        '<p class="note">Click a row to open its trajectory.</p>'
        f"{_table_html(report)}\n"
        '<pre id="pau-selftest" hidden></pre>\n'
        f'<script type="application/json" id="pau-data">{script_json(data)}</script>\n'
        f"<script>{_asset('report.js')}</script>\n"
        "</body></html>\n"
    )


def write_html(report: Report, path: str | os.PathLike[str], *, plots: bool = True) -> Path:
    """Write the self-contained HTML report of ``report`` to ``path`` (atomically).

    This is what ``--pau-html=PATH`` calls. Without matplotlib the page says so in place
    of the plots instead of failing.

    Returns:
        The absolute path written.
    """
    return write_text_atomic(path, render_html(report, plots=plots))


def render_html_file(report: Report, context: OutputContext) -> dict[str, bytes]:
    """``--pau-html``'s content (:func:`write_html`'s): the row's renderer
    (:data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS`)."""
    return {"": render_html(report).encode("utf-8")}
