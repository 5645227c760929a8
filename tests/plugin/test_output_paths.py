"""Output paths: no output path overwrites a file the run reads or the user
needs (the baseline, pytest's config file, a conftest file, the calibration store), and
none replaces a device, a FIFO or a socket with a regular file; outputs that cannot be
written where asked (in /proc, under a file, onto each other or the dataset) are refused.
Each is a usage error before any model call, and the file is untouched after the run. An
output that fails at the end exits non-zero and keeps the others."""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path

import pytest

from pytest_pau.report.json_report import read_report

BASELINE = '{"run": {"model": "released"}, "instances": []}\n'


def _refused(result: pytest.RunResult, scoring_llm, served: int) -> str:
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert "Traceback" not in text
    assert "PAU summary" not in result.stdout.str()
    assert scoring_llm.requests == served, "no model was called"
    return result.stderr.str()


def test_the_report_never_overwrites_the_baseline(pau_pytester, run_pau, scoring_llm) -> None:
    baseline = pau_pytester.path / "released.json"
    baseline.write_text(BASELINE)
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-baseline=released.json", "--pau-report=released.json")
    err = _refused(result, scoring_llm, served)
    assert (
        "--pau-report='released.json' and --pau-baseline='released.json': writing --pau-report "
        "would overwrite the baseline report"
    ) in err
    assert baseline.read_text() == BASELINE


def test_the_report_never_overwrites_the_ini_file_pytest_read(
    pau_pytester, run_pau, scoring_llm
) -> None:
    ini = pau_pytester.makefile(".ini", myconf="[pytest]\nmarkers =\n    mine: a mark\n")
    before = ini.read_text()
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "-c", "myconf.ini", "--pau-report=myconf.ini")
    err = _refused(result, scoring_llm, served)
    assert "writing --pau-report would overwrite pytest's config file" in err
    assert ini.read_text() == before


@pytest.mark.parametrize(
    ("option", "name", "what"),
    [
        ("--pau-report", "pytest.ini", "a file pytest reads its configuration from"),
        ("--pau-html", "conftest.py", "a conftest file, which pytest imports as code"),
        ("--pau-report", "sub/pyproject.toml", "a file pytest reads its configuration from"),
    ],
)
def test_no_output_takes_the_name_of_a_file_pytest_reads(
    pau_pytester, run_pau, scoring_llm, option, name, what
) -> None:
    pau_pytester.makeini("[pytest]\n")
    pau_pytester.makeconftest("")
    files = {p: p.read_bytes() for p in pau_pytester.path.iterdir() if p.is_file()}
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", f"{option}={name}")
    err = _refused(result, scoring_llm, served)
    base = Path(name).name
    assert f"{option}={name!r}: {base!r} is the name of {what}; writing {option} there" in err
    assert {p: p.read_bytes() for p in files} == files
    assert not (pau_pytester.path / "sub").exists()


def test_the_report_never_replaces_the_calibration_store_even_without_the_cache(
    pau_pytester, run_pau, scoring_llm
) -> None:
    store = pau_pytester.path / ".pau_cache" / "calibration.sqlite3"
    store.parent.mkdir()
    store.write_bytes(b"SQLite format 3\x00 kept")
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-no-cache", "--pau-report=.pau_cache/calibration.sqlite3")
    err = _refused(result, scoring_llm, served)
    assert "writing --pau-report would overwrite the model cache and the calibration store" in err
    assert store.read_bytes() == b"SQLite format 3\x00 kept"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _socket(path: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


def _device(path: Path) -> Path:
    # A character device of our own (null's numbers) reached through a link, never a real
    # one: the writers resolve links, so a broken guard would replace the node it points to.
    node = path.with_name("null-device")
    try:
        os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs root")
    path.symlink_to(node)
    return path


@pytest.mark.parametrize(
    ("make", "option", "kind", "check"),
    [
        (_device, "--pau-report", "a character device", stat.S_ISCHR),
        (_fifo, "--pau-html", "a named pipe (FIFO)", stat.S_ISFIFO),
        (_socket, "--pau-report", "a socket", stat.S_ISSOCK),
    ],
)
def test_no_output_replaces_a_device_a_fifo_or_a_socket(
    pau_pytester, run_pau, scoring_llm, make, option, kind, check
) -> None:
    node = make(pau_pytester.path / "node")
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", f"{option}=node")
    err = _refused(result, scoring_llm, served)
    where = os.path.realpath(node)
    assert (
        f"{option}='node': {where!r} is {kind}, not a regular file; the output is written by "
        "renaming a new file over it, which would replace it."
    ) in err
    assert check(os.stat(node).st_mode), "the node is still what it was"


def test_the_atomic_writer_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    # The last line of defence, for an output that became a FIFO during the run.
    from pytest_pau.paths import write_text_atomic

    fifo = _fifo(tmp_path / "pipe")
    with pytest.raises(OSError, match="exists and is not a regular file; it is left alone"):
        write_text_atomic(fifo, "{}")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_report_in_proc_is_refused_at_configure(run_pau) -> None:
    result = run_pau("-m", "smoke", "--pau-report=/proc/x.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-report='/proc/x.json': cannot write the file there*"])
    assert "PAU summary" not in result.stdout.str()


def test_unwritable_html_folder_is_refused_at_configure(pau_pytester, run_pau) -> None:
    (pau_pytester.path / "afile").touch()
    result = run_pau("-m", "smoke", "--pau-html=afile/r.html")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-html='afile/r.html': cannot write the file there*"])


def test_plots_on_a_file_are_refused_at_configure(pau_pytester, run_pau) -> None:
    (pau_pytester.path / "plots").write_text("not a folder")
    result = run_pau("-m", "smoke", "--pau-plots=plots")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-plots='plots': cannot write files there (it is a file*"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pau-report=toy.jsonl"], "*writing --pau-report would overwrite the dataset*"),
        (["--pau-report=r.out", "--pau-html=r.out"], "*both write*one would overwrite the other*"),
        (["--pau-html=out", "--pau-plots=out"], "*--pau-html writes the file*needs it to be a*"),
        (["--pau-report=r.json", "--junitxml=r.json"], "*both write*"),
    ],
)
def test_colliding_paths_are_refused_before_any_model_call(
    pau_pytester, run_pau, scoring_llm, args, message
) -> None:
    dataset = (pau_pytester.path / "toy.jsonl").read_bytes()
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert (pau_pytester.path / "toy.jsonl").read_bytes() == dataset
    assert scoring_llm.requests == served, "no model was called"


def test_html_write_failure_at_the_end_exits_non_zero_and_keeps_the_report(
    pau_pytester, run_pau
) -> None:
    # The folder is fine at start; a file takes its name while the items run.
    pau_pytester.makeconftest(
        """
        def pytest_runtest_logfinish(nodeid, location):
            open("out", "w").close()
        """
    )
    result = run_pau("-m", "smoke", "--pau-report=r.json", "--pau-html=out/r.html")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*--pau-html='out/r.html': could not write the HTML report*"])
    assert len(read_report(pau_pytester.path / "r.json").instances) == 2


def test_an_output_that_cannot_be_staged_is_in_the_one_verdict_every_output_shows(
    pau_pytester, run_pau
) -> None:
    # The folder is fine at start; a file takes its name while the items run. The HTML
    # cannot be staged, so the one settle of the run's end already knows it: the Markdown
    # and the JSON report, written from that settle, say so, and nothing is settled twice.
    pau_pytester.makeconftest(
        """
        import pytest_pau.run.end as end

        settled = []
        settle = end.settle

        def counting(run_end):
            settled.append(run_end.problems)
            return settle(run_end)

        end.settle = counting

        def pytest_runtest_logfinish(nodeid, location):
            open("out", "w").close()

        def pytest_unconfigure(config):
            print(f"settled {len(settled)} time(s)")
        """
    )
    (pau_pytester.path / "r.md").write_text("the previous summary\n")
    result = run_pau(
        "-m", "smoke", "-s", "--pau-report=r.json", "--pau-html=out/r.html", "--pau-markdown=r.md"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["settled 1 time(s)"])
    report = json.loads((pau_pytester.path / "r.json").read_text())
    verdict = report["summary"]["verdict"]
    assert verdict["status"] == "failed"
    assert any("--pau-html='out/r.html': could not write" in r for r in verdict["reasons"])
    assert "--pau-html='out/r.html': could not write" in (pau_pytester.path / "r.md").read_text()
    leftovers = [p.name for p in pau_pytester.path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
