"""The per-process wasmtime state shared by every Wasm sandbox.

One ``Engine`` (fuel metering and epoch interruption on), one compiled ``Component`` and
one WASI ``Linker`` serve all sandboxes of a process, created on first use under a lock.
A daemon thread advances the engine's epoch every :data:`TICK_S` seconds of the monotonic
clock (catching up after a late wake): that is the wall-clock backstop behind the
(deterministic) fuel budget.

At interpreter exit the live stores are closed before the component, linker and engine,
and the ticker is stopped first: wasmtime objects freed in the wrong order, or touched by
a thread during shutdown, make Rust print a panic.
"""

from __future__ import annotations

import atexit
import itertools
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

#: Seconds between two epoch ticks (the wall-clock limit's resolution).
TICK_S = 0.01
#: Part of the compiled-code cache name: change it when the engine config changes.
CONFIG_TAG = "fuel-epoch-nosig-v2"
#: What ``time.time()`` returns inside the guest: 2024-01-01 00:00:00 UTC.
FROZEN_EPOCH_S = 1_704_067_200


class _Closable(Protocol):
    def close(self) -> None: ...


#: Nanoseconds the guest's monotonic clock advances per read (a fixed, fake clock that
#: restarts at every call of every sandbox: see :meth:`Runtime.clock_reads`).
MONOTONIC_STEP_NS = 1_000
#: Text of the trap raised when guest code tries to wait on a clock.
WAIT_REFUSED = "waiting on a clock (sleep, select or poll timeouts) is not allowed in the sandbox"


class WaitRefused(Exception):
    """Raised by the host clock when the guest tries to wait; traps the call."""


def _refuse_wait(_store: Any, _when: int) -> None:
    raise WaitRefused(WAIT_REFUSED)


class _FixedType:
    """The parts of a wasmtime-py ``FuncType`` a call reads, read once."""

    def __init__(self, func_type: Any) -> None:
        self.params = func_type.params
        self.result = func_type.result


class Runtime:
    """The shared engine, component and linker (use :func:`get_runtime`)."""

    def __init__(self) -> None:
        from wasmtime import Config, Engine
        from wasmtime.component import Linker

        from pytest_pau.sandbox.build import load_component

        config = Config()
        config.consume_fuel = True
        config.epoch_interruption = True
        # Explicit bounds and stack checks instead of guard pages and a SIGSEGV handler:
        # wasmtime's handler must be the first to see a fault, and anything that installs
        # its own handler after the engine exists (faulthandler re-enabled by an in-process
        # pytest run, native libraries) turned a guest stack overflow into a crash of the
        # whole process. Costs a few percent per call; measured in benchmarks/README.md.
        config.signals_based_traps = False
        self.engine = Engine(config)
        self.component: Any = load_component(self.engine, CONFIG_TAG)
        self.linker = Linker(self.engine)
        self.linker.add_wasip2()
        self._link_host_functions()
        self.users: weakref.WeakSet[Any] = weakref.WeakSet()
        self._types: dict[str, _FixedType] = {}
        #: Per thread, the backend whose guest is running (for the ``taint`` import).
        self.calling = threading.local()
        # Read only when a guest runs outside any backend's call or load, which the
        # backends never do: kept so that such a read gets a clock rather than a crash.
        self._idle_clock = itertools.count(1)
        self._stop = threading.Event()
        self._started = time.monotonic()
        #: Ticks added to the engine's epoch so far (by the ticker only).
        self._epoch = 0
        self._ticker = threading.Thread(target=self._tick, name="pau-wasm-epoch", daemon=True)
        self._ticker.start()

    def _link_host_functions(self) -> None:
        """Provide the guest's ``taint`` import, and replace WASI's wall clock and
        randomness by fixed ones: results are reproducible.

        ``time.time()`` and ``datetime.now()`` read :data:`FROZEN_EPOCH_S`. The monotonic
        clock is a counter that advances :data:`MONOTONIC_STEP_NS` per read, and any wait
        on it (``time.sleep``, a ``select``/``poll`` timeout) traps as :data:`WAIT_REFUSED`:
        a host-side wait ignores the epoch deadline, so it must never start. The counter
        belongs to the sandbox whose call is running and restarts with each call, so a
        method reads the same values whatever other sandboxes (other threads) do.
        """
        from wasmtime.component import Record

        def instant(seconds: int, nanoseconds: int) -> Record:
            record = Record()
            record.seconds, record.nanoseconds = seconds, nanoseconds  # type: ignore[attr-defined]
            return record

        self.linker.allow_shadowing = True
        root = self.linker.root()
        try:
            root.add_func("taint", self._taint)
            for name in self.component.type.imports(self.engine):
                if name.startswith("wasi:clocks/wall-clock@"):
                    clock = root.add_instance(name)
                    clock.add_func("now", lambda _store: instant(FROZEN_EPOCH_S, 0))
                    clock.add_func("resolution", lambda _store: instant(0, 1000))
                    clock.close()
                elif name.startswith("wasi:clocks/monotonic-clock@"):
                    # Waits (sleep, select/poll timeouts) block inside the host's poll, where
                    # the epoch deadline cannot stop them: a method could hang the host past
                    # its wall-clock limit. Every subscription traps instead, and `now`
                    # advances by a fixed step per read, so timings are reproducible too.
                    mono = root.add_instance(name)
                    mono.add_func("now", self._monotonic_now)
                    mono.add_func("resolution", lambda _store: MONOTONIC_STEP_NS)
                    mono.add_func("subscribe-instant", _refuse_wait)
                    mono.add_func("subscribe-duration", _refuse_wait)
                    mono.close()
                elif name.startswith("wasi:random/random@"):
                    # os.urandom & co. read a fixed pattern: results stay reproducible.
                    rand = root.add_instance(name)
                    rand.add_func("get-random-bytes", lambda _store, n: b"Z" * min(int(n), 1 << 20))
                    rand.add_func("get-random-u64", lambda _store: 0x5A5A5A5A5A5A5A5A)
                    rand.close()
        finally:
            root.close()
        self.linker.allow_shadowing = False

    def fixed_type(self, name: str, func: Any, store: Any) -> Callable[[Any], _FixedType]:
        """A stand-in for ``func.type``: the export's type, read from the component once."""
        fixed = self._types.get(name)
        if fixed is None:
            fixed = self._types[name] = _FixedType(func.type(store))
        return lambda _store: fixed

    def _monotonic_now(self, _store: Any) -> int:
        """The guest's ``monotonic-clock.now``: the running call's own counter."""
        backend = getattr(self.calling, "backend", None)
        ticks = self._idle_clock if backend is None else backend.clock
        return next(ticks) * MONOTONIC_STEP_NS

    def _taint(self, _store: Any, reason: str) -> None:
        """The guest's ``taint`` import: latch it on the sandbox whose call is running."""
        backend = getattr(self.calling, "backend", None)
        if backend is not None:
            backend.tainted = backend.tainted or reason

    def _tick(self) -> None:
        # The epoch follows the clock, not the number of sleeps: under load a sleep lasts
        # longer than asked, and counting sleeps let a 10 s limit run 11-17 s. Each wake
        # adds the ticks that are due since the ticker started, however late it is.
        while not self._stop.wait(TICK_S):
            due = int((time.monotonic() - self._started) / TICK_S)
            while self._epoch < due:
                self.engine.increment_epoch()
                self._epoch += 1

    def ticks_for(self, seconds: float) -> int:
        """Epoch deadline (in ticks from now) for a wall-clock limit of ``seconds``.

        Counted from the clock, not from the epoch, which may lag it by one late wake of
        the ticker: the deadline is the tick due ``seconds`` from now, so the limit ends
        a call at most one tick and one wake delay after ``seconds``, never before.
        """
        due = int((time.monotonic() + seconds - self._started) / TICK_S) + 1
        return max(2, due - self._epoch)

    def close(self) -> None:
        """Stop the ticker, close every live sandbox, then the shared objects."""
        self._stop.set()
        self._ticker.join(timeout=1.0)
        for user in list(self.users):
            user.close()
        for obj in (self.linker, self.component, self.engine):
            obj.close()


_runtime: Runtime | None = None
_lock = threading.Lock()


def get_runtime() -> Runtime:
    """The process's :class:`Runtime`, built (and the component loaded) on first use.

    Raises:
        SandboxBuildError: The component could not be built or loaded.
    """
    global _runtime
    if _runtime is None:
        with _lock:
            if _runtime is None:
                _runtime = Runtime()
    return _runtime


@atexit.register
def shutdown() -> None:
    """Free all wasmtime state now (also runs at interpreter exit)."""
    global _runtime
    with _lock:
        runtime, _runtime = _runtime, None
    if runtime is not None:
        runtime.close()
