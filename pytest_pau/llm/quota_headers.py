"""Reading a provider's rate-limit headers: how much of its quota is left and when it refills.

OpenAI (and Groq, Azure OpenAI, most OpenAI-compatible servers) send on every answer::

    x-ratelimit-limit-requests: 500        x-ratelimit-limit-tokens: 200000
    x-ratelimit-remaining-requests: 499    x-ratelimit-remaining-tokens: 199412
    x-ratelimit-reset-requests: 120ms      x-ratelimit-reset-tokens: 176ms

where a reset is the time until the bucket is full again, as a Go duration (``1s``,
``6m0s``, ``59.56s``; Azure sends plain seconds). Anthropic sends
``anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}``
with RFC 3339 timestamps as resets. A 429 adds ``retry-after-ms`` and/or ``retry-after``.

litellm hands the headers of an answer over in ``response._hidden_params["additional_headers"]``,
every one of them prefixed ``llm_provider-`` (the reset headers only there), and those of an
error in ``exc.litellm_response_headers``; :func:`headers_of_response` and
:func:`headers_of_error` read both, and :func:`read_quota` makes one :class:`QuotaReading`.
Pure functions: nothing here sends or waits.
"""

from __future__ import annotations

import email.utils
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

LITELLM_PREFIX = "llm_provider-"
#: The longest reset read from a header: a day, the longest window providers publish a
#: quota for (requests or tokens per day). A reset of ``1000000h`` is a server's mistake,
#: and would make the rate it implies (``(limit - remaining) / reset``) nearly 0.
MAX_RESET_S = 86400.0

_GO_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
# Longest units first inside each alternative, so "ms" is never read as "m" then "s".
_GO_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|h|m|s)")


def parse_duration(text: str | None, *, now: float | None = None) -> float | None:
    """Seconds from a reset or retry value: ``"1s"``, ``"6m0s"``, ``"12ms"``, ``"2.5"``, a date.

    Accepts Go durations (one or more ``<number><unit>`` groups), plain seconds, RFC 3339
    timestamps (Anthropic) and HTTP dates; a timestamp gives the seconds from ``now``
    (default: the clock), never below 0. None for anything else, and for a negative
    number (Azure's ``-1`` placeholder).
    """
    if text is None:
        return None
    value = str(text).strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return seconds if seconds >= 0 and math.isfinite(seconds) else None
    compact = value.replace(" ", "")
    parts = _GO_PART.findall(compact)
    if parts and "".join(n + u for n, u in parts) == compact:
        return sum(float(n) * _GO_UNITS[u] for n, u in parts)
    clock = time.time() if now is None else now
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError, IndexError):
            return None
    return max(0.0, when - clock)


@dataclass(frozen=True)
class Bucket:
    """What a provider said about one of its limits (requests or tokens)."""

    limit: float | None = None
    """The quota (per minute for OpenAI and Anthropic)."""
    remaining: float | None = None
    """What is left now."""
    reset_s: float | None = None
    """Seconds until the bucket is full again (at most :data:`MAX_RESET_S`)."""

    @property
    def known(self) -> bool:
        return self.remaining is not None

    def refill_rate(self) -> float | None:
        """Units per second the bucket refills at, or None when the headers cannot tell.

        ``limit / 60`` for a per-minute quota, but never more than ``(limit - remaining) /
        reset`` says: for a per-day quota (Groq's requests) that is the slower, true rate;
        for a bucket that is enforced per second (OpenAI may quantise a per-minute quota)
        the per-minute rate is the safe one.
        """
        if self.limit is None or self.limit <= 0:
            return None
        rate = self.limit / 60.0
        if (
            self.remaining is not None
            and self.reset_s is not None
            and self.reset_s > 0
            and self.remaining < self.limit
        ):
            rate = min(rate, (self.limit - self.remaining) / self.reset_s)
        return rate


@dataclass(frozen=True)
class QuotaReading:
    """One answer's rate-limit headers, read."""

    requests: Bucket = Bucket()
    tokens: Bucket = Bucket()
    retry_after_s: float | None = None
    """``retry-after-ms`` (preferred) or ``retry-after``, when sent."""
    style: str | None = None
    """``"openai"`` or ``"anthropic"``: which header family was found; None: none."""

    @property
    def announces(self) -> bool:
        """Whether the server announced any quota (a reading worth pacing by)."""
        return self.requests.known or self.tokens.known


def _number(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    # Azure sends -1 (and 0 for the limit) as placeholders on some answers.
    return number if number >= 0 and math.isfinite(number) else None


def _limit(value: str | None) -> float | None:
    number = _number(value)
    return number if number else None


def normalise(headers: Mapping[str, Any] | None) -> dict[str, str]:
    """Lower-case names, litellm's ``llm_provider-`` prefix dropped (the prefixed copy wins)."""
    out: dict[str, str] = {}
    if not headers:
        return out
    try:
        items = list(headers.items())
    except (AttributeError, TypeError):
        return out
    prefixed: dict[str, str] = {}
    for key, value in items:
        name = str(key).lower()
        if name.startswith(LITELLM_PREFIX):
            prefixed[name[len(LITELLM_PREFIX) :]] = str(value)
        else:
            out[name] = str(value)
    out.update(prefixed)
    return out


def headers_of_response(response: Any) -> dict[str, str]:
    """The headers of a litellm answer (``_hidden_params["additional_headers"]``)."""
    hidden = getattr(response, "_hidden_params", None) or {}
    if not isinstance(hidden, Mapping):
        return {}
    return normalise(hidden.get("additional_headers"))


def headers_of_error(exc: BaseException) -> dict[str, str]:
    """The headers of a failed call: litellm's copy, else the raw ``httpx`` response's."""
    for source in (
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        if source:
            try:
                return normalise(dict(source))
            except (TypeError, ValueError):
                continue
    return {}


def _reset(seconds: float | None) -> float | None:
    return None if seconds is None else min(seconds, MAX_RESET_S)


def _openai_bucket(h: Mapping[str, str], kind: str, now: float | None) -> Bucket:
    return Bucket(
        limit=_limit(h.get(f"x-ratelimit-limit-{kind}")),
        remaining=_number(h.get(f"x-ratelimit-remaining-{kind}")),
        reset_s=_reset(parse_duration(h.get(f"x-ratelimit-reset-{kind}"), now=now)),
    )


def _anthropic_bucket(h: Mapping[str, str], kind: str, now: float | None) -> Bucket:
    return Bucket(
        limit=_limit(h.get(f"anthropic-ratelimit-{kind}-limit")),
        remaining=_number(h.get(f"anthropic-ratelimit-{kind}-remaining")),
        reset_s=_reset(parse_duration(h.get(f"anthropic-ratelimit-{kind}-reset"), now=now)),
    )


def retry_after(headers: Mapping[str, str]) -> float | None:
    """``retry-after-ms`` in seconds, else ``retry-after`` (seconds or a date)."""
    millis = _number(headers.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000.0
    return parse_duration(headers.get("retry-after"))


def read_quota(headers: Mapping[str, Any] | None, *, now: float | None = None) -> QuotaReading:
    """The quota an answer's headers announce (an empty reading when they announce none).

    Args:
        headers: Response headers, raw or as litellm passes them on (see :func:`normalise`).
        now: Seconds since the epoch, for RFC 3339 resets (default: the clock).
    """
    h = normalise(headers)
    wait = retry_after(h)
    requests = _openai_bucket(h, "requests", now)
    tokens = _openai_bucket(h, "tokens", now)
    if requests.known or tokens.known:
        return QuotaReading(requests, tokens, wait, "openai")
    requests = _anthropic_bucket(h, "requests", now)
    # "tokens" is Anthropic's most restrictive token limit in force; without it, the input
    # tokens (what a request's size is made of) stand for it.
    tokens = _anthropic_bucket(h, "tokens", now)
    if not tokens.known:
        tokens = _anthropic_bucket(h, "input-tokens", now)
    if requests.known or tokens.known:
        return QuotaReading(requests, tokens, wait, "anthropic")
    return QuotaReading(retry_after_s=wait)


def go_duration(seconds: float) -> str:
    """``seconds`` as OpenAI writes a reset: ``"120ms"``, ``"1s"``, ``"6m0s"``, ``"1m59.5s"``."""
    if seconds < 1:
        return f"{max(0, math.ceil(seconds * 1000))}ms"
    minutes, rest = divmod(seconds, 60.0)
    rest_text = f"{rest:.3f}".rstrip("0").rstrip(".") + "s"
    return f"{int(minutes)}m{rest_text}" if minutes else rest_text
