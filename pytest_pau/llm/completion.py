"""A provider's answer as a :class:`~pytest_pau.models.Completion`: text, tokens, price, tier.

:class:`~pytest_pau.llm.client.LLMClient` calls :func:`to_completion` once per answer it
did not have in its cache.
"""

from __future__ import annotations

from typing import Any

from pytest_pau.llm import tiers
from pytest_pau.llm.litellm_setup import get_litellm
from pytest_pau.llm.prices import has_price
from pytest_pau.llm.response import (
    finish_reason_of,
    first_choice,
    logprobs_of,
    reasoning_text_of,
    token_counts,
)
from pytest_pau.models import Completion


def to_completion(
    response: Any,
    latency_s: float,
    *,
    model: str,
    litellm_model: str,
    local: bool,
    unpriced: bool,
) -> tuple[Completion, bool]:
    """The answer, and whether ``litellm_model`` is now known to have no price.

    ``unpriced`` says it was known before: then the price is not looked up again (a failed
    lookup costs 0.2 ms a call) and the answer costs 0.
    """
    choice = first_choice(response)  # None: no choices (answer_problem says so)
    message = getattr(choice, "message", None)
    text = getattr(message, "content", None) or ""
    prompt_tokens, completion_tokens, reasoning_tokens = token_counts(
        getattr(response, "usage", None)
    )
    cost = 0.0
    hidden = getattr(response, "_hidden_params", {}) or {}
    if not local:
        priced = hidden.get("response_cost")
        if priced is not None:
            cost = priced
        elif not unpriced:
            # litellm prices every call itself; None means it found no price. Ask again
            # from the response alone (its model name may be priced). When that fails
            # too and litellm's map has no price for the model at all, stop asking.
            try:
                cost = float(get_litellm().completion_cost(completion_response=response) or 0.0)
            except Exception:  # litellm has no price for this model: report 0, not fail
                unpriced = not has_price(litellm_model)
    tier = getattr(response, "service_tier", None)
    saved = (
        tiers.saved_usd(litellm_model, prompt_tokens, completion_tokens + reasoning_tokens, cost)
        if tier == "flex"
        else 0.0
    )
    evaluated = hidden.get("local_prompt_evaluated") if local else None
    completion = Completion(
        text=text,
        model=model,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        reasoning_tokens=reasoning_tokens,
        cost_usd=float(cost),
        latency_s=latency_s,
        cached=False,
        finish_reason=finish_reason_of(choice),
        reasoning=reasoning_text_of(message),
        logprobs=logprobs_of(choice),
        prompt_tokens_evaluated=None if evaluated is None else int(evaluated),
        service_tier=None if tier is None else str(tier),
        saved_usd=saved,
    )
    return completion, unpriced
