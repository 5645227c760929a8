"""The ``process`` backend: a long-lived worker subprocess with rlimits.

For trusted code that needs modules the Wasm guest lacks (numpy, anything installed).
It is not a security boundary like Wasm: the worker refuses writes, process spawning,
sockets and ctypes through an audit hook, and rlimits cap its memory and CPU time, but
it runs as the same user with the real filesystem readable. Same API and result format
as the ``wasm`` backend; the worker is restarted after a crash, a limit or a call that
changed shared state.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from pytest_pau.errors import SandboxError
from pytest_pau.sandbox.build import guest_dir

_WORKER = Path(__file__).with_name("_worker.py")
_START_TIMEOUT_S = 30.0
#: Runs of one call at most: each further run has more modules preloaded (a method may
#: import more once the first import works).
_IMPORT_RETRIES = 3
_live: weakref.WeakSet[ProcessBackend] = weakref.WeakSet()


class _Died(Exception):
    """The worker exited or overran the wall clock."""


class ProcessBackend:
    """Runs one method's calls in its own worker process."""

    def __init__(self, code: str, entry: str, *, timeout_s: float, memory_mb: int) -> None:
        self.code = code
        self.entry = entry
        self.timeout_s = timeout_s
        self.memory_mb = memory_mb
        self.starts = 0
        #: Modules the method imported that the standard preload lacks.
        self.preload: set[str] = set()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._lock = threading.Lock()
        self._closed = False
        _live.add(self)

    def _start(self) -> None:
        env = {
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PATH": os.environ.get("PATH", ""),
        }
        self._proc = subprocess.Popen(
            # Not -I: it implies -E, which would ignore PYTHONHASHSEED, and string hashes
            # (set and dict order of strings) would differ between sandboxes. The
            # environment above is the whole environment, so -s -P -B isolate enough.
            [
                sys.executable,
                "-s",
                "-P",
                "-B",
                str(_WORKER),
                str(guest_dir()),
                str(self.memory_mb),
                ",".join(sorted(self.preload)),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd="/",
            start_new_session=True,
        )
        self._buffer = b""
        self.starts += 1
        try:
            self._read(_START_TIMEOUT_S)
            self._send({"op": "load", "code": self.code, "entry": self.entry})
            self._read(_START_TIMEOUT_S)
        except _Died as exc:
            self._kill()
            raise SandboxError(
                f"the process sandbox worker did not start ({exc}); run `{sys.executable} -I {_WORKER}` to see why"
            ) from None

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc is not None
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message).encode() + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise _Died("exited") from exc

    def _read(self, timeout_s: float) -> dict[str, Any]:
        assert self._proc is not None
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Died("wall clock")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise _Died("exited")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)  # type: ignore[no-any-return]

    def _kill(self) -> int | None:
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.kill()
        try:
            return proc.wait(timeout=5)
        finally:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()

    def call(self, args_text: str, seed: int, max_output: int) -> dict[str, Any]:
        """Run one call in the worker; restarts it after a crash or a limit.

        A call that imports modules its worker had not preloaded is run again in a fresh
        worker that imports them before its snapshot, as every later call's worker does:
        its result is then the one any later call gets, whatever came first. (A module
        imported during a call runs under the guard: numpy's import sets an environment
        variable, which is refused there, so the first call failed and the next ones
        did not.)
        """
        with self._lock:
            if self._closed:
                raise SandboxError("this sandbox is closed; create a new Sandbox")
            out, grew = self._call_once(args_text, seed, max_output)
            runs = 1
            while grew and runs < _IMPORT_RETRIES:
                out, grew = self._call_once(args_text, seed, max_output)
                runs += 1
            return out

    def _call_once(self, args_text: str, seed: int, max_output: int) -> tuple[dict[str, Any], bool]:
        """The call's result, and whether it grew the preload (the call must run again)."""
        if self._proc is None:
            self._start()
        try:
            self._send(
                {
                    "op": "call",
                    "args": args_text,
                    "seed": seed,
                    "max_output": max_output,
                    "cpu_s": self.timeout_s,
                }
            )
            out = self._read(self.timeout_s + 0.5)
        except _Died as exc:
            return self._death(str(exc)), False
        new_modules = {n for n in out.pop("new_modules", "").split(",") if n}
        grew = not new_modules <= self.preload
        # The next worker imports them before its snapshot: a module first imported by
        # the method is then not new state on every call.
        self.preload |= new_modules
        if out.pop("dirty", None) or grew:
            self._kill()
        return out, grew

    def _death(self, how: str) -> dict[str, Any]:
        code = self._kill()
        if how == "wall clock":
            return {
                "ok": False,
                "error_type": "Timeout",
                "message": f"wall-clock limit of {self.timeout_s:g} s exceeded",
            }
        if code is not None and code < 0 and -code in (24, 9):  # SIGXCPU / SIGKILL from RLIMIT_CPU
            return {
                "ok": False,
                "error_type": "Timeout",
                "message": f"CPU time limit of {self.timeout_s:g} s exceeded",
            }
        return {
            "ok": False,
            "error_type": "SandboxError",
            "message": f"the worker process died (exit status {code}) and was restarted",
        }

    def set_memory(self, memory_mb: int) -> None:
        """Let later workers add ``memory_mb`` of address space (``RLIMIT_AS``); the live
        worker is stopped (its limit is fixed when it starts)."""
        with self._lock:
            self.memory_mb = memory_mb
            self._kill()

    def close(self) -> None:
        """Stop the worker; later calls raise :class:`SandboxError`."""
        with self._lock:
            self._closed = True
            self._kill()


@atexit.register
def _close_all() -> None:
    for backend in list(_live):
        backend.close()
