"""Writing a run's report outputs: staged beside their targets, then committed.

Every row of :data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS` goes the same
way, for a pytest run (:func:`pytest_pau.plugin.finish.finish`) and for ``pau merge``:

1. :func:`stage`: a temporary file beside each file the output writes (its folders
   created). What cannot be staged (a folder gone, a file where a folder should be, a
   read-only disk) is a missing requested output, known *before* the run's end is
   settled, so the one verdict already says so.
2. The end is settled once (:func:`pytest_pau.run.end.settle`).
3. :func:`fill`: each output rendered from the settled report (its row's renderer) into
   its temporary files; :func:`commit`: renamed over its targets (:func:`write`: both).
   A failure removes the temporary files: nothing half-written is left, and the file that
   was at the path before is kept.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pau.paths import StagedFile, stage_file
from pytest_pau.settings.gates_and_outputs import REPORT_OUTPUTS, ReportOutput

if TYPE_CHECKING:
    from pytest_pau.models import Report

#: The rows by field (``"html"``).
OUTPUTS_BY_FIELD = {output.field: output for output in REPORT_OUTPUTS}


@dataclass(frozen=True)
class OutputContext:
    """What an output shows besides the report."""

    closing: str | None = None
    """The verdict's closing line (a gated run), as the terminal ends with it."""
    report_file: str | None = None
    """The JSON report as the user named it, when one is written (the Markdown points to it)."""


#: ``render(report, context)``: each file's bytes, ``""`` for the output's own file.
Renderer = Callable[["Report", OutputContext], Mapping[str, bytes]]


def renderer(output: ReportOutput) -> Renderer:
    """The row's renderer, imported now (``module:function``)."""
    module, _, name = output.render.partition(":")
    render: Renderer = getattr(importlib.import_module(module), name)
    return render


@dataclass
class Staged:
    """One requested output, its temporary files made and not yet written."""

    output: ReportOutput
    given: Path
    """The path as the user named it (for messages)."""
    path: Path
    """The path written (a file, or a folder output's folder)."""
    files: dict[str, StagedFile] = field(default_factory=dict)
    """The temporary files by name (``""``: the output's own file)."""

    def problem(self, exc: BaseException) -> str:
        """What a failure of this output says: option, path, what it is, why."""
        return f"{self.output.flag}={str(self.given)!r}: could not write {self.output.what} ({exc})"

    def discard(self) -> None:
        """Remove the temporary files; the targets are left as they were."""
        for staged in self.files.values():
            staged.discard()


def stage(output: ReportOutput, given: Path, path: Path) -> Staged:
    """``output``'s temporary files beside ``path`` (a file, or a folder output's files).

    Raises:
        OSError: A file cannot be staged there (none of them is left behind).
    """
    out = Staged(output, given, path)
    names = output.writes or ("",)
    try:
        for name in names:
            out.files[name] = stage_file(path / name if name else path)
    except OSError:
        out.discard()
        raise
    return out


def fill(staged: Staged, report: Report, context: OutputContext) -> None:
    """Render ``staged``'s output from the settled ``report`` into its temporary files.

    Raises:
        OSError, ImportError, PauError: It could not be rendered or written; its
            temporary files are removed (no target is touched).
    """
    try:
        content = renderer(staged.output)(report, context)
        for name, data in content.items():
            staged.files[name].write(data)
    except BaseException:
        staged.discard()
        raise


def commit(staged: Staged) -> str:
    """Rename ``staged``'s filled files over their targets; returns its line for the outputs
    list."""
    for staged_file in staged.files.values():
        staged_file.commit()
    return staged.output.listed.format(path=staged.path, count=len(staged.files))


def write(staged: Staged, report: Report, context: OutputContext) -> str:
    """:func:`fill`, then :func:`commit`: one output in place; its line for the outputs list."""
    fill(staged, report, context)
    return commit(staged)
