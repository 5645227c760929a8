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
        f"environment variable PAU_FLEX_TIMEOUT_S={value!r}: expected a number > 0 (seconds a "
        "flex-tier request may take before it goes to the default tier); fix it, or unset it "
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
        "environment variable PAU_MAX_PAUSE_S='-1': expected a number > 0 (seconds a pause a "
        "provider asks for is waited at most); fix it, or unset it for the default 60"
    ) in result.stderr.str()
    # --collect-only sends nothing: it lists the items.
    assert run_pau("--collect-only", "-q", "-m", "smoke").ret == pytest.ExitCode.OK
