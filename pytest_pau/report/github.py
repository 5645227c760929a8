"""GitHub Actions' own channels: annotations (workflow commands) and the job summary.

* :func:`annotation_commands`: at most :data:`MAX_ANNOTATIONS` ``::error``/``::warning`` lines, one per
  failed release gate first (the terminal's words), then what else a reviewer must not miss
  (items that errored or produced no result). GitHub shows them on the run's page and in
  the pull request's checks; it reads them from the log only when a line starts with them.
* :func:`append_step_summary`: the Markdown summary appended to ``$GITHUB_STEP_SUMMARY``,
  kept under GitHub's 1 MiB for the step (whatever earlier steps wrote there).
"""

from __future__ import annotations

import os
from pathlib import Path

from pytest_pau.models import Report
from pytest_pau.report.fmt import plural
from pytest_pau.report.gate_lines import (
    level_line,
    level_name,
    regression_line,
    regression_name,
    status_word,
)
from pytest_pau.report.markdown import STEP_SUMMARY_BYTES, render_markdown

#: GitHub shows at most 10 annotations of each kind per step; we write at most 10 in all.
MAX_ANNOTATIONS = 10
#: Bytes left free in the step summary for what later steps write.
_HEADROOM = 16 * 1024


def on_github() -> bool:
    """Whether this process runs in a GitHub Actions job."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def _data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's runner expects."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, title: str, message: str) -> str:
    """``::error title=...::message`` (``kind`` is ``error``, ``warning`` or ``notice``)."""
    return f"::{kind} title={_property(title)}::{_data(message)}"


def annotation_commands(report: Report) -> list[str]:
    """The run's annotations: failed gates as errors, then errored or missing items."""
    s = report.summary
    # The word the terminal writes before the line (FAIL or NOT DECIDED), never another.
    out = [
        command(
            "error",
            f"PAU release gate {g.status}: {level_name(g)}",
            f"{status_word(g.status)} {level_line(g)}",
        )
        for g in s.failed_gates
    ]
    if s.baseline is not None:
        out += [
            command(
                "error",
                f"PAU regression gate {r.status}: {regression_name(r)}",
                f"{status_word(r.status)} {regression_line(s.baseline, r)}",
            )
            for r in s.baseline.regressions
            if not r.passed
        ]
    c = s.counts
    if s.errors:
        first = s.errors[0]
        out.append(
            command(
                "warning",
                f"PAU: {plural(c.errors, 'item')} errored (infrastructure)",
                f"{first.id}: {' '.join((first.error or '').split())[:400]}"
                + (
                    f" (and {len(s.errors) - 1} more: see the summary)" if len(s.errors) > 1 else ""
                ),
            )
        )
    if c.selected > c.items:
        missing = c.selected - c.items
        out.append(
            command(
                "warning",
                f"PAU: {plural(missing, 'selected item')} without a result",
                "re-run to finish them (answers already paid for come from the cache)"
                if report.run.interrupted
                else "skipped or errored before evaluation: see the test outcomes",
            )
        )
    return out[:MAX_ANNOTATIONS]


def append_step_summary(
    report: Report, *, closing: str | None, path: Path, report_file: str | None = None
) -> int:
    """Append the Markdown summary to the step summary file; returns the bytes written.

    The text is sized to what the step has left of GitHub's 1 MiB (minus headroom for
    later steps); when not even the essentials fit, nothing is written and 0 returned.

    Raises:
        OSError: The file cannot be written.
    """
    try:
        used = path.stat().st_size
    except FileNotFoundError:
        used = 0
    room = STEP_SUMMARY_BYTES - used - _HEADROOM
    if room < 4096:
        return 0
    text = render_markdown(report, closing=closing, max_bytes=room, report_file=report_file)
    data = ("\n" if used else "") + text
    with path.open("a", encoding="utf-8") as fh:
        fh.write(data)
    return len(data.encode())
