"""Hardening (issue 15): configuration mistakes fail before any model call, outputs never
overwrite each other, a crashed worker is an error, model text cannot drive the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

ESC = "\x1b"


@pytest.fixture
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, and any OpenAI call that slipped through would go to a closed local port."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")


# -- credentials ------------------------------------------------------------------------


def test_missing_api_key_is_a_usage_error_before_any_item(run_pau, no_openai_key) -> None:
    result = run_pau("-m", "smoke", model="gpt-5-mini")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "--pau-model=gpt-5-mini (the model under test): OPENAI_API_KEY is not set" in err
    assert "no item was run" in err
    assert "PAU summary" not in result.stdout.str()


def test_a_streak_of_one_unfixable_error_stops_starting_items(run_pau) -> None:
    with ScriptedLLM(default="never used") as refusing:
        refusing.fail("401", times=100)
        result = run_pau(f"--pau-judge-api-base={refusing.api_base}", "--pau-concurrency=1", "-rs")
    # toy order: double, add, clamp, tricky, boom; three refused keys in a row stop the run
    # (with --pau-concurrency=N the episodes already in flight finish too).
    result.assert_outcomes(errors=3, skipped=2)
    result.stdout.fnmatch_lines(["*skipped 2: not started: 3 items in a row failed*"])
    assert refusing.requests == 3, "each refused key is asked once, and only three items start"


# -- output paths ---------------------------------------------------------------------------


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


# -- crashed worker -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_killed_xdist_worker_makes_its_item_an_error_and_the_report_says_so(
    pau_pytester, run_pau
) -> None:
    pau_pytester.makeconftest(
        """
        import os, signal

        def pytest_runtest_call(item):
            if item.nodeid.endswith("[toy/add]") and os.environ.get("PYTEST_XDIST_WORKER"):
                os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    result = run_pau("-m", "smoke", "-n", "2", "--pau-report=r.json", subprocess=True)
    result.assert_outcomes(passed=1, errors=1)
    out = result.stdout.str()
    assert "ERROR pau::test_pau[toy/add]" in out
    result.stdout.fnmatch_lines(["*xdist worker gw* died while running toy/add*"])
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted is True
    add = next(i for i in report.instances if i.id == "toy/add")
    assert add.failure_mode == "infrastructure"
    assert "WorkerCrash: pytest-xdist worker 'gw" in (add.error or "")


# -- hostile model text ---------------------------------------------------------------------


def test_control_characters_of_model_text_are_escaped_in_the_terminal(
    pau_pytester, run_pau
) -> None:
    # The oracle agent answers with the gold text: here it clears the screen and sets the
    # window title. The scripted judge rates tricky's answer 2, so it is in the failure text.
    rows = [json.loads(line) for line in (pau_pytester.path / "toy.jsonl").read_text().splitlines()]
    hostile = f"Counts things.{ESC}[2J{ESC}]0;pwned\x07 Hidden\rshown"
    for row in rows:
        if row["id"] == "tricky":
            row["description"] = row["description"] + hostile
    (pau_pytester.path / "toy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_pau("-k", "tricky", "--pau-report=r.json", subprocess=True)
    out = result.stdout.str() + result.stderr.str()
    assert "toy/tricky" in out
    assert ESC not in out
    assert "\x07" not in out
    assert "\\x1b[2J" in out
    report = read_report(pau_pytester.path / "r.json")
    assert hostile in (report.instances[0].prediction or ""), "the report keeps the raw text"
    for args in ([], ["--full"]):
        show = subprocess.run(
            [sys.executable, "-m", "pytest_pau", "show", "r.json", "toy/tricky", *args],
            cwd=pau_pytester.path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert show.returncode == 0, show.stderr
        for raw in (ESC, "\x07", "\r"):
            assert raw not in show.stdout
        assert "\\x1b]0;pwned\\x07" in show.stdout


# -- which stage failed ---------------------------------------------------------------------


def test_an_error_names_the_stage_that_failed(pau_pytester, run_pau) -> None:
    # Judge and coder share one model name (openai/scripted): only the coder's server refuses.
    with ScriptedLLM(default="never used") as refusing:
        refusing.fail("401", times=100)
        result = run_pau(
            "-k", "double", f"--pau-coder-api-base={refusing.api_base}", "--pau-report=r.json"
        )
    result.assert_outcomes(errors=1)
    error = read_report(pau_pytester.path / "r.json").instances[0].error or ""
    assert error.startswith("LLMConfigError in the coder stage: Model 'openai/scripted'"), error
    result.stdout.fnmatch_lines(["*toy/double: LLMConfigError in the coder stage*"])
