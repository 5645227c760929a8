"""Errors the model client does not retry: a missing key (naming the variable, per model and
role) and a Retry-After past the retry budget (naming the wait asked and the cap)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.errors import LLMConfigError, LLMUnavailableError
from pytest_pau.llm import LLMClient, make_client
from pytest_pau.testing import ScriptedLLM

Factory = Callable[..., LLMClient]


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def test_missing_key_is_not_retried_and_says_which_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # litellm 1.110 reports the OpenAI SDK's "Missing credentials" as an HTTP 500, which the
    # status-based policy used to retry. No request leaves: the SDK refuses before sending,
    # and anything that slipped through would hit a closed local port.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PAU_RETRY_BASE_S", "30")
    client = make_client("gpt-5-mini", cache_dir=tmp_path / "cache")
    with pytest.raises(LLMConfigError):
        client.complete(user("warm up"))  # litellm's first call imports its provider code
    start = time.monotonic()
    with pytest.raises(LLMConfigError, match="has no API key") as info:
        client.complete(user("hello"))
    # One backoff would take 30 s; the bound leaves a busy machine a wide margin.
    assert time.monotonic() - start < 15, "no backoff wait: the key is missing, not the server"
    assert "OPENAI_API_KEY" in str(info.value)
    assert "Not retried" in str(info.value)


def test_retry_after_beyond_the_cap_says_the_asked_wait_and_the_cap(
    server: ScriptedLLM, client_for: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_RETRY_MAX_TOTAL_S", "5")
    server.fail("429", times=5, retry_after=3600)
    with pytest.raises(LLMUnavailableError) as info:
        client_for(server).complete(user("echo x"))
    message = str(info.value)
    assert "asked to wait 3600 s" in message
    assert "5 s of waiting per call (PAU_RETRY_MAX_TOTAL_S)" in message
    assert server.requests == 1


def test_missing_keys_names_the_variable_per_model_and_role(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pytest_pau.llm.credentials import Role, missing_keys

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    roles = [
        Role("the model under test", "--pau-model", "gpt-5-mini"),
        Role("the judge", "--pau-judge-model", "anthropic/claude-3-5-haiku-latest"),
        Role("the coder", "--pau-coder-model", "anthropic/claude-3-5-haiku-latest"),
        Role("a served one", "--pau-model", "openai/local", api_base="http://127.0.0.1:1/v1"),
    ]
    found = {m.model: m for m in missing_keys(roles)}
    assert set(found) == {"gpt-5-mini", "anthropic/claude-3-5-haiku-latest"}
    assert found["gpt-5-mini"].variables == ("OPENAI_API_KEY",)
    claude = found["anthropic/claude-3-5-haiku-latest"]
    assert [r.name for r in claude.roles] == ["the judge", "the coder"]
    assert "ANTHROPIC_API_KEY is not set" in claude.message()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-set")
    assert [m.model for m in missing_keys(roles)] == ["anthropic/claude-3-5-haiku-latest"]
