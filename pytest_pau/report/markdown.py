"""The summary as Markdown: a pull-request comment (``--pau-markdown``), a GitHub job summary.

One function, :func:`render_markdown`, draws both (and ``pau merge``'s). It reads the
:class:`~pytest_pau.models.Report` only, and every line it shares with the terminal block
comes from the terminal's own functions (:func:`~pytest_pau.report.render.run_line`,
:func:`~pytest_pau.report.render.items_line`, :func:`~pytest_pau.report.render.cost_lines`,
the release-gate lines of :func:`~pytest_pau.report.gate_lines.render_gates`, the notes and
the calibration line), so the numbers and words are the terminal's
(``tests/plugin/test_markdown_matches_terminal.py`` parses both).

Sizes: GitHub keeps a comment of at most 65,536 characters and a step summary of at most
1 MiB. The essentials (verdict, figures, gates, failure modes, cost, notes) take a few KB;
the long lists (failed items, errors, flips) are folded in ``<details>``, each cut at
:data:`LISTED` rows, fewer when that would not fit ``max_bytes``, and left out (said so)
when even ten rows would not. Text a model, a provider or a dataset wrote is escaped (HTML and Markdown),
never rendered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from pytest_pau.models import ItemStatus, PassRule, Report
from pytest_pau.report.calibration import calibration_line
from pytest_pau.report.fmt import num, pct, plural
from pytest_pau.report.gate_lines import failed_gate_names, render_gates
from pytest_pau.report.render import ci_text, cost_lines, items_line, run_line
from pytest_pau.settings import DEFAULTS
from pytest_pau.stats.judge_check import check_line

if TYPE_CHECKING:
    from pytest_pau.report.outputs import OutputContext

#: GitHub's limit on a comment body is 65,536 characters; this leaves room for a header.
PR_COMMENT_BYTES = 60_000
#: GitHub's limit on one step's summary is 1 MiB.
STEP_SUMMARY_BYTES = 1024 * 1024
#: Rows of a folded list before "... N more in the JSON report".
LISTED = 200
#: Characters of an item's error shown in the errors list.
ERROR_CHARS = 200
_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")


def md(text: str) -> str:
    """``text`` shown as written: HTML escaped, Markdown's special characters backslashed."""
    return _SPECIAL.sub(r"\\\1", escape(" ".join(text.split()), quote=False))


def md_prose(text: str) -> str:
    """Our own line as Markdown: its `command` spans stay code spans, the rest :func:`md`.

    The terminal's lines quote commands in backticks (`` `pau merge` ``); escaped, they
    showed as literal backticks. An odd number of backticks is no pairing: all escaped.
    """
    parts = " ".join(text.split()).split("`")
    if len(parts) % 2 == 0:
        return md(text)
    return "".join(
        code(part) if i % 2 else _SPECIAL.sub(r"\\\1", escape(part, quote=False))
        for i, part in enumerate(parts)
    )


def code(text: str) -> str:
    """``text`` in a code span (backticks and table bars made harmless)."""
    return "`" + " ".join(text.split()).replace("`", "'").replace("|", "\\|") + "`"


def code_block(lines: Sequence[str]) -> str:
    """``lines`` in a fenced code block, shown as written: the fence is longer than any run
    of backticks in them, so no line can close it."""
    longest = max((len(run) for run in re.findall("`+", "\n".join(lines))), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n" + "\n".join(lines) + f"\n{fence}"


class _Lines:
    """A :class:`~pytest_pau.report.writer.Writer` that keeps plain lines (markup dropped)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._part = ""

    def write(self, content: str, **markup: bool) -> None:
        self._part += content

    def line(self, msg: str = "", **markup: bool) -> None:
        self.lines.append(self._part + msg)
        self._part = ""

    def write_sep(self, sep: str, title: str | None = None, **markup: bool) -> None:
        pass


def _headline(report: Report) -> str:
    s, run = report.summary, report.run
    what = f"{code(run.model)} on {code(f'{run.dataset}/{run.split}')}"
    if run.shard is not None:
        return (
            f"### PAU shard {run.shard}: {what}\n\nrelease gates: decided over all shards "
            "by `pau merge --gate`"
        )
    if not s.gates and s.baseline is None:
        return f"### PAU: {what}\n\nno release gate set"
    if s.gates_passed:
        return f"### PAU: ✅ release gates passed: {what}"
    failed = ", ".join(code(n) for n in failed_gate_names(s))
    return f"### PAU: ❌ release gate failed ({failed}): {what}"


def _figures(report: Report) -> str:
    s = report.summary
    c = s.counts
    if not c.scored:
        return "pass rate n/a (no item was scored)"
    j, m = s.judge, s.code_match
    rows = [
        "| | value | interval | n |",
        "| --- | --- | --- | --- |",
        f"| pass rate | {pct(s.pass_rate)} | {md(ci_text(s.pass_rate_ci, c.scored, pct=True))} "
        f"| {c.passed}/{c.scored} scored |",
        f"| judge score | mean {num(j.mean)} | {md(ci_text(j.ci, j.n))} | n={j.n} |",
        f"| code match | mean {num(m.mean)} | {md(ci_text(m.ci, m.n))} | n={m.n} |",
    ]
    return "\n".join(rows)


def _gates(report: Report) -> str:
    lines = _Lines()
    render_gates(report.summary, lines)
    out = []
    for line in lines.lines:
        text = line.strip()
        if text == "release gates":
            continue
        if text.startswith("PASS "):
            out.append(f"- ✅ {md_prose(text)}")
        elif text.startswith("FAIL "):
            out.append(f"- ❌ {md_prose(text)}")
        elif line.startswith("  "):
            out.append(f"  - {md_prose(text)}")
        else:
            out.append(f"\n{md_prose(text)}\n")
    return ("**Release gates**\n\n" + "\n".join(out)).strip() if out else ""


def _modes(report: Report) -> str:
    s = report.summary
    modes = {k: v for k, v in s.failure_modes.items() if v}
    of_model = s.counts.failed - s.coder_errors
    if not of_model or not modes:
        return ""
    rows = [
        f"**failure modes ({of_model} failed by the model)**",
        "",
        "| mode | items | share |",
        "| --- | ---: | ---: |",
    ]
    for mode, count in sorted(modes.items(), key=lambda kv: -kv[1]):
        rows.append(f"| {md(mode)} | {count} | {pct(count / of_model)} |")
    return "\n".join(rows)


def _cost(report: Report) -> str:
    return "\n".join(md(line) + "  " for line in cost_lines(report.summary)).rstrip()


def _notes(report: Report) -> str:
    lines = [f"> note: {md_prose(n)}" for n in report.notes]
    if report.summary.calibration is not None:
        lines.append(f"> {md_prose(calibration_line(report.summary.calibration))}")
    if report.summary.judge_check is not None:
        lines.append(f"> {md_prose(check_line(report.summary.judge_check))}")
    text = "\n>\n".join(lines)
    if report.extra:  # the project's own lines, often a small table: a code block keeps them
        block = code_block(report.extra)
        text = f"{text}\n\n{block}" if text else block
    return text


def _report_pointer(report_file: str | None) -> str:
    """Where the whole run is: every item's trajectory, scores and reasons."""
    if report_file is None:
        return "_No JSON report was written: add `--pau-report=FILE` to keep every item._"
    return (
        f"Every item's trajectory and scores: {code(report_file)} (read it with "
        f"{code(f'pau show {report_file}')}; in CI, upload it as an artifact)."
    )


def _folded(title: str, header: str, rows: Sequence[str], limit: int) -> str:
    shown = list(rows[:limit])
    if len(rows) > limit:
        columns = header.splitlines()[0].count("|") - 1
        shown.append(f"| ... {len(rows) - limit} more in the JSON report |" + " |" * (columns - 1))
    return (
        f"<details><summary>{escape(title)}</summary>\n\n{header}\n"
        + "\n".join(shown)
        + "\n\n</details>"
    )


def _failed_items(report: Report, limit: int) -> str:
    failed = [r for r in report.instances if r.status == ItemStatus.FAILED]
    if not failed:
        return ""
    thresholds = report.run.thresholds
    rule = PassRule(
        float(thresholds.get("judge_threshold") or DEFAULTS.judge_threshold),
        float(thresholds.get("match_threshold") or DEFAULTS.match_threshold),
    )
    # The shortfall in the words of the item's own failure ("judge score 2 < 3").
    rows = [
        f"| {code(r.id)} | {md('; '.join(rule.shortfalls(r.judge_score, r.code_match)))} "
        f"| {md(str(r.failure_mode))} |"
        for r in failed
    ]
    return _folded(
        f"{plural(len(failed), 'item')} below their thresholds",
        "| item | below | failure mode |\n| --- | --- | --- |",
        rows,
        limit,
    )


def _errors(report: Report, limit: int) -> str:
    errored = [r for r in report.instances if r.status == ItemStatus.ERROR]
    if not errored:
        return ""
    rows = []
    for r in errored:
        text = " ".join((r.error or "(no message)").split())
        if len(text) > ERROR_CHARS:
            text = text[: ERROR_CHARS - 3] + "..."
        rows.append(f"| {code(r.id)} | {code(text)} |")
    return _folded(
        f"{plural(len(errored), 'error')} (infrastructure)",
        "| item | error |\n| --- | --- |",
        rows,
        limit,
    )


def _flips(report: Report, limit: int) -> str:
    b = report.summary.baseline
    if b is None or not (b.pass_to_fail or b.fail_to_pass):
        return ""
    rows = [f"| {code(i)} | pass -> fail |" for i in b.pass_to_fail]
    rows += [f"| {code(i)} | fail -> pass |" for i in b.fail_to_pass]
    return _folded(
        f"every flip against the baseline ({len(rows)})",
        "| item | flip |\n| --- | --- |",
        rows,
        limit,
    )


def render_markdown(
    report: Report,
    *,
    closing: str | None = None,
    max_bytes: int = PR_COMMENT_BYTES,
    report_file: str | None = None,
) -> str:
    """The run's summary as Markdown, at most ``max_bytes`` bytes of UTF-8.

    Args:
        report: The run's report (a merged one too).
        closing: The terminal's last line (why the exit status is what it is), if any.
        max_bytes: The size limit (:data:`PR_COMMENT_BYTES`, or what is left of the step
            summary's :data:`STEP_SUMMARY_BYTES`).
        report_file: The JSON report's path as the user gave it (``--pau-report``), for
            the pointer to it; None when none was written.
    """
    run = report.run
    essentials = [
        _headline(report),
        md(run_line(run)) + "  \n" + md(items_line(report.summary, run)),
        _figures(report),
        _gates(report),
        _modes(report),
        _cost(report),
        _notes(report),
    ]
    if closing:
        essentials.append(f"**{md_prose(closing)}**")
    essentials.append(_report_pointer(report_file))
    text = "\n\n".join(part for part in essentials if part) + "\n"
    cut_note = "\n_(lists left out to fit GitHub's size limit: the JSON report has them)_\n"
    left_out = False
    for section in (_failed_items, _errors, _flips):
        # Each list as long as fits (LISTED rows at most, halved until it fits, 10 at least).
        limit = LISTED
        while True:
            part = section(report, limit)
            if not part:
                break
            candidate = text + "\n" + part + "\n"
            if len((candidate + cut_note).encode()) <= max_bytes:
                text = candidate
                break
            if limit == 10:
                left_out = True
                break
            limit = max(10, limit // 2)
    if left_out:
        text += cut_note
    if len(text.encode()) > max_bytes:
        # Only absurd inputs get here (a note or a model name of many KB): cut at a line.
        keep = text.encode()[: max(0, max_bytes - 80)].decode(errors="ignore")
        text = keep[: keep.rfind("\n") + 1] + "\n_(truncated to fit GitHub's size limit)_\n"
    return text


def render_markdown_file(report: Report, context: OutputContext) -> dict[str, bytes]:
    """``--pau-markdown``'s content: the row's renderer
    (:data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS`)."""
    text = render_markdown(report, closing=context.closing, report_file=context.report_file)
    return {"": text.encode("utf-8")}
