"""What a cached answer is filed under (:func:`cache_key`) and what a hit returns."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

#: Part of every key (see :func:`cache_key`): bumping it makes every cached answer a miss.
#: The table layout has its own version, :data:`DB_VERSION`.
SCHEMA_VERSION = 1


def cache_key(
    model: str,
    messages: list[dict[str, Any]],
    params: dict[str, Any],
    *,
    server: dict[str, Any] | None = None,
) -> str:
    """SHA-256 of the model, the messages and every parameter that shapes the answer.

    Args:
        model: The model string. For a hosted provider it names the model, so the same
            model reached through another route (a moved proxy) shares its answers.
        messages: The request's messages.
        params: Every request parameter that shapes the answer (cap, seed, effort...).
        server: For a model behind an ``api_base``: what identifies the server's model
            (:meth:`pytest_pau.llm.endpoint.EndpointIdentity.key`), since its alias alone
            does not. None for hosted providers (their keys are unchanged by it).
    """
    body: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "model": model,
        "messages": messages,
        "params": params,
    }
    if server is not None:
        body["server"] = server
    payload = json.dumps(body, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class CacheHit:
    """A cached answer and who wrote it (for "answers from another version" notes)."""

    value: dict[str, Any]
    """The stored :class:`~pytest_pau.models.Completion` fields."""
    model: str
    """The model string the answer was stored under."""
    created: float
    """When it was stored (seconds since the epoch)."""
    plugin_version: str
    """The pytest-pau version that stored it."""
    prompts_version: str | None
    """``PROMPTS_VERSION`` of the run that stored it; None when unknown (older entries)."""
