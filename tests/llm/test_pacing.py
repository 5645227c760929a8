"""Pacing under a provider's quota, through the real litellm path against ScriptedLLM quotas.

The server enforces its quota as providers do (token buckets, 429 with ``retry-after-ms``,
``x-ratelimit-*`` on every answer) and records, for every request, how full its bucket
was on arrival: a request that arrived to an empty bucket is a 429 the client caused.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from pytest_pau.errors import LLMConfigError
from pytest_pau.llm import LLMClient, limits, pacing
from pytest_pau.llm.accounting import usage_scope
from pytest_pau.llm.quota_headers import Bucket, QuotaReading
from pytest_pau.testing import ScriptedLLM


@pytest.fixture(autouse=True)
def run_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What a pytest run configures: a connection cap of 8, no known quota.

    The server runs in the test's process, on a shared 2-core machine: a request may reach
    it a few hundred milliseconds after the pacer let it go, far more than across a
    network, so the quota kept in hand against that is larger here.
    """
    monkeypatch.setattr(pacing, "MARGIN_S", 0.25)
    limits.configure(8)
    pacing.configure(None, None, 1)
    yield
    limits.configure(None)
    pacing.configure(None, None)


def client(llm: ScriptedLLM) -> LLMClient:
    return LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)


def burst(c: LLMClient, threads: int, each: int, max_tokens: int = 8) -> float:
    """``threads`` threads asking ``each`` questions at once; the wall time."""
    gate = threading.Barrier(threads)

    def ask(i: int) -> None:
        gate.wait()
        for k in range(each):
            c.complete([{"role": "user", "content": f"q {i} {k}"}], max_tokens=max_tokens)

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(ask, range(threads)))
    return time.monotonic() - start


def test_a_server_announcing_two_remaining_gets_no_third_before_its_reset() -> None:
    # 240 RPM is 4 requests a second, enforced per 0.75 s: a bucket of 3. After the first
    # answer it announces "remaining 2, reset 250ms": two may go at once, a third only
    # when the bucket has refilled one, 0.25 s after the first arrived.
    with ScriptedLLM(default="ok", rpm=240, burst_s=0.75) as llm:
        c = client(llm)
        wall = burst(c, threads=6, each=2)
        first = llm.exchanges[0]
        assert first.quota is not None
        assert first.quota.headers["x-ratelimit-remaining-requests"] == "2"
        assert first.quota.headers["x-ratelimit-reset-requests"] == "250ms"
        assert llm.exchanges[3].start >= first.start + 0.25 - 0.01
        # (Unpaced, 6 threads at once meet a bucket of 3: half of them are refused. Paced,
        # on a loaded machine one request in a dozen may still arrive a little early.)
        assert llm.refused <= 1, [
            e.quota for e in llm.exchanges if e.quota and not e.quota.admitted
        ]
    # 12 requests, 3 at once, then 4 a second: not faster than the quota allows.
    assert wall >= (12 - 3) / 4 - 0.1
    stats = pacing.all_stats()[0]
    assert stats.rpm == pytest.approx(240)
    assert stats.source == "headers"
    assert stats.waits.get("requests", 0) >= 6


@pytest.mark.slow
def test_the_token_quota_paces_by_prompt_and_cap() -> None:
    # 3,000 tokens a minute (50 a second), a bucket of 100: every request is charged its
    # 3 prompt words + a cap of 40 by the server, and estimated as chars / 4 + 40 here.
    with ScriptedLLM(default="ok", tpm=3000, burst_s=2) as llm:
        c = client(llm)
        wall = burst(c, threads=4, each=2, max_tokens=40)
        assert llm.refused == 0
        assert all(e.quota and e.quota.tokens == 43 for e in llm.exchanges)
    assert wall >= (8 * 43 - 100) / 50 - 0.3
    stats = pacing.all_stats()[0]
    assert stats.tpm == pytest.approx(3000)
    assert stats.waits.get("tokens", 0) >= 3
    assert stats.wait_s["tokens"] > 1.0


def test_anthropic_style_headers_are_kept_too() -> None:
    with ScriptedLLM(default="ok", rpm=240, burst_s=0.75, ratelimit_headers="anthropic") as llm:
        c = client(llm)
        wall = burst(c, threads=6, each=2)
        assert "anthropic-ratelimit-requests-reset" in llm.exchanges[0].quota.headers  # type: ignore[union-attr]
        assert llm.refused <= 1
    assert wall >= (12 - 3) / 4 - 0.1
    assert pacing.all_stats()[0].rpm == pytest.approx(240)


def test_a_quota_429_waits_its_retry_after_and_keeps_the_concurrency() -> None:
    with ScriptedLLM(default="ok", rpm=60, burst_s=2) as llm:
        c = client(llm)
        c.complete([{"role": "user", "content": "first"}], max_tokens=4)
        # Another client of the same account spends what is left.
        with httpx.Client() as other:
            body = {"model": "scripted", "messages": [{"role": "user", "content": "x"}]}
            while other.post(f"{llm.api_base}/chat/completions", json=body).status_code == 200:
                pass
        start = time.monotonic()
        with usage_scope() as usage:
            c.complete([{"role": "user", "content": "second"}], max_tokens=4)
        waited = time.monotonic() - start
    limiter = limits.limiter_for(c.endpoint)
    assert limiter is not None
    assert limiter.limit == 8, "a quota 429 halves nothing"
    assert usage.rate_limited == 1
    assert usage.waits["429"] == 1  # its retry-after, counted for the summary
    assert waited >= usage.wait_s["429"] > 0


def test_a_throttling_429_without_quota_headers_still_halves() -> None:
    with ScriptedLLM(default="ok") as llm:
        llm.fail("429", times=1, retry_after=0.05)
        c = client(llm)
        c.complete([{"role": "user", "content": "q"}])
    limiter = limits.limiter_for(c.endpoint)
    assert limiter is not None
    assert limiter.lowest == 4
    assert limiter.rate_limited == 1


@pytest.mark.parametrize("kind", ["503", "529"])
def test_congestion_holds_every_request_for_its_retry_after_and_halves(kind: str) -> None:
    with ScriptedLLM(default="ok", delay_s=0.05) as llm:
        c = client(llm)
        c.complete([{"role": "user", "content": "warm"}])
        llm.fail(kind, times=1, retry_after=0.6, at=6)
        burst(c, threads=4, each=5)
        faulted = next(e for e in llm.exchanges if e.status == int(kind))
        assert faulted.end is not None
        assert any(e.start > faulted.end + 0.6 for e in llm.exchanges), "the run went on"
        # Once the 503/529 had reached the client (0.2 s of grace on a loaded machine: a
        # request already on its way may still arrive), no thread started a request to the
        # endpoint before the retry-after had passed.
        held = [e for e in llm.exchanges if faulted.end + 0.2 < e.start < faulted.end + 0.55]
        assert held == []
    limiter = limits.limiter_for(c.endpoint)
    assert limiter is not None
    assert limiter.congested == 1
    assert limiter.lowest == 4
    assert limiter.rate_limited == 0


def test_billing_429_is_final_at_once() -> None:
    with ScriptedLLM(default="ok") as llm:
        llm.fail("insufficient_quota", times=5)
        with pytest.raises(LLMConfigError, match=r"insufficient_quota.*not retried"):
            client(llm).complete([{"role": "user", "content": "q"}])
        assert llm.requests == 1


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limit_recovers_a_slot_per_good_second_not_per_round_trip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    limiter = limits.AdaptiveLimiter("x", 64)
    for _ in range(4):  # four congestion windows: 64 -> 4
        limiter.acquire()
        limiter.release("congestion")
        clock.now += limits.BACKOFF_WINDOW_S
    assert limiter.limit == 4
    clock.now = 2000.0
    limiter.acquire()
    limiter.release("congestion")  # the fifth halving starts the clock: 2
    for second in range(1, 49):  # one answer a second (a slow model): +1 each
        clock.now = 2000.0 + second
        limiter.acquire()
        limiter.release("ok")
    assert limiter.limit == 50
    clock.now += 30  # 30 quiet seconds, then one good answer
    limiter.acquire()
    limiter.release("ok")
    assert limiter.limit == 64


def test_pacer_splits_a_known_quota_and_announced_levels_between_workers() -> None:
    pacer = pacing.Pacer("x m", rpm=1200, share=2)  # 20 a second, 10 for this worker
    start = time.monotonic()
    for _ in range(20):
        pacer.admit(1)
    assert time.monotonic() - start >= (20 - 10) / 10 - 0.1
    assert pacer.stats().rpm == pytest.approx(1200)
    ticket = pacer.admit(1)
    # The account has 100 left: this worker may count on half.
    pacer.observe(ticket, QuotaReading(requests=Bucket(6000, 100, 1.0)))
    assert pacer.requests.level <= 50 + 1


def test_a_user_quota_paces_without_headers() -> None:
    pacing.configure(600, None, 1)  # --pau-max-rpm=600: 10 a second
    with ScriptedLLM(default="ok", delay_s=0.3) as llm:
        wall = burst(client(llm), threads=6, each=5)
        assert llm.max_in_flight >= 2  # no probe: the quota is known
        assert llm.refused == 0
    assert wall >= (30 - 10) / 10 - 0.1
    assert pacing.all_stats()[0].source == "--pau-max-rpm/tpm"


def test_unmetered_servers_are_not_paced_after_their_first_answer() -> None:
    # 1 s answers: time enough for the other seven to be sent on a busy machine.
    with ScriptedLLM(default="ok", delay_s=1.0) as llm:
        c = client(llm)
        burst(c, threads=8, each=1)
        # The first went alone, then the rest at once: counted, not timed (a paced burst
        # never has 7 in flight; a busy machine only stretches the wall time).
        assert llm.max_in_flight == 7
    assert pacing.all_stats() == []


def test_time_in_an_unmetered_pacers_queue_is_no_quota_wait() -> None:
    from pytest_pau.llm.pacing import Pacer
    from pytest_pau.llm.quota_headers import QuotaReading

    pacer = Pacer("127.0.0.1:1 openai/m")
    pacer.observe(pacer.admit(10), QuotaReading())  # answered without headers: settled
    # A busy machine: the request waits 50 ms for the pacer's lock though nothing holds it.
    with pacer._cond:
        waiter = threading.Thread(target=pacer.admit, args=(10,))
        waiter.start()
        time.sleep(0.05)
    waiter.join(5)
    assert pacer.waits == {}, "counted as a wait for the provider's quota"


def test_a_free_slot_reached_late_is_no_connections_wait() -> None:
    limiter = limits.AdaptiveLimiter("127.0.0.1:1", 4)
    got: list[tuple[float, str]] = []
    with limiter._cond:  # a busy machine: the lock is slow to come, every slot is free
        waiter = threading.Thread(target=lambda: got.append(limiter.acquire()))
        waiter.start()
        time.sleep(0.05)
    waiter.join(5)
    [(waited, why)] = got
    assert waited >= 0.04
    assert why == "", "counted as waiting for --pau-max-connections"
