"""The process backend: same API and result format as wasm, rlimits, restarts."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pytest_pau.sandbox import Sandbox, literal_equal, parse_literal
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]


@pytest.mark.parametrize(
    "text", ["(1, 'a', None)", "{(1, 2): frozenset({3})}", "[nan, inf, (1-2j)]", str(2**200)]
)
def test_same_results_as_wasm(make_sandbox: Make, text: str) -> None:
    code = method("return args[0] if len(args) == 1 else args")
    wasm = make_sandbox(code).call_literal(f"({text},)")
    proc = make_sandbox(code, backend="process").call_literal(f"({text},)")
    assert proc.ok
    assert proc.literal
    assert proc.fuel is None
    assert literal_equal(parse_literal(proc.value), parse_literal(wasm.value))


def test_errors_have_the_same_shape(make_sandbox: Make) -> None:
    code = method("return 1 / args[0]")
    wasm = make_sandbox(code).call_literal("(0,)")
    proc = make_sandbox(code, backend="process").call_literal("(0,)")
    assert (proc.error_type, proc.message, proc.traceback) == (
        wasm.error_type,
        wasm.message,
        wasm.traceback,
    )


def test_timeout_then_restart(make_sandbox: Make) -> None:
    box = make_sandbox(
        method("if args[0]:\n    while True: pass\nreturn 'fine'"), backend="process", timeout_s=1.0
    )
    started = time.perf_counter()
    result = box.call_literal("(True,)")
    assert time.perf_counter() - started < 4.0
    assert result.error_type == "Timeout"
    assert box.call_literal("(False,)").value == "'fine'"


def test_memory_cap(make_sandbox: Make) -> None:
    box = make_sandbox(method("return len('a' * 10**10)"), backend="process", memory_mb=128)
    assert box.call_literal("()").error_type == "MemoryError"
    assert box.call_literal("()").error_type == "MemoryError"


def test_refuses_writes_and_processes(make_sandbox: Make, tmp_path: object) -> None:
    box = make_sandbox(
        method("import subprocess\nreturn subprocess.run(['true']).returncode"), backend="process"
    )
    assert box.call_literal("()").error_type == "PermissionError"
    box = make_sandbox(method("open('/tmp/pau-process-escape', 'w')"), backend="process")
    assert box.call_literal("()").error_type == "PermissionError"


def test_state_does_not_leak(make_sandbox: Make) -> None:
    box = make_sandbox(
        "import math\ndef test_func(m):\n    old = math.pi\n    if m:\n        math.pi = 3\n    return old\n",
        backend="process",
    )
    assert (
        box.call_literal("(True,)").value
        == box.call_literal("(False,)").value
        == repr(3.141592653589793)
    )


def test_trusted_code_may_import_more(make_sandbox: Make) -> None:
    box = make_sandbox(
        method("import sqlite3\nreturn sqlite3.sqlite_version.count('.')"), backend="process"
    )
    result = box.call_literal("()")
    assert result.ok, result
    assert box.call_literal("()").ok
    assert box._backend.starts == 1  # type: ignore[attr-defined]  # a new import is not leaked state
