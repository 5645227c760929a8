"""What a model call costs at most, from litellm's price map (for ``--pau-max-cost-usd``).

:func:`worst_case` is what a call reserves of the run's budget before it is sent
(:mod:`pytest_pau.llm.budget`): its prompt at the input price and ``max_tokens`` of output
at the output price. The prices are looked up once per model.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pytest_pau.llm.litellm_setup import get_litellm

#: Margin on the counted prompt tokens (message framing, a tokenizer that differs a bit).
PROMPT_MARGIN = 1.1
PROMPT_EXTRA_TOKENS = 16


def worst_case(model: str, messages: list[dict[str, Any]], max_tokens: int) -> float:
    """The most a call of ``model`` with ``messages`` and ``max_tokens`` can cost, in USD.

    The prompt is counted with litellm's tokenizer for the model (every character a
    token where it has none: an upper bound), plus 10% and 16 tokens; the output is
    ``max_tokens`` at the higher of the visible and reasoning token prices. 0 for a model
    without a price (it is reported as costing nothing).
    """
    in_price, out_price = prices(model)
    if not in_price and not out_price:
        return 0.0
    try:
        prompt = int(get_litellm().token_counter(model=model, messages=messages))
    except Exception:  # no tokenizer for it
        prompt = sum(len(str(m.get("content") or "")) for m in messages)
    return (prompt * PROMPT_MARGIN + PROMPT_EXTRA_TOKENS) * in_price + max_tokens * out_price


@lru_cache(maxsize=64)
def prices(model: str) -> tuple[float, float]:
    """``(input, output)`` USD per token from litellm's price map; ``(0, 0)`` when unknown.

    The output price is the higher of the visible and the reasoning token prices.
    """
    try:
        info = get_litellm().get_model_info(model=model)
    except Exception:  # litellm raises when the model is not in its map
        return 0.0, 0.0

    def price(key: str) -> float:
        value = info.get(key)
        return float(value) if isinstance(value, (int, float)) else 0.0

    out = max(price("output_cost_per_token"), price("output_cost_per_reasoning_token"))
    return price("input_cost_per_token"), out


def has_price(model: str) -> bool:
    """Whether litellm's price map has a non-zero price of any kind for ``model``."""
    try:
        info = get_litellm().get_model_info(model=model)
    except Exception:  # litellm raises when the model is not in its map
        return False
    return any(isinstance(v, (int, float)) and v > 0 for k, v in info.items() if "cost" in k)
