"""One HTTP connection pool per thread for litellm's OpenAI-compatible calls.

litellm sends every OpenAI-compatible request of the process (OpenAI's models, and every
``--pau-api-base`` server) through one ``httpx.Client`` whose single connection pool all
episode threads share, with httpx's default keep-alive limit of 20. Two things go wrong
there once more than 20 requests are in flight (``--pau-concurrency`` above 20):

- httpcore 1.0.9 counts *all* of the pool's connections against the keep-alive limit, so
  every pass over the pool closes every idle connection: nearly every request opens a new
  TCP connection (1,700 connections for 1,920 requests from 64 threads, measured in
  ``benchmarks/README.md``), with the connect and the pool lock on each one's path;
- a pass can close an idle connection that another thread was just handed, under a
  request already sent on it; the request then waits out its whole timeout (600 s by
  default: seen once in eight 96-item runs at ``--pau-concurrency=64``; httpcore issue
  #1110).

Each of our threads makes one request at a time, so it needs one connection per origin
and no sharing at all. :class:`PerThreadTransport` gives every thread its own pool (kept
alive between that thread's calls); :func:`install` puts it behind the client litellm uses
for these calls (``litellm.client_session``), unless the user configured one. Providers
that litellm reaches through its own HTTP handler (Anthropic's API, for one) keep
litellm's pool.

:func:`before_next_send` lets the caller run a step in the thread just before its next
request leaves through these pools: the pacer lets a request go there, after litellm's own
preparation of it (tens of milliseconds under load, and uneven), so the provider sees the
requests spaced as the pacer spaced them (:mod:`pytest_pau.llm.attempt`).

**A deadline on the whole attempt.** httpx's timeouts bound each read, write and connect:
a server that sends a byte of its answer every half second keeps a request with a 5 s
timeout open for as long as it likes. Here the request's read timeout (the ``timeout``
litellm was given: ``PAU_LLM_TIMEOUT_S``) is also a deadline for the whole exchange, from
when the request leaves to the last byte of its answer: every socket operation of the
thread's pool waits at most what is left of it (:class:`_DeadlineBackend`), and one that
starts after it raises :class:`AttemptDeadline`. :func:`answered_status` says what status
the server answered with, when it answered at all (litellm reports a 200 whose body is
unreadable as an HTTP 500).
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import httpcore
import httpx

from pytest_pau.llm.limits import SENDING, Cancelled

#: Connections a thread keeps alive: one per origin it talks to (agent, judge, coder,
#: classifier endpoints), with room to spare.
KEEPALIVE_PER_THREAD = 8


_hook = threading.local()


def before_next_send(
    step: Callable[[], None] | None, *, answered: Callable[[], None] | None = None
) -> None:
    """Run ``step`` in this thread when its next request goes out through a pool here.

    Once: the step is forgotten when it runs, and None forgets it unrun. What it raises
    is kept (:func:`step_outcome`), so the caller can tell it from the request's own
    failure, which the HTTP stack would wrap it in. Also forgets the last answer's status
    (:func:`answered_status`).

    ``answered`` runs once, when that request's answer has been read to its last byte
    (its body closed), before litellm makes anything of it; not at all when no answer
    came. The caller must not rely on it: it is where a slot can be given back early.
    """
    _hook.step = step
    _hook.answered = answered
    _hook.ran = False
    _hook.error = None
    _hook.status = None


def step_outcome() -> tuple[bool, BaseException | None]:
    """Whether this thread's step ran, and what it raised."""
    return bool(getattr(_hook, "ran", False)), getattr(_hook, "error", None)


def answered_status() -> int | None:
    """The HTTP status this thread's last request through a pool here was answered with,
    since :func:`before_next_send`; None when no answer's head arrived."""
    return getattr(_hook, "status", None)


class AttemptDeadline(httpcore.ReadTimeout):
    """The whole exchange took longer than the request's timeout (see the module docstring).

    A ``ReadTimeout`` to the HTTP stack, so it is reported and retried as a timeout.
    """


def _left(timeout: float | None) -> float | None:
    """What a socket operation may wait: ``timeout``, but no later than the deadline.

    Raises:
        AttemptDeadline: the deadline has passed.
    """
    deadline: float | None = getattr(_hook, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise AttemptDeadline(
            f"no whole answer within the attempt's {_hook.budget:g} s (PAU_LLM_TIMEOUT_S bounds "
            "the whole exchange: connecting, sending and every byte of the answer)"
        )
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write waits at most until the thread's deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        bounded = _left(timeout)
        try:
            return self._stream.read(max_bytes, bounded)
        except httpcore.ReadTimeout:
            _left(None)  # the deadline, not the read's own timeout: say so
            raise

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        inner = self._stream.start_tls(ssl_context, server_hostname, _left(timeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend, its connections bounded by the thread's deadline."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(host, port, _left(timeout), local_address, socket_options)
        return _DeadlineStream(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_unix_socket(path, _left(timeout), socket_options)
        return _DeadlineStream(stream)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _ThenStream(httpx.SyncByteStream):
    """An answer's body that runs ``then`` once, when it is closed (read to the end)."""

    def __init__(self, inner: Any, then: Callable[[], None]) -> None:
        self._inner = inner
        self._then: Callable[[], None] | None = then

    def __iter__(self) -> Any:
        return iter(self._inner)

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            then, self._then = self._then, None
            if then is not None:
                then()


class PerThreadTransport(httpx.BaseTransport):
    """An ``httpx`` transport that sends each thread's requests through that thread's pool.

    Pools of threads that have ended are closed when the next pool is made, and all of
    them by :meth:`close`.
    """

    def __init__(self, verify: ssl.SSLContext | bool | None = None, *, http2: bool = False) -> None:
        # One SSL context for all pools (by default certifi's CA bundle, as httpx's own):
        # building one reads the bundle (~40 ms of CPU), which 64 threads starting together
        # would otherwise each pay.
        if verify is None:
            import certifi

            verify = ssl.create_default_context(cafile=certifi.where())
        self._verify = verify
        self._http2 = http2
        self._local = threading.local()
        self._pools: dict[threading.Thread, httpx.HTTPTransport] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        cancel = SENDING.get()
        if cancel is not None and cancel.is_set():
            # Ctrl-C came while the request was being built: it never leaves.
            raise Cancelled(f"the run was cancelled before a request to {request.url.host}")
        step = getattr(_hook, "step", None)
        if step is not None:
            _hook.step = None
            _hook.ran = True
            try:
                step()
            except BaseException as exc:
                _hook.error = exc
                raise
            if cancel is not None and cancel.is_set():
                # Ctrl-C came while the pacer held it: it never leaves either.
                raise Cancelled(f"the run was cancelled before a request to {request.url.host}")
        pool = getattr(self._local, "pool", None)
        if pool is None:
            pool = self._local.pool = self._new_pool()
        # The request's read timeout bounds the whole exchange from now (the module
        # docstring); the answer's body is read later in this thread, under the same one.
        budget = (request.extensions.get("timeout") or {}).get("read")
        _hook.deadline = None if budget is None else time.monotonic() + budget
        _hook.budget = budget
        response = pool.handle_request(request)
        _hook.status = response.status_code
        answered = getattr(_hook, "answered", None)
        if answered is not None:
            _hook.answered = None
            response.stream = _ThenStream(response.stream, answered)
        return response

    def _new_pool(self) -> httpx.HTTPTransport:
        pool = httpx.HTTPTransport(
            verify=self._verify,
            http2=self._http2,
            limits=httpx.Limits(
                max_connections=None, max_keepalive_connections=KEEPALIVE_PER_THREAD
            ),
        )
        # httpx builds its httpcore pool with the default backend and has no argument for
        # another; its connections are made from this attribute, so set it before any.
        inner = getattr(pool, "_pool", None)
        backend = getattr(inner, "_network_backend", None)
        if isinstance(backend, httpcore.NetworkBackend):
            inner._network_backend = _DeadlineBackend(backend)  # type: ignore[union-attr]
        with self._lock:
            ended = [t for t in self._pools if not t.is_alive()]
            finished = [self._pools.pop(t) for t in ended]
            self._pools[threading.current_thread()] = pool
        for old in finished:
            old.close()
        return pool

    @property
    def pools(self) -> int:
        """How many threads' pools are open."""
        with self._lock:
            return len(self._pools)

    def close(self) -> None:
        with self._lock:
            pools = list(self._pools.values())
            self._pools.clear()
        for pool in pools:
            pool.close()


def install(litellm: Any) -> bool:
    """Give litellm's OpenAI-compatible calls one pool per thread; False if the user set one.

    The pools verify TLS exactly as litellm's own client would (``SSL_VERIFY``,
    ``SSL_CERT_FILE``, ``litellm.ssl_verify``) and speak HTTP/2 when litellm would.
    """
    if getattr(litellm, "client_session", None) is not None:
        return False
    verify: ssl.SSLContext | bool | None = None  # None: httpx's defaults, one context
    http2 = False
    try:
        from litellm.llms.custom_httpx.http_handler import get_ssl_configuration, http2_enabled

        http2 = bool(http2_enabled())
        configured = get_ssl_configuration(http2=http2)
        if isinstance(configured, str):  # a CA bundle's path
            verify = ssl.create_default_context(cafile=configured)
        else:
            verify = configured
    except (ImportError, TypeError):  # a litellm without them
        pass
    litellm.client_session = httpx.Client(
        transport=PerThreadTransport(verify, http2=http2), follow_redirects=True
    )
    return True
