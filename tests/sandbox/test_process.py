"""The process backend: same API and result format as wasm, rlimits, restarts."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

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


@pytest.mark.slow
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


@pytest.mark.slow
def test_refuses_os_open_for_writing(make_sandbox: Make, tmp_path: Path) -> None:
    # ``os.open`` audits mode None: the flags must be checked too.
    target = "/tmp/pau-x"
    if os.path.exists(target):
        os.unlink(target)
    box = make_sandbox(
        method(
            "import os\n"
            f"fd = os.open({target!r}, os.O_WRONLY|os.O_CREAT, 0o644)\n"
            "os.write(fd, b'x')"
        ),
        backend="process",
    )
    for _ in range(2):
        assert box.call_literal("()").error_type == "PermissionError"
    assert not os.path.exists(target)
    # Reading through ``os.open`` is still allowed for trusted code.
    readable = tmp_path / "readable.txt"
    readable.write_text("hi")
    box = make_sandbox(
        method(
            "import os\n"
            f"fd = os.open({str(readable)!r}, os.O_RDONLY)\n"
            "data = os.read(fd, 10)\nos.close(fd)\nreturn data"
        ),
        backend="process",
    )
    result = box.call_literal("()")
    assert result.ok, result


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
    for _ in range(4):
        result = box.call_literal("()")
        assert result.ok, result
    # One restart: the second worker imports sqlite3 before its snapshot.
    assert box._backend.starts == 2  # type: ignore[attr-defined]


@pytest.mark.slow
def test_state_left_in_a_newly_imported_module_does_not_leak(make_sandbox: Make) -> None:
    # The worker used to re-snapshot after a new import, adopting what the method left.
    code = method(
        "import getopt\ngetopt.count = getattr(getopt, 'count', 0) + 1\nreturn getopt.count"
    )
    box = make_sandbox(code, backend="process")
    assert [box.call_literal("()").value for _ in range(4)] == ["1"] * 4


def test_string_hashes_are_the_same_in_every_process_sandbox() -> None:
    # Set order of strings must not differ between the agent's sandbox and the coder's.
    code = "def test_func():\n    return (hash('abc'), list({'apple', 'kiwi', 'fig', 'plum'}))"
    values = set()
    for _ in range(3):
        with Sandbox(code, backend="process") as box:
            values.add(box.call_literal("()").value)
    assert len(values) == 1, values


NUMPY_AT_TOP = "import numpy as np\n\ndef test_func(n):\n    return int(np.arange(n).sum())\n"
NUMPY_INSIDE = method("import numpy as np\nreturn int(np.arange(n).sum())", params="n")


@pytest.mark.slow
@pytest.mark.parametrize("code", [NUMPY_AT_TOP, NUMPY_INSIDE], ids=["module", "function"])
def test_results_do_not_depend_on_which_call_imported_a_module_first(
    make_sandbox: Make, code: str
) -> None:
    pytest.importorskip("numpy")
    # numpy's import sets an environment variable, which the guard refuses during a
    # call: the first call of a fresh sandbox failed with PermissionError, later ones
    # (whose worker had preloaded numpy) did not.
    forward = make_sandbox(code, backend="process")
    backward = make_sandbox(code, backend="process")
    inputs = ["(5,)", "(0,)", "(100,)"]
    ahead = [forward.call_literal(text) for text in inputs]
    behind = [backward.call_literal(text) for text in reversed(inputs)][::-1]
    assert [r.value for r in ahead] == ["10", "0", "4950"], ahead
    assert [r.value for r in behind] == [r.value for r in ahead]
    assert forward.call_literal("(5,)").value == "10"
    assert "numpy" in forward._backend.preload  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_module_that_exists_nowhere_fails_the_same_every_time(make_sandbox: Make) -> None:
    box = make_sandbox(method("import no_such_module_pau\nreturn 1"), backend="process")
    results = [box.call_literal("()") for _ in range(3)]
    assert {(r.error_type, r.message) for r in results} == {
        ("ModuleNotFoundError", "No module named 'no_such_module_pau'")
    }
    # Run again once, in a worker that tried to preload it, then never again (a failed
    # import is an "import" audit event: each call still gets a fresh worker).
    assert box._backend.starts <= len(results) + 1, box._backend.starts  # type: ignore[attr-defined]
