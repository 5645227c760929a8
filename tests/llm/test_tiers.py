"""``--pau-service-tier=flex``: the flex price, and the way back to the default tier."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.llm import LLMClient, limits
from pytest_pau.llm.accounting import usage_scope
from pytest_pau.testing import ScriptedLLM

#: A model litellm prices at both tiers (flex is half the list price).
PRICED = "openai/gpt-5-mini"


def ask(client: LLMClient, text: str = "q") -> str:
    return client.complete([{"role": "user", "content": text}], max_tokens=16).text


def make(llm: ScriptedLLM, tier: str | None = "flex") -> LLMClient:
    return LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key, service_tier=tier)


def test_flex_is_asked_for_priced_at_half_and_its_saving_counted(
    scripted_llm: Callable[..., ScriptedLLM],
) -> None:
    llm = scripted_llm(default="three words here", model=PRICED)
    flex = make(llm).complete([{"role": "user", "content": "one two"}], max_tokens=16)
    default = make(llm, None).complete([{"role": "user", "content": "one two"}], max_tokens=16)
    assert [e.service_tier for e in llm.exchanges] == ["flex", None]
    assert (flex.service_tier, default.service_tier) == ("flex", "default")
    assert default.cost_usd > 0
    assert flex.cost_usd == pytest.approx(default.cost_usd / 2)
    assert flex.saved_usd == pytest.approx(default.cost_usd / 2)
    assert (flex.usage().flex_calls, default.usage().flex_calls) == (1, 0)


def test_no_flex_capacity_sends_the_same_request_at_the_default_tier_at_once(
    scripted_llm: Callable[..., ScriptedLLM],
) -> None:
    limits.configure(8)
    try:
        llm = scripted_llm(default="ok", model=PRICED, flex_unavailable={1})
        client = make(llm)
        with usage_scope() as usage:
            first = client.complete([{"role": "user", "content": "q"}], max_tokens=16)
            second = client.complete([{"role": "user", "content": "r"}], max_tokens=16)
        limiter = limits.limiter_for(client.endpoint)
    finally:
        limits.configure(None)
    assert [(e.service_tier, e.status) for e in llm.exchanges] == [
        ("flex", 429),
        (None, 200),
        ("flex", 200),
    ]
    assert llm.log[0]["messages"] == llm.log[1]["messages"]
    assert (first.service_tier, second.service_tier) == ("default", "flex")
    assert usage.flex_fallbacks == 1
    assert usage.flex_calls == 1
    assert usage.rate_limited == 0, "no capacity at flex is not the account's quota"
    assert limiter is not None
    assert limiter.lowest == 8


def test_a_slow_flex_answer_times_out_into_the_default_tier(
    scripted_llm: Callable[..., ScriptedLLM], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_FLEX_TIMEOUT_S", "0.5")
    llm = scripted_llm(default="ok", model=PRICED, flex_delay_s=30.0)
    client = make(llm)
    start = time.monotonic()
    answer = client.complete([{"role": "user", "content": "q"}], max_tokens=16)
    # Far below the flex answer's 30 s, far above the 0.5 s timeout and a loaded machine's
    # retry at the default tier (a margin, not a stopwatch).
    assert time.monotonic() - start < 15
    assert answer.service_tier == "default"
    assert [e.service_tier for e in llm.exchanges] == ["flex", None]
    assert client.flex is not None
    assert client.flex.fallbacks == 1


def test_a_model_without_flex_is_not_asked_again(
    scripted_llm: Callable[..., ScriptedLLM],
) -> None:
    llm = scripted_llm(default="ok", model=PRICED, flex_unsupported=True)
    client = make(llm)
    ask(client, "a")
    ask(client, "b")
    assert [(e.service_tier, e.status) for e in llm.exchanges] == [
        ("flex", 400),
        (None, 200),
        (None, 200),
    ]
    assert client.flex is not None
    assert "service_tier" in (client.flex.refused or "")


def test_the_tier_is_not_part_of_the_cache_key(
    scripted_llm: Callable[..., ScriptedLLM], tmp_path: Path
) -> None:
    from pytest_pau.llm import make_client

    llm = scripted_llm(default="ok", model=PRICED)
    question = [{"role": "user", "content": "q"}]
    flex = make_client(llm.model, api_base=llm.api_base, cache_dir=tmp_path, service_tier="flex")
    flex.complete(question, max_tokens=16)
    default = make_client(llm.model, api_base=llm.api_base, cache_dir=tmp_path)
    again = default.complete(question, max_tokens=16)
    assert again.cached
    assert llm.requests == 1
    assert again.usage().flex_calls == 0
    assert again.usage().flex_saved_usd == 0.0
