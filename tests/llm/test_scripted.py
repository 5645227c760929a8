"""ScriptedLLM on its own: real sockets, real HTTP, raw httpx (and litellm) as the client."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from pytest_pau.llm import LLMClient, get_litellm
from pytest_pau.testing import ScriptedLLM


def post(llm: ScriptedLLM, text: str, timeout: float = 10, **extra: object) -> httpx.Response:
    body = {"model": "scripted", "messages": [{"role": "user", "content": text}], **extra}
    return httpx.post(f"{llm.api_base}/chat/completions", json=body, timeout=timeout)


def test_rules_match_in_order_with_usage_in_words() -> None:
    with ScriptedLLM([(r"capital", "Paris"), (r".*", "no idea at all")]) as llm:
        first = post(llm, "the capital of France?").json()
        second = post(llm, "something else").json()
    assert first["choices"][0]["message"]["content"] == "Paris"
    assert second["choices"][0]["message"]["content"] == "no idea at all"
    assert first["usage"] == {"prompt_tokens": 4, "completion_tokens": 1, "total_tokens": 5}
    assert llm.requests == 2
    assert [b["messages"][0]["content"] for b in llm.log] == [
        "the capital of France?",
        "something else",
    ]


def test_callable_script_and_stop_and_max_tokens() -> None:
    with ScriptedLLM(lambda msgs: f"you said: {msgs[-1]['content']} END tail") as llm:
        cut = post(llm, "hi", stop=["END"]).json()["choices"][0]
        short = post(llm, "hi", max_tokens=2).json()["choices"][0]
    assert cut["message"]["content"] == "you said: hi "
    assert short["message"]["content"] == "you said:"
    assert short["finish_reason"] == "length"


def test_unmatched_message_is_a_400_that_shows_it() -> None:
    with ScriptedLLM([(r"^only this$", "ok")]) as llm:
        response = post(llm, "something unexpected")
    assert response.status_code == 400
    assert "no rule matched" in response.json()["error"]["message"]
    assert "something unexpected" in response.json()["error"]["message"]


def test_faults_apply_to_the_scheduled_requests_only() -> None:
    with ScriptedLLM(default="fine") as llm:
        llm.fail("429", retry_after=2).fail("500", times=2)
        statuses = [post(llm, "x") for _ in range(4)]
        llm.fail("401", at=6)
        later = [post(llm, "x").status_code for _ in range(2)]
    assert [r.status_code for r in statuses] == [429, 500, 500, 200]
    assert statuses[0].headers["Retry-After"] == "2"
    assert later == [200, 401]


def test_malformed_body_and_dropped_connection() -> None:
    with ScriptedLLM(default="fine") as llm:
        llm.fail("malformed").fail("drop")
        broken = post(llm, "x")
        with pytest.raises(json.JSONDecodeError):
            broken.json()
        with pytest.raises(httpx.RemoteProtocolError):
            post(llm, "x")
        assert post(llm, "x").status_code == 200
    assert llm.requests == 3


def test_scripted_logprobs_are_openai_shaped() -> None:
    reply = {
        "content": "Rating: 4",
        "logprobs": [
            {"token": "Rating:", "logprob": 0.0},
            {"token": " 4", "logprob": -0.2, "top": {" 4": -0.2, " 5": -1.8}},
        ],
    }
    with ScriptedLLM([(r".*", reply)]) as llm:
        body = post(llm, "rate", logprobs=True, top_logprobs=2).json()
    content = body["choices"][0]["logprobs"]["content"]
    assert [c["token"] for c in content] == ["Rating:", " 4"]
    assert [t["token"] for t in content[1]["top_logprobs"]] == [" 4", " 5"]


@pytest.mark.slow
def test_many_concurrent_requests_are_all_served() -> None:
    with ScriptedLLM(lambda msgs: msgs[-1]["content"].upper(), delay_s=0.05) as llm:
        url = f"{llm.api_base}/chat/completions"

        def ask(http: httpx.Client, i: int) -> str:
            body = {"model": "m", "messages": [{"role": "user", "content": f"n{i}"}]}
            return str(http.post(url, json=body).json()["choices"][0]["message"]["content"])

        with (
            httpx.Client(timeout=10, limits=httpx.Limits(max_connections=64)) as http,
            ThreadPoolExecutor(max_workers=32) as pool,
        ):
            texts = list(pool.map(lambda i: ask(http, i), range(64)))
    assert texts == [f"N{i}" for i in range(64)]
    assert llm.requests == 64


def test_fixture_closes_its_servers(scripted_llm: Callable[..., ScriptedLLM]) -> None:
    llm = scripted_llm(default="x")
    assert post(llm, "hi").status_code == 200
    assert llm.model == "openai/scripted"
    assert llm.api_base.startswith("http://127.0.0.1:")


def test_bad_arguments_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="openai/<name>"):
        ScriptedLLM(model="anthropic/x")
    with ScriptedLLM() as llm, pytest.raises(ValueError, match="expected one of"):
        llm.fail("418")


@pytest.mark.slow
def test_in_flight_counts_are_exact_under_concurrent_clients() -> None:
    clients = 32
    # The delay outlasts the spread of the arrivals, even on a loaded 2-core machine.
    with ScriptedLLM(default="ok", delay_s=1.0) as llm:
        url = f"{llm.api_base}/chat/completions"
        gate = threading.Barrier(clients)

        def ask(http: httpx.Client) -> int:
            gate.wait()
            body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
            return http.post(url, json=body).status_code

        started = time.monotonic()
        with (
            httpx.Client(timeout=30, limits=httpx.Limits(max_connections=clients)) as http,
            ThreadPoolExecutor(max_workers=clients) as pool,
        ):
            statuses = list(pool.map(lambda _: ask(http), range(clients)))
        wall = time.monotonic() - started
        busy, overlap = llm.busy_seconds, llm.overlap(wall)
        # Then one at a time: these never overlap the burst or each other.
        for _ in range(2):
            post(llm, "again")
    assert statuses == [200] * clients
    assert llm.max_in_flight == clients
    assert llm.in_flight == 0
    burst, later = llm.exchanges[:clients], llm.exchanges[clients:]
    assert all(e.status == 200 and (e.duration or 0) >= 1.0 for e in burst)
    assert busy == pytest.approx(sum(e.duration or 0 for e in burst))
    assert overlap == pytest.approx(busy / wall)
    assert overlap > 2  # one at a time would be at most 1
    assert llm.busy_seconds >= busy + 2 * 1.0
    assert min(e.start for e in later) >= max(e.end or 0 for e in burst)


@pytest.mark.slow
def test_one_at_a_time_is_an_overlap_of_one_at_most() -> None:
    with ScriptedLLM(default="ok", delay_s=0.05) as llm:
        for _ in range(4):
            post(llm, "hi")
    assert llm.max_in_flight == 1
    assert 0 < llm.overlap() <= 1.0
    assert [e.number for e in llm.exchanges] == [1, 2, 3, 4]


@pytest.mark.slow
def test_llmclient_threads_all_reach_the_server_at_once() -> None:
    threads = 16
    with ScriptedLLM(default="ok", delay_s=1.5) as llm:
        client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
        # The first request of an endpoint and model goes alone: its answer says whether
        # the server announces a quota to pace by (llm/pacing.py). This one does not.
        client.complete([{"role": "user", "content": "first"}])
        gate = threading.Barrier(threads)

        def ask(i: int) -> str:
            gate.wait()
            return client.complete([{"role": "user", "content": f"n{i}"}]).text

        with ThreadPoolExecutor(max_workers=threads) as pool:
            texts = list(pool.map(ask, range(threads)))
    assert texts == ["ok"] * threads
    assert llm.max_in_flight == threads
    assert llm.requests == threads + 1


def _reset_connection(sock: socket.socket) -> None:
    """Close with an RST (linger 0), as a killed client or a cancelled request does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _raw_request(port: int) -> socket.socket:
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
    sock = socket.create_connection(("127.0.0.1", port))
    head = f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
    sock.sendall(head.encode() + body)
    return sock


def _wait_idle(llm: ScriptedLLM, requests: int) -> None:
    deadline = time.monotonic() + 10
    while (llm.requests < requests or llm.in_flight) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.1)  # the handler thread's last words, if any, come after in_flight drops


@pytest.mark.slow
def test_a_client_that_hangs_up_prints_no_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedLLM(default="word " * 20_000, delay_s=0.3) as llm:
        # 1. Reset while the answer is being prepared: the write fails.
        sock = _raw_request(llm.port)
        time.sleep(0.1)
        _reset_connection(sock)
        _wait_idle(llm, 1)
        # 2. A client timeout closes the connection mid-answer.
        with pytest.raises(httpx.TimeoutException):
            post(llm, "hi", timeout=0.1)
        _wait_idle(llm, 2)
        # 3. Reset on an idle keep-alive connection, after a full answer.
        sock = _raw_request(llm.port)
        sock.settimeout(10)
        received = b""
        while b"word word" not in received:
            received += sock.recv(65536)
        _reset_connection(sock)
        _wait_idle(llm, 3)
        assert post(llm, "still serving").status_code == 200
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "Exception occurred" not in err
    assert llm.exchanges[0].client_gone
    assert llm.exchanges[0].status == 200
    assert not llm.exchanges[2].client_gone


def test_served_identity_is_configurable() -> None:
    litellm = get_litellm()
    with ScriptedLLM(
        default="hi", served_model="vllm-qwen-7b-awq", system_fingerprint="fp_abc"
    ) as llm:
        models = httpx.get(f"{llm.api_base}/models", timeout=10).json()
        raw = post(llm, "hello").json()
        response = litellm.completion(
            model=llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            messages=[{"role": "user", "content": "hello"}],
            max_retries=0,
        )
    assert [m["id"] for m in models["data"]] == ["vllm-qwen-7b-awq"]
    assert raw["model"] == "vllm-qwen-7b-awq"
    assert raw["system_fingerprint"] == "fp_abc"
    assert response.system_fingerprint == "fp_abc"
    assert response.model == "vllm-qwen-7b-awq"
    with ScriptedLLM(default="hi") as plain:
        models = httpx.get(f"{plain.api_base}/models", timeout=10).json()
        raw = post(plain, "hello").json()
    assert [m["id"] for m in models["data"]] == ["scripted"]
    assert raw["model"] == "scripted"
    assert "system_fingerprint" not in raw
