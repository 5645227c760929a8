"""Every wait a provider asks for is bounded and said, through litellm against ScriptedLLM.

A 429 asking for a day, an announced reset of ``1000000h``, an answer that drips a byte at
a time: each is held to ``PAU_MAX_PAUSE_S`` / ``PAU_LLM_TIMEOUT_S``, and a long pause is a
:class:`~pytest_pau.errors.WaitWarning` naming what was asked and what is waited.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from pytest_pau.errors import LLMUnavailableError, WaitWarning
from pytest_pau.llm import LLMClient, RetryPolicy, limits, pacing
from pytest_pau.llm.quota_headers import MAX_RESET_S, read_quota
from pytest_pau.testing import ScriptedLLM

QUESTION = [{"role": "user", "content": "q"}]


@pytest.fixture(autouse=True)
def run_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What a pytest run configures, with pauses capped at 1 s (``PAU_MAX_PAUSE_S=1``)."""
    monkeypatch.setenv("PAU_MAX_PAUSE_S", "1")
    limits.configure(8)
    pacing.configure(None, None, 1)
    yield
    limits.configure(None)
    pacing.configure(None, None)


def client(llm: ScriptedLLM, **kwargs: object) -> LLMClient:
    return LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key, **kwargs)  # type: ignore[arg-type]


def finishes(c: LLMClient, within_s: float) -> float:
    """Ask once in a thread; the seconds it took. Fails (and cancels it) past ``within_s``:
    a wait that is not bounded must fail the test, not hang it."""
    cancel = threading.Event()
    c.cancel = cancel
    done: list[float] = []
    failed: list[BaseException] = []
    start = time.monotonic()

    def ask() -> None:
        try:
            c.complete(QUESTION, max_tokens=4)
        except BaseException as exc:
            failed.append(exc)
        else:
            done.append(time.monotonic() - start)

    worker = threading.Thread(target=ask, daemon=True)
    worker.start()
    worker.join(within_s)
    if worker.is_alive():
        cancel.set()
        worker.join(5)
        pytest.fail(f"the request was still waiting after {within_s} s")
    assert done, f"the request failed: {failed}"
    return done[0]


@pytest.mark.parametrize(
    ("header", "asked"),
    [({"retry-after": "86400"}, "86400"), ({"retry-after-ms": "1e12"}, "1e+09")],
)
def test_a_quota_429_asking_for_a_day_holds_later_requests_only_the_capped_pause(
    header: dict[str, str], asked: str
) -> None:
    # rpm=: every answer carries the quota's headers, so the 429 names the quota.
    with ScriptedLLM(default="ok", rpm=60_000) as llm:
        llm.fail("429", at=2, headers=header)
        c = client(llm)
        c.complete(QUESTION, max_tokens=4)
        # The request itself gives up at once: what it asked for is past the retry cap.
        gives_up = pytest.raises(LLMUnavailableError, match=f"asked to wait {float(asked):.0f} s")
        with pytest.warns(WaitWarning) as said, gives_up:
            c.complete([{"role": "user", "content": "second"}], max_tokens=4)
        # Was: every later request waited the whole 86,400 s.
        took = finishes(client(llm), within_s=30)
    assert took >= 0.5, "the capped pause was not kept"
    [warning] = said
    assert str(warning.message) == (
        f"waiting 1 s: {c.endpoint} openai/scripted asked for {asked} s (retry-after of a "
        "429 that names the quota); a pause a provider asks for is waited at most 1 s "
        "(PAU_MAX_PAUSE_S)"
    )


def test_an_announced_reset_of_a_million_hours_holds_a_request_only_the_capped_pause() -> None:
    spent = {
        "x-ratelimit-limit-requests": "60",
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": "1000000h",
    }
    with ScriptedLLM(default="ok") as llm:
        llm.fail("delay", delay_s=0, at=1, headers=spent)
        c = client(llm)
        c.complete(QUESTION, max_tokens=4)
        with pytest.warns(WaitWarning) as said:
            # Was: 7.2e6 s (60 requests over a million hours); a day at most is read now,
            # and the wait it implies is capped at PAU_MAX_PAUSE_S.
            took = finishes(c, within_s=30)
    assert took >= 0.5
    [warning] = said
    message = str(warning.message)
    assert message.startswith(f"waiting 1 s: {c.endpoint} openai/scripted asked for ")
    assert message.endswith(
        " s (to refill the requests quota its rate-limit headers announce); a pause a "
        "provider asks for is waited at most 1 s (PAU_MAX_PAUSE_S)"
    )
    stats = pacing.all_stats()[0]
    assert stats.waits == {"requests": 1}


def test_a_reset_is_read_as_a_day_at_most() -> None:
    reading = read_quota(
        {
            "x-ratelimit-limit-requests": "60",
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": "1000000h",
        }
    )
    assert reading.requests.reset_s == MAX_RESET_S == 86400
    assert reading.requests.refill_rate() == pytest.approx(60 / 86400)


def test_a_short_pause_is_not_said(recwarn: pytest.WarningsRecorder) -> None:
    with ScriptedLLM(default="ok", rpm=60_000) as llm:
        llm.fail("429", at=1, headers={"retry-after": "0.3"})
        client(llm).complete(QUESTION, max_tokens=4)
    assert not [w for w in recwarn if issubclass(w.category, WaitWarning)]


def test_a_body_dripping_a_byte_at_a_time_ends_at_the_attempts_deadline() -> None:
    with ScriptedLLM(default="ok") as llm:
        # ~250 bytes, one every 0.5 s: two minutes, every read well within its timeout.
        llm.fail("drip", delay_s=0.5)
        c = client(llm, timeout_s=2, retry=RetryPolicy(max_attempts=1))
        start = time.monotonic()
        with pytest.raises(LLMUnavailableError) as failed:
            c.complete(QUESTION, max_tokens=4)
        took = time.monotonic() - start
    # Was: open for the whole two minutes. (A margin for a loaded machine.)
    assert took < 20, took
    assert (
        "last error: no whole answer within the attempt's 2 s (PAU_LLM_TIMEOUT_S bounds the "
        "whole exchange: connecting, sending and every byte of the answer) (litellm reports "
        "it as HTTP 408 Timeout)"
    ) in str(failed.value)


def test_the_deadline_leaves_a_slow_but_whole_answer_alone() -> None:
    with ScriptedLLM(default="ok", delay_s=0.5) as llm:
        c = client(llm, timeout_s=5, retry=RetryPolicy(max_attempts=1))
        assert c.complete(QUESTION, max_tokens=4).text == "ok"
        assert c.complete([{"role": "user", "content": "again"}], max_tokens=4).text == "ok"


def test_an_overloaded_answer_asking_for_a_day_is_capped_and_said() -> None:
    with ScriptedLLM(default="ok") as llm:
        llm.fail("503", at=1, retry_after=86400)
        c = client(llm)
        gives_up = pytest.raises(LLMUnavailableError, match="asked to wait 86400 s")
        with pytest.warns(WaitWarning) as said, gives_up:
            c.complete(QUESTION, max_tokens=4)
        took = finishes(client(llm), within_s=30)
    assert took >= 0.5
    [warning] = said
    assert str(warning.message) == (
        f"waiting 1 s: {c.endpoint} asked for 86400 s (retry-after of an overloaded answer); "
        "a pause a provider asks for is waited at most 1 s (PAU_MAX_PAUSE_S)"
    )


def test_a_retry_after_of_two_minutes_is_waited_only_the_capped_pause_and_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PAU_RETRY_MAX_TOTAL_S", "300")  # the default: 120 s is within it
    # A 429 that names no quota (throttling): the request itself waits before its retry.
    with ScriptedLLM(default="ok") as llm:
        llm.fail("429", at=1, retry_after=120)
        c = client(llm)
        with pytest.warns(WaitWarning) as said:
            took = finishes(c, within_s=60)  # was: 120 s asleep before the retry
    assert took >= 0.5
    assert llm.requests == 2
    [warning] = said
    assert str(warning.message) == (
        f"waiting 1 s: {c.endpoint} asked for 120 s (retry-after of a failed attempt, before "
        "the next); a pause a provider asks for is waited at most 1 s (PAU_MAX_PAUSE_S)"
    )
