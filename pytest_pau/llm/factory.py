"""Building a model client with the run's shared parts: one response cache per folder.

Every client of a process that names the same cache folder gets the same
:class:`ResponseCache` object (its SQLite connections are per thread inside), so the
roles and the episode threads of a run share one cache without opening it again.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from pytest_pau.llm.budget import Budget
from pytest_pau.llm.cache import ResponseCache
from pytest_pau.llm.client import LLMClient
from pytest_pau.llm.reasoning import DEFAULT_REASONING, ReasoningSpec


def make_client(
    model: str,
    *,
    api_base: str | None = None,
    api_key: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    no_cache: bool = False,
    budget: Budget | None = None,
    reasoning: ReasoningSpec = DEFAULT_REASONING,
    cancel: threading.Event | None = None,
    service_tier: str | None = None,
) -> LLMClient:
    """A client with the run's cache and budget (what fixtures and ``pau train`` call).

    Args:
        cache_dir: Where the response cache lives (``--pau-cache-dir``); default
            ``user_cache_dir()/llm``.
        no_cache: ``--pau-no-cache``: neither read nor write the cache.
        reasoning: The role's reasoning settings (``--pau-reasoning*``).
        cancel: The run's cancel event.
        service_tier: ``flex`` for the provider's flex tier (``--pau-service-tier``).
    """
    cache = None
    if not no_cache:
        if cache_dir is None:
            from pytest_pau.paths import user_cache_dir

            cache_dir = user_cache_dir() / "llm"
        cache = shared_cache(Path(cache_dir))
    return LLMClient(
        model,
        api_base=api_base,
        api_key=api_key,
        cache=cache,
        budget=budget,
        reasoning=reasoning,
        cancel=cancel,
        service_tier=service_tier,
    )


_caches: dict[Path, ResponseCache] = {}
_caches_lock = threading.Lock()


def shared_cache(directory: Path) -> ResponseCache:
    """One ResponseCache object per folder and process (connections are per thread inside)."""
    key = directory.resolve()
    with _caches_lock:
        if key not in _caches:
            _caches[key] = ResponseCache(key)
        return _caches[key]
