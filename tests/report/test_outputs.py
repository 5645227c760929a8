"""The outputs' table: every row staged beside its target, written, committed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pau.report.json_report import read_report, write_report
from pytest_pau.report.outputs import OUTPUTS_BY_FIELD, OutputContext, renderer, stage, write
from pytest_pau.settings.gates_and_outputs import REPORT_OPTIONS, REPORT_OUTPUTS
from tests.report.conftest import make_report, result


def test_every_row_names_a_renderer_and_an_option() -> None:
    for output in REPORT_OUTPUTS:
        assert callable(renderer(output)), output.render
    assert [o.name for o in REPORT_OPTIONS] == ["report", "html", "plots", "markdown"]


def test_the_plots_row_names_the_files_its_renderer_draws() -> None:
    """The guard checks the row's ``writes`` before the run: they must be what is drawn."""
    pytest.importorskip("matplotlib", reason="needs the plots extra (matplotlib)")
    plots = OUTPUTS_BY_FIELD["plots"]
    drawn = renderer(plots)(make_report([result("a", judge=4, match=1.0)]), OutputContext())
    assert tuple(drawn) == plots.writes == ("scores.png", "failure_modes.png", "judge_vs_match.png")


def test_a_staged_output_is_written_as_the_writer_writes_it(tmp_path: Path) -> None:
    report = make_report([result("a", judge=4, match=1.0)])
    staged = stage(OUTPUTS_BY_FIELD["report"], Path("r.json"), tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists(), "nothing is in place before the commit"
    line = write(staged, report, OutputContext())
    assert line == f"PAU report: {tmp_path / 'r.json'}"
    write_report(tmp_path / "same.json", report)
    assert (tmp_path / "r.json").read_bytes() == (tmp_path / "same.json").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "same.json"]


def test_a_failed_write_keeps_the_previous_file_and_leaves_nothing(tmp_path: Path) -> None:
    before = make_report([result("a", judge=4, match=1.0)])
    target = tmp_path / "r.json"
    write_report(target, before)
    old = target.read_bytes()
    staged = stage(OUTPUTS_BY_FIELD["report"], Path("r.json"), target)
    with pytest.raises(AttributeError):
        write(staged, None, OutputContext())  # type: ignore[arg-type]  # no report to render
    assert target.read_bytes() == old
    assert read_report(target).instances[0].id == "builtin/a"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"], "no temporary file is left"


def test_an_output_that_cannot_be_staged_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("a file where a folder should be")
    with pytest.raises(NotADirectoryError):
        stage(OUTPUTS_BY_FIELD["plots"], Path("out/plots"), tmp_path / "out" / "plots")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
