"""What an episode records: model answers and their usage, the steps, the trajectory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from pytest_pau.models.instance import CallResult


@dataclass
class Observation:
    """One line of the agent's evidence (shown by :func:`pytest_pau.prompting.evidence.observation_line`)."""

    input: str | None
    """The tuple literal called, or None for a reply with no readable input."""
    result: str
    """What came back (value, ``Error: message``), or the format-failure notice."""


_WHEN_SET = (
    "waits",
    "wait_s",
    "local_prompt_sent",
    "local_prompt_evaluated",
    "local_answer_tokens",
    "local_ms",
    "flex_calls",
    "flex_fallbacks",
    "flex_saved_usd",
)


class Usage(BaseModel):
    """Tokens and money one or many model calls used."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    """Tokens of the visible answers."""
    reasoning_tokens: int = 0
    """Hidden reasoning tokens of reasoning models (billed too; in ``cost_usd``)."""
    cost_usd: float = 0.0
    calls: int = 0
    """Answers, from the provider or the cache."""
    cache_hits: int = 0
    """Answers the cache gave, at no cost."""
    cache_hits_other_version: int = 0
    """Of those, answers stored by another plugin or prompts version than the run's."""
    rate_limited: int = 0
    """Attempts the provider refused with a rate limit (HTTP 429) before answering."""
    waits: dict[str, int] = Field(default_factory=dict)
    """Requests that waited before they were sent, by reason: ``requests`` / ``tokens``
    (the quota's pace), ``first answer`` (until the provider said its quota), ``429`` (its
    retry-after), ``congestion`` (a 503/529 retry-after), ``connections``
    (``--pau-max-connections``)."""
    wait_s: dict[str, float] = Field(default_factory=dict)
    """Seconds those requests waited, by the same reasons."""
    local_prompt_sent: int = 0
    """Prompt tokens sent to an embedded model (answers it computed, not cached ones)."""
    local_prompt_evaluated: int = 0
    """Of those, the tokens it evaluated: the rest came from its prefix cache."""
    local_answer_tokens: int = 0
    """Answer tokens an embedded model generated (not cached ones)."""
    local_ms: int = 0
    """Milliseconds those answers took, prompt evaluation included."""
    flex_calls: int = 0
    """Answers served at the flex tier (``--pau-service-tier=flex``)."""
    flex_fallbacks: int = 0
    """Flex requests sent again at the default tier (no flex capacity, timeout, refused)."""
    flex_saved_usd: float = 0.0
    """What the flex answers would have cost more at the default tier's price."""

    @model_serializer(mode="wrap")
    def _lean(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Every step of every item carries a Usage: the counters most runs never use are
        # written only when set, so the report does not grow by them (read back: defaults).
        data: dict[str, Any] = handler(self)
        for name in _WHEN_SET:
            if not data.get(name):
                data.pop(name, None)
        return data

    @property
    def requests(self) -> int:
        """Answers a provider really gave (and was paid for): calls that were no cache hit."""
        return self.calls - self.cache_hits

    def add(self, other: Usage) -> None:
        """Accumulate ``other`` into this object."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.reasoning_tokens += other.reasoning_tokens
        self.cost_usd += other.cost_usd
        self.calls += other.calls
        self.cache_hits += other.cache_hits
        self.cache_hits_other_version += other.cache_hits_other_version
        self.rate_limited += other.rate_limited
        for reason, n in other.waits.items():
            self.waits[reason] = self.waits.get(reason, 0) + n
        for reason, seconds in other.wait_s.items():
            self.wait_s[reason] = self.wait_s.get(reason, 0.0) + seconds
        self.local_prompt_sent += other.local_prompt_sent
        self.local_prompt_evaluated += other.local_prompt_evaluated
        self.local_answer_tokens += other.local_answer_tokens
        self.local_ms += other.local_ms
        self.flex_calls += other.flex_calls
        self.flex_fallbacks += other.flex_fallbacks
        self.flex_saved_usd += other.flex_saved_usd


class Completion(BaseModel):
    """One model answer, as the llm client returns it."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    """Tokens of the visible answer (reasoning tokens are counted apart)."""
    reasoning_tokens: int = 0
    """Hidden reasoning tokens the provider reported (``completion_tokens_details``)."""
    cost_usd: float = 0.0
    """What the answer cost, reasoning included (litellm's price); 0 from the cache."""
    latency_s: float = 0.0
    cached: bool = False
    cached_other_version: bool = False
    """A cache hit stored by another plugin or prompts version (correct: keyed by content)."""
    finish_reason: str | None = None
    """The provider's ``finish_reason`` (``stop``, ``length``...); None when unknown."""
    reasoning: str | None = None
    """Reasoning text the provider returned apart from the answer (``reasoning_content``)."""
    logprobs: list[dict[str, Any]] | None = None
    """Per generated token: ``{"token": str, "logprob": float, "top": {token: logprob}}``."""
    attempts: int = 1
    """Requests this answer took: more than one when the reasoning budget was raised."""
    spent: Usage | None = None
    """With ``attempts > 1``: the usage of every attempt together (what :meth:`usage` reports)."""
    prompt_tokens_evaluated: int | None = None
    """An embedded model's prompt tokens it evaluated (the rest came from its prefix cache);
    None for other models."""
    service_tier: str | None = None
    """The tier the provider says it served the answer at (``flex``, ``default``), if any."""
    saved_usd: float = 0.0
    """At the flex tier: what the answer would have cost more at the default tier."""

    @property
    def truncated(self) -> bool:
        """The visible answer was cut by the token cap (``finish_reason`` ``length``)."""
        return self.finish_reason == "length" and bool(self.text.strip())

    @property
    def starved(self) -> bool:
        """The cap ran out before any visible answer: no text, ``finish_reason`` ``length``.

        A reasoning model spends hidden tokens first; under a cap they do not fit in, it
        answers HTTP 200 with empty content. An unclosed ``<think>`` block counts as no text.
        """
        if self.finish_reason != "length":
            return False
        visible = self.text.strip()
        return not visible or (
            visible.lower().startswith("<think>") and "</think>" not in visible.lower()
        )

    @property
    def local(self) -> bool:
        """An embedded model computed this answer (it reports its prefix-cache reuse)."""
        return self.prompt_tokens_evaluated is not None

    def usage(self) -> Usage:
        """This answer as a :class:`Usage` (every attempt's, when there were several)."""
        if self.spent is not None:
            return self.spent.model_copy()
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            reasoning_tokens=self.reasoning_tokens,
            cost_usd=self.cost_usd,
            calls=1,
            cache_hits=int(self.cached),
            cache_hits_other_version=int(self.cached_other_version),
            local_prompt_sent=0
            if self.cached or self.prompt_tokens_evaluated is None
            else self.prompt_tokens,
            local_prompt_evaluated=0 if self.cached else self.prompt_tokens_evaluated or 0,
            local_answer_tokens=0 if self.cached or not self.local else self.completion_tokens,
            local_ms=0 if self.cached or not self.local else round(self.latency_s * 1000),
            flex_calls=int(self.service_tier == "flex" and not self.cached),
            flex_saved_usd=0.0 if self.cached else self.saved_usd,
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
    truncated: bool = False
    """The reply was cut by the token cap: a format problem here is the cap's, not the model's."""
    reasoning: str | None = None
    """Reasoning text the model returned apart from its reply (kept, never parsed)."""
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
