"""How many requests may be in flight per model endpoint, adapted to what the provider allows.

Every client of one endpoint (the agent, the judge and the coder may share a provider)
takes a slot from the same :class:`AdaptiveLimiter` for each attempt of each request. The
limit starts at the cap (``--pau-max-connections``, split evenly between xdist workers) and
follows the provider: a rate-limited answer (HTTP 429) halves it, at most once per
:data:`BACKOFF_WINDOW_S` so a burst of 429s from requests already in flight counts once;
every answer that was not rate-limited grows it by ``1 / limit``, so it climbs back by
about one slot per ``limit`` good answers, up to the cap (additive increase,
multiplicative decrease, as TCP does).

Waiting for a slot honours the run's cancel event, so Ctrl-C never waits on a slot.
"""

from __future__ import annotations

import math
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass
from urllib.parse import urlsplit

#: Seconds during which further 429s do not shrink the limit again.
BACKOFF_WINDOW_S = 1.0
#: How often a waiting caller looks at the cancel event.
_POLL_S = 0.1


class Cancelled(Exception):
    """The run was cancelled (Ctrl-C) while this call waited or before it started."""


#: The cancel event of the call being sent in this thread (set by ``LLMClient`` around the
#: provider call): the HTTP transport checks it as the last thing before the request
#: leaves, so no request starts after Ctrl-C (``llm/http_pool.py``).
SENDING: ContextVar[threading.Event | None] = ContextVar("pau_sending_cancel", default=None)


@dataclass
class LimiterStats:
    """What the summary says about one endpoint."""

    endpoint: str
    cap: int
    limit: float
    rate_limited: int
    most_in_flight: int
    lowest: float
    """The lowest the limit went."""


class AdaptiveLimiter:
    """A semaphore whose size adapts to 429s (see the module docstring).

    Args:
        endpoint: What it limits, for messages (``api.openai.com``).
        cap: The most requests in flight at once.
    """

    def __init__(self, endpoint: str, cap: int) -> None:
        if cap < 1:
            raise ValueError(f"AdaptiveLimiter(cap={cap!r}): expected at least 1")
        self.endpoint = endpoint
        self.cap = cap
        self.limit = float(cap)
        self.in_flight = 0
        self.rate_limited = 0
        self.most_in_flight = 0
        self.lowest = float(cap)
        self._last_backoff = -math.inf
        self._cond = threading.Condition()

    def acquire(self, cancel: threading.Event | None = None) -> None:
        """Wait for a slot.

        Raises:
            Cancelled: ``cancel`` was set while waiting.
        """
        with self._cond:
            while self.in_flight >= max(1, math.floor(self.limit)):
                if cancel is not None and cancel.is_set():
                    raise Cancelled(f"cancelled while waiting for a slot at {self.endpoint}")
                self._cond.wait(_POLL_S)
            if cancel is not None and cancel.is_set():
                raise Cancelled(f"cancelled before a request to {self.endpoint}")
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)

    def release(self, *, rate_limited: bool) -> None:
        """Give the slot back, saying whether the answer was a rate limit (429)."""
        with self._cond:
            self.in_flight -= 1
            if rate_limited:
                self.rate_limited += 1
                now = time.monotonic()
                if now - self._last_backoff >= BACKOFF_WINDOW_S:
                    self.limit = max(1.0, math.floor(self.limit / 2))
                    self.lowest = min(self.lowest, self.limit)
                    self._last_backoff = now
            else:
                self.limit = min(float(self.cap), self.limit + 1.0 / self.limit)
            self._cond.notify_all()

    def stats(self) -> LimiterStats:
        with self._cond:
            return LimiterStats(
                self.endpoint,
                self.cap,
                self.limit,
                self.rate_limited,
                self.most_in_flight,
                self.lowest,
            )


def endpoint_of(model: str, api_base: str | None) -> str:
    """The endpoint a request goes to: the ``api_base`` host and port, else the provider.

    ``gpt-5-mini`` and ``openai/gpt-5-mini`` are both ``openai``; ``anthropic/claude``
    is ``anthropic``; a served model is its server (``localhost:8000``).
    """
    if api_base:
        parts = urlsplit(api_base)
        return f"{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"
    if "/" in model:
        return model.split("/", 1)[0]
    return "openai"  # litellm's default provider for bare names (gpt-*, o*)


_registry: dict[str, AdaptiveLimiter] = {}
_registry_lock = threading.Lock()
_default_cap: int | None = None


def configure(cap: int | None) -> None:
    """Set the cap of every endpoint of this process (``--pau-max-connections`` / workers).

    None removes the limiters (no cap, as outside a pytest run).
    """
    global _default_cap
    with _registry_lock:
        _default_cap = cap
        _registry.clear()


def limiter_for(endpoint: str) -> AdaptiveLimiter | None:
    """The endpoint's limiter, created on first use; None when no cap is configured."""
    with _registry_lock:
        if _default_cap is None:
            return None
        found = _registry.get(endpoint)
        if found is None:
            found = _registry[endpoint] = AdaptiveLimiter(endpoint, _default_cap)
        return found


def all_stats() -> list[LimiterStats]:
    """Every endpoint's limiter, for the summary."""
    with _registry_lock:
        limiters = list(_registry.values())
    return [limiter.stats() for limiter in limiters]
