"""LLMClient through the real litellm path against ScriptedLLM: cache, retries, errors, cost."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from pytest_pau.errors import LLMConfigError, LLMUnavailableError
from pytest_pau.llm import LLMClient, get_litellm
from pytest_pau.testing import ScriptedLLM

Factory = Callable[..., LLMClient]


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def test_answer_carries_text_tokens_cost_and_latency(
    server: ScriptedLLM, client_for: Factory
) -> None:
    answer = client_for(server).complete(user("echo three little words"))
    assert answer.text == "three little words"
    assert (answer.prompt_tokens, answer.completion_tokens) == (4, 3)
    assert answer.model == "openai/gpt-4o-mini"
    assert answer.cost_usd > 0
    assert answer.latency_s > 0
    assert not answer.cached


def test_cache_hit_is_identical_and_makes_no_request(
    server: ScriptedLLM, client_for: Factory
) -> None:
    client = client_for(server)
    first = client.complete(user("echo cached words"), max_tokens=50, seed=3)
    served = server.requests
    second = client.complete(user("echo cached words"), max_tokens=50, seed=3)
    assert server.requests == served == 1
    assert second.cached
    assert second.text == first.text
    assert (second.prompt_tokens, second.completion_tokens) == (
        first.prompt_tokens,
        first.completion_tokens,
    )
    assert second.cost_usd == 0.0, "a cache hit spends nothing"
    assert client.usage.calls == 2
    assert client.usage.cache_hits == 1


def test_cache_survives_a_new_client_and_a_new_server_port(
    scripted_llm: Callable[..., ScriptedLLM], client_for: Factory
) -> None:
    # The same server identity on a new port shares its answers (tests/llm/test_cache_identity.py
    # has the servers that must not share).
    same = {"model": "openai/gpt-4o-mini", "served_model": "gpt-4o-mini-2024-07-18"}
    one = scripted_llm(default="first answer", **same)
    client_for(one).complete(user("q"))
    two = scripted_llm(default="second answer", **same)
    again = client_for(two).complete(user("q"))
    assert again.text == "first answer"
    assert two.requests == 0


@pytest.mark.parametrize(
    "change",
    [{"temperature": 0.7}, {"seed": 1}, {"max_tokens": 7}, {"stop": ["x"]}, {"logprobs": 2}],
)
def test_every_parameter_is_part_of_the_cache_key(
    server: ScriptedLLM, client_for: Factory, change: dict[str, object]
) -> None:
    client = client_for(server)
    client.complete(user("echo a"))
    client.complete(user("echo a"), **change)  # type: ignore[arg-type]
    assert server.requests == 2


def test_no_cache_always_calls(server: ScriptedLLM, client_for: Factory) -> None:
    client = client_for(server, no_cache=True)
    client.complete(user("echo a"))
    client.complete(user("echo a"))
    assert server.requests == 2
    assert client.cache is None


def test_429_then_200_waits_as_retry_after_says(server: ScriptedLLM, client_for: Factory) -> None:
    server.fail("429", retry_after=1)
    client = client_for(server)
    planned: list[float] = []
    real_sleep = client._sleep

    def sleep(seconds: float) -> None:
        planned.append(seconds)
        real_sleep(seconds)

    client._sleep = sleep  # type: ignore[method-assign]
    answer = client.complete(user("echo after the wait"))
    assert answer.text == "after the wait"
    assert server.requests == 2
    # What the client chose to wait (not the wall clock, which a busy machine stretches),
    # and that the server saw the retry no sooner than it asked.
    assert len(planned) == 1
    assert 1.0 <= planned[0] < 1.5, (
        f"planned {planned[0]:.2f} s; Retry-After said 1 s (base backoff is 0.02 s)"
    )
    first, second = server.exchanges
    assert first.end is not None
    assert second.start - first.end >= 1.0


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["500", "503", "malformed", "drop"])
def test_transient_faults_are_retried(server: ScriptedLLM, client_for: Factory, kind: str) -> None:
    server.fail(kind, times=2)
    assert client_for(server).complete(user("echo survived")).text == "survived"
    assert server.requests == 3


def test_persistent_500_ends_with_a_clear_error(server: ScriptedLLM, client_for: Factory) -> None:
    server.fail("500", times=10)
    with pytest.raises(LLMUnavailableError) as info:
        client_for(server).complete(user("echo never"))
    message = str(info.value)
    assert "'openai/gpt-4o-mini'" in message
    assert "HTTP 500" in message
    assert "4 attempt(s)" in message
    assert server.requests == 4


def test_persistent_malformed_body_is_an_unavailable_error(
    server: ScriptedLLM, client_for: Factory
) -> None:
    server.fail("malformed", times=10)
    with pytest.raises(LLMUnavailableError, match="4 attempt"):
        client_for(server).complete(user("echo never"))


def test_total_wait_cap_stops_before_a_long_retry_after(
    server: ScriptedLLM, client_for: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_RETRY_MAX_TOTAL_S", "2")
    server.fail("429", times=5, retry_after=30)
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError, match="HTTP 429"):
        client_for(server).complete(user("echo x"))
    # No wait at all, not one of 30 s: the bound leaves a busy machine its margin.
    assert time.monotonic() - start < 15
    assert server.requests == 1


def test_401_fails_at_once_and_names_the_key_variable(
    server: ScriptedLLM, client_for: Factory
) -> None:
    server.fail("401", times=5)
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY") as info:
        client_for(server).complete(user("echo x"))
    assert "HTTP 401" in str(info.value)
    assert server.requests == 1, "a refused key is not retried"


def test_404_names_the_model_and_the_fix(server: ScriptedLLM, client_for: Factory) -> None:
    server.fail("404")
    with pytest.raises(LLMConfigError, match=r"'openai/gpt-4o-mini'.*not found.*model string"):
        client_for(server).complete(user("echo x"))
    assert server.requests == 1


def test_bad_request_is_not_retried(
    scripted_llm: Callable[..., ScriptedLLM], client_for: Factory
) -> None:
    llm = scripted_llm([(r"^known$", "ok")])
    with pytest.raises(LLMConfigError, match="no rule matched"):
        client_for(llm).complete(user("unknown"))
    assert llm.requests == 1


def test_errors_are_never_cached(server: ScriptedLLM, client_for: Factory) -> None:
    client = client_for(server)
    server.fail("500", times=4)
    with pytest.raises(LLMUnavailableError):
        client.complete(user("echo later"))
    assert len(client.cache or []) == 0
    assert client.complete(user("echo later")).text == "later"
    assert server.requests == 5


def test_cost_and_tokens_add_up(server: ScriptedLLM, client_for: Factory) -> None:
    prices = get_litellm().model_cost["gpt-4o-mini"]
    client = client_for(server)
    answers = [client.complete(user(f"echo {'w ' * n}")) for n in (1, 5, 20)]
    client.complete(user(f"echo {'w ' * 5}"))  # a hit: counted as a call, costs nothing
    prompt = sum(a.prompt_tokens for a in answers)
    completion = sum(a.completion_tokens for a in answers)
    assert (prompt, completion) == (1 + 5 + 20 + 3, 1 + 5 + 20)
    expected = (
        prompt * prices["input_cost_per_token"] + completion * prices["output_cost_per_token"]
    )
    assert client.usage.cost_usd == pytest.approx(expected)
    assert client.usage.prompt_tokens == prompt + 6
    assert (client.usage.calls, client.usage.cache_hits) == (4, 1)


def test_unpriced_model_costs_zero_without_failing(
    scripted_llm: Callable[..., ScriptedLLM], client_for: Factory
) -> None:
    answer = client_for(scripted_llm(default="hi")).complete(user("x"))
    assert answer.cost_usd == 0.0
    assert answer.text == "hi"


def test_logprobs_come_back_through_litellm(
    scripted_llm: Callable[..., ScriptedLLM], client_for: Factory
) -> None:
    reply = {
        "content": "Rating: 4",
        "logprobs": [
            {"token": "Rating:", "logprob": 0.0},
            {"token": " 4", "logprob": -0.5, "top": {" 4": -0.5, " 5": -1.0}},
        ],
    }
    answer = client_for(scripted_llm([(r".*", reply)])).complete(user("rate"), logprobs=2)
    assert answer.logprobs == [
        {"token": "Rating:", "logprob": 0.0, "top": {"Rating:": 0.0}},
        {"token": " 4", "logprob": -0.5, "top": {" 4": -0.5, " 5": -1.0}},
    ]


def test_explicit_api_key_is_sent(scripted_llm: Callable[..., ScriptedLLM]) -> None:
    llm = scripted_llm(default="hi")
    client = LLMClient(llm.model, api_base=llm.api_base, api_key="sk-mine")
    assert client.complete(user("x")).text == "hi"
    assert client.cache is None


def test_unpriced_model_is_looked_up_once_then_priced_at_zero(
    scripted_llm: Callable[..., ScriptedLLM],
    client_for: Factory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    litellm = get_litellm()
    lookups: list[str] = []
    real = litellm.completion_cost

    def counting(**kwargs: object) -> float:
        lookups.append("x")
        return float(real(**kwargs))

    monkeypatch.setattr(litellm, "completion_cost", counting)
    client = client_for(scripted_llm(default="hi"), no_cache=True)
    answers = [client.complete(user(f"x{n}")) for n in range(3)]
    assert [a.cost_usd for a in answers] == [0.0, 0.0, 0.0]
    assert len(lookups) == 1, "a model litellm cannot price is looked up once per client"


def test_user_litellm_callbacks_still_see_every_call(
    server: ScriptedLLM, client_for: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = threading.Event()

    def on_success(*args: object) -> None:
        seen.set()

    monkeypatch.setattr(get_litellm(), "success_callback", [on_success])
    client_for(server, no_cache=True).complete(user("echo logged"))
    assert seen.wait(10), "a success_callback registered with litellm must still run"


def test_no_success_log_is_built_when_nobody_reads_it(
    server: ScriptedLLM, client_for: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from litellm.litellm_core_utils.litellm_logging import Logging

    logged: list[object] = []
    monkeypatch.setattr(Logging, "success_handler", lambda self, *a, **k: logged.append(a))
    answer = client_for(server, no_cache=True).complete(user("echo quiet"))
    time.sleep(0.1)  # litellm would hand the log to a background thread
    assert answer.cost_usd > 0, "litellm still prices the call"
    assert logged == [], "litellm built a success log with no callback to read it (0.3 ms a call)"
