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
"""

from __future__ import annotations

import base64
import json
import os
from html import escape
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.models import FAILURE_MODES, InstanceResult, Report, Step
from pytest_pau.paths import write_text_atomic
from pytest_pau.report.html_summary import summary_html
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
        f"<h2>Summary</h2>{summary_html(summary, report.notes, report.run.mode)}"
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
    (:data:`~pytest_pau.settings.verdict_options.REPORT_OUTPUTS`)."""
    return {"": render_html(report).encode("utf-8")}
