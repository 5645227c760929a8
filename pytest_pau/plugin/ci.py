"""CI-native outputs of a run (controller): the Markdown summary and GitHub's annotations.

* ``--pau-markdown=FILE``: the summary for a pull-request comment, a row of the outputs'
  table (:mod:`pytest_pau.report.outputs`) whose last line is the verdict's closing line;
  :func:`output_context` is what it shows besides the report.
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
    from pytest_pau.models import Report, Summary
    from pytest_pau.plugin.state import PauRun
    from pytest_pau.report.outputs import OutputContext
    from pytest_pau.settings import PauSettings


def closing_text(settings: PauSettings, summary: Summary | None) -> str | None:
    """The summary's last line: the verdict's closing line (the terminal's), for a gated run
    (a pytest run's and ``pau merge``'s)."""
    from pytest_pau.report.gate_lines import verdict_line

    if summary is None or not settings.gated:
        return None
    return verdict_line(summary)


def output_context(
    settings: PauSettings, summary: Summary | None, report_error: str | None
) -> OutputContext:
    """What the outputs show besides the report: the closing line, and the JSON report's
    path as the user named it when it is written (none once it failed: ``report_error``)."""
    from pytest_pau.report.outputs import OutputContext

    written = settings.report is not None and report_error is None
    return OutputContext(
        closing=closing_text(settings, summary),
        report_file=str(settings.report) if written else None,
    )


def append_step_summary(state: PauRun, report: Report) -> None:
    """The job summary, when GitHub Actions sets ``$GITHUB_STEP_SUMMARY``.

    Not a requested output: a failure here is a warning, and the run's verdict stands.
    """
    from pytest_pau.plugin.notices import warn
    from pytest_pau.report.github import append_step_summary as append

    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if not step:
        return
    context = output_context(state.settings, state.summary, state.outputs.report_error)
    try:
        if not append(
            report, closing=context.closing, path=Path(step), report_file=context.report_file
        ):
            warn(f"$GITHUB_STEP_SUMMARY={step!r} is nearly full (1 MiB): no PAU summary added")
    except OSError as exc:
        warn(f"$GITHUB_STEP_SUMMARY={step!r}: could not append the PAU summary ({exc})")


def annotation_lines(state: PauRun) -> list[str]:
    """GitHub annotations for the end of the terminal summary (none outside GitHub Actions)."""
    from pytest_pau.report.github import annotation_commands, on_github

    if not on_github() or state.outputs.final_report is None:
        return []
    return annotation_commands(state.outputs.final_report)
