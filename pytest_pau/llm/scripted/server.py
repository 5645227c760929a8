"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests that need a model.

:class:`ScriptedLLM` answers ``POST /v1/chat/completions`` over a real socket with real
HTTP, so a client under test goes through its whole stack (litellm, the OpenAI SDK,
httpx) exactly as it would against a provider. Replies come from a script; faults
(429 with ``Retry-After``, 5xx, 401, 404, delays, malformed bodies, dropped connections)
can be scheduled on chosen requests, and every request is counted, logged and timed
(:attr:`ScriptedLLM.exchanges`, :attr:`ScriptedLLM.max_in_flight`).

Token counts are deterministic: one token per whitespace-separated word of the prompt
messages and of the reply, so tests can assert on sums. With ``reasoning_tokens`` the
server plays a reasoning model, whose hidden reasoning comes out of the same output cap
as the reply (see :mod:`pytest_pau.llm.scripted.reply`).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from pytest_pau.llm.scripted.http import FAULT_KINDS, Exchange, Fault, Handler, Server
from pytest_pau.llm.scripted.quota import HeaderStyle, Quota
from pytest_pau.llm.scripted.reply import (
    Messages,
    ReasoningScript,
    ReasoningTokens,
    Reply,
    Thought,
    ThoughtPlace,
    content_text,
    reasoning_fields,
    request_cap,
)

Rule = tuple[str | re.Pattern[str], Reply | Callable[[Messages], Reply]]
Rules = Sequence[Rule] | Callable[[Messages], Reply]


__all__ = ["FAULT_KINDS", "Exchange", "Messages", "Reply", "Rule", "Rules", "ScriptedLLM"]


class ScriptedLLM:
    """A scripted OpenAI-compatible chat-completions server on ``127.0.0.1``.

    Example::

        with ScriptedLLM([(r"capital of France", "Paris"), (r".*", "I don't know")]) as llm:
            client = LLMClient(llm.model, api_base=llm.api_base, api_key=llm.api_key)
            assert client.complete([{"role": "user", "content": "capital of France?"}]).text == "Paris"
            assert llm.requests == 1

    A reasoning model that thinks 1500 tokens before answering, so that a cap of 512
    gets an empty answer with ``finish_reason: "length"``::

        ScriptedLLM(rules, model="openai/gpt-5-mini", reasoning_tokens=1500)

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
        reasoning_tokens: Play a reasoning model: hidden reasoning tokens spent before
            every reply, out of the request's cap (``max_completion_tokens`` or
            ``max_tokens``). A number, a callable ``messages -> int``, or a dict from the
            ``reasoning_effort`` sent to a number (key None: none sent; an effort missing
            from the dict gets OpenAI's 400 for an unsupported value). Usage then has
            ``completion_tokens_details.reasoning_tokens``.
        thought: The reasoning's text instead (its words are the reasoning tokens); a
            text or a callable ``messages -> str``. Pass this or ``reasoning_tokens``.
        think_in_content: Write the thought into the content as ``<think>...</think>``
            before the reply, as open models without a reasoning parser do (Qwen3,
            DeepSeek-R1 distills); it is all visible text then, cut by the cap as one.
        reasoning_content: Return the thought in ``message.reasoning_content``, as
            DeepSeek and vLLM's reasoning parsers do.
        served_model: The model id ``GET /v1/models`` lists and every completion names;
            by default the name in ``model`` and the model each request asked for.
        system_fingerprint: Sent in every completion body when given.
        models_entry: More fields of the model's ``GET /v1/models`` entry, to play a given
            server (llama-cpp-python's ``{"owned_by": "me", "permissions": []}``, vLLM's
            ``root``, llama.cpp's ``meta``).
        unsupported_params: Request fields refused with OpenAI's 400 for reasoning models
            (``"max_tokens"``, ``"temperature"`` unless 1, ``"stop"``, ``"logprobs"``...),
            to check what a client sends.
        starved_as_400: When the reasoning leaves no room under the cap for one visible
            token, answer OpenAI's HTTP 400 "Could not finish the message because
            max_tokens or model output limit was reached" (as GPT-5.x does) instead of the
            empty 200 with ``finish_reason: "length"``.
        rpm: Enforce a quota of this many requests per minute: a token bucket
            (:mod:`pytest_pau.llm.scripted.quota`), 429 with ``retry-after-ms`` beyond it,
            and the quota's headers on every answer. :attr:`exchanges` record each
            request's ``quota`` admission.
        tpm: Enforce a quota of this many tokens per minute (prompt words + the
            request's output cap, debited on arrival).
        burst_s: The quota buckets' depth in seconds of their rate: 60 (per minute, as
            providers publish), 1 (enforced per second, "quantised").
        ratelimit_headers: ``"openai"`` (``x-ratelimit-*``) or ``"anthropic"``
            (``anthropic-ratelimit-*``) headers for the quota.
        flex_unavailable: Requests sent with ``service_tier: "flex"`` that get OpenAI's
            429 ``resource_unavailable`` (numbers counted among the flex requests, from
            1), or a callable ``number -> bool``. Every answer names the tier it was
            served at (``service_tier``), as OpenAI's do, so litellm prices flex.
        flex_delay_s: Latency added to every flex answer (flex is slower).
        flex_unsupported: Refuse ``service_tier: "flex"`` with a 400 naming the
            parameter, as a model or deployment without flex does.
    """

    api_key = "sk-scripted-not-a-real-key"

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        model: str = "openai/scripted",
        delay_s: float = 0.0,
        default: Reply | None = None,
        reasoning_tokens: ReasoningTokens | None = None,
        thought: Thought | None = None,
        think_in_content: bool = False,
        reasoning_content: bool = False,
        served_model: str | None = None,
        system_fingerprint: str | None = None,
        models_entry: dict[str, Any] | None = None,
        unsupported_params: Collection[str] = (),
        starved_as_400: bool = False,
        rpm: float | None = None,
        tpm: float | None = None,
        burst_s: float = 60.0,
        ratelimit_headers: HeaderStyle = "openai",
        flex_unavailable: Collection[int] | Callable[[int], bool] = (),
        flex_delay_s: float = 0.0,
        flex_unsupported: bool = False,
    ) -> None:
        if not model.startswith("openai/"):
            raise ValueError(
                f"ScriptedLLM(model={model!r}): expected an 'openai/<name>' model string, "
                "because the server speaks the OpenAI chat-completions protocol."
            )
        if reasoning_tokens is not None and thought is not None:
            raise ValueError(
                f"ScriptedLLM(reasoning_tokens={reasoning_tokens!r}, thought={thought!r}): "
                "pass one; a thought's words are its reasoning tokens."
            )
        if think_in_content and reasoning_content:
            raise ValueError(
                "ScriptedLLM(think_in_content=True, reasoning_content=True): the thought goes "
                "in one place; choose one."
            )
        if isinstance(unsupported_params, str):
            raise ValueError(
                f"ScriptedLLM(unsupported_params={unsupported_params!r}): expected a list of "
                "field names, e.g. ['max_tokens', 'temperature']."
            )
        place: ThoughtPlace = (
            "content"
            if think_in_content
            else "reasoning_content"
            if reasoning_content
            else "hidden"
        )
        self.rules = rules if rules is not None else []
        self.model = model
        self.delay_s = delay_s
        self.default = default
        self.reasoning = ReasoningScript(reasoning_tokens, thought, place)
        self.reasons = reasoning_tokens is not None or thought is not None
        """Whether this server plays a reasoning model."""
        self.served_model = served_model
        self.system_fingerprint = system_fingerprint
        self.models_entry = dict(models_entry or {})
        self.unsupported_params = tuple(unsupported_params)
        self.starved_as_400 = starved_as_400
        self.quota = (
            Quota(rpm=rpm, tpm=tpm, burst_s=burst_s, style=ratelimit_headers)
            if rpm is not None or tpm is not None
            else None
        )
        """The enforced quota (``rpm=``/``tpm=``), or None."""
        self.flex_unavailable = flex_unavailable
        self.flex_delay_s = flex_delay_s
        self.flex_unsupported = flex_unsupported
        self._flex_requests = 0
        self.log: list[dict[str, Any]] = []
        """The JSON body of every request received, in arrival order."""
        self.exchanges: list[Exchange] = []
        """Every chat-completion request, in arrival order, with its timing and cap."""
        self._requests = 0
        self._connections = 0
        self._in_flight = 0
        self._max_in_flight = 0
        self._faults: list[Fault] = []
        self._lock = threading.Lock()
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> ScriptedLLM:
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        if self._server is not None:
            return self
        handler = type("_BoundHandler", (Handler,), {"owner": self})
        server = Server(("127.0.0.1", 0), handler)
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

    @property
    def connections(self) -> int:
        """How many TCP connections clients opened (keep-alive reuses one for many requests)."""
        with self._lock:
            return self._connections

    @property
    def in_flight(self) -> int:
        """Chat-completion requests being answered now."""
        with self._lock:
            return self._in_flight

    @property
    def max_in_flight(self) -> int:
        """The most chat-completion requests that were being answered at one moment."""
        with self._lock:
            return self._max_in_flight

    @property
    def busy_seconds(self) -> float:
        """Sum of the durations of the answered requests (each from read to written)."""
        with self._lock:
            return sum(e.end - e.start for e in self.exchanges if e.end is not None)

    def overlap(self, wall_s: float | None = None) -> float:
        """Average requests in flight: :attr:`busy_seconds` / ``wall_s``.

        Args:
            wall_s: The wall time to average over; by default from the first request's
                arrival to the last answer.
        """
        with self._lock:
            done = [e for e in self.exchanges if e.end is not None]
        if not done:
            return 0.0
        if wall_s is None:
            wall_s = max(e.end for e in done if e.end is not None) - min(e.start for e in done)
        if wall_s <= 0:
            raise ValueError(f"overlap(wall_s={wall_s!r}): expected a positive wall time.")
        return sum(e.end - e.start for e in done if e.end is not None) / wall_s

    @property
    def reasoning_efforts(self) -> list[Any]:
        """The ``reasoning_effort`` of every request (None where it sent none)."""
        with self._lock:
            return [e.reasoning.get("reasoning_effort") for e in self.exchanges]

    def fail(
        self,
        kind: str,
        times: int = 1,
        *,
        retry_after: float | None = None,
        delay_s: float = 1.0,
        at: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> ScriptedLLM:
        """Schedule a fault on the next ``times`` requests (or from request number ``at``).

        Successive calls queue up: ``fail("429").fail("500")`` faults requests n+1 and n+2.

        Args:
            kind: ``"429"`` (rate limit, with ``Retry-After`` when ``retry_after`` is set),
                ``"500"``, ``"503"``, ``"529"`` (Anthropic's "overloaded"), ``"insufficient_quota"`` (OpenAI's billing
                429: the account's credit is spent), ``"401"``, ``"404"``, ``"400"``, ``"delay"`` (answer
                normally after ``delay_s``), ``"malformed"`` (200 with a broken JSON body),
                ``"no-choices"`` (200 with ``choices: []``, as a server whose model failed),
                ``"drop"`` (close the connection without answering), ``"reset"`` (a TCP
                reset instead of an answer), ``"drip"`` (a 200 whose body arrives one byte
                every ``delay_s`` seconds: only a deadline on the whole attempt ends it).
            times: How many consecutive requests get the fault.
            retry_after: Seconds for the ``Retry-After`` header (429, 500, 503, 529).
            delay_s: The extra latency of a ``"delay"`` fault; the pause between two bytes
                of a ``"drip"``.
            at: 1-based request number of the first faulted request.
            headers: Headers the faulted answer also carries (``{"retry-after": "86400"}``
                on a ``"429"``; on a ``"delay"``, rate-limit headers of a normal answer).
        """
        kind = str(kind)
        if kind not in FAULT_KINDS:
            raise ValueError(f"ScriptedLLM.fail(kind={kind!r}): expected one of {FAULT_KINDS}.")
        with self._lock:
            if at is None:
                at = max([self._requests + 1] + [f.first + f.times for f in self._faults])
            self._faults.append(Fault(kind, at, times, retry_after, delay_s, dict(headers or {})))
        return self

    # -- serving (called by scripted_http.Handler) ---------------------------------------

    @property
    def refused(self) -> int:
        """Requests the quota (``rpm=``/``tpm=``) answered with a 429."""
        with self._lock:
            return sum(1 for e in self.exchanges if e.quota is not None and not e.quota.admitted)

    def _arrive(self, body: dict[str, Any]) -> tuple[Exchange, Fault | None]:
        """Count, log and time a request that was read; its fault, if one is scheduled."""
        cap_param, cap = request_cap(body)
        admission = self.quota.admit(body) if self.quota is not None else None
        tier = body.get("service_tier")
        with self._lock:
            self._requests += 1
            n = self._requests
            self.log.append(body)
            exchange = Exchange(
                n, time.monotonic(), None, None, cap_param, cap, reasoning_fields(body)
            )
            exchange.quota = admission
            exchange.service_tier = None if tier is None else str(tier)
            if tier == "flex":
                self._flex_requests += 1
                unavailable = self.flex_unavailable
                exchange.flex_number = self._flex_requests
                exchange.flex_refused = (
                    unavailable(self._flex_requests)
                    if callable(unavailable)
                    else self._flex_requests in unavailable
                )
            self.exchanges.append(exchange)
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)
            fault = next((f for f in self._faults if f.covers(n)), None)
        return exchange, fault

    def _connected(self) -> None:
        with self._lock:
            self._connections += 1

    def _depart(self, exchange: Exchange, status: int | None) -> None:
        with self._lock:
            exchange.end = time.monotonic()
            exchange.status = status
            self._in_flight -= 1

    def _reply_for(self, messages: Messages) -> Reply | None:
        if callable(self.rules):
            return self.rules(messages)
        last = next(
            (content_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"),
            content_text(messages[-1].get("content")) if messages else "",
        )
        for pattern, reply in self.rules:
            if re.search(pattern, last, flags=re.DOTALL):
                return reply(messages) if callable(reply) else reply
        return self.default

    def _thought_for(self, messages: Messages, effort: Any) -> str | None:
        """The reasoning before this answer; None when the server plays no reasoning model."""
        return self.reasoning.thought_for(messages, effort) if self.reasons else None
