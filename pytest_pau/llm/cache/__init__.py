"""The response cache: one SQLite table of model answers, and the tools that keep it.

``store`` (:class:`ResponseCache`, :func:`cache_key`), ``files`` (the file's name, header
and damage checks), ``check`` (the start-up check that sets a damaged file aside),
``admin`` (clear and prune) and ``info`` (``pau cache info``).
"""

from __future__ import annotations

from pytest_pau.llm.cache.key import CacheHit, cache_key
from pytest_pau.llm.cache.store import ResponseCache

__all__ = ["CacheHit", "ResponseCache", "cache_key"]
