"""A provider's quota, played by :class:`~pytest_pau.llm.scripted.server.ScriptedLLM`.

Two token buckets, as OpenAI and Anthropic describe theirs: requests per minute (RPM) and
tokens per minute (TPM), refilled continuously. A request is admitted when both hold
enough: one request, and its prompt tokens (one per word, as the server counts them) plus
its output cap (``max_completion_tokens`` or ``max_tokens``; :data:`DEFAULT_CAP` when it
sends none), which is what OpenAI debits up front. Otherwise it is answered 429 with
``retry-after-ms`` / ``retry-after`` (the time until the bucket holds enough) and nothing is
debited. Every answer, 200 or not, carries the headers of the style asked for (see
:func:`headers`).

``burst_s`` is the bucket's depth in seconds of quota: 60 is a per-minute bucket as the
providers publish theirs (a fresh account may spend a minute's quota at once); 1 plays a
provider that enforces the quota per second ("quantised", as OpenAI warns it may), where
the announced ``limit`` stays per minute but ``remaining`` never exceeds a second's worth.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pytest_pau.llm.quota_headers import go_duration
from pytest_pau.llm.scripted.reply import content_text, count_tokens, request_cap

HeaderStyle = Literal["openai", "anthropic"]
HEADER_STYLES = ("openai", "anthropic")
DEFAULT_CAP = 4096
"""Output tokens debited for a request that sends no cap."""


class _Bucket:
    """A continuously refilled bucket: ``rate`` units per second up to ``capacity``."""

    def __init__(self, per_minute: float, burst_s: float, now: float) -> None:
        self.limit = per_minute
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * burst_s)
        self.level = self.capacity
        self.t = now

    def refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.t) * self.rate)
        self.t = now

    def wait_for(self, amount: float) -> float:
        """Seconds until the bucket holds ``amount`` (at most its capacity)."""
        return max(0.0, (min(amount, self.capacity) - self.level) / self.rate)

    def reset_s(self) -> float:
        """Seconds until full: what a provider's ``reset`` header says."""
        return max(0.0, (self.capacity - self.level) / self.rate)


@dataclass
class Admission:
    """How the quota treated one request."""

    admitted: bool
    refused_by: str | None
    """``"requests"`` or ``"tokens"`` when refused (the bucket that was short)."""
    tokens: int
    """Tokens the request is charged (prompt words + cap), debited when admitted."""
    requests_before: float | None
    """The requests bucket's level when the request arrived (None: no RPM quota)."""
    tokens_before: float | None
    retry_after_s: float
    """Seconds until it would be admitted (0 when admitted)."""
    headers: dict[str, str]
    """What every answer to it carries."""


def charge_of(body: Mapping[str, Any], default_cap: int = DEFAULT_CAP) -> int:
    """Tokens a request is charged: prompt words plus its output cap."""
    messages = body.get("messages") or []
    prompt = sum(
        count_tokens(content_text(m.get("content"))) for m in messages if isinstance(m, dict)
    )
    _, cap = request_cap(body)
    return prompt + (default_cap if cap is None else cap)


class Quota:
    """RPM and TPM buckets and the headers that announce them (thread-safe).

    Args:
        rpm: Requests per minute; None: no request quota.
        tpm: Tokens per minute; None: no token quota.
        burst_s: Depth of each bucket in seconds of its rate (see the module docstring).
        style: ``"openai"`` (``x-ratelimit-*``, Go-duration resets, ``retry-after-ms``) or
            ``"anthropic"`` (``anthropic-ratelimit-*``, RFC 3339 resets, ``retry-after``).
        default_cap: Output tokens charged to a request without a cap.
    """

    def __init__(
        self,
        *,
        rpm: float | None,
        tpm: float | None,
        burst_s: float = 60.0,
        style: HeaderStyle = "openai",
        default_cap: int = DEFAULT_CAP,
    ) -> None:
        for name, value in (("rpm", rpm), ("tpm", tpm)):
            if value is not None and not (value > 0 and math.isfinite(value)):
                raise ValueError(f"ScriptedLLM({name}={value!r}): expected a positive number.")
        if rpm is None and tpm is None:
            raise ValueError("Quota needs rpm= or tpm=")
        if not burst_s > 0:
            raise ValueError(f"ScriptedLLM(burst_s={burst_s!r}): expected a positive number.")
        if style not in HEADER_STYLES:
            raise ValueError(
                f"ScriptedLLM(ratelimit_headers={style!r}): expected one of {HEADER_STYLES}."
            )
        now = time.monotonic()
        self.requests = _Bucket(rpm, burst_s, now) if rpm is not None else None
        self.tokens = _Bucket(tpm, burst_s, now) if tpm is not None else None
        self.style = style
        self.default_cap = default_cap
        self._lock = threading.Lock()

    def admit(self, body: Mapping[str, Any]) -> Admission:
        """Debit ``body``'s request if both buckets hold enough; the headers either way."""
        tokens = charge_of(body, self.default_cap)
        with self._lock:
            now = time.monotonic()
            for bucket in (self.requests, self.tokens):
                if bucket is not None:
                    bucket.refill(now)
            r_before = None if self.requests is None else self.requests.level
            t_before = None if self.tokens is None else self.tokens.level
            short = []
            if self.requests is not None and self.requests.level < 1:
                short.append(("requests", self.requests.wait_for(1)))
            # A request larger than the whole bucket is admitted once the bucket is full
            # (the level goes negative): it could never be served otherwise.
            if self.tokens is not None and self.tokens.level < min(tokens, self.tokens.capacity):
                short.append(("tokens", self.tokens.wait_for(tokens)))
            if not short:
                if self.requests is not None:
                    self.requests.level -= 1
                if self.tokens is not None:
                    self.tokens.level -= tokens
            refused_by, wait = max(short, key=lambda s: s[1]) if short else (None, 0.0)
            announced = self._headers(refused_by is not None, wait)
        return Admission(
            refused_by is None, refused_by, tokens, r_before, t_before, wait, announced
        )

    def _headers(self, refused: bool, wait: float) -> dict[str, str]:
        out: dict[str, str] = {}
        for kind, bucket in (("requests", self.requests), ("tokens", self.tokens)):
            if bucket is None:
                continue
            remaining = str(max(0, math.floor(bucket.level)))
            if self.style == "openai":
                out[f"x-ratelimit-limit-{kind}"] = f"{bucket.limit:g}"
                out[f"x-ratelimit-remaining-{kind}"] = remaining
                out[f"x-ratelimit-reset-{kind}"] = go_duration(bucket.reset_s())
            else:
                full_at = datetime.now(UTC).timestamp() + bucket.reset_s()
                stamp = datetime.fromtimestamp(full_at, UTC).isoformat(timespec="milliseconds")
                out[f"anthropic-ratelimit-{kind}-limit"] = f"{bucket.limit:g}"
                out[f"anthropic-ratelimit-{kind}-remaining"] = remaining
                out[f"anthropic-ratelimit-{kind}-reset"] = stamp.replace("+00:00", "Z")
        if refused:
            if self.style == "openai":
                out["retry-after-ms"] = str(max(1, math.ceil(wait * 1000)))
            out["retry-after"] = str(max(1, math.ceil(wait)))
        return out


def refusal_body(admission: Admission, style: HeaderStyle) -> dict[str, Any]:
    """The 429's JSON error, worded as the provider words it."""
    kind = admission.refused_by or "requests"
    wait_ms = max(1, math.ceil(admission.retry_after_s * 1000))
    if style == "anthropic":
        return {
            "type": "error",
            "error": {
                "type": "rate_limit_error",
                "message": f"This request would exceed your organization's rate limit of "
                f"{kind} per minute (scripted).",
            },
        }
    return {
        "error": {
            "message": f"Rate limit reached for {kind} (scripted quota). Please try again "
            f"in {wait_ms}ms.",
            "type": kind,
            "param": None,
            "code": "rate_limit_exceeded",
        }
    }
