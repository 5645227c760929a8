"""Items that cannot be scored: a streak of one unfixable error stops starting items, an
xdist worker that dies makes its item an error (and the report says so), and an error
names the stage that failed."""

from __future__ import annotations

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM


def test_a_streak_of_one_unfixable_error_stops_starting_items(run_pau) -> None:
    with ScriptedLLM(default="never used") as refusing:
        refusing.fail("401", times=100)
        result = run_pau(f"--pau-judge-api-base={refusing.api_base}", "--pau-concurrency=1", "-rs")
    # toy order: double, add, clamp, tricky, boom; three refused keys in a row stop the run
    # (with --pau-concurrency=N the episodes already in flight finish too).
    result.assert_outcomes(errors=3, skipped=2)
    result.stdout.fnmatch_lines(["*skipped 2: not started: 3 items in a row failed*"])
    assert refusing.requests == 3, "each refused key is asked once, and only three items start"


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
