"""Fixtures of the model-layer tests: scripted servers, fast retries, a private cache dir."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_pau.llm import Budget, LLMClient, make_client
from pytest_pau.llm.scripted import scripted_llm_factory
from pytest_pau.testing import ScriptedLLM


@pytest.fixture(autouse=True)
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Backoff waits of ~20-40 ms so retry tests take a fraction of a second."""
    monkeypatch.setenv("PAU_RETRY_BASE_S", "0.02")
    monkeypatch.setenv("PAU_RETRY_ATTEMPTS", "4")
    monkeypatch.setenv("PAU_RETRY_MAX_TOTAL_S", "30")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.fixture(name="scripted_llm")
def _scripted_llm() -> Iterator[Callable[..., ScriptedLLM]]:
    """The public fixture of ``pytest_pau.testing``, also when the plugin is not loaded."""
    yield from scripted_llm_factory()


@pytest.fixture
def server(scripted_llm: Callable[..., ScriptedLLM]) -> ScriptedLLM:
    """A server whose model litellm knows the price of, echoing the last message."""
    return scripted_llm(
        [(r"^echo (.*)", lambda msgs: msgs[-1]["content"][5:]), (r".*", "fine, thanks")],
        model="openai/gpt-4o-mini",
    )


@pytest.fixture
def client_for(tmp_path: Path) -> Callable[..., LLMClient]:
    """``client_for(server, no_cache=False, budget=None)``: a client on a private cache dir."""

    def make(
        server: ScriptedLLM, *, no_cache: bool = False, budget: Budget | None = None
    ) -> LLMClient:
        return make_client(
            server.model,
            api_base=server.api_base,
            cache_dir=tmp_path / "cache",
            no_cache=no_cache,
            budget=budget,
        )

    return make
