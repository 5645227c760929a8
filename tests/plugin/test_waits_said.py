"""A provider asking for a day's pause, as a pytest run meets it: the run ends, and says why
it waited (the mechanics are in ``tests/llm/test_waits_bounded.py``)."""

from __future__ import annotations

import pytest

from pytest_pau.testing import ScriptedLLM

from .test_concurrency import RULES, args, write_dataset


def test_a_429_asking_for_a_day_ends_the_run_and_is_said(
    pau_pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_MAX_PAUSE_S", "1")
    write_dataset(pau_pytester.path, 2)
    # rpm=: every answer carries the quota's headers, so this 429 names the quota.
    with ScriptedLLM(RULES, rpm=60_000) as llm:
        llm.fail("429", at=2, headers={"retry-after": "86400"})
        # A subprocess with a timeout: was, every request after the 429 waited 86,400 s.
        result = pau_pytester.runpytest_subprocess(
            *args(llm, "--pau-concurrency=1", "--pau-no-cache"), timeout=240
        )
    # The item whose request met the 429 gave up at once (the pause is past the retry
    # cap); the other one ran after a 1 s pause.
    result.assert_outcomes(failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*WaitWarning: waiting 1 s: 127.0.0.1:* openai/scripted asked for 86400 s "
            "(retry-after of a 429 that names the quota); a pause a provider asks for is "
            "waited at most 1 s (PAU_MAX_PAUSE_S)",
        ]
    )
