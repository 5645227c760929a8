"""CI-native outputs of a run (controller): the Markdown summary and GitHub's annotations.

* ``--pau-markdown=FILE``: the summary for a pull-request comment, written atomically once
  the verdict is known (its last line is the verdict's closing line).
* ``$GITHUB_STEP_SUMMARY``: when GitHub Actions sets it, the same summary is appended to the
  job's summary page (sized to what the step has left of 1 MiB).
* Annotations: in a GitHub Actions job, at most 10 ``::error``/``::warning`` lines under
  the summary block, naming each failed gate in the terminal's words.

The drawing is :mod:`pytest_pau.report.markdown` and :mod:`pytest_pau.report.github`;
``pau merge`` calls the same functions for a merged run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pau.models import Report
    from pytest_pau.plugin.state import RunState, RunView


def closing_text(state: RunView) -> str | None:
    """The summary's last line: the verdict's closing line (the terminal's), for a gated run."""
    from pytest_pau.report.render_gates import verdict_line

    if state.summary is None or not state.settings.gated:
        return None
    return verdict_line(state.summary)


def write_markdown(state: RunState, report: Report) -> bool:
    """``--pau-markdown`` and the step summary; True when the requested file failed.

    A requested Markdown file that cannot be written fails the run like any requested
    output (the caller settles the verdict again); the step summary is not requested, so a
    failure there is a warning.
    """
    from pytest_pau.paths import write_text_atomic
    from pytest_pau.plugin.notices import warn
    from pytest_pau.report.github import append_step_summary
    from pytest_pau.report.markdown import render_markdown

    closing = closing_text(state)
    failed = False
    s = state.settings
    # The pointer to the JSON report, as the user named it, when it was written.
    report_file = str(s.report) if s.report is not None and state.report_error is None else None
    if s.markdown is not None:
        path = state.resolve(s.markdown)
        try:
            written = write_text_atomic(
                path, render_markdown(report, closing=closing, report_file=report_file)
            )
        except OSError as exc:
            message = (
                f"--pau-markdown={str(s.markdown)!r}: could not write the Markdown summary ({exc})"
            )
            state.output_errors.append(message)
            warn(message)
            failed = True
        else:
            state.outputs.append(f"Markdown summary: {written}")
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        try:
            if not append_step_summary(
                report, closing=closing, path=Path(step), report_file=report_file
            ):
                warn(f"$GITHUB_STEP_SUMMARY={step!r} is nearly full (1 MiB): no PAU summary added")
        except OSError as exc:
            warn(f"$GITHUB_STEP_SUMMARY={step!r}: could not append the PAU summary ({exc})")
    return failed


def annotation_lines(state: RunState) -> list[str]:
    """GitHub annotations for the end of the terminal summary (none outside GitHub Actions)."""
    from pytest_pau.report.github import annotation_commands, on_github

    if not on_github() or state.final_report is None:
        return []
    return annotation_commands(state.final_report)
