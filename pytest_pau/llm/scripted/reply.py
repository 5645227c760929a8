"""What :class:`~pytest_pau.llm.scripted.server.ScriptedLLM` answers: OpenAI-shaped completion bodies.

Pure functions, no sockets: the token accounting (one token per whitespace-separated
word), stop sequences, the output cap, logprobs, and the reasoning-model behaviour.

A reasoning model spends hidden reasoning tokens before it writes, and the provider's
cap (``max_completion_tokens``, or ``max_tokens``) covers both: the reasoning comes
first, the visible reply gets what is left. Under a small cap the answer is an HTTP 200
with empty content and ``finish_reason: "length"``, which is what this module reproduces.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Messages = list[dict[str, Any]]
Reply = str | dict[str, Any]
"""A reply text, or a dict ``{"content": str, "logprobs": [{"token", "logprob", "top"}]}``."""
ReasoningTokens = int | Mapping[str | None, int] | Callable[[Messages], int]
"""Hidden reasoning tokens per answer: a number, a number per ``reasoning_effort`` sent
(key ``None`` for requests without one), or a callable ``messages -> int``."""
Thought = str | Callable[[Messages], str]
ThoughtPlace = Literal["hidden", "content", "reasoning_content"]

CAP_PARAMS = ("max_completion_tokens", "max_tokens")
"""The body fields a client may cap the output with, in the order they are read."""
REASONING_FIELDS = (
    "reasoning_effort",
    "reasoning",
    "thinking",
    "think",
    "chat_template_kwargs",
    "extra_body",
)
"""Request fields that switch or size a model's reasoning (OpenAI, DeepSeek, Anthropic-style
``thinking``, ollama's ``think``, vLLM's ``chat_template_kwargs.enable_thinking``)."""
_FILLER = ("hmm,", "let", "me", "think.")


def count_tokens(text: str) -> int:
    """Tokens of ``text``: one per whitespace-separated word."""
    return len(text.split())


def cut_tokens(text: str, n: int) -> str:
    """The first ``n`` tokens of ``text``, with the whitespace between them kept."""
    return "".join(re.findall(r"\s*\S+", text)[: max(0, n)])


def content_text(content: Any) -> str:
    """The text of a message ``content``, which may be a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def request_cap(body: Mapping[str, Any]) -> tuple[str | None, int | None]:
    """``(field, value)`` of the output cap the request carried, or ``(None, None)``."""
    for name in CAP_PARAMS:
        value = body.get(name)
        if value is not None:
            return name, int(value)
    return None, None


def reasoning_fields(body: Mapping[str, Any]) -> dict[str, Any]:
    """The reasoning options the request carried (see :data:`REASONING_FIELDS`)."""
    return {name: body[name] for name in REASONING_FIELDS if name in body}


class Refused(ValueError):
    """A request the scripted model refuses with an OpenAI-shaped 400."""

    def __init__(
        self, param: str | None, message: str, code: str | None = "unsupported_value"
    ) -> None:
        super().__init__(message)
        self.param = param
        self.code = code


OUTPUT_LIMIT_MESSAGE = (
    "Could not finish the message because max_tokens or model output limit was reached. "
    "Please try again with higher max_tokens."
)
"""OpenAI's 400 when a GPT-5.x cap cannot fit one visible token (litellm matches this text)."""


@dataclass(frozen=True)
class ReasoningScript:
    """How a scripted reasoning model thinks: how much, and where the thought shows.

    Args:
        tokens: Hidden reasoning tokens per answer (see :data:`ReasoningTokens`).
        thought: The thought's text (its words are the reasoning tokens); by default a
            filler of ``tokens`` words.
        place: ``"hidden"`` (OpenAI o-series, gpt-5: only counted in
            ``usage.completion_tokens_details.reasoning_tokens``), ``"content"``
            (``<think>...</think>`` before the answer, as open models without a reasoning
            parser write it; everything is visible text then) or ``"reasoning_content"``
            (``message.reasoning_content``, as DeepSeek and vLLM's reasoning parsers).
    """

    tokens: ReasoningTokens | None = None
    thought: Thought | None = None
    place: ThoughtPlace = "hidden"

    def thought_for(self, messages: Messages, effort: Any) -> str:
        """The thought of one answer (raises :class:`Refused` for an unscripted effort)."""
        if self.thought is not None:
            return self.thought(messages) if callable(self.thought) else self.thought
        tokens = self.tokens
        if isinstance(tokens, Mapping):
            key = effort if isinstance(effort, str) or effort is None else str(effort)
            if key not in tokens:
                levels = ", ".join(repr(k) for k in tokens if k is not None)
                raise Refused(
                    "reasoning_effort",
                    f"Unsupported value: 'reasoning_effort' does not support {effort!r} with "
                    f"this model. Supported values are: {levels}. (ScriptedLLM: add the level "
                    "to reasoning_tokens={...} to script it.)",
                )
            n = int(tokens[key])
        elif callable(tokens):
            n = int(tokens(messages))
        else:
            n = int(tokens or 0)
        return " ".join(_FILLER[i % len(_FILLER)] for i in range(max(0, n)))


def check_supported(body: Mapping[str, Any], unsupported: Sequence[str]) -> None:
    """Refuse, as OpenAI does for reasoning models, the ``unsupported`` fields of ``body``.

    ``temperature`` is refused only when it is not 1 (the one value those models take).
    """
    for param in unsupported:
        value = body.get(param)
        if value is None:
            continue
        if param == "temperature":
            if value != 1:
                raise Refused(
                    param,
                    f"Unsupported value: 'temperature' does not support {value!r} with this "
                    "model. Only the default (1) value is supported.",
                )
            continue
        hint = " Use 'max_completion_tokens' instead." if param == "max_tokens" else ""
        raise Refused(
            param,
            f"Unsupported parameter: {param!r} is not supported with this model.{hint}",
            code="unsupported_parameter",
        )


def completion_body(
    body: Mapping[str, Any],
    reply: Reply,
    *,
    number: int,
    thought: str | None = None,
    place: ThoughtPlace = "hidden",
    served_model: str | None = None,
    system_fingerprint: str | None = None,
    starved_as_400: bool = False,
) -> dict[str, Any]:
    """The ``chat.completion`` object answering ``body`` with ``reply``.

    Args:
        body: The request's JSON body.
        reply: The scripted reply (text, or dict with ``content`` and ``logprobs``).
        number: The request's 1-based number (for the completion id).
        thought: The reasoning before the reply; None for a model that does not reason.
        place: Where the thought goes (see :class:`ReasoningScript`).
        served_model: The ``model`` of the answer; by default the one requested.
        system_fingerprint: Sent in the body when given.
        starved_as_400: Refuse (:class:`Refused`, :data:`OUTPUT_LIMIT_MESSAGE`) instead of
            answering empty when the reasoning leaves no room for one visible token.

    Raises:
        Refused: ``starved_as_400`` and no visible token fits under the cap.
    """
    messages: Messages = list(body.get("messages") or [])
    if isinstance(reply, dict):
        text = str(reply.get("content", ""))
        scripted_lp = reply.get("logprobs")
    else:
        text, scripted_lp = str(reply), None
    stops = body.get("stop") or []
    for stop in [stops] if isinstance(stops, str) else stops:
        if stop and stop in text:
            text = text[: text.index(stop)]
    _, cap = request_cap(body)
    if thought is not None and place == "content":
        text, thought = f"<think>{thought}</think>\n\n{text}", None
    reasoning = count_tokens(thought) if thought is not None else 0
    budget = None if cap is None else max(0, cap - reasoning)
    finish = "stop"
    if starved_as_400 and budget == 0 and count_tokens(text):
        raise Refused(None, OUTPUT_LIMIT_MESSAGE, code=None)
    if cap is not None and cap < reasoning:
        # The cap ran out while the model was still thinking: nothing visible was written.
        thought, reasoning, text, finish = cut_tokens(thought or "", cap), cap, "", "length"
    elif budget is not None and count_tokens(text) > budget:
        text, finish = cut_tokens(text, budget), "length"
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if thought is not None and place == "reasoning_content":
        message["reasoning_content"] = thought
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": finish}
    if body.get("logprobs"):
        choice["logprobs"] = {"content": logprobs(text, scripted_lp, body.get("top_logprobs"))}
    prompt_tokens = sum(count_tokens(content_text(m.get("content"))) for m in messages)
    completion_tokens = reasoning + count_tokens(text)
    usage: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if thought is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    out: dict[str, Any] = {
        "id": f"chatcmpl-scripted-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": served_model or str(body.get("model", "scripted")),
        "choices": [choice],
        "usage": usage,
    }
    if system_fingerprint is not None:
        out["system_fingerprint"] = system_fingerprint
    return out


def logprobs(text: str, scripted: Any, top_n: Any) -> list[dict[str, Any]]:
    """OpenAI-shaped ``logprobs.content``: the scripted entries, or certainty per word."""
    if scripted is not None:
        out = []
        for entry in scripted:
            top = entry.get("top") or {entry["token"]: entry["logprob"]}
            out.append(
                {
                    "token": entry["token"],
                    "logprob": entry["logprob"],
                    "bytes": list(entry["token"].encode()),
                    "top_logprobs": [
                        {"token": t, "logprob": lp, "bytes": list(t.encode())}
                        for t, lp in top.items()
                    ][: int(top_n or len(top))],
                }
            )
        return out
    return [
        {
            "token": tok,
            "logprob": 0.0,
            "bytes": list(tok.encode()),
            "top_logprobs": [{"token": tok, "logprob": 0.0, "bytes": list(tok.encode())}],
        }
        for tok in re.findall(r"\s*\S+", text)
    ]
