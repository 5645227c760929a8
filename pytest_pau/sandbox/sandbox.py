"""``Sandbox``: run an untrusted method on literal inputs, one call at a time."""

from __future__ import annotations

import time
import weakref
from types import TracebackType
from typing import Any, Protocol

from pytest_pau.errors import ConfigError, SandboxError
from pytest_pau.models import CallResult
from pytest_pau.sandbox.literals import (
    MAX_INPUT_DEPTH,
    MAX_INPUT_INT_DIGITS,
    DigitsError,
    LiteralError,
    NestingError,
    parse_literal,
)

#: Fuel per call (about one unit per Wasm instruction). Deterministic and machine-
#: independent: the same input runs out on every machine. A typical PAU call uses 0.5-2
#: million; ``while True: pass`` burns 5*10**9 in 0.3 s on an idle 2-core machine and in
#: 0.75 s when that machine is loaded 4x over (measured: 17 and 7 billion fuel/s).
DEFAULT_FUEL = 5_000_000_000
#: Wall-clock backstop per call, in seconds (fuel normally stops a call long before).
#: Counted on the monotonic clock from the start of the method's call: a call ends within
#: about 50 ms of it even on an overloaded machine (``tests/sandbox/test_wall_clock.py``).
DEFAULT_TIMEOUT_S = 10.0
#: Memory cap per sandbox instance (Wasm linear memory; address space for ``process``).
DEFAULT_MEMORY_MB = 256
#: Characters of ``repr`` kept of a result; the rest is replaced by a marker.
DEFAULT_MAX_OUTPUT = 64 * 1024
#: Largest input text accepted, in characters.
MAX_INPUT_CHARS = 1 << 20
BACKENDS = ("wasm", "process")


class Backend(Protocol):
    """What :class:`Sandbox` needs of a backend."""

    def call(self, args_text: str, seed: int, max_output: int) -> dict[str, Any]: ...

    def close(self) -> None: ...

    def set_memory(self, memory_mb: int) -> None:
        """Run later calls on a fresh instance limited to ``memory_mb``."""


#: A call's failures that a lack of memory may cause: a ``MemoryError``, or a crash (an
#: interpreter that could not allocate may abort). Below its cap, a sandbox runs such a
#: call again at a higher level (:mod:`pytest_pau.sandbox.admission`).
_SHORT_OF_MEMORY = frozenset({"MemoryError", "SandboxError"})


class Sandbox:
    """Runs one method (its source ``code``, entry function ``entry``) on literal inputs.

    Construction is cheap and never fails because of ``code``: code that does not
    compile, or lacks ``entry``, is reported by every call as ``ok=False`` with the
    error (``SyntaxError``, ``NameError``...). Every call runs with fresh globals and
    ``random`` seeded with ``seed``, so the same input always gives the same result.

    Args:
        code: Python source defining ``entry``.
        entry: Name of the function to call.
        backend: ``"wasm"`` (CPython in WebAssembly, the default, for untrusted code) or
            ``"process"`` (a subprocess with rlimits, for trusted code that needs
            modules the Wasm guest lacks).
        fuel: Wasm fuel per call (default :data:`DEFAULT_FUEL`).
        timeout_s: Wall-clock limit per call (default :data:`DEFAULT_TIMEOUT_S`).
        memory_mb: Memory cap (default :data:`DEFAULT_MEMORY_MB`).
        seed: Seed of ``random`` at the start of every call.
        max_output: Characters of the result's repr kept (default 64 KiB).

    Raises:
        ConfigError: An unknown backend or a non-positive limit.

    Example:
        >>> with Sandbox("def test_func(a, b):\\n    return a + b") as box:
        ...     box.call_literal("(1, 2)").value
        '3'
    """

    def __init__(
        self,
        code: str,
        entry: str = "test_func",
        backend: str = "wasm",
        *,
        fuel: int | None = None,
        timeout_s: float | None = None,
        memory_mb: int | None = None,
        seed: int = 0,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ) -> None:
        self.code = code
        self.entry = entry
        self.backend_name = backend
        self.fuel = DEFAULT_FUEL if fuel is None else int(fuel)
        self.timeout_s = DEFAULT_TIMEOUT_S if timeout_s is None else float(timeout_s)
        self.memory_mb = DEFAULT_MEMORY_MB if memory_mb is None else int(memory_mb)
        self.seed = seed
        self.max_output = max_output
        for name in ("fuel", "timeout_s", "memory_mb", "max_output"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"Sandbox {name} must be positive, got {getattr(self, name)!r}")
        if backend not in BACKENDS:
            raise ConfigError(
                f"unknown sandbox backend {backend!r}; expected one of {', '.join(BACKENDS)} (--pau-sandbox)"
            )
        from pytest_pau.sandbox.admission import ADMISSION, START_MB

        # The run's memory bound: wait until this sandbox's start level fits, raised while
        # its calls need more (sandbox/admission.py); given back by close(), or when the
        # sandbox is collected without one.
        self.bound_refusals = 0
        """Calls that failed because the run's memory bound had no room for them (each
        result is a MemoryError of the run, not of the method)."""
        self._hold = ADMISSION.acquire(min(self.memory_mb, START_MB))
        self._release = weakref.finalize(self, ADMISSION.release, self._hold)
        try:
            self._backend = self._start(backend, code, entry, self._hold.mb)
        except BaseException:
            self._release()
            raise

    @property
    def level_mb(self) -> int:
        """The memory limit this sandbox's calls run under now (at most :attr:`memory_mb`)."""
        return self._hold.mb

    def _start(self, backend: str, code: str, entry: str, level_mb: int) -> Backend:
        if backend == "wasm":
            from pytest_pau.sandbox.wasm import WasmBackend

            return WasmBackend(
                code, entry, fuel=self.fuel, timeout_s=self.timeout_s, memory_mb=level_mb
            )
        from pytest_pau.sandbox.process import ProcessBackend

        return ProcessBackend(code, entry, timeout_s=self.timeout_s, memory_mb=level_mb)

    def call_literal(self, text: str) -> CallResult:
        """Call the method on the arguments written as a Python literal.

        ``"(1, 'a')"`` calls ``entry(1, 'a')``; a non-tuple such as ``"[1, 2]"`` is one
        argument. Text that is not a literal (a name, a call, a lambda), or is nested
        deeper than :data:`~pytest_pau.sandbox.literals.MAX_INPUT_DEPTH` levels, or holds an
        integer of more than :data:`~pytest_pau.sandbox.literals.MAX_INPUT_INT_DIGITS`
        digits, is refused with ``error_type="InputError"`` and never reaches the method.

        Raises:
            SandboxError: The sandbox itself failed (not the method).
        """
        started = time.perf_counter()
        refused = self.check_input(text)
        if refused is not None:
            refused.duration_s = time.perf_counter() - started
            return refused
        out = self._run(text)
        if out.get("error_type") in _SHORT_OF_MEMORY and self._hold.mb < self.memory_mb:
            out = self._call_higher(text, out)
        out.pop("dirty", None)
        result = CallResult(**out)
        result.duration_s = time.perf_counter() - started
        return result

    def _call_higher(self, text: str, out: dict[str, Any]) -> dict[str, Any]:
        """Run a call that failed at its level again at twice the level, up to the cap.

        The failed call's instance is thrown away first, so each run starts fresh: the
        result is the one a sandbox at the final level gives. When the run's bound has no
        room for the larger level, the call fails as a ``MemoryError`` naming the bound, and
        the sandbox goes back to its start level.
        """
        from pytest_pau.sandbox.admission import ADMISSION, BOUND_MESSAGE, START_MB

        while out.get("error_type") in _SHORT_OF_MEMORY and self._hold.mb < self.memory_mb:
            level = self._hold.mb
            if not ADMISSION.grow(self._hold, min(self.memory_mb, 2 * level) - level):
                message = BOUND_MESSAGE.format(
                    level=level,
                    cap=self.memory_mb,
                    held=ADMISSION.in_use_mb,
                    budget=ADMISSION.budget_mb,
                )
                self.bound_refusals += 1
                # Its instance was thrown away: back to the start, the rest free for others.
                ADMISSION.release(self._hold, keep_mb=min(self.memory_mb, START_MB))
                self._backend.set_memory(self._hold.mb)
                return {
                    "ok": False,
                    "error_type": "MemoryError",
                    "message": message,
                    "fuel": out.get("fuel"),
                }
            self._backend.set_memory(self._hold.mb)
            out = self._run(text)
        return out

    def _run(self, text: str) -> dict[str, Any]:
        """One run of a call; an instance whose start-up image is larger than the level
        is a failure to run higher, not an error (below the cap)."""
        try:
            return self._backend.call(text, self.seed, self.max_output)
        except SandboxError as exc:
            if self._hold.mb >= self.memory_mb or "exceeds memory limits" not in str(exc):
                raise
            return {"ok": False, "error_type": "SandboxError", "message": str(exc)}

    def call(self, *args: Any) -> CallResult:
        """Call the method on Python values (they must be literals): ``box.call(1, 'a')``."""
        return self.call_literal(repr(tuple(args)))

    @staticmethod
    def check_input(text: object) -> CallResult | None:
        """The refusal :meth:`call_literal` would return for ``text`` (None: it would run).

        Datasets are checked with it at load (:mod:`pytest_pau.sandbox.runnable`), so a
        held-back input the sandbox cannot read is found before any model is called.
        """
        if not isinstance(text, str):
            return CallResult(
                ok=False,
                error_type="InputError",
                message=f"the input must be literal text (str), got {type(text).__name__}",
            )
        if len(text) > MAX_INPUT_CHARS:
            return CallResult(
                ok=False,
                error_type="InputError",
                message=f"the input is {len(text)} characters long; the limit is {MAX_INPUT_CHARS}",
            )
        try:
            # Both backends read inputs only this deep: the Wasm guest cannot read deeper
            # ones, and a limit of one backend only would make results differ by backend.
            parse_literal(text, MAX_INPUT_DEPTH, MAX_INPUT_INT_DIGITS)
        except DigitsError:
            return CallResult(
                ok=False,
                error_type="InputError",
                message=f"{text[:100]!r} holds an integer of more than {MAX_INPUT_INT_DIGITS} digits, the most the sandbox reads in an input (reading digits is quadratic: 300,000 use up a call's fuel before the method starts); pass a smaller number, or its digits as a string",
            )
        except NestingError:
            return CallResult(
                ok=False,
                error_type="InputError",
                message=f"{text[:100]!r} is nested deeper than {MAX_INPUT_DEPTH} levels, the most the sandbox reads (containers and signs, the argument tuple included); pass a flatter value",
            )
        except LiteralError as exc:
            return CallResult(
                ok=False,
                error_type="InputError",
                message=f"{text[:200]!r} is not a Python literal ({exc}); write constants, tuples, lists, dicts or sets, e.g. \"([1, 2], 'a')\"",
            )
        return None

    def close(self) -> None:
        """Free the sandbox's interpreter; calls after this raise ``SandboxError``."""
        try:
            self._backend.close()
        finally:
            self._release()  # once: later calls do nothing

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox(entry={self.entry!r}, backend={self.backend_name!r}, fuel={self.fuel}, timeout_s={self.timeout_s:g}, memory_mb={self.memory_mb})"
