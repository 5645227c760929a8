"""Model calls: one litellm-based client with a response cache, retries, cost and a budget.

``import pytest_pau.llm`` is cheap: litellm (seconds to import) loads on the first call,
and the names below on first use (the plugin imports :mod:`pytest_pau.llm.limits` and
friends while pytest starts, without the client, httpx and numpy behind it).

    from pytest_pau.llm import make_client

    client = make_client("openai/gpt-4o-mini", cache_dir=".pau_cache")
    answer = client.complete([{"role": "user", "content": "Say hi"}], max_tokens=8)
    answer.text, answer.cost_usd, client.usage
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_pau.llm.budget import Budget
    from pytest_pau.llm.cache import CacheHit, ResponseCache, cache_key
    from pytest_pau.llm.client import LLMClient
    from pytest_pau.llm.factory import make_client
    from pytest_pau.llm.litellm_setup import get_litellm
    from pytest_pau.llm.local.provider import is_local
    from pytest_pau.llm.logprob_rating import weighted_rating
    from pytest_pau.llm.retry import RetryPolicy

#: Where each name of :data:`__all__` lives (imported on first use).
_HOMES = {
    "Budget": "pytest_pau.llm.budget",
    "CacheHit": "pytest_pau.llm.cache",
    "LLMClient": "pytest_pau.llm.client",
    "ResponseCache": "pytest_pau.llm.cache",
    "RetryPolicy": "pytest_pau.llm.retry",
    "cache_key": "pytest_pau.llm.cache",
    "get_litellm": "pytest_pau.llm.litellm_setup",
    "is_local": "pytest_pau.llm.local.provider",
    "make_client": "pytest_pau.llm.factory",
    "weighted_rating": "pytest_pau.llm.logprob_rating",
}

__all__ = [
    "Budget",
    "CacheHit",
    "LLMClient",
    "ResponseCache",
    "RetryPolicy",
    "cache_key",
    "get_litellm",
    "is_local",
    "make_client",
    "weighted_rating",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pytest_pau.llm' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
