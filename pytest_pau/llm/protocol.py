"""The completion protocol: what agents, scorers and the trainer need of a model client."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pytest_pau.models import Completion


class SupportsComplete(Protocol):
    """The part of :class:`pytest_pau.llm.LLMClient` agents and scorers use."""

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int = 0,
        stop: list[str] | None = None,
        logprobs: int | None = None,
    ) -> Completion:
        """One chat completion."""
        ...
