"""Usage errors before any model call: a missing API key, a bad environment variable, ini
boolean, concurrency or API base is one usage error naming it; never a traceback, an
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
            "a number > 0 and <= 86400 (seconds one model request may take); fix it, or "
            "unset it for the default 600",
        ),
        (
            "PAU_RETRY_ATTEMPTS",
            "a whole number >= 1 (calls of one request at most); fix it, or "
            "unset it for the default 6",
        ),
        (
            "PAU_SANDBOX_MEMORY_MB",
            "a whole number >= 0 (MiB the memory limits of live sandboxes may "
            "sum to per process; 0: 40% of memory); fix it, or unset it for the default 0",
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


@pytest.fixture
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, and any OpenAI call that slipped through would go to a closed local port."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")


def test_missing_api_key_is_a_usage_error_before_any_item(run_pau, no_openai_key) -> None:
    result = run_pau("-m", "smoke", model="gpt-5-mini")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "--pau-model=gpt-5-mini (the model under test): OPENAI_API_KEY is not set" in err
    assert "no item was run" in err
    assert "PAU summary" not in result.stdout.str()
