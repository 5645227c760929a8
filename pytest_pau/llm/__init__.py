"""Model calls: one litellm-based client with a response cache, retries, cost and a budget.

``import pytest_pau.llm`` is cheap: litellm (seconds to import) loads on the first call.

    from pytest_pau.llm import make_client

    client = make_client("openai/gpt-4o-mini", cache_dir=".pau_cache")
    answer = client.complete([{"role": "user", "content": "Say hi"}], max_tokens=8)
    answer.text, answer.cost_usd, client.usage
"""

from __future__ import annotations

from pytest_pau.llm.budget import Budget
from pytest_pau.llm.cache import CacheHit, ResponseCache, cache_key
from pytest_pau.llm.client import LLMClient
from pytest_pau.llm.factory import make_client
from pytest_pau.llm.judge import weighted_rating
from pytest_pau.llm.litellm_setup import get_litellm
from pytest_pau.llm.local.provider import is_local
from pytest_pau.llm.retry import RetryPolicy

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
