"""How many requests may be in flight per model endpoint, adapted to what the provider allows.

Every client of one endpoint (the agent, the judge and the coder may share a provider)
takes a slot from the same :class:`AdaptiveLimiter` for each attempt of each request. The
limit starts at the cap (``--pau-max-connections``, split evenly between xdist workers) and
follows the provider (additive increase, multiplicative decrease, as TCP does):

* **congestion** (HTTP 502, 503, 504, 529, timeouts, dropped connections) halves it, and
  a ``retry-after`` on the answer holds every new request to the endpoint until then;
* **throttling** (a 429 that names no quota: an unknown server's) halves it too;
* a 429 that names the quota does not: the quota, not the concurrency, ran out, and the
  pacer (:mod:`pytest_pau.llm.pacing`) waits for it;
* each halving counts once per :data:`BACKOFF_WINDOW_S`, so a burst of errors from
  requests already in flight counts once;
* it grows back in time, not in round trips: one slot per :data:`GROWTH_S` since the last
  halving, applied on each good answer, up to the cap (at 5 s latency a limit of 4 is back
  at 52 within a minute, where one slot per round trip took about four).

Waiting for a slot honours the run's cancel event, so Ctrl-C never waits on a slot.
"""

from __future__ import annotations

import math
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from pytest_pau.llm.signals import Signal

#: Seconds during which further 429s do not shrink the limit again.
BACKOFF_WINDOW_S = 1.0
#: Seconds of good answers per slot the limit grows back by.
GROWTH_S = 1.0
#: The longest any pause a provider asks for holds requests, by default: a congestion or
#: quota ``retry-after``, or what an announced quota's reset implies. ``PAU_MAX_PAUSE_S``
#: sets it for a run (:func:`configure`); :func:`max_pause_s` is the value in force.
MAX_PAUSE_S = 60.0
#: A pause longer than this is said (a :class:`~pytest_pau.errors.WaitWarning`).
SAID_PAUSE_S = 5.0
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
    congested: int = 0
    """Attempts answered 502/503/504/529 or timed out."""


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
        self.congested = 0
        self.paused_until = 0.0
        """``time.monotonic()`` before which no request starts (a congestion retry-after)."""
        self._last_backoff = -math.inf
        self._grown_at = time.monotonic()
        self._cond = threading.Condition()

    def acquire(self, cancel: threading.Event | None = None) -> tuple[float, str]:
        """Wait for a slot (and for a congestion pause to end).

        Returns:
            The seconds waited and why: ``"connections"`` (every slot taken),
            ``"congestion"`` (the endpoint asked to wait), or ``""`` when nothing held it
            (the time is the machine's scheduling: not counted as a wait).

        Raises:
            Cancelled: ``cancel`` was set while waiting.
        """
        start = time.monotonic()
        why = ""
        with self._cond:
            while True:
                now = time.monotonic()
                if now < self.paused_until:
                    why = "congestion"
                elif self.in_flight < max(1, math.floor(self.limit)):
                    break
                else:
                    why = why or "connections"
                if cancel is not None and cancel.is_set():
                    raise Cancelled(f"cancelled while waiting for a slot at {self.endpoint}")
                self._cond.wait(min(_POLL_S, max(0.001, self.paused_until - now)))
            if cancel is not None and cancel.is_set():
                raise Cancelled(f"cancelled before a request to {self.endpoint}")
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        return time.monotonic() - start, why

    def release(self, signal: Signal = "ok", *, pause_s: float | None = None) -> None:
        """Give the slot back and say what the answer was: :meth:`free`, then :meth:`tell`."""
        self.free()
        self.tell(signal, pause_s=pause_s)

    def free(self) -> None:
        """Give the slot back as soon as the answer's last byte is in.

        What the answer said comes later (:meth:`tell`), once the client has read it: a
        slot stands for a request at the endpoint, not for the client's own work on either
        side of it (:mod:`pytest_pau.llm.attempt`).
        """
        with self._cond:
            self.in_flight -= 1
            self._cond.notify_all()

    def tell(self, signal: Signal = "ok", *, pause_s: float | None = None) -> None:
        """Adapt the limit to what an answer was (:mod:`pytest_pau.llm.signals`).

        Args:
            signal: ``ok`` grows the limit (one slot per :data:`GROWTH_S` since the last
                halving); ``throttle`` and ``congestion`` halve it; ``quota`` (and
                ``throttle``) count as rate limited.
            pause_s: With ``congestion``: the server's ``retry-after``; no request to the
                endpoint starts before it has passed.
        """
        with self._cond:
            now = time.monotonic()
            if signal in ("quota", "throttle"):
                self.rate_limited += 1
            if signal == "congestion":
                self.congested += 1
                if pause_s:
                    held = min(pause_s, _max_pause_s)
                    self.paused_until = max(self.paused_until, now + held)
            if signal in ("throttle", "congestion"):
                if now - self._last_backoff >= BACKOFF_WINDOW_S:
                    self.limit = max(1.0, math.floor(self.limit / 2))
                    self.lowest = min(self.lowest, self.limit)
                    self._last_backoff = now
                self._grown_at = now
            elif signal == "ok":
                if self.limit >= self.cap:
                    self._grown_at = now
                elif now - self._grown_at >= GROWTH_S:
                    steps = math.floor((now - self._grown_at) / GROWTH_S)
                    self.limit = min(float(self.cap), self.limit + steps)
                    self._grown_at += steps * GROWTH_S
            self._cond.notify_all()
        if signal == "congestion" and pause_s:
            say_pause(self.endpoint, pause_s, "retry-after of an overloaded answer")

    def stats(self) -> LimiterStats:
        with self._cond:
            return LimiterStats(
                self.endpoint,
                self.cap,
                self.limit,
                self.rate_limited,
                self.most_in_flight,
                self.lowest,
                self.congested,
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
_max_pause_s = MAX_PAUSE_S
_said: set[tuple[str, str]] = set()


def max_pause_s() -> float:
    """The longest a pause a provider asks for holds requests now (``PAU_MAX_PAUSE_S``)."""
    return _max_pause_s


def _seconds(value: float) -> str:
    return f"{value:.0f}" if value < 1e7 else f"{value:.3g}"


def say_pause(who: str, asked_s: float, why: str) -> None:
    """Say a pause longer than :data:`SAID_PAUSE_S`: how long is waited, and what was asked.

    ``waiting 60 s: api.openai.com asked for 86400 s (...)``, as a
    :class:`~pytest_pau.errors.WaitWarning` (in pytest's warnings summary), once per
    ``who`` and ``why`` in a run: the summary's wait counts say how often.
    """
    if asked_s <= SAID_PAUSE_S or (who, why) in _said:
        return
    _said.add((who, why))
    from pytest_pau.errors import WaitWarning, warn

    waited = min(asked_s, _max_pause_s)
    capped = (
        f"; a pause a provider asks for is waited at most {_seconds(_max_pause_s)} s "
        "(PAU_MAX_PAUSE_S)"
        if asked_s > _max_pause_s
        else ""
    )
    warn(
        f"waiting {_seconds(waited)} s: {who} asked for {_seconds(asked_s)} s ({why}){capped}",
        WaitWarning,
    )


def configure(cap: int | None) -> None:
    """Set the cap of every endpoint of this process (``--pau-max-connections`` / workers).

    None removes the limiters (no cap, as outside a pytest run). Also reads
    ``PAU_MAX_PAUSE_S`` (the default again with None) and forgets which pauses were said.
    """
    global _default_cap, _max_pause_s
    from pytest_pau.errors import ConfigError
    from pytest_pau.settings.env_vars import env_number

    try:
        pause = MAX_PAUSE_S if cap is None else env_number("PAU_MAX_PAUSE_S")
    except ConfigError:  # a run checks it at start-up (check_env); --collect-only sends nothing
        pause = MAX_PAUSE_S
    with _registry_lock:
        _default_cap = cap
        _max_pause_s = pause
        _said.clear()
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
