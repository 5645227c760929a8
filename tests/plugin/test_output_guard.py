"""The one output guard (:mod:`pytest_pau.files.guard`) where a pytest run and ``pau paper``
meet it: paths resolved safely, folders that are folders, nothing a command reads replaced.

``pau merge``'s and ``pau cache export``'s cases are in ``tests/cli/test_merge_refuses.py``
and ``tests/cli/test_cache_transfer_refuses.py``; ``pau train``'s in
``tests/train/test_output_folder.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_pau.cli.main import main


def test_a_report_path_that_is_a_symlink_loop_is_a_usage_error(
    pau_pytester: pytest.Pytester, run_pau, scoring_llm
) -> None:
    loop = pau_pytester.path / "loop.json"
    loop.symlink_to(loop)
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-report=loop.json")
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text  # was: INTERNALERROR, RuntimeError
    assert "INTERNALERROR" not in text
    assert "Traceback" not in text
    assert (
        f"--pau-report='loop.json': {str(loop)!r} cannot be resolved: it is a symbolic-link loop"
        in result.stderr.str()
    )
    assert scoring_llm.requests == served


def test_plots_into_a_fifo_is_refused_as_no_folder(
    pau_pytester: pytest.Pytester, run_pau, scoring_llm
) -> None:
    fifo = pau_pytester.path / "plots"
    os.mkfifo(fifo)
    result = run_pau("-m", "smoke", "--pau-plots=plots")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        f"--pau-plots='plots': {str(fifo)!r} is a named pipe (FIFO), and a folder is needed"
        in result.stderr.str()
    )
    assert fifo.is_fifo()


@pytest.mark.parametrize("kind", ["file", "fifo", "report inside"])
def test_pau_paper_checks_its_folder_before_writing(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "run.json"
    report.write_text("{}")  # never read: the guard refuses first
    out = tmp_path / "out"
    if kind == "file":
        out.write_text("notes")
        expected = (
            f"-o={str(out)!r}: cannot write files there (it is a file, and a folder is needed)"
        )
    elif kind == "fifo":
        os.mkfifo(out)
        expected = f"-o={str(out)!r}: {str(out)!r} is a named pipe (FIFO), and a folder is needed"
    else:
        out.mkdir()
        report = out / "table.md"  # a report that pau paper would write over
        report.write_text("{}")
        expected = "writing -o would overwrite a report given"
    before = report.read_bytes()
    assert main(["paper", str(report), "-o", str(out), "--no-figures"]) == 2
    err = capsys.readouterr().err
    assert expected in err, err
    assert "Checked before anything was written" in err
    assert report.read_bytes() == before
