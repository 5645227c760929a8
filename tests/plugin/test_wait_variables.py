"""``PAU_FLEX_TIMEOUT_S`` or ``PAU_MAX_PAUSE_S`` that is no positive number: one usage error
naming it, as every numeric ``PAU_*`` variable (``PAU_FLEX_TIMEOUT_S`` was an INTERNALERROR
from the flex tier's own reader)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("value", ["abc", "nan", "0", "inf"])
def test_a_flex_timeout_that_is_no_positive_number_is_a_usage_error(
    run_pau, scoring_llm, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("PAU_FLEX_TIMEOUT_S", value)
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", "--pau-service-tier=flex")
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert "INTERNALERROR" not in text
    assert "Traceback" not in text
    assert (
        f"environment variable PAU_FLEX_TIMEOUT_S={value!r}: expected a number > 0 and <= 86400 "
        "(seconds a flex-tier request may take before it goes to the default tier); fix it, or unset it "
        "for the default 900"
    ) in result.stderr.str()
    assert scoring_llm.requests == served


def test_a_max_pause_that_is_no_positive_number_is_a_usage_error(
    run_pau, scoring_llm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_MAX_PAUSE_S", "-1")
    result = run_pau("-m", "smoke")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        "environment variable PAU_MAX_PAUSE_S='-1': expected a number > 0 and <= 86400 "
        "(seconds a pause a provider asks for is waited at most); fix it, or unset it for the default 60"
    ) in result.stderr.str()
    # --collect-only sends nothing: it lists the items.
    assert run_pau("--collect-only", "-q", "-m", "smoke").ret == pytest.ExitCode.OK


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("PAU_LLM_TIMEOUT_S", "600"),
        ("PAU_RETRY_BASE_S", "1"),
        ("PAU_RETRY_MAX_TOTAL_S", "300"),
        ("PAU_MAX_PAUSE_S", "60"),
        ("PAU_FLEX_TIMEOUT_S", "900"),
    ],
)
def test_a_seconds_variable_past_a_day_is_a_usage_error(
    run_pau, scoring_llm, monkeypatch: pytest.MonkeyPatch, name: str, default: str
) -> None:
    """Was: ``PAU_LLM_TIMEOUT_S=1e26`` was taken, and every request then failed with
    "timestamp out of range for platform time_t", reported as the provider's HTTP 500."""
    monkeypatch.setenv(name, "1e26")
    served = scoring_llm.requests
    result = run_pau("-m", "smoke")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert f"environment variable {name}='1e26': expected a number " in err
    assert " and <= 86400 (seconds " in err
    assert f"fix it, or unset it for the default {default}" in err
    assert scoring_llm.requests == served
