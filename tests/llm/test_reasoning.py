"""Reasoning models through the real client and litellm: caps that mean visible output.

A scripted stand-in spends 1,500 hidden reasoning tokens before it writes and answers HTTP
200 with empty content and ``finish_reason: "length"`` under a smaller cap, as gpt-5-mini
does. litellm's map knows ``openai/gpt-5-mini`` reasons; ``openai/my-reasoner`` it does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pau.errors import ReasoningBudgetError
from pytest_pau.llm import LLMClient, make_client
from pytest_pau.llm.cache import cache_key
from pytest_pau.llm.endpoint import identity
from pytest_pau.llm.reasoning import DEFAULT_REASONING, ReasoningSpec
from pytest_pau.testing import ScriptedLLM

ASK = [{"role": "user", "content": "Give one input. Reply on one line that starts with INPUT:"}]
ANSWER = "INPUT: (3,)"
THINKS = 1500


def client(llm: ScriptedLLM, **kwargs: object) -> LLMClient:
    return LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key, **kwargs)  # type: ignore[arg-type]


def test_a_known_reasoning_model_gets_its_budget_on_top_of_the_cap() -> None:
    with ScriptedLLM(default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=THINKS) as llm:
        got = client(llm).complete(ASK, max_tokens=128)
    assert got.text == ANSWER
    assert (got.reasoning_tokens, got.completion_tokens, got.attempts) == (THINKS, 2, 1)
    assert got.cost_usd > 0  # litellm prices gpt-5-mini, reasoning tokens included
    [exchange] = llm.exchanges
    assert exchange.cap == 128 + DEFAULT_REASONING.budget


def test_an_unknown_model_that_starves_is_asked_again_with_a_budget(tmp_path: Path) -> None:
    with ScriptedLLM(default=ANSWER, model="openai/my-reasoner", reasoning_tokens=THINKS) as llm:
        c = make_client(llm.model, api_base=llm.api_base, cache_dir=tmp_path)
        got = c.complete(ASK, max_tokens=128)
        assert [e.cap for e in llm.exchanges] == [128, 128 + DEFAULT_REASONING.budget]
        again = make_client(llm.model, api_base=llm.api_base, cache_dir=tmp_path).complete(
            ASK, max_tokens=128
        )
        assert llm.requests == 2  # the re-run is served from the cache, both attempts
    assert got.text == again.text == ANSWER
    assert got.attempts == 2
    assert got.usage().calls == 2
    assert got.usage().reasoning_tokens == 128 + THINKS  # the starved attempt was paid too
    assert c.usage.calls == 2


def test_a_budget_too_small_is_an_error_that_names_the_option() -> None:
    with ScriptedLLM(default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=THINKS) as llm:
        small = client(llm, reasoning=ReasoningSpec(budget=100))
        with pytest.raises(ReasoningBudgetError, match="--pau-reasoning-budget") as info:
            small.complete(ASK, max_tokens=128)
    assert [e.cap for e in llm.exchanges] == [228, 328, 528]  # doubled twice, then given up
    assert "not the model's format failure" in str(info.value)
    assert info.value.spent is not None


def test_reasoning_off_fails_at_once_and_says_how_to_turn_it_on() -> None:
    with ScriptedLLM(default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=THINKS) as llm:
        off = client(llm, reasoning=ReasoningSpec(mode="off"))
        with pytest.raises(ReasoningBudgetError, match="--pau-reasoning=on"):
            off.complete(ASK, max_tokens=128)
        assert llm.requests == 1


def test_the_effort_reaches_the_request_body() -> None:
    with ScriptedLLM(default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=300) as llm:
        client(llm, reasoning=ReasoningSpec(effort="low")).complete(ASK, max_tokens=128)
    assert llm.log[-1]["reasoning_effort"] == "low"


def test_a_visible_answer_cut_short_is_marked_truncated() -> None:
    with ScriptedLLM(default="INPUT: (1, 2, 3, 4, 5, 6)", model="openai/plain") as llm:
        got = client(llm).complete(ASK, max_tokens=3)
    assert got.truncated
    assert not got.starved
    assert got.finish_reason == "length"


def test_thinking_in_the_content_is_kept_apart_from_the_answer() -> None:
    with ScriptedLLM(
        default=ANSWER, model="openai/qwen3", thought="Try an odd number.", think_in_content=True
    ) as llm:
        got = client(llm).complete(ASK, max_tokens=128)
    assert got.text.strip() == ANSWER  # litellm moved the closed <think> block out
    assert got.reasoning == "Try an odd number."


def test_a_model_that_does_not_reason_sends_exactly_what_it_sent_before(tmp_path: Path) -> None:
    with ScriptedLLM(default=ANSWER) as llm:  # openai/scripted: not a reasoning model
        c = make_client(llm.model, api_base=llm.api_base, cache_dir=tmp_path)
        c.complete(ASK, max_tokens=128, seed=3)
        server = identity(llm.api_base, llm.model).key()  # the api_base part (issue 19)
    body = llm.log[-1]
    assert body["max_tokens"] == 128
    assert "max_completion_tokens" not in body
    assert "reasoning_effort" not in body
    old_params = {"temperature": 0.0, "max_tokens": 128, "seed": 3, "stop": None, "logprobs": None}
    assert c.cache is not None
    assert c.cache.get(cache_key(llm.model, ASK, old_params, server=server)) is not None
