"""One attempt of a model request: a slot of the endpoint's limiter, the pacer, the answer.

:func:`send` is what :class:`~pytest_pau.llm.client.LLMClient` calls for every attempt to a
hosted or served model (the embedded ones have their own lock): it takes a slot of the
endpoint's :class:`~pytest_pau.llm.limits.AdaptiveLimiter`, waits for the
:class:`~pytest_pau.llm.pacing.Pacer` of the endpoint and model, sends, and tells both
what the answer (or the error, :func:`pytest_pau.llm.signals.classify`) said.
"""

from __future__ import annotations

import threading
from typing import Any

from pytest_pau.llm import http_pool
from pytest_pau.llm.accounting import charge
from pytest_pau.llm.failures import ANSWERED_STATUS
from pytest_pau.llm.limits import SAID_PAUSE_S, Cancelled, endpoint_of, limiter_for, say_pause
from pytest_pau.llm.pacing import (
    MIN_COUNTED_WAIT_S,
    Ticket,
    charge_wait,
    estimate_tokens,
    pacer_for,
)
from pytest_pau.llm.quota_headers import headers_of_error, headers_of_response, read_quota
from pytest_pau.llm.retry import retry_after_s
from pytest_pau.llm.signals import Signal, classify, error_fields
from pytest_pau.models import Usage


def send(
    call: Any,
    kwargs: dict[str, Any],
    *,
    endpoint: str,
    model: str,
    cancel: threading.Event | None = None,
) -> Any:
    """One attempt of ``call(**kwargs)``, holding a slot of the endpoint's limiter and paced.

    The slot and the pacer let the request go at the last moment: in the HTTP pool, once
    litellm has prepared it (:func:`pytest_pau.llm.http_pool.before_next_send`), where
    requests to OpenAI-compatible endpoints leave (learned from each endpoint's first
    attempt); else before ``call``. There the slot is given back as soon as the answer's
    last byte is in, before litellm reads it: a slot stands for a request at the endpoint,
    and litellm's work on either side of it (milliseconds of CPU, more while 128 episodes
    share two cores) would otherwise keep slots idle that waiting requests could use. The
    answer's (or the error's) headers go back to the pacer, and what the attempt says about
    the endpoint to the limiter (:func:`pytest_pau.llm.signals.classify`); a rate limit is
    counted in the current item's usage.
    """
    limiter = limiter_for(endpoint)
    pacer = pacer_for(endpoint, model)
    signal: Signal = "ok"
    pause: float | None = None
    tickets: list[Ticket] = []
    held: list[bool] = []  # one entry while this attempt holds a slot of the limiter
    tokens = estimate_tokens(kwargs["messages"], kwargs.get("max_tokens") or 0)

    def take_slot() -> None:
        if limiter is not None:
            waited, why = limiter.acquire(cancel)
            held.append(True)
            if why and waited >= MIN_COUNTED_WAIT_S:
                charge_wait(why, waited)

    def free_slot() -> None:
        if held:
            held.clear()
            limiter.free()  # type: ignore[union-attr]  # held only when there is one

    def admit() -> None:
        tickets.append(pacer.admit(tokens, cancel))

    def leave() -> None:
        take_slot()
        admit()

    late = _at_the_socket.get(endpoint, False)
    try:
        if not late:
            leave()
        http_pool.before_next_send(leave if late else _nothing, answered=free_slot)
        try:
            response = call(**kwargs)
        except Exception as exc:
            ran, raised = http_pool.step_outcome()
            if raised is not None:
                raise raised from None  # the pacer's own Cancelled, wrapped by the HTTP stack
            if not tickets:
                raise  # litellm refused it before sending: nothing went out
            # What the server really answered (litellm calls an unreadable 200 a 500).
            setattr(exc, ANSWERED_STATUS, http_pool.answered_status())
            signal = classify(exc)
            reading = read_quota(headers_of_error(exc))
            if signal == "quota":
                _, kind, _ = error_fields(exc)
                short = kind == "tokens" or reading.tokens.remaining == 0
                pacer.refused(tickets[0], reading, tokens_short=short)
            else:
                pacer.observe(tickets[0], reading, answered=False)
            if signal in ("quota", "throttle"):
                _charge_rate_limit()
            if signal == "congestion":
                pause = reading.retry_after_s
            raise
        ran, _ = http_pool.step_outcome()
        _at_the_socket[endpoint] = ran
        if not tickets:  # it left by another way, unpaced: pace before the call from now on
            admit()
        pacer.observe(tickets[0], read_quota(headers_of_response(response)))
        return response
    except Cancelled:
        signal = "other"
        raise
    finally:
        http_pool.before_next_send(None)
        free_slot()
        if limiter is not None:
            limiter.tell(signal, pause_s=pause)


def _nothing() -> None:
    """The step that tells whether an endpoint's requests leave through our pools."""


_at_the_socket: dict[str, bool] = {}
"""Per endpoint: its requests leave through :mod:`pytest_pau.llm.http_pool`'s pools."""


def _charge_rate_limit() -> None:
    charge(Usage(rate_limited=1))  # the item's count of rate limits


def count_retry_wait(state: Any) -> None:
    """tenacity's ``before_sleep``: count the wait before a retry, by what failed."""
    exc = state.outcome.exception() if state.outcome is not None else None
    seconds = float(state.upcoming_sleep or 0.0)
    if exc is None or seconds < MIN_COUNTED_WAIT_S:
        return
    asked = retry_after_s(exc)
    if asked is not None and asked > SAID_PAUSE_S:
        sent = state.args[1] if len(state.args) > 1 and isinstance(state.args[1], dict) else {}
        who = endpoint_of(str(sent.get("model", "")), sent.get("api_base"))
        say_pause(who, asked, "retry-after of a failed attempt, before the next")
    signal = classify(exc)
    reason = (
        "429"
        if signal in ("quota", "throttle")
        else "congestion"
        if signal == "congestion"
        else "retry"
    )
    charge_wait(reason, seconds)
