"""The ``wasm`` backend: one component instance (CPython in WebAssembly) per sandbox.

The instance is created on the first call (about 1 ms, the component being shared and
pre-initialised) and reused while calls leave no trace. It is thrown away, and a fresh
one started for the next call, after a trap (fuel, wall clock, stack) or when the guest
reports that the method touched shared state (``dirty``, see ``pau_state.py``).
"""

from __future__ import annotations

import itertools
import json
import threading
from typing import Any

from pytest_pau.errors import SandboxError
from pytest_pau.sandbox.runtime import WAIT_REFUSED, Runtime, WaitRefused, get_runtime


class WasmBackend:
    """Runs one method's calls inside its own wasmtime store."""

    def __init__(
        self, code: str, entry: str, *, fuel: int, timeout_s: float, memory_mb: int
    ) -> None:
        self.code = code
        self.entry = entry
        self.fuel = fuel
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.instances_started = 0
        #: Why the last instance was replaced: the guest's ``dirty`` reason (``"keyword.kwlist"``,
        #: ``"sys.modules"``...) or the trap's error type; None while none was.
        self.last_restart: str | None = None
        #: What the guest reported through the ``taint`` import during the running call.
        self.tainted: str | None = None
        #: The guest's monotonic clock (ticks of ``runtime.MONOTONIC_STEP_NS``): restarted
        #: before every call, so its readings depend on nothing outside that call.
        self.clock = itertools.count(1)
        self._per_instance: tuple[int, int] | None = None
        # The guest's verdict at load, before any of the method's code ran.
        self._risky: str | None = None
        #: How the guest read the code's bytecode ("lean", or "dis" where the lean reader
        #: disagreed with dis at start-up): ~3 ms more per load.
        self.reader: str | None = None
        self._runtime: Runtime | None = None
        self._store: Any = None
        self._call: Any = None
        self._lock = threading.Lock()
        self._closed = False
        # Set when loading the code itself trapped (fuel, stack, memory): every later
        # call reports it without paying for another instance and compile.
        self._load_error: dict[str, Any] | None = None

    def _start(self, seed: int, max_output: int) -> dict[str, Any] | None:
        """Start an instance and load the code; returns the load error, if loading failed."""
        from wasmtime import Store, WasiConfig, WasmtimeError

        runtime = self._runtime = get_runtime()
        runtime.users.add(self)
        store = Store(runtime.engine)
        # An empty WASI context: no preopened directories, no environment, no
        # arguments, no network; stdout/stderr go nowhere.
        store.set_wasi(WasiConfig())
        store.set_limits(memory_size=self.memory_mb << 20)
        store.set_fuel(self.fuel)
        store.set_epoch_deadline(runtime.ticks_for(max(self.timeout_s, 5.0)))
        try:
            instance = runtime.linker.instantiate(store, runtime.component)
            load = instance.get_func(store, "load")
            call = instance.get_func(store, "call")
            if load is None or call is None:
                raise SandboxError(
                    "the sandbox component exports no load/call; rebuild it with `pau sandbox build --force`"
                )
            # wasmtime-py reads the function's type anew on every call (~10 us of ctypes);
            # it is the same for every instance of the component, so read it once.
            call.type = runtime.fixed_type("call", call, store)  # type: ignore[method-assign,assignment]
        except WasmtimeError as exc:
            store.close()
            raise SandboxError(f"could not start a sandbox instance: {_first_line(exc)}") from exc
        self.instances_started += 1
        calling = runtime.calling
        calling.backend = self  # the guest's clock and taint reads during the load are ours
        try:
            answer = load(store, self.code, self.entry, seed, max_output)
            load.post_return(store)
        except (WasmtimeError, WaitRefused) as exc:
            # The method's code trapped while loading: report it on every call as
            # ``ok=False`` (never raised), and never try to load it again.
            out = self._trap_result(exc)
            out["message"] = f"the code could not be loaded: {out['message']}"
            out["fuel"] = self.fuel - store.get_fuel()
            store.close()
            self._load_error = out
            return out
        finally:
            calling.backend = None
        verdict = _parse_answer(answer)
        # Errors of the code itself are reported by every call; a verdict we cannot read
        # is taken as risky.
        risky = "unreadable load answer" if verdict is None else verdict.get("risky")
        self.reader = None if verdict is None else verdict.get("reader")
        self._risky = f"risky code ({risky})" if risky else None
        self._store, self._call = store, call
        self._per_instance = (seed, max_output)
        return None

    def _discard(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = self._call = None

    def call(self, args_text: str, seed: int, max_output: int) -> dict[str, Any]:
        """Run one call; returns the guest's result fields plus ``fuel``."""
        from wasmtime import WasmtimeError

        with self._lock:
            if self._closed:
                raise SandboxError("this sandbox is closed; create a new Sandbox")
            if self._load_error is not None:
                return dict(self._load_error)
            if self._store is not None and self._per_instance != (seed, max_output):
                self._discard()  # they are fixed when an instance loads the code
            if self._store is None:
                failed = self._start(seed, max_output)
                if failed is not None:
                    return dict(failed)
            store, call = self._store, self._call
            assert self._runtime is not None
            store.set_fuel(self.fuel)
            store.set_epoch_deadline(self._runtime.ticks_for(self.timeout_s))
            self.tainted = None
            self.clock = itertools.count(1)
            calling = self._runtime.calling
            calling.backend = self
            try:
                raw = call(store, args_text)
                call.post_return(store)
            except (WasmtimeError, WaitRefused) as exc:
                out = self._trap_result(exc)
                out["fuel"] = self.fuel - store.get_fuel()
                self._discard()  # a trapped instance is in an unknown state
                self.last_restart = out["error_type"]
                return out
            finally:
                calling.backend = None
            used = self.fuel - store.get_fuel()
            parsed = _parse_answer(raw, RESULT_FIELDS)
            out = (
                parsed
                if parsed is not None
                else {
                    "ok": False,
                    "error_type": "SandboxError",
                    "message": "the guest's answer could not be read; its interpreter was replaced",
                    "dirty": "unreadable answer",
                }
            )
            # The host's own latches first: the guest's answer is the method's last word.
            guest_says = out.pop("dirty", None)
            dirty = self.tainted or self._risky or guest_says
            if dirty:
                self._discard()
                self.last_restart = str(dirty)
            out["fuel"] = used
            return out

    def _trap_result(self, exc: Exception) -> dict[str, Any]:
        text = str(exc)
        if "all fuel consumed" in text:
            return {
                "ok": False,
                "error_type": "Timeout",
                "message": f"fuel budget of {self.fuel} exhausted",
            }
        if "interrupt" in text:
            return {
                "ok": False,
                "error_type": "Timeout",
                "message": f"wall-clock limit of {self.timeout_s:g} s exceeded",
            }
        if WAIT_REFUSED in text:
            return {"ok": False, "error_type": "PermissionError", "message": WAIT_REFUSED}
        if "Exited with i32 exit status" in text:
            return {
                "ok": False,
                "error_type": "SystemExit",
                "message": "the method ended the interpreter (os._exit); a fresh one serves the next call",
            }
        if "call stack exhausted" in text or "stack overflow" in text:
            return {
                "ok": False,
                "error_type": "RecursionError",
                "message": "the WebAssembly stack was exhausted (recursion too deep)",
            }
        if "memory" in text and ("grow" in text or "out of bounds" in text):
            return {
                "ok": False,
                "error_type": "MemoryError",
                "message": f"memory cap of {self.memory_mb} MiB reached",
            }
        return {
            "ok": False,
            "error_type": "SandboxError",
            "message": f"the guest interpreter crashed and was restarted: {_cause(text)}",
        }

    def set_memory(self, memory_mb: int) -> None:
        """Limit later instances' linear memory to ``memory_mb``; the live one is thrown away
        (its memory never shrinks), and so is a load that failed (it may fit now)."""
        with self._lock:
            self.memory_mb = memory_mb
            self._load_error = None
            self._discard()

    def close(self) -> None:
        """Free the instance; later calls raise :class:`SandboxError`."""
        with self._lock:
            self._closed = True
            self._discard()


#: The fields of the guest's answer to ``call`` and their types (``pau_runner.call``).
RESULT_FIELDS: dict[str, tuple[type, ...]] = {
    "ok": (bool,),
    "value": (str, type(None)),
    "literal": (bool,),
    "truncated": (bool,),
    "error_type": (str, type(None)),
    "message": (str, type(None)),
    "traceback": (str, type(None)),
    "dirty": (str, type(None)),
}


# The C scanner behind json.loads, without its per-call Python wrapping (~2 us).
_scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _parse_answer(
    raw: Any, fields: dict[str, tuple[type, ...]] | None = None
) -> dict[str, Any] | None:
    """The guest's JSON answer as a dict, or None when it is not one we can trust.

    With ``fields``: every key must be one of them with a value of its type, and ``ok``
    must be there.
    """
    try:
        out, end = _scan(raw, 0)
    except (TypeError, ValueError, StopIteration):
        return None
    if end != len(raw):
        return None
    if type(out) is not dict:
        return None
    if fields is not None:
        if "ok" not in out:
            return None
        for key, value in out.items():
            kinds = fields.get(key)
            if kinds is None or type(value) not in kinds:
                return None
    return out


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _cause(text: str) -> str:
    # wasmtime puts the reason after "Caused by:"; the backtrace before it is noise.
    if "Caused by:" in text:
        return " ".join(text.split("Caused by:", 1)[1].split())[:300]
    return " ".join(text.split())[:300]
