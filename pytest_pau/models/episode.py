"""What an episode records: model answers and their usage, the steps, the trajectory."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from pytest_pau.models.instance import CallResult


class Usage(BaseModel):
    """Tokens and money one or many model calls used."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    cache_hits: int = 0

    def add(self, other: Usage) -> None:
        """Accumulate ``other`` into this object."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost_usd += other.cost_usd
        self.calls += other.calls
        self.cache_hits += other.cache_hits


class Completion(BaseModel):
    """One model answer, as the llm client returns it."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    cached: bool = False
    logprobs: list[dict[str, Any]] | None = None
    """Per generated token: ``{"token": str, "logprob": float, "top": {token: logprob}}``."""

    def usage(self) -> Usage:
        """This call as a :class:`Usage`."""
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cost_usd=self.cost_usd,
            calls=1,
            cache_hits=int(self.cached),
        )


StepKind = Literal["reason", "act", "reflect", "incontext", "oracle", "null"]


class Step(BaseModel):
    """One model turn of an episode (and the sandbox call it caused, for ``act``)."""

    kind: StepKind
    iteration: int
    prompt: str
    """The last user message sent for this step."""
    response: str
    """The model's raw reply."""
    parsed_input: str | None = None
    """``act``: the tuple literal taken from the reply, or None on a format failure."""
    format_error: str | None = None
    """Why the reply could not be parsed, when it could not."""
    result: CallResult | None = None
    """``act``: what the sandbox returned."""
    concluded: bool | None = None
    """``reflect``: the YES/NO answer."""
    tokens: Usage = Field(default_factory=Usage)


class Trajectory(BaseModel):
    """Everything one episode did."""

    steps: list[Step] = Field(default_factory=list)
    prediction: str = ""
    """The final description."""
    concluded: bool = False
    """Whether the model said YES before the iteration limit."""
    n_queries: int = 0
    """Sandbox calls the model made (format failures do not count)."""
    usage: Usage = Field(default_factory=Usage)

    def observed(self) -> list[tuple[str, CallResult]]:
        """The (input, result) pairs the model saw from its own queries."""
        return [
            (s.parsed_input, s.result)
            for s in self.steps
            if s.kind == "act" and s.parsed_input is not None and s.result is not None
        ]
