"""Hardening (issue 31), usage: a bad environment variable, ini boolean, concurrency or API
base is one usage error naming it, before any model call; never a traceback, an
INTERNALERROR, or every item an infrastructure error."""

from __future__ import annotations

import pytest

from pytest_pau.plugin.preflight import concurrency_limit


def _usage_error(result: pytest.RunResult) -> str:
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert "INTERNALERROR" not in text
    assert "Traceback" not in text
    assert "PAU summary" not in text
    return result.stderr.str()


@pytest.mark.parametrize(
    ("variable", "expected"),
    [
        (
            "PAU_LLM_TIMEOUT_S",
            "a number > 0 (seconds one model request may take); fix it, or "
            "unset it for the default 600",
        ),
        (
            "PAU_RETRY_ATTEMPTS",
            "a whole number >= 1 (calls of one request at most); fix it, or "
            "unset it for the default 6",
        ),
        (
            "PAU_SANDBOX_MEMORY_MB",
            "a whole number >= 0 (MiB the caps of live sandboxes may sum "
            "to per process; 0: 40% of memory); fix it, or unset it for the default 0",
        ),
    ],
)
def test_a_numeric_environment_variable_that_is_no_number_is_a_usage_error(
    run_pau, scoring_llm, monkeypatch, variable, expected
) -> None:
    monkeypatch.setenv(variable, "abc")
    served = scoring_llm.requests
    err = _usage_error(run_pau("-m", "smoke", subprocess=True))
    assert f"environment variable {variable}='abc': expected {expected}" in err
    assert scoring_llm.requests == served


def test_an_ini_boolean_that_is_no_boolean_names_the_key(pau_pytester, run_pau) -> None:
    pau_pytester.makeini("[pytest]\npau_no_cache = maybe\n")
    err = _usage_error(run_pau("-m", "smoke"))
    assert (
        "tox.ini: pau_no_cache: invalid truth value 'maybe'; expected true or false (also "
        "yes/no, on/off, 1/0); fix the value or pass --pau-no-cache on the command line"
    ) in err


def test_concurrency_past_what_the_machine_runs_is_refused_naming_the_limit(
    run_pau, scoring_llm
) -> None:
    limit, why = concurrency_limit()
    served = scoring_llm.requests
    for value in (limit + 1, 200000):
        err = _usage_error(run_pau("-m", "smoke", f"--pau-concurrency={value}"))
        assert (
            f"--pau-concurrency={value}: more episodes than one process can run at once here; "
            f"the most is {limit} ({why}). Pass --pau-concurrency={limit} or less"
        ) in err
    assert scoring_llm.requests == served
    run_pau("-m", "smoke", f"--pau-concurrency={limit}").assert_outcomes(passed=2)


@pytest.mark.parametrize(
    "option", ["--pau-api-base", "--pau-judge-api-base", "--pau-coder-api-base"]
)
@pytest.mark.parametrize("value", ["not-a-url", "localhost:8000/v1", "http://:80/v1"])
def test_an_api_base_that_is_no_url_is_one_usage_error(run_pau, scoring_llm, option, value) -> None:
    served = scoring_llm.requests
    err = _usage_error(run_pau("-m", "smoke", f"{option}={value}"))
    assert (
        f"argument {option}: expected an http(s) URL such as http://localhost:8000/v1, "
        f"got {value!r}"
    ) in err
    assert scoring_llm.requests == served


@pytest.mark.slow
def test_live_sandboxes_stay_within_the_runs_memory_bound(
    pau_pytester, run_pau, monkeypatch
) -> None:
    # Room for one default sandbox (256 MiB) at a time, five episodes at once: they take
    # turns for the sandbox (one nested sandbox per episode may join), and all finish.
    monkeypatch.setenv("PAU_SANDBOX_MEMORY_MB", "256")
    pau_pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            from pytest_pau.sandbox.admission import ADMISSION

            print(f"\\nADMISSION budget={ADMISSION.budget_mb} peak={ADMISSION.peak_mb} "
                  f"waits={ADMISSION.waits} left={ADMISSION.in_use_mb}")
        """
    )
    result = run_pau("--pau-concurrency=5", "-s", subprocess=True)
    result.assert_outcomes(passed=3, failed=1, errors=1)
    line = next(x for x in result.stdout.lines if x.startswith("ADMISSION"))
    fields = dict(part.split("=") for part in line.split()[1:])
    assert fields["budget"] == "256"
    assert int(fields["peak"]) <= 2 * 256, line
    assert int(fields["waits"]) >= 1, line
    assert fields["left"] == "0", line
