"""Every other writer of the product goes through the one output guard (issue 36).

``pau compare --json``, ``pau judge-check --output``, ``pau import-reference -o``,
``pau plot --out/--html`` and ``pau init DIR`` (``pau merge``'s cases are in
``test_merge_refuses.py``): no output is an input of the command, a FIFO, a device or a
symbolic-link loop, each refused through the real ``pau`` command before anything is
written (and, for judge-check, before any model call), the inputs' bytes unchanged. The
cases that blocked for ever before run in a subprocess under a timeout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.cli.init import TEMPLATES, templates_dir
from pytest_pau.cli.main import main
from pytest_pau.llm.cache.cache_file import FILENAME
from pytest_pau.models import Report, RunInfo
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.cli import reference_files as ref
from tests.cli.test_merge_refuses import contents, item
from tests.plugin.toy import judge_reply, write_toy

CHECKED = "Checked before anything was written"
FIFO = "is a named pipe (FIFO), not a regular file"
LOOP = "cannot be resolved: it is a symbolic-link loop"


def write_reports(folder: Path) -> list[Path]:
    paths = []
    for name, judge in (("a.json", 4.0), ("b.json", 3.0)):
        run = RunInfo(
            plugin_version="1", model=name, judge_model="j", coder_model="c", dataset="d",
            split="test", mode="interactive", seed=0, max_iterations=20,
        )  # fmt: skip
        report = Report(run=run, instances=[item(i, judge) for i in ("s/a", "s/b", "s/c")])
        path = folder / name
        path.write_text(report.model_dump_json(indent=1))
        paths.append(path)
    return paths


def pau_subprocess(folder: Path, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pau", *map(str, argv)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,  # before: open() on the FIFO waited for a reader or writer for ever
    )


def loop_at(folder: Path) -> Path:
    loop = folder / "loop.json"
    loop.symlink_to(loop)
    return loop


# -- pau compare --json -------------------------------------------------------------------


def test_compare_json_never_overwrites_a_report_compared(tmp_path: Path, capsys) -> None:
    a, b = write_reports(tmp_path)
    before = contents(a, b)
    assert main(["compare", str(a), str(b), "--json", str(a)]) == 2
    err = capsys.readouterr().err
    assert (
        f"--json={str(a)!r} and report {str(a)!r}: writing --json would overwrite a report " in err
    )
    assert f"compared ({str(a.resolve())!r}); give them different paths. {CHECKED}" in err
    assert contents(a, b) == before  # was: a.json replaced by the comparison


def test_compare_json_into_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    a, b = write_reports(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    run = pau_subprocess(tmp_path, "compare", a, b, "--json", fifo)
    assert run.returncode == 2, run.stderr
    assert f"--json={str(fifo)!r}: {str(fifo)!r} {FIFO}" in run.stderr
    assert run.stdout == ""  # refused before any report was read
    assert fifo.is_fifo()


def test_compare_json_on_a_symlink_loop_is_a_usage_error(tmp_path: Path, capsys) -> None:
    a, b = write_reports(tmp_path)
    loop = loop_at(tmp_path)
    assert main(["compare", str(a), str(b), "--json", str(loop)]) == 2
    err = capsys.readouterr().err
    assert f"--json={str(loop)!r}: {str(loop)!r} {LOOP}" in err
    assert "Traceback" not in err


# -- pau judge-check --output ---------------------------------------------------------------


def judge_check(llm: ScriptedLLM, folder: Path, dataset: Path, output: Path, *more: str) -> int:
    return main(
        [
            "judge-check",
            f"--pau-judge-model={llm.model}",
            f"--pau-judge-api-base={llm.api_base}",
            f"--pau-dataset={dataset}",
            f"--pau-cache-dir={folder / 'cache'}",
            "-n",
            "2",
            "--output",
            str(output),
            *more,
        ]
    )


def test_judge_check_output_never_overwrites_the_dataset_even_with_overwrite(
    tmp_path: Path, capsys
) -> None:
    dataset = write_toy(tmp_path)
    before = dataset.read_bytes()
    with ScriptedLLM([(MARKERS["judge"], judge_reply)]) as llm:
        assert judge_check(llm, tmp_path, dataset, dataset, "--overwrite") == 2
        assert llm.requests == 0
    err = capsys.readouterr().err
    assert (
        f"--output={str(dataset)!r} and --pau-dataset={str(dataset)!r}: writing --output would "
        "overwrite the dataset"
    ) in err
    assert "Checked before any model call, so nothing was paid for" in err
    assert dataset.read_bytes() == before  # was: replaced by the check's JSON after the calls


def test_judge_check_output_in_the_cache_is_refused(tmp_path: Path, capsys) -> None:
    dataset = write_toy(tmp_path)
    (tmp_path / "cache").mkdir()
    target = tmp_path / "cache" / FILENAME
    with ScriptedLLM([(MARKERS["judge"], judge_reply)]) as llm:
        assert judge_check(llm, tmp_path, dataset, target, "--overwrite") == 2
        assert llm.requests == 0
    assert "writing --output would overwrite the model cache" in capsys.readouterr().err


def test_judge_check_output_that_is_a_fifo_says_so_before_any_call(tmp_path: Path, capsys) -> None:
    dataset = write_toy(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with ScriptedLLM([(MARKERS["judge"], judge_reply)]) as llm:
        # Was: "exists (an earlier check?) ... pass --overwrite"; with --overwrite, every
        # call made and then a raw OSError.
        assert judge_check(llm, tmp_path, dataset, fifo, "--overwrite") == 2
        assert judge_check(llm, tmp_path, dataset, fifo) == 2
        assert llm.requests == 0
    err = capsys.readouterr().err
    assert err.count(f"--output={str(fifo)!r}: {str(fifo)!r} {FIFO}") == 2
    assert "--overwrite" not in err
    assert fifo.is_fifo()


@pytest.mark.parametrize("where", ["loop", "under a file", "a folder"])
def test_judge_check_output_that_cannot_be_written_is_refused_before_any_call(
    tmp_path: Path, where: str, capsys
) -> None:
    dataset = write_toy(tmp_path)
    if where == "loop":
        output, says = loop_at(tmp_path), LOOP
    elif where == "under a file":
        (tmp_path / "file").write_text("x")
        output, says = tmp_path / "file" / "check.json", "cannot write the file there"
    else:
        output, says = tmp_path / "reports", "cannot write the file there (it is a folder)"
        output.mkdir()
    with ScriptedLLM([(MARKERS["judge"], judge_reply)]) as llm:
        assert judge_check(llm, tmp_path, dataset, output, "--overwrite") == 2
        assert llm.requests == 0  # was: every call made, then a raw OSError
    err = capsys.readouterr().err
    assert f"--output={str(output)!r}: " in err
    assert says in err
    assert "Traceback" not in err


# -- pau import-reference -o ----------------------------------------------------------------


def import_reference(files: dict[str, Path], out: Path, *extra: str) -> int:
    kinds = ("predictions", "description", "code")
    argv = ["import-reference", *(str(files[k]) for k in kinds), "-o", str(out)]
    return main([*argv, "--dataset", str(files["dataset"]), *extra])


@pytest.mark.parametrize(
    ("kind", "option", "what"),
    [
        ("description", "FILE", "a result file read"),
        ("dataset", "--dataset", "the dataset"),
    ],
)
def test_import_reference_never_overwrites_an_input_even_with_force(
    tmp_path: Path, kind: str, option: str, what: str, capsys
) -> None:
    files = ref.write_run(tmp_path / "results")
    before = contents(*(p for p in files.values() if p.is_file()))
    assert import_reference(files, files[kind], "--force") == 2
    err = capsys.readouterr().err
    target = str(files[kind])
    label = f"{option}={target!r}" if option.startswith("-") else f"{option} {target!r}"
    assert f"-o={target!r} and {label}: writing -o would overwrite {what}" in err
    assert CHECKED in err
    assert contents(*before) == before  # was (the dataset): replaced by the report


def test_import_reference_output_that_is_a_fifo_is_left_a_fifo(tmp_path: Path, capsys) -> None:
    files = ref.write_run(tmp_path / "results")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert import_reference(files, fifo, "--force") == 2  # was: a raw OSError after the reading
    err = capsys.readouterr().err
    assert f"-o={str(fifo)!r}: {str(fifo)!r} {FIFO}" in err
    assert fifo.is_fifo()


def test_import_reference_of_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    files = ref.write_run(tmp_path / "results")
    files["code"].unlink()
    os.mkfifo(files["code"])
    out = tmp_path / "r.json"
    run = pau_subprocess(
        tmp_path, "import-reference", files["predictions"], files["code"], "-o", out
    )
    assert run.returncode == 2, run.stderr
    assert (
        f"{str(files['code'])!r} is a named pipe (FIFO), not a regular file; it was not read"
        in (run.stderr)
    )
    assert not out.exists()


@pytest.mark.parametrize("which", ["input", "output"])
def test_import_reference_symlink_loops_are_named(tmp_path: Path, which: str, capsys) -> None:
    files = ref.write_run(tmp_path / "results")
    loop = loop_at(tmp_path)
    if which == "input":
        argv = ["import-reference", str(files["predictions"]), str(loop), "-o", "r.json"]
        says = f"FILE {str(loop)!r}: {str(loop)!r} {LOOP}"
    else:
        argv = ["import-reference", str(files["predictions"]), "-o", str(loop)]
        says = f"-o={str(loop)!r}: {str(loop)!r} {LOOP}"
    assert main(argv) == 2  # was (the input): a raw RuntimeError
    err = capsys.readouterr().err
    assert says in err
    assert "Traceback" not in err


# -- pau plot --out/--html --------------------------------------------------------------------


def test_plot_html_never_overwrites_a_report_drawn(tmp_path: Path, capsys) -> None:
    a, b = write_reports(tmp_path)
    before = contents(a, b)
    plots = tmp_path / "plots"
    assert main(["plot", str(a), str(b), "--out", str(plots), "--html", str(b)]) == 2
    err = capsys.readouterr().err
    assert (
        f"--html={str(b)!r} and report {str(b)!r}: writing --html would overwrite a report " in err
    )
    assert CHECKED in err
    assert contents(a, b) == before  # was: b.json replaced by the HTML page
    assert not plots.exists()  # nothing written first


def test_plot_out_that_holds_a_report_under_a_plots_name_is_refused(tmp_path: Path, capsys) -> None:
    a, _ = write_reports(tmp_path)
    a = a.rename(tmp_path / "scores.png")
    before = a.read_bytes()
    assert main(["plot", str(a), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "writing --out would overwrite a report drawn" in err
    assert a.read_bytes() == before


@pytest.mark.parametrize("option", ["--out", "--html"])
def test_plot_outputs_that_are_fifos_are_refused(tmp_path: Path, option: str, capsys) -> None:
    a, _ = write_reports(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    extra = ["--out", str(tmp_path / "plots")] if option == "--html" else []
    assert main(["plot", str(a), *extra, option, str(fifo)]) == 2
    err = capsys.readouterr().err
    if option == "--out":
        assert (
            f"--out={str(fifo)!r}: {str(fifo)!r} is a named pipe (FIFO), and a folder is needed"
            in err
        )
    else:
        assert f"--html={str(fifo)!r}: {str(fifo)!r} {FIFO}" in err
    assert "Traceback" not in err
    assert fifo.is_fifo()
    assert not (tmp_path / "plots").exists()


def test_plot_out_holding_a_folder_where_a_plot_goes_is_refused(tmp_path: Path, capsys) -> None:
    a, _ = write_reports(tmp_path)
    (tmp_path / "plots" / "scores.png").mkdir(parents=True)
    assert main(["plot", str(a), "--out", str(tmp_path / "plots")]) == 2
    err = capsys.readouterr().err
    assert (
        f"--out={str(tmp_path / 'plots')!r}: cannot write files there "
        f"({str(tmp_path / 'plots' / 'scores.png')!r}, a file it writes, is a folder)"
    ) in err  # was: a raw IsADirectoryError after drawing
    assert "Traceback" not in err


def test_plot_out_on_a_symlink_loop_is_a_usage_error(tmp_path: Path, capsys) -> None:
    a, _ = write_reports(tmp_path)
    loop = loop_at(tmp_path)
    assert main(["plot", str(a), "--out", str(loop)]) == 2
    err = capsys.readouterr().err
    assert f"--out={str(loop)!r}: {str(loop)!r} {LOOP}" in err
    assert "Traceback" not in err


# -- pau init DIR ---------------------------------------------------------------------------


def test_init_says_which_of_the_users_files_force_replaced(tmp_path: Path, capsys) -> None:
    conftest = tmp_path / "conftest.py"
    conftest.write_text("# the user's own fixtures\n")
    assert main(["init", str(tmp_path), "-t", "custom-agent"]) == 2
    assert conftest.read_text() == "# the user's own fixtures\n"
    assert "conftest.py already exists" in capsys.readouterr().err
    assert main(["init", str(tmp_path), "-t", "custom-agent", "--force"]) == 0
    out = capsys.readouterr().out
    assert f"replaced {conftest} (--force: the file that was there is gone)" in out  # was: wrote
    assert "pytest_pau_make_agent" in conftest.read_text()


def test_init_into_a_fifo_is_refused(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["init", str(fifo)]) == 2  # was: a raw FileExistsError
    err = capsys.readouterr().err
    assert f"DIR {str(fifo)!r}: {str(fifo)!r} is a named pipe (FIFO), and a folder is needed" in err
    assert fifo.is_fifo()


def test_init_over_a_fifo_named_conftest_is_refused_even_with_force(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "conftest.py"
    os.mkfifo(fifo)
    assert main(["init", str(tmp_path), "-t", "custom-agent", "--force"]) == 2
    err = capsys.readouterr().err
    assert f"DIR {str(tmp_path)!r}: {str(fifo)!r} {FIFO}" in err  # was: SpecialFileError
    assert "Traceback" not in err
    assert fifo.is_fifo()


def test_init_into_a_symlink_loop_is_a_usage_error(tmp_path: Path, capsys) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main(["init", str(loop)]) == 2
    err = capsys.readouterr().err
    assert f"DIR {str(loop)!r}: {str(loop)!r} {LOOP}" in err
    assert "Traceback" not in err


def test_init_never_writes_over_the_template_itself(capsys) -> None:
    source = templates_dir() / TEMPLATES["custom-agent"][0]
    before = contents(source / "conftest.py")
    assert main(["init", str(source), "-t", "custom-agent", "--force"]) == 2
    err = capsys.readouterr().err
    assert "writing DIR would overwrite the template 'custom-agent'" in err  # was: SameFileError
    assert contents(source / "conftest.py") == before
