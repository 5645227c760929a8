"""ScriptedLLM playing a reasoning model: raw HTTP, raw litellm and the real LLMClient."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from pytest_pau.errors import LLMConfigError
from pytest_pau.llm import LLMClient, get_litellm
from pytest_pau.llm.reasoning import DEFAULT_REASONING, ReasoningSpec
from pytest_pau.testing import ScriptedLLM

ANSWER = "The answer is four."  # 4 tokens
ASK = [{"role": "user", "content": "what is two plus two"}]  # 5 tokens
# litellm's price of gpt-5-mini per token (its bundled model map), input and output.
GPT5_MINI_IN, GPT5_MINI_OUT = 2.5e-07, 2e-06


def post(llm: ScriptedLLM, **extra: Any) -> httpx.Response:
    body = {"model": "scripted", "messages": ASK, **extra}
    return httpx.post(f"{llm.api_base}/chat/completions", json=body, timeout=10)


def answer(llm: ScriptedLLM, **extra: Any) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """``(message, finish_reason, usage)`` of one 200 answer."""
    response = post(llm, **extra)
    assert response.status_code == 200, response.text
    body = response.json()
    return body["choices"][0]["message"], body["choices"][0]["finish_reason"], body["usage"]


def test_hidden_reasoning_comes_out_of_the_cap_first() -> None:
    with ScriptedLLM(default=ANSWER, reasoning_tokens=1500) as llm:
        starved = answer(llm, max_completion_tokens=512)
        cut = answer(llm, max_tokens=1502)
        whole = answer(llm, max_completion_tokens=4000)
        uncapped = answer(llm)
    assert starved == (
        {"role": "assistant", "content": ""},
        "length",
        {
            "prompt_tokens": 5,
            "completion_tokens": 512,
            "total_tokens": 517,
            "completion_tokens_details": {"reasoning_tokens": 512},
        },
    )
    assert cut[0]["content"] == "The answer"
    assert cut[1] == "length"
    assert cut[2]["completion_tokens"] == 1502
    assert cut[2]["completion_tokens_details"] == {"reasoning_tokens": 1500}
    assert whole[0]["content"] == ANSWER
    assert whole[1] == "stop"
    assert whole[2]["completion_tokens"] == 1504
    assert uncapped[1:] == whole[1:]
    assert [(e.cap_param, e.cap) for e in llm.exchanges] == [
        ("max_completion_tokens", 512),
        ("max_tokens", 1502),
        ("max_completion_tokens", 4000),
        (None, None),
    ]


def test_reasoning_tokens_per_prompt_and_per_effort() -> None:
    def per_prompt(messages: list[dict[str, Any]]) -> int:
        return 100 if "easy" in messages[-1]["content"] else 1000

    with ScriptedLLM(default=ANSWER, reasoning_tokens=per_prompt) as llm:
        easy = httpx.post(
            f"{llm.api_base}/chat/completions",
            json={"messages": [{"role": "user", "content": "easy one"}], "max_tokens": 500},
        ).json()
        hard = answer(llm, max_tokens=500)
    assert easy["choices"][0]["message"]["content"] == ANSWER
    assert easy["usage"]["completion_tokens_details"] == {"reasoning_tokens": 100}
    assert hard[0]["content"] == ""
    assert hard[2]["completion_tokens_details"] == {"reasoning_tokens": 500}

    levels = {"low": 10, "medium": 600, "high": 3000, None: 600}
    with ScriptedLLM(default=ANSWER, reasoning_tokens=levels) as llm:
        low = answer(llm, max_completion_tokens=512, reasoning_effort="low")
        default = answer(llm, max_completion_tokens=512)
        refused = post(llm, max_completion_tokens=512, reasoning_effort="minimal")
        thinking = answer(llm, max_completion_tokens=512, thinking={"type": "enabled"})
    assert low[0]["content"] == ANSWER
    assert low[2]["completion_tokens"] == 14
    assert default[0]["content"] == ""
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["param"] == "reasoning_effort"
    assert error["code"] == "unsupported_value"
    assert "'minimal'" in error["message"]
    assert "'low', 'medium', 'high'" in error["message"]
    assert thinking[0]["content"] == ""
    assert llm.reasoning_efforts == ["low", None, "minimal", None]
    assert llm.exchanges[3].reasoning == {"thinking": {"type": "enabled"}}


def test_thought_in_the_content_is_visible_text_cut_as_one() -> None:
    with ScriptedLLM(default=ANSWER, thought="two and two make four", think_in_content=True) as llm:
        whole = answer(llm, max_tokens=100)
        unclosed = answer(llm, max_tokens=3)
    assert whole[0]["content"] == "<think>two and two make four</think>\n\nThe answer is four."
    assert whole[1] == "stop"
    # Open models report no reasoning breakdown: it is all completion text.
    assert whole[2] == {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}
    assert unclosed[0]["content"] == "<think>two and two"
    assert unclosed[1] == "length"
    assert unclosed[2]["completion_tokens"] == 3


def test_litellm_moves_a_closed_think_out_of_the_content_only() -> None:
    litellm = get_litellm()
    with ScriptedLLM(default=ANSWER, thought="two and two make four", think_in_content=True) as llm:
        closed, unclosed = (
            litellm.completion(
                model=llm.model,
                api_base=llm.api_base,
                api_key=llm.api_key,
                messages=ASK,
                max_tokens=cap,
                max_retries=0,
            )
            for cap in (100, 3)
        )
        text = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key).complete(ASK).text
    assert closed.choices[0].message.content == "\n\n" + ANSWER
    assert closed.choices[0].message.reasoning_content == "two and two make four"
    # Cut inside the thought: the unclosed tag stays in the content, and litellm's Message
    # has no reasoning_content attribute at all (it deletes the None).
    assert unclosed.choices[0].message.content == "<think>two and two"
    assert unclosed.choices[0].finish_reason == "length"
    assert not hasattr(unclosed.choices[0].message, "reasoning_content")
    assert text.strip() == ANSWER


@pytest.mark.slow
def test_starved_as_400_comes_back_from_litellm_as_an_empty_answer() -> None:
    """GPT-5.x's 400 for a cap without room for one visible token; litellm hides it."""
    litellm = get_litellm()
    with ScriptedLLM(
        default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=1500, starved_as_400=True
    ) as llm:
        refused = post(llm, max_completion_tokens=512)
        no_room = post(llm, max_completion_tokens=1500)
        fits = answer(llm, max_completion_tokens=1501)
        response = litellm.completion(
            model=llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            messages=ASK,
            max_tokens=512,
            max_retries=0,
        )
    assert refused.status_code == 400
    assert "max_tokens or model output limit was reached" in refused.json()["error"]["message"]
    assert no_room.status_code == 400
    assert fits[0]["content"] == "The"
    assert response.choices[0].message.content == ""
    assert response.choices[0].finish_reason == "length"
    assert response.usage.completion_tokens == 0
    assert [e.status for e in llm.exchanges] == [400, 400, 200, 400]


def test_reasoning_content_reaches_litellms_message() -> None:
    def thought(messages: list[dict[str, Any]]) -> str:
        return f"the user asked: {messages[-1]['content']}"

    litellm = get_litellm()
    with ScriptedLLM(default=ANSWER, thought=thought, reasoning_content=True) as llm:
        response = litellm.completion(
            model=llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            messages=ASK,
            max_tokens=100,
            max_retries=0,
        )
    message = response.choices[0].message
    assert message.content == ANSWER
    assert message.reasoning_content == "the user asked: what is two plus two"
    assert response.usage.completion_tokens_details.reasoning_tokens == 8
    assert response.usage.completion_tokens == 12


def test_gpt5_through_raw_litellm_gets_an_empty_priced_answer() -> None:
    """litellm maps max_tokens to max_completion_tokens and bills reasoning as output."""
    litellm = get_litellm()
    with ScriptedLLM(default=ANSWER, model="openai/gpt-5-mini", reasoning_tokens=1500) as llm:
        response = litellm.completion(
            model=llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            messages=ASK,
            max_tokens=512,
            temperature=0,
            reasoning_effort="low",
            drop_params=True,
            max_retries=0,
        )
    assert response.choices[0].message.content == ""
    assert response.choices[0].finish_reason == "length"
    assert response.usage.completion_tokens_details.reasoning_tokens == 512
    assert response._hidden_params["response_cost"] == pytest.approx(
        5 * GPT5_MINI_IN + 512 * GPT5_MINI_OUT
    )
    sent = llm.log[0]
    assert sent["max_completion_tokens"] == 512
    assert "max_tokens" not in sent
    assert "temperature" not in sent  # dropped: gpt-5 takes only temperature=1
    assert llm.reasoning_efforts == ["low"]


def test_gpt5_through_llmclient_spends_reasoning_out_of_its_cap() -> None:
    # The fields OpenAI refuses for reasoning models: what LLMClient sends must pass.
    strict = ("max_tokens", "temperature", "stop", "logprobs", "top_logprobs")
    with ScriptedLLM(
        default=ANSWER,
        model="openai/gpt-5-mini",
        reasoning_tokens={None: 100},
        unsupported_params=strict,
    ) as llm:
        # litellm's map knows gpt-5-mini reasons: its calls get the budget on top of the cap.
        client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
        whole = client.complete(ASK, max_tokens=512, stop=["END"], logprobs=2)
        # Told it does not reason, the cap is the visible cap alone and the reasoning eats it.
        off = LLMClient(
            llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            reasoning=ReasoningSpec(mode="off"),
        )
        cut = off.complete(ASK, max_tokens=102)
    assert whole.text == ANSWER
    assert (whole.completion_tokens, whole.reasoning_tokens) == (4, 100)
    assert whole.cost_usd == pytest.approx(5 * GPT5_MINI_IN + 104 * GPT5_MINI_OUT)
    assert cut.text == "The answer"
    assert cut.truncated
    assert (cut.completion_tokens, cut.reasoning_tokens) == (2, 100)
    assert [(e.cap_param, e.cap, e.status) for e in llm.exchanges] == [
        ("max_completion_tokens", 512 + DEFAULT_REASONING.budget, 200),
        ("max_completion_tokens", 102, 200),
    ]


def test_unsupported_params_get_openais_400_and_llmclient_does_not_retry() -> None:
    with ScriptedLLM(default=ANSWER, unsupported_params=["max_tokens", "temperature"]) as llm:
        refused = post(llm, max_tokens=10)
        cold = post(llm, temperature=0)
        assert post(llm, temperature=1, max_completion_tokens=10).status_code == 200
        # "openai/scripted" is no model litellm knows to be a reasoning one: max_tokens goes out.
        client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
        with pytest.raises(LLMConfigError, match="max_completion_tokens"):
            client.complete(ASK, max_tokens=10)
        assert llm.requests == 4
    assert refused.status_code == 400
    assert refused.json()["error"]["param"] == "max_tokens"
    assert refused.json()["error"]["code"] == "unsupported_parameter"
    assert "Use 'max_completion_tokens' instead" in refused.json()["error"]["message"]
    assert cold.status_code == 400
    assert "Only the default (1) value is supported" in cold.json()["error"]["message"]


def test_bad_reasoning_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="pass one"):
        ScriptedLLM(reasoning_tokens=10, thought="hmm")
    with pytest.raises(ValueError, match="choose one"):
        ScriptedLLM(reasoning_tokens=10, think_in_content=True, reasoning_content=True)
    with pytest.raises(ValueError, match="list of field names"):
        ScriptedLLM(unsupported_params="max_tokens")
