"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests that need a model.

:class:`ScriptedLLM` answers ``POST /v1/chat/completions`` over a real socket with real
HTTP, so a client under test goes through its whole stack (litellm, the OpenAI SDK,
httpx) exactly as it would against a provider. Replies come from a script; faults
(429 with ``Retry-After``, 5xx, 401, 404, delays, malformed bodies, dropped connections)
can be scheduled on chosen requests, and every request is counted and logged.

Token counts are deterministic: one token per whitespace-separated word of the prompt
messages and of the reply, so tests can assert on sums.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Messages = list[dict[str, Any]]
Reply = str | dict[str, Any]
"""A reply text, or a dict ``{"content": str, "logprobs": [{"token", "logprob", "top"}]}``."""
Rule = tuple[str | re.Pattern[str], Reply | Callable[[Messages], Reply]]
Rules = Sequence[Rule] | Callable[[Messages], Reply]

FAULT_KINDS = ("429", "500", "503", "401", "404", "400", "delay", "malformed", "drop")


@dataclass
class _Fault:
    kind: str
    first: int
    """First request number (1-based) the fault applies to."""
    times: int
    retry_after: float | None = None
    delay_s: float = 0.0

    def covers(self, n: int) -> bool:
        return self.first <= n < self.first + self.times


def _count_tokens(text: str) -> int:
    return len(text.split())


def _content_text(content: Any) -> str:
    """The text of a message ``content``, which may be a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


class ScriptedLLM:
    """A scripted OpenAI-compatible chat-completions server on ``127.0.0.1``.

    Example::

        with ScriptedLLM([(r"capital of France", "Paris"), (r".*", "I don't know")]) as llm:
            client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
            assert client.complete([{"role": "user", "content": "capital of France?"}]).text == "Paris"
            assert llm.requests == 1

    Args:
        rules: Either a list of ``(regex, reply)`` pairs, tried in order with
            ``re.search`` on the last user message (``reply`` is a text, a dict with
            ``content`` and optional ``logprobs``, or a callable ``messages -> reply``),
            or one callable ``messages -> reply``.
        model: The litellm model string clients should use. ``openai/<name>``; use a name
            litellm knows the price of (``openai/gpt-4o-mini``) to test cost accounting.
        delay_s: Latency added to every answer.
        default: Reply when no rule matches; without it an unmatched request gets a
            400 whose message shows the last user message (non-retryable, so a test
            fails at once with the reason).
    """

    api_key = "sk-scripted-not-a-real-key"

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        model: str = "openai/scripted",
        delay_s: float = 0.0,
        default: Reply | None = None,
    ) -> None:
        if not model.startswith("openai/"):
            raise ValueError(
                f"ScriptedLLM(model={model!r}): expected an 'openai/<name>' model string, "
                "because the server speaks the OpenAI chat-completions protocol."
            )
        self.rules = rules if rules is not None else []
        self.model = model
        self.delay_s = delay_s
        self.default = default
        self.log: list[dict[str, Any]] = []
        """The JSON body of every request received, in arrival order."""
        self._requests = 0
        self._faults: list[_Fault] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> ScriptedLLM:
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        if self._server is not None:
            return self
        handler = type("_BoundHandler", (_Handler,), {"owner": self})
        server = _Server(("127.0.0.1", 0), handler)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ScriptedLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what tests read ---------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError(
                "ScriptedLLM is not started: use it as a context manager or call .start()."
            )
        return int(self._server.server_address[1])

    @property
    def api_base(self) -> str:
        """Base URL to pass as ``api_base`` (``http://127.0.0.1:PORT/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> int:
        """How many chat-completion requests arrived (faulted ones included)."""
        with self._lock:
            return self._requests

    def fail(
        self,
        kind: str,
        times: int = 1,
        *,
        retry_after: float | None = None,
        delay_s: float = 1.0,
        at: int | None = None,
    ) -> ScriptedLLM:
        """Schedule a fault on the next ``times`` requests (or from request number ``at``).

        Successive calls queue up: ``fail("429").fail("500")`` faults requests n+1 and n+2.

        Args:
            kind: ``"429"`` (rate limit, with ``Retry-After`` when ``retry_after`` is set),
                ``"500"``, ``"503"``, ``"401"``, ``"404"``, ``"400"``, ``"delay"`` (answer
                normally after ``delay_s``), ``"malformed"`` (200 with a broken JSON body),
                ``"drop"`` (close the connection without answering).
            times: How many consecutive requests get the fault.
            retry_after: Seconds for the ``Retry-After`` header (429 and 503).
            delay_s: The extra latency of a ``"delay"`` fault.
            at: 1-based request number of the first faulted request.
        """
        kind = str(kind)
        if kind not in FAULT_KINDS:
            raise ValueError(f"ScriptedLLM.fail(kind={kind!r}): expected one of {FAULT_KINDS}.")
        with self._lock:
            if at is None:
                at = max([self._requests + 1] + [f.first + f.times for f in self._faults])
            self._faults.append(_Fault(kind, at, times, retry_after, delay_s))
        return self

    # -- serving ---------------------------------------------------------------------------

    def _next(self) -> tuple[int, _Fault | None]:
        with self._lock:
            self._requests += 1
            n = self._requests
            fault = next((f for f in self._faults if f.covers(n)), None)
            return n, fault

    def _reply_for(self, messages: Messages) -> Reply | None:
        if callable(self.rules):
            return self.rules(messages)
        last = next(
            (
                _content_text(m.get("content"))
                for m in reversed(messages)
                if m.get("role") == "user"
            ),
            _content_text(messages[-1].get("content")) if messages else "",
        )
        for pattern, reply in self.rules:
            if re.search(pattern, last, flags=re.DOTALL):
                return reply(messages) if callable(reply) else reply
        return self.default

    def _completion_body(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        messages: Messages = body.get("messages") or []
        if isinstance(reply, dict):
            text = str(reply.get("content", ""))
            scripted_lp = reply.get("logprobs")
        else:
            text, scripted_lp = str(reply), None
        stops = body.get("stop") or []
        if isinstance(stops, str):
            stops = [stops]
        finish = "stop"
        for stop in stops:
            if stop and stop in text:
                text = text[: text.index(stop)]
        max_tokens = body.get("max_tokens") or body.get("max_completion_tokens")
        words = text.split(" ")
        if max_tokens and len(text.split()) > int(max_tokens):
            text, finish = " ".join(words[: int(max_tokens)]), "length"
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": finish,
        }
        if body.get("logprobs"):
            choice["logprobs"] = {"content": _logprobs(text, scripted_lp, body.get("top_logprobs"))}
        prompt_tokens = sum(_count_tokens(_content_text(m.get("content"))) for m in messages)
        completion_tokens = _count_tokens(text)
        return {
            "id": f"chatcmpl-scripted-{len(self.log)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(body.get("model", self.model)),
            "choices": [choice],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


def _logprobs(text: str, scripted: Any, top_n: Any) -> list[dict[str, Any]]:
    """OpenAI-shaped ``logprobs.content``: the scripted entries, or certainty per word."""
    if scripted is not None:
        out = []
        for entry in scripted:
            top = entry.get("top") or {entry["token"]: entry["logprob"]}
            out.append(
                {
                    "token": entry["token"],
                    "logprob": entry["logprob"],
                    "bytes": list(entry["token"].encode()),
                    "top_logprobs": [
                        {"token": t, "logprob": lp, "bytes": list(t.encode())}
                        for t, lp in top.items()
                    ][: int(top_n or len(top))],
                }
            )
        return out
    return [
        {
            "token": tok,
            "logprob": 0.0,
            "bytes": list(tok.encode()),
            "top_logprobs": [{"token": tok, "logprob": 0.0, "bytes": list(tok.encode())}],
        }
        for tok in re.findall(r"\s*\S+", text)
    ]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # The listen backlog is fixed when the socket binds: xdist workers and thread pools
    # open dozens of connections at once, and the default of 5 resets the rest.
    request_queue_size = 256


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedLLM
    # Keep-alive, as real providers do: clients reuse connections between calls.
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in two writes; with Nagle on, the client's delayed ACK
        # adds ~40 ms to every exchange.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read .log instead
        return

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(
        self, status: int, message: str, etype: str, headers: dict[str, str] | None = None
    ) -> None:
        self._send_json(
            status, {"error": {"message": message, "type": etype, "code": str(status)}}, headers
        )

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            name = self.owner.model.split("/", 1)[1]
            self._send_json(200, {"object": "list", "data": [{"id": name, "object": "model"}]})
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
        owner = self.owner
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError as exc:
            self._error(400, f"request body is not JSON: {exc}", "invalid_request_error")
            return
        with owner._lock:
            owner.log.append(body)
        _, fault = owner._next()
        if fault is not None and self._apply_fault(fault):
            return
        if owner.delay_s:
            time.sleep(owner.delay_s)
        try:
            reply = owner._reply_for(body.get("messages") or [])
        except Exception as exc:  # a broken script must show up in the test, not hang it
            self._error(500, f"ScriptedLLM script raised {exc!r}", "server_error")
            return
        if reply is None:
            msgs = body.get("messages") or [{}]
            last = _content_text(msgs[-1].get("content"))
            self._error(
                400,
                f"ScriptedLLM: no rule matched the last message {last[:200]!r}; "
                "add a rule for it or pass default=...",
                "invalid_request_error",
            )
            return
        self._send_json(200, owner._completion_body(body, reply))

    def _apply_fault(self, fault: _Fault) -> bool:
        """Act out ``fault``; True when the request is fully handled."""
        headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
        kind = fault.kind
        if kind == "delay":
            time.sleep(fault.delay_s)
            return False
        if kind == "429":
            self._error(429, "Rate limit reached (scripted)", "rate_limit_error", headers)
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
        elif kind == "drop":
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        return True


def scripted_llm_factory() -> Iterator[Callable[..., ScriptedLLM]]:
    """Generator behind the ``scripted_llm`` fixture: yields a factory, closes all at the end."""
    servers: list[ScriptedLLM] = []

    def make(rules: Rules | None = None, **kwargs: Any) -> ScriptedLLM:
        server = ScriptedLLM(rules, **kwargs).start()
        servers.append(server)
        return server

    try:
        yield make
    finally:
        for server in servers:
            server.close()
