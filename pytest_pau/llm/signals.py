"""What a failed request tells the pacer: a quota, congestion, flex capacity, or billing.

Every 429 is not the same. A **quota** 429 (OpenAI's ``rate_limit_exceeded`` of type
``requests`` or ``tokens``, or any 429 with rate-limit headers) says the account spent its
quota: the pacer waits for its buckets to refill, and the concurrency stays. A 429 without
any of that (an unknown server) is **throttling**: the concurrency halves, as TCP's does.
A flex-tier 429 ``resource_unavailable`` says the cheap tier has no capacity: the request
goes again at the default tier (:mod:`pytest_pau.llm.tiers`). A billing 429
(``insufficient_quota``) says the account has no credit left: no wait fixes it, so it is a
final error. 502, 503, 504, 529 and timeouts are **congestion**: the server is overloaded,
so the endpoint's concurrency halves and new requests wait out its ``retry-after``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pytest_pau.llm.quota_headers import headers_of_error, read_quota

Signal = Literal["ok", "quota", "throttle", "congestion", "flex", "billing", "other"]

CONGESTION_STATUS = frozenset({502, 503, 504, 520, 522, 524, 529})
_TIMEOUT_NAMES = frozenset(
    {"Timeout", "APITimeoutError", "ReadTimeout", "ConnectTimeout", "TimeoutError"}
)
_CONNECTION_NAMES = frozenset(
    {"APIConnectionError", "ConnectError", "RemoteProtocolError", "ConnectionResetError"}
)


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an exception carries (litellm's ``status_code`` or its response's)."""
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return int(status) if isinstance(status, int) else None


def error_fields(exc: BaseException) -> tuple[str, str, str]:
    """``(code, type, message)`` of the provider's error body, lower-cased ('' when absent)."""
    body: Any = getattr(exc, "body", None)
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        body = body["error"]
    if not isinstance(body, Mapping):
        body = {}
    code = str(body.get("code") or "").lower()
    kind = str(body.get("type") or "").lower()
    message = str(body.get("message") or exc).lower()
    return code, kind, message


def is_billing(exc: BaseException) -> bool:
    """The account has no credit or quota left (OpenAI's ``insufficient_quota``)."""
    code, kind, message = error_fields(exc)
    return (
        "insufficient_quota" in (code, kind)
        or "insufficient_quota" in message
        or "exceeded your current quota" in message
    )


def is_flex_unavailable(exc: BaseException) -> bool:
    """A flex-tier 429: no flex capacity now (not the account's quota)."""
    if status_of(exc) != 429:
        return False
    code, _, message = error_fields(exc)
    return code == "resource_unavailable" or "resource unavailable" in message


def names_service_tier(exc: BaseException) -> bool:
    """A 400 refusing the ``service_tier`` itself (a model or deployment without flex)."""
    if status_of(exc) != 400:
        return False
    body: Any = getattr(exc, "body", None)
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        body = body["error"]
    param = str(body.get("param") or "") if isinstance(body, Mapping) else ""
    return param == "service_tier" or "service_tier" in str(exc)


def is_timeout(exc: BaseException) -> bool:
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & _TIMEOUT_NAMES) or status_of(exc) == 408


def classify(exc: BaseException) -> Signal:
    """What ``exc`` (one failed attempt) says about the endpoint (see the module docstring)."""
    status = status_of(exc)
    names = {cls.__name__ for cls in type(exc).__mro__}
    if status == 429 or "RateLimitError" in names:
        if is_billing(exc):
            return "billing"
        if is_flex_unavailable(exc):
            return "flex"
        _, kind, message = error_fields(exc)
        announced = read_quota(headers_of_error(exc)).announces
        if announced or kind in ("requests", "tokens") or "rate limit reached for" in message:
            return "quota"
        return "throttle"
    if status in CONGESTION_STATUS or is_timeout(exc) or names & _CONNECTION_NAMES:
        return "congestion"
    if status is None and names & {"ServiceUnavailableError", "InternalServerError"}:
        return "congestion"
    return "other"
