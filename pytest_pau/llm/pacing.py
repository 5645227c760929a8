"""Keeping under a provider's quota before it says 429: a pacer per endpoint and model.

A provider meters an account in requests and tokens per minute, and OpenAI, Anthropic and
most OpenAI-compatible servers say on every answer how much is left and when it refills
(:mod:`pytest_pau.llm.quota_headers`). A :class:`Pacer` keeps two buckets that mirror the
provider's, requests and tokens, and lets a request go only when both hold enough for it:
one request, and its estimated tokens (:func:`estimate_tokens`: the prompt's characters / 4
plus the output cap sent, which is what OpenAI debits up front). The buckets refill
continuously at the quota's rate and hold at most :data:`BURST_S` of it, so a run sends at
the quota's pace rather than in bursts a provider that enforces per second would refuse.

Where the numbers come from: ``--pau-max-rpm`` / ``--pau-max-tpm`` (known quotas) and the
headers of every answer (the slower rate of the two counts), which also correct the
buckets' levels: the
``remaining`` a server announced, plus what it refilled since, less what this process sent
after that request (:meth:`Pacer.observe`). Until the first answer of an endpoint and model
says whether it announces a quota, one request goes at a time (at most :data:`PROBE_MAX_S`).
An answer without rate-limit headers, and no known quota, leave the pacer idle.

**xdist.** Every worker sees the whole account's ``remaining``, so each takes its share:
the quota (given or announced) and the levels are divided by the number of workers
(:func:`configure`). A worker whose items end early leaves its share unused.

A 429 that names the quota empties the bucket that ran out until the server's
``retry-after``; the concurrency limiter (:mod:`pytest_pau.llm.limits`) is left alone.

**Every wait bounded and said.** A ``retry-after`` holds requests at most
:func:`~pytest_pau.llm.limits.max_pause_s` (``PAU_MAX_PAUSE_S``, 60 s), as a congestion
pause does, and the head of the queue waits for a bucket at most as long, whatever rate the
headers imply (a reset of ``1000000h``); a pause longer than a few seconds is said once
(:func:`~pytest_pau.llm.limits.say_pause`). These look at the clock only while a request
waits: a request that may go at once pays nothing for them.
"""

from __future__ import annotations

import collections
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pytest_pau.llm.limits import SAID_PAUSE_S, Cancelled, max_pause_s, say_pause
from pytest_pau.llm.quota_headers import QuotaReading

#: The most a pacer lets go at once: this many seconds of the quota's rate.
BURST_S = 1.0
#: Seconds of the quota kept in hand: a request reaches the provider a little after it is
#: let go (the network, a busy machine), by varying amounts, so two requests let go a
#: rate's interval apart may arrive closer together. It delays the first request that
#: finds the bucket low by this much once; the pace stays the quota's.
MARGIN_S = 0.2
#: The longest new requests wait for the first answer of an endpoint and model.
PROBE_MAX_S = 5.0
#: A wait shorter than this is not counted as one.
MIN_COUNTED_WAIT_S = 0.005
_POLL_S = 0.1


def estimate_tokens(messages: list[dict[str, Any]], max_tokens: int) -> int:
    """What a request will be charged against a token quota: ``chars / 4`` + its cap."""
    chars = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            chars += sum(len(str(p.get("text", ""))) for p in content if isinstance(p, dict))
        elif content is not None:
            chars += len(str(content))
    return math.ceil(chars / 4) + max(0, int(max_tokens))


@dataclass
class _Bucket:
    """This process's view of one of the provider's buckets."""

    given: float | None = None
    """Units per second of the whole run's known quota (``--pau-max-rpm`` / 60)."""
    announced: float | None = None
    """Units per second the provider's headers imply for the whole account."""
    largest_seen: float = 0.0
    """The most the provider's bucket was seen to hold (its depth, at least)."""
    level: float = 0.0
    t: float = 0.0

    def rate(self, share: int) -> float | None:
        rates = [r for r in (self.given, self.announced) if r]
        return min(rates) / share if rates else None

    def capacity(self, share: int) -> float:
        rate = self.rate(share) or 0.0
        depth = rate * BURST_S
        if self.largest_seen:
            depth = min(depth, self.largest_seen / share)
        return max(1.0, depth)

    def refill(self, now: float, share: int) -> None:
        rate = self.rate(share)
        if rate is not None:
            self.level = min(self.capacity(share), self.level + (now - self.t) * rate)
        self.t = now


@dataclass(frozen=True)
class Ticket:
    """A request let go: when, and what was sent before it (for reading its answer)."""

    sent_before: int
    tokens_before: float
    tokens: int
    t: float


@dataclass
class PacerStats:
    """What the summary says about one endpoint and model."""

    key: str
    rpm: float | None
    """Requests per minute paced at (the whole run's; None: not metered)."""
    tpm: float | None
    source: str
    """``headers``, ``--pau-max-rpm/tpm``, both, or ``none``."""
    waits: dict[str, int] = field(default_factory=dict)
    wait_s: dict[str, float] = field(default_factory=dict)
    share: int = 1
    """Processes sharing the quota (xdist workers); each paces at its share."""


class Pacer:
    """The request and token buckets of one endpoint and model (thread-safe, FIFO).

    Args:
        key: What it paces, for messages and the summary (``api.openai.com gpt-5-mini``).
        rpm: A known quota in requests per minute for the whole run, or None.
        tpm: A known quota in tokens per minute, or None.
        share: How many processes share the quota (xdist workers).
    """

    def __init__(
        self, key: str, *, rpm: float | None = None, tpm: float | None = None, share: int = 1
    ) -> None:
        now = time.monotonic()
        self.key = key
        self.share = max(1, share)
        self.requests = _Bucket(given=rpm / 60.0 if rpm else None, t=now)
        self.tokens = _Bucket(given=tpm / 60.0 if tpm else None, t=now)
        for bucket in (self.requests, self.tokens):
            bucket.level = bucket.capacity(self.share)
        self.announced = False
        """Whether the provider's headers announced a quota."""
        self._settled = bool(rpm or tpm)
        """Whether an answer (or a known quota) said how to pace: the probe is over."""
        self._probe_since: float | None = None
        self._pause_until = 0.0
        self._pause_reason = "429"
        self.short_of = ""
        """Which bucket the last quota 429 said ran out."""
        self._sent = 0
        self._sent_tokens = 0.0
        self._queue: collections.deque[object] = collections.deque()
        self._holding = ""
        """Why the head of the queue waits (what the others wait behind)."""
        self._cond = threading.Condition()
        self.waits: dict[str, int] = {}
        self.wait_s: dict[str, float] = {}

    @property
    def metered(self) -> bool:
        return self.requests.rate(1) is not None or self.tokens.rate(1) is not None

    def _needed(self, tokens: int, now: float) -> tuple[float, str]:
        """Seconds the head of the queue must still wait, and why (0: it may go)."""
        if not self._settled:
            if self._probe_since is None:
                return 0.0, ""
            if now - self._probe_since < PROBE_MAX_S:
                return _POLL_S, "first answer"
            self._settled = True  # the first answer is slow: stop holding the others
        waits = [(self._pause_until - now, self._pause_reason)]
        for bucket, need, reason in (
            (self.requests, 1.0, "requests"),
            (self.tokens, float(tokens), "tokens"),
        ):
            rate = bucket.rate(self.share)
            if rate is None:
                continue
            bucket.refill(now, self.share)
            # A request larger than the bucket goes when the bucket is full.
            capacity = bucket.capacity(self.share)
            need = min(need, capacity)
            need += min(rate * MARGIN_S, capacity - need)
            if bucket.level < need:
                waits.append(((need - bucket.level) / rate, reason))
        wait, reason = max(waits)
        return max(0.0, wait), reason

    def admit(self, tokens: int, cancel: threading.Event | None = None) -> Ticket:
        """Wait until the buckets hold a request of ``tokens`` tokens, then debit it.

        Requests go in the order they asked (first come, first served), so a large
        request is never overtaken forever by small ones.

        Raises:
            Cancelled: ``cancel`` was set while waiting.
        """
        me = object()
        start = time.monotonic()
        reason = ""
        head_since: float | None = None  # when it first waited for a bucket at the head
        long_wait: tuple[float, str] | None = None
        with self._cond:
            self._queue.append(me)
            try:
                while True:
                    if cancel is not None and cancel.is_set():
                        raise Cancelled(f"cancelled while pacing requests to {self.key}")
                    now = time.monotonic()
                    if self._queue[0] is me:
                        wait, why = self._needed(tokens, now)
                        if wait <= 0:
                            self._holding = ""
                            break
                        reason = self._holding = why
                        if why in ("requests", "tokens"):
                            # Whatever a bucket's rate implies (an announced reset of
                            # 1000000h), the head waits at most max_pause_s() for it, then
                            # goes; a 429's pause and the probe are bounded where they are set.
                            if head_since is None:
                                head_since = now
                                if wait > SAID_PAUSE_S:
                                    long_wait = (wait, why)
                            left = head_since + max_pause_s() - now
                            if left <= 0:
                                self._holding = ""
                                break
                            wait = min(wait, left)
                    else:
                        wait = _POLL_S
                        reason = self._holding or reason
                    self._cond.wait(min(wait, _POLL_S))
            finally:
                self._queue.remove(me)
                self._cond.notify_all()
            now = time.monotonic()
            if not self._settled and self._probe_since is None:
                self._probe_since = now
            ticket = Ticket(self._sent, self._sent_tokens, tokens, now)
            self._sent += 1
            self._sent_tokens += tokens
            if self.requests.rate(self.share) is not None:
                self.requests.level -= 1
            if self.tokens.rate(self.share) is not None:
                self.tokens.level -= tokens
            # Counted only when a bucket, a pause or the first answer held it: time in the
            # queue with nothing held is the machine's scheduling, not the provider's quota.
            waited = now - start
            counted = waited >= MIN_COUNTED_WAIT_S and bool(reason)
            if counted:
                self.waits[reason] = self.waits.get(reason, 0) + 1
                self.wait_s[reason] = self.wait_s.get(reason, 0.0) + waited
        if counted:
            charge_wait(reason, waited)
        if long_wait is not None:
            asked, why = long_wait
            quota = (
                "its rate-limit headers announce"
                if self.announced
                else "--pau-max-rpm/--pau-max-tpm gives"
            )
            say_pause(self.key, asked, f"to refill the {why} quota {quota}")
        return ticket

    def observe(self, ticket: Ticket, reading: QuotaReading, *, answered: bool = True) -> None:
        """Learn from the headers of ``ticket``'s answer (or error).

        Args:
            ticket: What :meth:`admit` returned for the request.
            reading: Its headers, read.
            answered: A successful answer (one without quota headers ends the probe).
        """
        now = time.monotonic()
        with self._cond:
            if reading.announces:
                self.announced = True
                self._settled = True
                sent_after = self._sent - ticket.sent_before - 1
                tokens_after = self._sent_tokens - ticket.tokens_before - ticket.tokens
                for bucket, said, after, own in (
                    (self.requests, reading.requests, sent_after, 1.0),
                    (self.tokens, reading.tokens, tokens_after, float(ticket.tokens)),
                ):
                    if said.remaining is None:
                        continue
                    rate = said.refill_rate()
                    if rate:
                        bucket.announced = rate
                    bucket.largest_seen = max(bucket.largest_seen, said.remaining + own)
                    share_rate = bucket.rate(self.share) or 0.0
                    # What the server held when it answered, what it refilled since, less
                    # what this process sent after the request (not yet counted there).
                    level = said.remaining / self.share + share_rate * (now - ticket.t) - after
                    bucket.level = min(bucket.capacity(self.share), level)
                    bucket.t = now
            elif answered:
                self._settled = True
            elif not self._settled:
                self._probe_since = None  # the probe failed: the next request probes
            self._cond.notify_all()

    def refused(self, ticket: Ticket, reading: QuotaReading, *, tokens_short: bool) -> None:
        """A quota 429: learn its headers, and send nothing until its ``retry-after``."""
        self.observe(ticket, reading, answered=False)
        asked = reading.retry_after_s
        if asked is None:
            return
        with self._cond:
            now = time.monotonic()
            # Capped as a congestion pause is: one 429 asking for a day holds nothing a day.
            self._pause_until = max(self._pause_until, now + min(asked, max_pause_s()))
            self._pause_reason = "429"
            self.short_of = "tokens" if tokens_short else "requests"
            self._cond.notify_all()
        say_pause(self.key, asked, "retry-after of a 429 that names the quota")

    def stats(self) -> PacerStats:
        with self._cond:
            rpm = self.requests.rate(1)
            tpm = self.tokens.rate(1)
            given = bool(self.requests.given or self.tokens.given)
            source = (
                "headers and --pau-max-rpm/tpm"
                if given and self.announced
                else "--pau-max-rpm/tpm"
                if given
                else "headers"
                if self.announced
                else "none"
            )
            return PacerStats(
                self.key,
                None if rpm is None else rpm * 60,
                None if tpm is None else tpm * 60,
                source,
                dict(self.waits),
                dict(self.wait_s),
                self.share,
            )


def charge_wait(reason: str, seconds: float) -> None:
    """Add a wait to the current item's usage (llm/accounting.py)."""
    from pytest_pau.llm.accounting import charge
    from pytest_pau.models import Usage

    charge(Usage(waits={reason: 1}, wait_s={reason: seconds}))


_registry: dict[str, Pacer] = {}
_registry_lock = threading.Lock()
_quota: tuple[float | None, float | None, int] = (None, None, 1)


def configure(max_rpm: float | None, max_tpm: float | None, workers: int = 1) -> None:
    """Known quotas for the whole run (``--pau-max-rpm/tpm``), shared by ``workers`` processes.

    Forgets every pacer of this process (a new run starts from what it is told).
    """
    global _quota
    with _registry_lock:
        _quota = (max_rpm, max_tpm, max(1, workers))
        _registry.clear()


def pacer_for(endpoint: str, model: str) -> Pacer:
    """The pacer of ``model`` at ``endpoint``, created on first use."""
    key = f"{endpoint} {model}"
    with _registry_lock:
        found = _registry.get(key)
        if found is None:
            rpm, tpm, workers = _quota
            found = _registry[key] = Pacer(key, rpm=rpm, tpm=tpm, share=workers)
        return found


def all_stats() -> list[PacerStats]:
    """Every pacer of this process that paced anything, for the summary."""
    with _registry_lock:
        pacers = list(_registry.values())
    return [p.stats() for p in pacers if p.metered]


def describe(stats: PacerStats) -> str:
    """``"500 RPM, 200,000 TPM (headers)"``: the quota a pacer kept, for the summary."""
    parts = [
        f"{stats.rpm:,.0f} RPM" if stats.rpm else "",
        f"{stats.tpm:,.0f} TPM" if stats.tpm else "",
    ]
    split = f"; each of {stats.share} workers paces at 1/{stats.share}" if stats.share > 1 else ""
    return f"{', '.join(p for p in parts if p)} ({stats.source}{split})"
