"""Reasoning models: a token cap that means visible output, and what to do when it does not.

gpt-5-mini, the o-series, Claude with thinking, DeepSeek-R1, Qwen3 in thinking mode and
gpt-oss spend hidden reasoning tokens before they write, and the provider's cap
(``max_completion_tokens``, which litellm maps ``max_tokens`` to for these models) covers
both. Under a cap the reasoning does not fit in, the provider answers HTTP 200 with empty
content and ``finish_reason: "length"``: no answer at all, and it is billed.

So for a model that reasons the client sends the call's visible cap plus a reasoning
budget (:class:`ReasoningSpec`), and an answer that is still starved is asked again with a
doubled budget, at most :data:`MAX_ATTEMPTS` times in all, before it becomes an
infrastructure error naming ``--pau-reasoning-budget``. Whether a model reasons:
``--pau-reasoning=on|off``, or ``auto``: litellm's model map (``supports_reasoning``), and
the evidence of a starved answer from a model nobody said reasons. A model that does not
reason gets exactly the requests it got before this existed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pytest_pau.settings import DEFAULT_REASONING_BUDGET
from pytest_pau.settings.values import ReasoningMode

#: Attempts of one call in all: the budget doubles between them.
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class ReasoningSpec:
    """How one role's calls treat hidden reasoning."""

    mode: ReasoningMode = "auto"
    """``on``: the model reasons; ``off``: it does not; ``auto``: litellm's model map decides."""
    budget: int = DEFAULT_REASONING_BUDGET
    """Hidden tokens allowed on top of each call's visible cap, when the model reasons."""
    effort: str | None = None
    """``reasoning_effort`` sent to the provider (``minimal``..``high``); None sends none."""


DEFAULT_REASONING = ReasoningSpec()


@functools.cache
def known_to_reason(litellm_model: str) -> bool:
    """Whether litellm's model map says ``litellm_model`` reasons (False when unknown)."""
    from pytest_pau.llm.litellm_setup import get_litellm

    try:
        return bool(get_litellm().supports_reasoning(model=litellm_model))
    except Exception:  # not in the map, or a provider litellm cannot resolve
        return False


def starved_message(
    model: str, *, cap: int, visible: int, reasoning_tokens: int, attempts: int, mode: ReasoningMode
) -> str:
    """The infrastructure error of a call that never got a visible answer."""
    if mode == "off":
        fix = (
            "the model seems to reason: pass --pau-reasoning=on (or per role, e.g. "
            "--pau-reasoning=judge:on) so its calls get a reasoning budget"
        )
    else:
        fix = (
            "raise --pau-reasoning-budget (e.g. --pau-reasoning-budget=16384, or per role "
            "model:N,judge:N,coder:N) or lower --pau-reasoning-effort"
        )
    return (
        f"Model {model!r} spent its whole token cap on hidden reasoning: {attempts} "
        f"attempt(s), the last with a cap of {cap} tokens ({visible} for the answer), "
        f"{reasoning_tokens} reasoning tokens and no visible answer (finish_reason "
        f"'length'). This is not the model's format failure: {fix}."
    )
