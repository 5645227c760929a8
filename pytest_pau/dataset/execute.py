"""Run methods on inputs to compute example outputs (builtin build, HumanEval conversion).

Outputs are never typed by hand: they come from running the method. Two ways:

- ``wasm`` / ``process``: :class:`pytest_pau.sandbox.Sandbox`, the same sandbox the benchmark
  uses, so stored outputs are what the model will see.
- ``subprocess``: one child Python per batch (``python -I``, fixed hash seed, a CPU-time and
  memory limit, a wall-clock timer per call). It exists for trusted code when the sandbox
  cannot be built, and needs nothing but the standard library.

``auto`` picks ``wasm`` when the sandbox package imports and builds, else ``subprocess``.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Sequence

from pytest_pau.errors import DatasetError
from pytest_pau.models import CallResult

log = logging.getLogger("pytest_pau.dataset")

BACKENDS: tuple[str, ...] = ("auto", "wasm", "process", "subprocess")

# The child side of the subprocess backend. Each call gets fresh globals (state set by one
# call is invisible to the next, as in the sandbox) and ``random`` seeded to 0.
_CHILD = r"""
import ast, builtins, io, json, random, resource, signal, sys
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
class _Timeout(BaseException):
    pass
def _alarm(signum, frame):
    raise _Timeout()
signal.signal(signal.SIGALRM, _alarm)
jobs = json.load(sys.stdin)
out = sys.stdout
sys.stdout = sys.stderr = io.StringIO()
results = []
for job in jobs:
    rows = []
    try:
        compiled = compile(job["code"], "<method>", "exec")
        load_error = None
    except BaseException as exc:
        load_error = (type(exc).__name__, str(exc))
    for text in job["inputs"]:
        if load_error is not None:
            rows.append({"ok": False, "error_type": load_error[0], "message": load_error[1]})
            continue
        try:
            args = ast.literal_eval(text)
        except Exception as exc:
            rows.append({"ok": False, "error_type": "InputError", "message": str(exc)})
            continue
        if not isinstance(args, tuple):
            args = (args,)
        env = {"__name__": "__pau__", "__builtins__": builtins}
        random.seed(0)
        signal.setitimer(signal.ITIMER_REAL, job["timeout_s"])
        try:
            exec(compiled, env)
            value = env[job["entry"]](*args)
            signal.setitimer(signal.ITIMER_REAL, 0)
            text_value = repr(value)
            try:
                ast.literal_eval(text_value)
                literal = True
            except Exception:
                literal = False
            rows.append({"ok": True, "value": text_value, "literal": literal})
        except _Timeout:
            rows.append({"ok": False, "error_type": "Timeout",
                         "message": f"call took over {job['timeout_s']} s"})
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_REAL, 0)
            rows.append({"ok": False, "error_type": type(exc).__name__, "message": str(exc)})
    results.append(rows)
out.write(json.dumps(results))
out.flush()
"""


def sandbox_available() -> bool:
    """Whether :mod:`pytest_pau.sandbox` provides ``Sandbox`` (it is built by another stage)."""
    try:
        from pytest_pau.sandbox import Sandbox  # noqa: F401
    except ImportError:
        return False
    return True


def run_subprocess(
    jobs: Sequence[tuple[str, Sequence[str]]],
    *,
    entry: str = "test_func",
    timeout_s: float = 2.0,
) -> list[list[CallResult]]:
    """Run each ``(code, inputs)`` job in one child Python; one :class:`CallResult` per input.

    Raises:
        DatasetError: the child process itself failed (not a method raising).
    """
    payload = json.dumps(
        [
            {"code": code, "inputs": list(inputs), "entry": entry, "timeout_s": timeout_s}
            for code, inputs in jobs
        ]
    )
    total_calls = sum(len(inputs) for _, inputs in jobs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONHASHSEED"] = "0"  # set and dict-of-str reprs must not vary between builds
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD],
            input=payload,
            capture_output=True,
            text=True,
            env=env,
            timeout=60 + total_calls * timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise DatasetError("computing outputs: the child process did not finish in time") from None
    if proc.returncode != 0:
        raise DatasetError(
            f"computing outputs: the child process exited with {proc.returncode}: "
            f"{proc.stderr.strip()[-2000:]}"
        )
    raw: list[list[dict[str, object]]] = json.loads(proc.stdout)
    return [[CallResult.model_validate(r) for r in rows] for rows in raw]


def run_sandbox(
    jobs: Sequence[tuple[str, Sequence[str]]], *, backend: str, entry: str = "test_func"
) -> list[list[CallResult]]:
    """Run each job in a fresh :class:`pytest_pau.sandbox.Sandbox` of ``backend``."""
    from pytest_pau.sandbox import Sandbox

    results: list[list[CallResult]] = []
    for code, inputs in jobs:
        with Sandbox(code, entry=entry, backend=backend) as box:
            results.append([box.call_literal(text) for text in inputs])
    return results


def run_inputs(
    jobs: Sequence[tuple[str, Sequence[str]]],
    *,
    backend: str = "auto",
    entry: str = "test_func",
    timeout_s: float = 2.0,
) -> tuple[list[list[CallResult]], str]:
    """Run methods on inputs; return the results and the backend that ran them.

    Args:
        jobs: ``(code, input texts)`` pairs.
        backend: ``auto``, ``wasm``, ``process`` or ``subprocess`` (see the module docstring).
        entry: the function to call.
        timeout_s: wall-clock limit per call (subprocess backend).

    Raises:
        DatasetError: an unknown backend, or the runner itself failed.
    """
    if backend not in BACKENDS:
        raise DatasetError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "auto":
        if sandbox_available():
            from pytest_pau.errors import SandboxError

            try:
                return run_sandbox(jobs, backend="wasm", entry=entry), "wasm"
            except SandboxError as exc:
                log.warning("wasm sandbox unavailable (%s); computing outputs in a subprocess", exc)
        return run_subprocess(jobs, entry=entry, timeout_s=timeout_s), "subprocess"
    if backend == "subprocess":
        return run_subprocess(jobs, entry=entry, timeout_s=timeout_s), backend
    return run_sandbox(jobs, backend=backend, entry=entry), backend


def to_pair(text: str, result: CallResult) -> list[str]:
    """Encode one call as a PAU pair: ``[input, repr]`` or ``[input, message, 'ExcType']``.

    The output is always the ``repr`` text, a str (PAU's convention): the files we write
    (builtin, converted HumanEval) are read with ``outputs="repr"`` and detect as repr.
    """
    if result.ok:
        return [text, str(result.value)]
    return [text, result.message or "", result.error_type or "Exception"]
