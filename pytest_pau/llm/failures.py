"""What a failed model call means for the user: errors that name the model and the fix.

litellm and the provider SDKs raise many exception types; :func:`final_error` turns the
last one of a call (after our retries) into one of ours: :class:`LLMConfigError` (it will
not succeed on retry: fix the config) or :class:`LLMUnavailableError` (an outage or rate
limiting that outlasted the retry policy).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import LLMConfigError, LLMUnavailableError, PauError
from pytest_pau.llm.retry import (
    exception_chain,
    is_config_error,
    is_missing_credentials,
    is_retryable,
    retry_after_s,
    status_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable


def key_hint(model: str, validate: Callable[[str], dict[str, Any]]) -> str:
    """Which environment variable litellm reads the key of ``model``'s provider from."""
    try:
        missing = validate(model).get("missing_keys") or []
    except Exception:
        missing = []
    if missing:
        return f"set {' and '.join(missing)} (litellm reads the key for {model!r} from it)"
    return "check the API key for this provider (it is set but was refused)"


def provider_message(exc: BaseException) -> str:
    """The provider's text, on one line and at most 400 characters."""
    text = str(exc).replace("\n", " ")
    return text if len(text) < 400 else text[:400] + "..."


#: Set by :func:`pytest_pau.llm.attempt.send` on a failed attempt's exception: the HTTP
#: status the server really answered with (None: no answer's head arrived).
ANSWERED_STATUS = "pau_answered_status"


def true_cause(exc: BaseException) -> str | None:
    """What really failed, read from the exception chain; None when its status says it.

    litellm reports a connection reset, a connection closed without an answer and a 200
    whose body cannot be read all as HTTP 500 ``InternalServerError``; the exceptions
    it was raised from say which.
    """
    answered = getattr(exc, ANSWERED_STATUS, None)
    for cause in exception_chain(exc):
        names = {cls.__name__ for cls in type(cause).__mro__}
        if "AttemptDeadline" in names:
            return str(cause)
        if isinstance(cause, ConnectionResetError):
            return "connection reset by the server"
        if "RemoteProtocolError" in names:
            return f"the server closed the connection without a whole answer ({cause})"
        if isinstance(cause, json.JSONDecodeError):
            status = f"HTTP {answered}, " if answered is not None else ""
            problem = f"not JSON: {cause.msg} at character {cause.pos + 1}"
            return f"unreadable answer body ({status}{problem})"
        if "ConnectError" in names:
            return f"cannot connect ({cause})"
    return None


def final_error(
    exc: BaseException,
    *,
    model: str,
    api_base: str | None,
    api_key_given: bool,
    attempts: int,
    elapsed: float,
    validate: Callable[[str], dict[str, Any]],
    max_total_wait_s: float | None = None,
    max_attempts: int | None = None,
) -> Exception:
    """Turn the last litellm error of a call into one that names the model and says what to do.

    Args:
        exc: What litellm raised on the last attempt.
        model: The model string the user gave.
        api_base: Its server, when one was given.
        api_key_given: Whether a key was passed explicitly (then it was refused).
        attempts: How many attempts the retry policy made.
        elapsed: Seconds spent on them.
        validate: ``litellm.validate_environment``, to name a missing key's variable.
        max_total_wait_s: The retry policy's cap on waiting, to say when a ``Retry-After``
            asked for more than it allows.
        max_attempts: The policy's attempt limit (a wait that was not the reason to stop
            is not blamed).
    """
    if isinstance(exc, PauError):
        return exc
    status = status_of(exc)
    where = f" at {api_base}" if api_base else ""
    detail = provider_message(exc)
    if is_missing_credentials(exc):
        fix = key_hint(model, validate) if not api_key_given else "pass a valid api_key"
        return LLMConfigError(
            f"Model {model!r}{where} has no API key: {fix}. Not retried: no retry brings a "
            f"key (litellm reported it as HTTP {status if status is not None else 'n/a'}). "
            f"Provider said: {detail}"
        )
    from pytest_pau.llm.signals import is_billing

    if is_billing(exc):
        return LLMConfigError(
            f"Model {model!r}{where}: the account's quota or credit is spent (HTTP {status} "
            "insufficient_quota), which no wait fixes, so it was not retried. Add credit or "
            f"raise the project's spending limit at the provider. Provider said: {detail}"
        )
    if is_config_error(exc) and not is_retryable(exc):
        if status in (401, 403) or type(exc).__name__ == "AuthenticationError":
            fix = (
                key_hint(model, validate) if not api_key_given else "the api_key passed was refused"
            )
            return LLMConfigError(
                f"Model {model!r}{where} rejected the credentials (HTTP {status}): {fix}. "
                f"Provider said: {detail}"
            )
        if status == 404 or type(exc).__name__ == "NotFoundError":
            return LLMConfigError(
                f"Model {model!r}{where} was not found (HTTP 404). Check the model string "
                "(litellm form 'provider/name', e.g. 'openai/gpt-4o-mini'; see "
                f"https://docs.litellm.ai/docs/providers) and --pau-api-base. Provider said: {detail}"
            )
        return LLMConfigError(
            f"Model {model!r}{where} refused the request (HTTP {status}); this will not "
            f"succeed on retry, so fix the request or the model options. Provider said: {detail}"
        )
    asked = retry_after_s(exc) if is_retryable(exc) else None
    if (
        asked is not None
        and max_total_wait_s is not None
        and elapsed + asked > max_total_wait_s
        and (max_attempts is None or attempts < max_attempts)
    ):
        return LLMUnavailableError(
            f"Model {model!r}{where} asked to wait {asked:.0f} s before the next attempt "
            f"(HTTP {status if status is not None else 'n/a'} with Retry-After), more than "
            f"the retry cap allows: {max_total_wait_s:.0f} s of waiting per call "
            f"(PAU_RETRY_MAX_TOTAL_S), {elapsed:.1f} s spent on {attempts} attempt(s). "
            "Retry later, lower -n and --pau-max-connections, or raise PAU_RETRY_MAX_TOTAL_S. "
            f"Provider said: {detail}"
        )
    if is_retryable(exc):
        cause = true_cause(exc)
        if cause is not None:
            # litellm's status (500 for most of these) would name the wrong failure.
            return LLMUnavailableError(
                f"Model {model!r}{where} failed after {attempts} attempt(s) over "
                f"{elapsed:.1f} s; last error: {cause} (litellm reports it as HTTP "
                f"{status if status is not None else 'n/a'} {type(exc).__name__}). The "
                "server or the network between failed: retry later, lower -n, or raise "
                "PAU_RETRY_ATTEMPTS / PAU_RETRY_MAX_TOTAL_S."
            )
        return LLMUnavailableError(
            f"Model {model!r}{where} failed after {attempts} attempt(s) over {elapsed:.1f} s; "
            f"last error: HTTP {status if status is not None else 'n/a'} "
            f"{type(exc).__name__}: {detail}. The provider is down or rate-limiting: retry "
            "later, lower -n, or raise PAU_RETRY_ATTEMPTS / PAU_RETRY_MAX_TOTAL_S."
        )
    return LLMConfigError(f"Model {model!r}{where}: litellm raised {type(exc).__name__}: {detail}")
