"""The ``scripted_llm`` fixture's body: a factory of started servers, all closed at the end."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pytest_pau.llm.scripted.server import Rules, ScriptedLLM


def scripted_llm_factory() -> Iterator[Callable[..., ScriptedLLM]]:
    """Generator behind the ``scripted_llm`` fixture: yields a factory, closes all at the end."""
    servers: list[ScriptedLLM] = []

    def make(rules: Rules | None = None, **kwargs: Any) -> ScriptedLLM:
        server = ScriptedLLM(rules, **kwargs).start()
        servers.append(server)
        return server

    try:
        yield make
    finally:
        for server in servers:
            server.close()
