"""Which model errors are worth retrying, and how long to wait: a tenacity policy.

litellm's own ``num_retries`` and the OpenAI SDK's ``max_retries`` are switched off
(``max_retries=0``): the SDK honours ``Retry-After`` but caps the wait at 60 s with no
total cap, and litellm's retries do not tell us the attempt count or the last status for
the final error. tenacity supplies the loop; this module supplies the decisions.
"""

from __future__ import annotations

import email.utils
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from pytest_pau.llm.quota_headers import headers_of_error

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
CONFIG_STATUS = frozenset({400, 401, 403, 404, 413, 422})
# Exceptions without a status that are still transient (names, so no litellm import here).
_TRANSIENT_NAMES = frozenset(
    {
        "Timeout",
        "APITimeoutError",
        "APIConnectionError",
        "ConnectError",
        "ReadTimeout",
        "RemoteProtocolError",
        "ConnectionResetError",
        "ServiceUnavailableError",
        "InternalServerError",
        "RateLimitError",
    }
)


# What litellm and the provider SDKs say when no key was found at all. litellm 1.110 wraps
# the OpenAI SDK's "Missing credentials" in an HTTP 500 InternalServerError, which a
# status-based policy would retry for minutes: no retry brings a key.
_MISSING_CREDENTIALS = re.compile(
    r"missing credentials|api_key client option must be set|missing [\w .-]{0,40}api key",
    re.IGNORECASE,
)


def _env_float(name: str, default: float) -> float:
    """The variable ``name`` (a row of ``settings.env_vars.ENV_NUMBERS``, whose default wins)."""
    from pytest_pau.settings.env_vars import env_number

    return env_number(name)


@dataclass(frozen=True)
class RetryPolicy:
    """Capped, jittered exponential backoff that honours ``Retry-After``.

    The n-th wait is ``base_s * 2**(n-1)`` scaled by a random factor in [0.5, 1.0]
    (so xdist workers hit by the same 429 do not return in lockstep), at most
    ``max_wait_s``; a ``Retry-After`` from the server replaces it, waited at most
    ``PAU_MAX_PAUSE_S``. Retrying stops after ``max_attempts`` calls or when the next wait
    (what the server asked for, when it did) would push the total past
    ``max_total_wait_s``. Defaults read ``PAU_RETRY_BASE_S``, ``PAU_RETRY_ATTEMPTS`` and
    ``PAU_RETRY_MAX_TOTAL_S`` so tests can shrink them.
    """

    max_attempts: int = field(default_factory=lambda: int(_env_float("PAU_RETRY_ATTEMPTS", 6)))
    base_s: float = field(default_factory=lambda: _env_float("PAU_RETRY_BASE_S", 1.0))
    max_wait_s: float = 60.0
    max_total_wait_s: float = field(
        default_factory=lambda: _env_float("PAU_RETRY_MAX_TOTAL_S", 300.0)
    )

    def backoff(self, attempt: int) -> float:
        """The jittered wait after failed attempt number ``attempt`` (1-based)."""
        raw = self.base_s * 2.0 ** (attempt - 1)
        return float(min(self.max_wait_s, raw) * random.uniform(0.5, 1.0))

    def wait_for(self, attempt: int, exc: BaseException | None) -> float:
        """The backoff, or the server's ``Retry-After``, at most ``PAU_MAX_PAUSE_S`` (as
        every pause a provider asks for: :func:`pytest_pau.llm.limits.max_pause_s`)."""
        from pytest_pau.llm.limits import max_pause_s

        after = retry_after_s(exc) if exc is not None else None
        return min(after, max_pause_s()) if after is not None else self.backoff(attempt)


def status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return int(status) if isinstance(status, int) else None


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds from ``Retry-After`` (delta or HTTP date) or ``retry-after-ms``, if sent."""
    headers = headers_of_error(exc)
    if "retry-after-ms" in headers:
        try:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None  # "soon" or garbage: fall back to our own backoff, keep retrying
    return max(0.0, when.timestamp() - time.time())


def exception_chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from or during (at most 8, no cycles)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(seen) < 8 and not any(current is s for s in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def is_missing_credentials(exc: BaseException) -> bool:
    """No API key was found for the call, whatever status litellm reports it with.

    Looks at the whole exception chain: litellm's wrapper names an HTTP status, the SDK's
    error underneath it says that the key is missing.
    """
    return any(_MISSING_CREDENTIALS.search(str(e)) for e in exception_chain(exc))


def is_retryable(exc: BaseException) -> bool:
    from pytest_pau.llm.signals import is_billing

    if is_missing_credentials(exc) or is_billing(exc):
        # No wait brings a key, or credit to an account whose quota is spent.
        return False
    status = status_of(exc)
    if status is not None:
        return status in RETRYABLE_STATUS or status >= 500
    return any(cls.__name__ in _TRANSIENT_NAMES for cls in type(exc).__mro__) or isinstance(
        exc, (ConnectionError, TimeoutError)
    )


def is_config_error(exc: BaseException) -> bool:
    if is_missing_credentials(exc):
        return True
    status = status_of(exc)
    if status in CONFIG_STATUS:
        return True
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(
        names
        & {
            "AuthenticationError",
            "NotFoundError",
            "BadRequestError",
            "PermissionDeniedError",
            "UnsupportedParamsError",
        }
    )


def tenacity_kwargs(policy: RetryPolicy) -> dict[str, Any]:
    """Arguments for ``tenacity.Retrying`` that implement ``policy``."""
    import tenacity

    def wait(state: tenacity.RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        return policy.wait_for(state.attempt_number, exc)

    def stop(state: tenacity.RetryCallState) -> bool:
        if state.attempt_number >= policy.max_attempts:
            return True
        # What the server asked for, not the capped sleep: a request told to come back in a
        # day gives up at once rather than asking again every PAU_MAX_PAUSE_S.
        exc = state.outcome.exception() if state.outcome else None
        asked = retry_after_s(exc) if exc is not None else None
        upcoming = max(state.upcoming_sleep or 0.0, asked or 0.0)
        return state.idle_for + upcoming > policy.max_total_wait_s

    return {
        "retry": tenacity.retry_if_exception(is_retryable),
        "wait": wait,
        "stop": stop,
        "reraise": True,
    }
