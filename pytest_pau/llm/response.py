"""Reading a litellm response: the text, why it ended, the tokens, the reasoning, the logprobs.

Every field is read defensively: providers leave out ``usage`` details, litellm deletes
``reasoning_content`` when there is none, and OpenAI-shaped logprobs come as objects or
dicts depending on the path.
"""

from __future__ import annotations

import re
from typing import Any


def finish_reason_of(choice: Any) -> str | None:
    """The choice's ``finish_reason`` as text (None when the provider gave none)."""
    reason = getattr(choice, "finish_reason", None)
    return None if reason is None else str(reason)


def reasoning_text_of(message: Any) -> str | None:
    """Reasoning the provider returned apart from the content (``reasoning_content``).

    litellm fills it from a provider's reasoning field, from Anthropic's thinking blocks,
    or from a leading closed ``<think>`` block it moved out of the content.
    """
    text = getattr(message, "reasoning_content", None)
    if not text:
        blocks = getattr(message, "thinking_blocks", None) or []
        text = "\n".join(str(b.get("thinking", "")) for b in blocks if isinstance(b, dict))
    return str(text) if text else None


def token_counts(usage: Any) -> tuple[int, int, int]:
    """``(prompt, visible completion, reasoning)`` tokens of a response's usage.

    OpenAI-style ``completion_tokens`` include the reasoning tokens; they are split here so
    that reasoning is counted apart (it is billed all the same).
    """
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    details = getattr(usage, "completion_tokens_details", None)
    if isinstance(details, dict):
        reasoning = int(details.get("reasoning_tokens") or 0)
    else:
        reasoning = int(getattr(details, "reasoning_tokens", 0) or 0)
    reasoning = min(reasoning, completion)
    return prompt, completion - reasoning, reasoning


def logprobs_of(choice: Any) -> list[dict[str, Any]] | None:
    """``[{"token", "logprob", "top": {token: logprob}}]`` from an OpenAI-shaped choice."""
    lp = getattr(choice, "logprobs", None)
    if lp is None and isinstance(choice, dict):
        lp = choice.get("logprobs")
    content = lp.get("content") if isinstance(lp, dict) else getattr(lp, "content", None)
    if not content:
        return None
    out = []
    for entry in content:
        get = entry.get if isinstance(entry, dict) else (lambda k, e=entry: getattr(e, k, None))
        top: dict[str, float] = {}
        for alt in get("top_logprobs") or []:
            token = str(alt.get("token") if isinstance(alt, dict) else alt.token)
            value = float((alt.get("logprob") if isinstance(alt, dict) else alt.logprob) or 0.0)
            top[token] = max(top.get(token, float("-inf")), value)
        out.append({"token": get("token"), "logprob": float(get("logprob") or 0.0), "top": top})
    return out


# -- what is no answer ------------------------------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")


def first_choice(response: Any) -> Any | None:
    """The response's first choice, or None when it has none (``choices: []``)."""
    choices = getattr(response, "choices", None)
    if not choices:
        return None
    try:
        return choices[0]
    except (IndexError, KeyError, TypeError):
        return None


def answer_problem(response: Any, text: str, reasoning: str | None) -> str | None:
    """Why a server's answer is no answer, or None: the client's boundary check.

    A server that answers ``choices: []`` (an ``IndexError`` inside the item before), or text
    holding a lone surrogate (no character: it cannot be stored, sent to the next model or
    written to the report; a ``UnicodeEncodeError`` in the agent or judge before).
    """
    if first_choice(response) is None:
        return (
            "the server answered with no choices (`choices: []`), so there is no text to read; "
            "its model failed on this request: check the server's log"
        )
    for what, value in (("text", text), ("reasoning", reasoning or "")):
        found = _SURROGATE.search(value)
        if found is not None:
            return (
                f"the answer's {what} holds a lone surrogate ({ascii(found.group())[1:-1]} at "
                f"character {found.start()}), which is no character and can be neither stored "
                "nor shown; the server's model or its JSON encoder is broken"
            )
    return None
