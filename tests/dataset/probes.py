"""Child-process probes over many methods: branch coverage and pairwise behaviour.

Run as ``python probes.py coverage|behaviour`` with JSON on stdin; prints JSON. They run in
a child process because they exec trusted builtin code in bulk, and coverage must not fight
a coverage run of the test suite itself.

- ``coverage``: stdin ``[{"id", "code", "inputs"}]``; stdout ``{id: {"lines": [...],
  "branches": [[from, to], ...]}}``, the lines and branches of ``test_func`` and its helpers
  (not the ``validate_input_args`` guard) that no input reached.
- ``behaviour``: stdin ``[{"id", "code", "examples": [[input, output, raises?]...]}]``
  (methods of one arity); stdout ``[[id_a, id_b], ...]``: pairs that behave identically on
  the union of their inputs.
"""

from __future__ import annotations

import ast
import builtins
import io
import json
import os
import random
import resource
import signal
import sys
import tempfile
from typing import Any


class _Timeout(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout()


def _call(func: Any, text: str, seconds: float = 0.5) -> tuple[str, str]:
    """``("ok", repr)`` or ``("raise", type name)``; a timeout counts as its own behaviour."""
    args = ast.literal_eval(text)
    random.seed(0)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        value = func(*args)
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "ok", repr(value)
    except _Timeout:
        return "raise", "Timeout"
    except BaseException as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return "raise", type(exc).__name__


def _same(a: tuple[str, str], b: tuple[str, str]) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "raise" or a[1] == b[1]:
        return a[1] == b[1]
    try:
        return bool(ast.literal_eval(a[1]) == ast.literal_eval(b[1]))
    except (ValueError, SyntaxError, TypeError):
        return False


def _guard_lines(code: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef) and node.name == "validate_input_args":
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def coverage_probe(methods: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    import coverage

    folder = tempfile.mkdtemp(prefix="pau-cov-")
    paths = {}
    for i, method in enumerate(methods):
        path = os.path.join(folder, f"m{i}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(method["code"])
        paths[method["id"]] = path
    cov = coverage.Coverage(branch=True, data_file=None, include=[os.path.join(folder, "*")])
    cov.start()
    for method in methods:
        path = paths[method["id"]]
        with open(path, encoding="utf-8") as handle:
            compiled = compile(handle.read(), path, "exec")
        for text in method["inputs"]:
            env = {"__name__": "__pau__", "__builtins__": builtins}
            exec(compiled, env)
            _call(env["test_func"], text)
    cov.stop()
    report = os.path.join(folder, "coverage.json")
    cov.json_report(outfile=report, include=[os.path.join(folder, "*")])
    with open(report, encoding="utf-8") as handle:
        files = json.load(handle)["files"]
    result = {}
    for method in methods:
        data = files.get(paths[method["id"]])
        if data is None:  # never measured: report every line rather than pass silently
            lines = list(range(1, method["code"].count("\n") + 2))
            data = {"missing_lines": lines, "missing_branches": []}
        guard = _guard_lines(method["code"])
        result[method["id"]] = {
            "lines": [n for n in data["missing_lines"] if n not in guard],
            "branches": [b for b in data["missing_branches"] if b[0] not in guard],
        }
    return result


def behaviour_probe(methods: list[dict[str, Any]]) -> list[list[str]]:
    funcs = {}
    for method in methods:
        env = {"__name__": "__pau__", "__builtins__": builtins}
        exec(compile(method["code"], method["id"], "exec"), env)
        funcs[method["id"]] = env["test_func"]
    stored = {
        m["id"]: [(e[0], ("raise", e[2]) if len(e) > 2 else ("ok", e[1])) for e in m["examples"]]
        for m in methods
    }

    def agrees(other: str, on: str) -> bool:
        # Stops at the first disagreement, so unrelated pairs cost one call.
        return all(_same(_call(funcs[other], text), want) for text, want in stored[on])

    pairs = []
    ids = [m["id"] for m in methods]
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if agrees(b, a) and agrees(a, b):
                pairs.append([a, b])
    return pairs


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    signal.signal(signal.SIGALRM, _alarm)
    sys.setrecursionlimit(3000)
    methods = json.load(sys.stdin)
    out = sys.stdout
    sys.stdout = io.StringIO()  # a method that prints must not corrupt the JSON answer
    result = coverage_probe(methods) if sys.argv[1] == "coverage" else behaviour_probe(methods)
    out.write(json.dumps(result))
    out.flush()


if __name__ == "__main__":
    main()
