"""Computing example outputs by running methods: the runner protocol and the subprocess runner.

Outputs are never typed by hand: they come from running the method. The dataset stage
does not run code itself (it comes before the sandbox): a loader that must compute outputs
(the HumanEval conversion) is handed an :data:`OutputRunner`. The sandbox stage provides
the real one (:func:`pytest_pau.sandbox.batch.output_runner`: the wasm sandbox the benchmark
uses, so stored outputs are what the model will see); :func:`pytest_pau.load_dataset`
injects it.

:func:`run_subprocess` is the runner of last resort: one child Python per batch
(``python -I``, fixed hash seed, a memory limit, a wall-clock timer per call), for trusted
code when the sandbox cannot be built; it needs nothing but the standard library.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence

from pytest_pau.errors import DatasetError
from pytest_pau.models import CallResult

Jobs = Sequence[tuple[str, Sequence[str]]]
"""``(code, input texts)`` pairs: each method and the inputs to run it on."""
OutputRunner = Callable[[Jobs], list[list[CallResult]]]
"""Runs every job's inputs; one :class:`CallResult` per input, in order."""

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


def run_subprocess(
    jobs: Jobs,
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


def to_pair(text: str, result: CallResult) -> list[str]:
    """Encode one call as a PAU pair: ``[input, repr]`` or ``[input, message, 'ExcType']``.

    The output is always the ``repr`` text, a str (PAU's convention): the files we write
    (builtin, converted HumanEval) are read with ``outputs="repr"`` and detect as repr.
    """
    if result.ok:
        return [text, str(result.value)]
    return [text, result.message or "", result.error_type or "Exception"]
