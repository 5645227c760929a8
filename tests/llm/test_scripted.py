"""ScriptedLLM on its own: real sockets, real HTTP, raw httpx as the client."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from pytest_pau.testing import ScriptedLLM


def post(llm: ScriptedLLM, text: str, **extra: object) -> httpx.Response:
    body = {"model": "scripted", "messages": [{"role": "user", "content": text}], **extra}
    return httpx.post(f"{llm.api_base}/chat/completions", json=body, timeout=10)


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
