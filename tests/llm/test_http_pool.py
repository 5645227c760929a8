"""Each thread's requests keep their own connection (issue 12: many episodes at once).

With litellm's shared pool, more than 20 requests in flight made httpcore close every idle
connection: nearly every request opened a new one, and a request could be left waiting
out its whole timeout on a connection closed under it (see ``llm/http_pool.py``).
"""

from __future__ import annotations

import threading
import types
from collections.abc import Callable

import httpx
import pytest

from pytest_pau.llm import LLMClient, get_litellm, limits
from pytest_pau.llm.http_pool import PerThreadTransport, install
from pytest_pau.testing import ScriptedLLM

Factory = Callable[..., LLMClient]


@pytest.mark.slow
def test_many_threads_through_litellm_keep_one_connection_each(
    scripted_llm: Callable[..., ScriptedLLM], client_for: Factory
) -> None:
    # 32 requests in flight at once (over httpx's keep-alive limit of 20), 4 rounds each;
    # the threads start their first request together, and a 0.5 s answer keeps them
    # overlapping even on a loaded machine.
    server = scripted_llm([(r"^echo (.*)", lambda msgs: msgs[-1]["content"][5:])], delay_s=0.5)
    client = client_for(server, no_cache=True)
    threads, rounds = 32, 4
    answers: dict[tuple[int, int], str] = {}
    failures: list[BaseException] = []
    start = threading.Barrier(threads)

    def work(k: int) -> None:
        try:
            start.wait(30)
            for r in range(rounds):
                text = client.complete([{"role": "user", "content": f"echo {k}-{r}"}]).text
                answers[(k, r)] = text
        except BaseException as exc:  # reported below, with the thread's number
            failures.append(exc)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert not failures, failures[:3]
    assert answers == {(k, r): f"{k}-{r}" for k in range(threads) for r in range(rounds)}
    assert server.max_in_flight > 20, (
        f"the test must put more than 20 requests in flight; it put {server.max_in_flight}"
    )
    assert server.requests == threads * rounds
    # One connection per thread, kept alive between its rounds (the shared pool opened
    # 122 for these 128 requests).
    assert server.connections <= threads, f"{server.connections} connections for {threads} threads"


def test_litellm_gets_the_per_thread_pool_and_a_users_own_session_is_kept() -> None:
    litellm = get_litellm()
    assert isinstance(litellm.client_session, httpx.Client)
    assert isinstance(litellm.client_session._transport, PerThreadTransport)

    own = httpx.Client()
    configured = types.SimpleNamespace(client_session=own)
    assert install(configured) is False
    assert configured.client_session is own
    own.close()

    fresh = types.SimpleNamespace(client_session=None)
    assert install(fresh) is True
    assert isinstance(fresh.client_session._transport, PerThreadTransport)
    fresh.client_session.close()


def test_pools_of_ended_threads_are_closed(scripted_llm: Callable[..., ScriptedLLM]) -> None:
    server = scripted_llm(default="hi")
    transport = PerThreadTransport()
    http = httpx.Client(transport=transport)
    body = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}

    def call() -> None:
        http.post(f"{server.api_base}/chat/completions", json=body).raise_for_status()

    together = threading.Barrier(3)

    def call_and_wait() -> None:
        call()
        together.wait(10)  # all three alive, each with its pool

    threads = [threading.Thread(target=call_and_wait) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert transport.pools == 3
    call()  # a new thread's pool: the three ended threads' pools are closed first
    assert transport.pools == 1
    assert server.connections == 4
    http.close()
    assert transport.pools == 0


def test_a_slot_is_held_for_the_exchange_and_back_before_litellm_reads_the_answer(
    scripted_llm: Callable[..., ScriptedLLM],
    client_for: Factory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A slot of the endpoint's limiter stands for a request at the endpoint. It is taken
    # when the request leaves our pool and given back when the answer's last byte is in,
    # not after litellm's own work on the answer: under load that work kept slots idle
    # that waiting requests could have used (issue 34).
    limits.configure(4)
    try:
        at_server: list[int] = []
        server = scripted_llm(
            [(r"^ping", lambda msgs: at_server.append(limiter().in_flight) or "pong")]
        )
        client = client_for(server, no_cache=True)
        endpoint = limits.endpoint_of(server.model, server.api_base)

        def limiter() -> limits.AdaptiveLimiter:
            found = limits.limiter_for(endpoint)
            assert found is not None
            return found

        litellm = get_litellm()
        real = litellm.completion
        after_litellm: list[int] = []

        def completion(**kwargs: object) -> object:
            response = real(**kwargs)
            after_litellm.append(limiter().in_flight)  # litellm has read and built the answer
            return response

        monkeypatch.setattr(litellm, "completion", completion)
        # The first attempt learns that the endpoint's requests leave through our pools;
        # the second takes its slot there.
        for k in range(2):
            assert client.complete([{"role": "user", "content": f"ping {k}"}]).text == "pong"
        assert at_server == [1, 1], "the slot is held while the endpoint answers"
        assert after_litellm == [0, 0], "the slot is back once the answer is in"
        assert limiter().in_flight == 0
        assert limiter().most_in_flight == 1
    finally:
        limits.configure(None)
