"""The HTTP side of :class:`~pytest_pau.llm.scripted.server.ScriptedLLM`: server, handler, faults.

The handler reads a request, asks its owner (the ``ScriptedLLM``, seen here through the
:class:`Owner` protocol) for the answer and writes it; the owner keeps the counts, the log
(:class:`Exchange` records) and the timings.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import sys
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from pytest_pau.llm.scripted.quota import Admission, Quota, refusal_body
from pytest_pau.llm.scripted.reply import (
    Messages,
    ReasoningScript,
    Refused,
    Reply,
    check_supported,
    completion_body,
    content_text,
)

FAULT_KINDS = (
    "429",
    "insufficient_quota",
    "500",
    "503",
    "529",
    "401",
    "404",
    "400",
    "delay",
    "malformed",
    "no-choices",
    "drop",
    "reset",
    "drip",
)
"""What :meth:`ScriptedLLM.fail <pytest_pau.llm.scripted.server.ScriptedLLM.fail>` schedules."""

CLIENT_GONE = (BrokenPipeError, ConnectionResetError)
"""What writing to (or reading from) a client that went away raises: a cancelled request,
a client timeout, a test that closed early. Not a server error, so never printed."""


@dataclass
class Exchange:
    """One chat-completion request as the server saw it."""

    number: int
    """1-based arrival number (as counted by :attr:`ScriptedLLM.requests`)."""
    start: float
    """``time.monotonic()`` when the request had been read."""
    end: float | None = None
    """``time.monotonic()`` when the answer was written (None while in flight)."""
    status: int | None = None
    """HTTP status answered; None for a dropped connection."""
    cap_param: str | None = None
    """Which output cap the request carried: ``max_completion_tokens``, ``max_tokens`` or None."""
    cap: int | None = None
    reasoning: dict[str, Any] = field(default_factory=dict)
    """The reasoning options sent (``reasoning_effort``, ``reasoning``, ``thinking``, ...)."""
    client_gone: bool = False
    """The client hung up before the answer was written (a cancelled or timed-out call)."""
    quota: Admission | None = None
    """How the quota (``rpm=``/``tpm=``) treated it: admitted or refused, the levels it
    found, the headers every answer to it carried; None without a quota."""
    service_tier: str | None = None
    """The ``service_tier`` the request asked for (None: none sent)."""
    flex_number: int | None = None
    """Its number among the flex requests (from 1), when it asked for flex."""
    flex_refused: bool = False
    """Answered 429 ``resource_unavailable`` (``flex_unavailable=``)."""

    @property
    def duration(self) -> float | None:
        return None if self.end is None else self.end - self.start


@dataclass
class Fault:
    kind: str
    first: int
    """First request number (1-based) the fault applies to."""
    times: int
    retry_after: float | None = None
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    """Extra headers of the faulted answer."""

    def covers(self, n: int) -> bool:
        return self.first <= n < self.first + self.times


class Owner(Protocol):
    """What the handler asks of the server that owns it (a ``ScriptedLLM``)."""

    model: str
    delay_s: float
    reasoning: ReasoningScript
    served_model: str | None
    system_fingerprint: str | None
    models_entry: dict[str, Any]
    unsupported_params: tuple[str, ...]
    starved_as_400: bool
    quota: Quota | None
    flex_delay_s: float
    flex_unsupported: bool

    def _arrive(self, body: dict[str, Any]) -> tuple[Exchange, Fault | None]: ...

    def _connected(self) -> None: ...

    def _depart(self, exchange: Exchange, status: int | None) -> None: ...

    def _reply_for(self, messages: Messages) -> Reply | None: ...

    def _thought_for(self, messages: Messages, effort: Any) -> str | None: ...


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # The listen backlog is fixed when the socket binds: xdist workers and thread pools
    # open dozens of connections at once, and the default of 5 resets the rest.
    request_queue_size = 256

    def handle_error(self, request: Any, client_address: Any) -> None:
        # socketserver prints a traceback for any exception out of a handler; a client
        # that hung up (between two keep-alive requests, or mid-answer) is not one.
        if isinstance(sys.exc_info()[1], CLIENT_GONE):
            return
        super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    owner: Owner
    # Keep-alive, as real providers do: clients reuse connections between calls.
    protocol_version = "HTTP/1.1"
    _status: int | None = None
    _quota_headers: dict[str, str] | None = None
    _extra_headers: dict[str, str] = {}  # noqa: RUF012 - replaced per request, never mutated

    def setup(self) -> None:
        super().setup()
        self.owner._connected()
        # Headers and body go out in two writes; with Nagle on, the client's delayed ACK
        # adds ~40 ms to every exchange.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read .log instead
        return

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        headers = {**self._extra_headers, **(headers or {})}
        self._status = status
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        # A provider's quota headers come with every answer, errors included.
        for key, value in {**(self._quota_headers or {}), **(headers or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(
        self,
        status: int,
        message: str,
        etype: str,
        headers: dict[str, str] | None = None,
        *,
        param: str | None = None,
        code: str | None = None,
    ) -> None:
        error: dict[str, Any] = {"message": message, "type": etype, "code": code or str(status)}
        if param is not None:
            error["param"] = param
        self._send_json(status, {"error": error}, headers)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            name = self.owner.served_model or self.owner.model.split("/", 1)[1]
            entry = {"id": name, "object": "model", **self.owner.models_entry}
            self._send_json(200, {"object": "list", "data": [entry]})
        else:
            self._error(404, f"no route {self.path!r}", "not_found")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._error(
                404, f"ScriptedLLM serves /v1/chat/completions, not {self.path!r}", "not_found"
            )
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError as exc:
            self._error(400, f"request body is not JSON: {exc}", "invalid_request_error")
            return
        exchange, fault = self.owner._arrive(body)
        self._status = None
        self._quota_headers = exchange.quota.headers if exchange.quota is not None else None
        try:
            self._answer(body, exchange, fault)
        except CLIENT_GONE:
            exchange.client_gone = True
            self.close_connection = True
        finally:
            self._quota_headers = None
            self._extra_headers = {}
            self.owner._depart(exchange, self._status)

    def _answer(self, body: dict[str, Any], exchange: Exchange, fault: Fault | None) -> None:
        owner = self.owner
        if exchange.quota is not None and not exchange.quota.admitted:
            style = owner.quota.style if owner.quota is not None else "openai"
            self._send_json(429, refusal_body(exchange.quota, style))
            return
        if fault is not None and self._apply_fault(fault):
            return
        flex = exchange.service_tier == "flex"
        if flex and owner.flex_unsupported:
            self._error(
                400,
                "Invalid value for 'service_tier': flex is not available for this model "
                "(scripted).",
                "invalid_request_error",
                param="service_tier",
                code="invalid_value",
            )
            return
        if exchange.flex_refused:
            # OpenAI's answer when flex capacity runs out: a 429 that is not a quota.
            self._error(
                429,
                "Resource unavailable: flex processing capacity is exhausted; retry later or "
                "use the default service tier (scripted).",
                "invalid_request_error",
                code="resource_unavailable",
            )
            return
        if flex and owner.flex_delay_s:
            time.sleep(owner.flex_delay_s)
        try:
            check_supported(body, owner.unsupported_params)
        except Refused as exc:
            self._error(400, str(exc), "invalid_request_error", param=exc.param, code=exc.code)
            return
        if owner.delay_s:
            time.sleep(owner.delay_s)
        messages = body.get("messages") or []
        try:
            reply = owner._reply_for(messages)
            thought = owner._thought_for(messages, body.get("reasoning_effort"))
        except Refused as exc:
            self._error(400, str(exc), "invalid_request_error", param=exc.param, code=exc.code)
            return
        except Exception as exc:  # a broken script must show up in the test, not hang it
            self._error(500, f"ScriptedLLM script raised {exc!r}", "server_error")
            return
        if reply is None:
            last = content_text((messages or [{}])[-1].get("content"))
            self._error(
                400,
                f"ScriptedLLM: no rule matched the last message {last[:200]!r}; "
                "add a rule for it or pass default=...",
                "invalid_request_error",
            )
            return
        try:
            answer = completion_body(
                body,
                reply,
                number=exchange.number,
                thought=thought,
                place=owner.reasoning.place,
                served_model=owner.served_model or str(body.get("model", owner.model)),
                system_fingerprint=owner.system_fingerprint,
                starved_as_400=owner.starved_as_400,
            )
        except Refused as exc:
            self._error(400, str(exc), "invalid_request_error", param=exc.param, code=exc.code)
            return
        answer["service_tier"] = "flex" if flex else "default"
        self._send_json(200, answer)

    def _apply_fault(self, fault: Fault) -> bool:
        """Act out ``fault``; True when the request is fully handled."""
        headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
        headers.update(fault.headers)
        kind = fault.kind
        if kind == "delay":
            time.sleep(fault.delay_s)
            self._extra_headers = fault.headers
            return False
        if kind == "429":
            self._error(429, "Rate limit reached (scripted)", "rate_limit_error", headers)
        elif kind == "insufficient_quota":
            self._error(
                429,
                "You exceeded your current quota, please check your plan and billing details "
                "(scripted).",
                "insufficient_quota",
                code="insufficient_quota",
            )
        elif kind == "529":
            self._error(529, "Overloaded (scripted)", "overloaded_error", headers)
        elif kind in ("500", "503"):
            self._error(int(kind), "The server had an error (scripted)", "server_error", headers)
        elif kind == "401":
            self._error(401, "Incorrect API key provided (scripted)", "invalid_request_error")
        elif kind == "404":
            self._error(404, "The model does not exist (scripted)", "invalid_request_error")
        elif kind == "400":
            self._error(400, "Bad request (scripted)", "invalid_request_error")
        elif kind == "malformed":
            self._send_json(200, b'{"id": "chatcmpl-broken", "choices": [{"message": ')
        elif kind == "no-choices":
            usage = {"prompt_tokens": 5, "completion_tokens": 0, "total_tokens": 5}
            empty = {"id": "chatcmpl-empty", "object": "chat.completion", "created": 0}
            self._send_json(
                200, {**empty, "model": self.owner.model, "choices": [], "usage": usage}
            )
        elif kind == "drop":
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        elif kind == "reset":
            # SO_LINGER 0: closing sends a TCP reset, as a crashed proxy or a dropped
            # load balancer does; the client reads ECONNRESET, not an orderly end.
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
        elif kind == "drip":
            self._drip(headers, fault.delay_s)
        return True

    def _drip(self, headers: dict[str, str], every_s: float) -> None:
        """A 200 whose body arrives one byte every ``every_s`` seconds (a stalled proxy).

        Each byte comes well within any per-read timeout, so only a deadline on the whole
        attempt ends it; the body would be a valid answer, were it ever finished. It
        stops when the client hangs up.
        """
        answer = {"role": "assistant", "content": "dripped"}
        body = json.dumps(
            {
                "id": "chatcmpl-drip",
                "object": "chat.completion",
                "created": 0,
                "model": self.owner.model,
                "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
            }
        ).encode()
        self._status = 200
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**(self._quota_headers or {}), **headers}.items():
            self.send_header(key, value)
        self.end_headers()
        self.close_connection = True
        for i in range(len(body)):
            self.wfile.write(body[i : i + 1])
            self.wfile.flush()
            time.sleep(every_s)
