"""What the Wasm guest lacks is reported as the sandbox's limitation, not as behaviour.

The guest holds only the standard-library modules imported when it was built. A call that
looks up any other standard-library module did not run as in CPython: it ends as
``SandboxLimitation`` and is scored neither as a match nor as a mismatch.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.models import CallResult, Example
from pytest_pau.sandbox import Sandbox, outputs_equal, parse_literal
from pytest_pau.sandbox.build import guest_dir
from pytest_pau.sandbox.match_rule import NOT_METHOD_ERRORS
from pytest_pau.scoring.coder import as_example
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]

LIMITED = {
    "submodule": ("import json.tool\nreturn 1", "json.tool"),
    "from-import": ("from json import tool\nreturn 1", "json.tool"),
    "popped-then-imported": (
        "import sys\ndel sys.modules['json']\nimport json\nreturn json.dumps(1)",
        "json",
    ),
    "caught": (
        "try:\n    import json.tool\nexcept ImportError:\n    return 'fallback'\nreturn 'ok'",
        "json.tool",
    ),
    "library-lazy-import": ("return 'x'.encode('cp1253')", "encodings.cp1253"),
    "top-level": ("import zoneinfo\nreturn 1", "zoneinfo"),
    "probe": (
        "import importlib\nreturn importlib.import_module('sqlite3') is not None",
        "sqlite3",
    ),
}


@pytest.mark.parametrize("case", sorted(LIMITED))
def test_a_missing_stdlib_module_is_a_sandbox_limitation(make_sandbox: Make, case: str) -> None:
    body, module = LIMITED[case]
    box = make_sandbox(method(body))
    for _ in range(2):  # the same on a fresh interpreter
        got = box.call_literal("()")
        assert got.error_type == "SandboxLimitation", got
        assert repr(module) in (got.message or ""), got
        assert "--pau-sandbox=process" in (got.message or ""), got


@pytest.mark.slow
@pytest.mark.parametrize("case", ["submodule", "caught", "library-lazy-import", "top-level"])
def test_the_process_backend_has_the_whole_library(make_sandbox: Make, case: str) -> None:
    got = make_sandbox(method(LIMITED[case][0]), backend="process").call_literal("()")
    assert got.ok, got


@pytest.mark.parametrize(
    ("body", "error_type", "message"),
    [
        ("import numpy\nreturn 1", "ModuleNotFoundError", "No module named 'numpy'"),
        ("import no_such_pau\nreturn 1", "ModuleNotFoundError", "No module named 'no_such_pau'"),
        ("import msvcrt\nreturn 1", "ModuleNotFoundError", "No module named 'msvcrt'"),
        ("return 'x'.encode('no-such-codec')", "LookupError", "unknown encoding: no-such-codec"),
    ],
)
def test_a_module_the_library_lacks_stays_the_methods_error(
    make_sandbox: Make, body: str, error_type: str, message: str
) -> None:
    got = make_sandbox(method(body)).call_literal("()")
    assert (got.error_type, got.message) == (error_type, message)


def test_preloaded_modules_still_import(make_sandbox: Make) -> None:
    box = make_sandbox(method("import json, re, collections.abc\nreturn json.dumps([1])"))
    assert box.call_literal("()").value == "'[1]'"


def test_a_limitation_counts_neither_as_a_match_nor_as_behaviour() -> None:
    limited = CallResult(ok=False, error_type="SandboxLimitation", message="json.tool")
    assert "SandboxLimitation" in NOT_METHOD_ERRORS
    assert not outputs_equal(Example(input="()", output="1"), limited)
    assert not outputs_equal(Example(input="()", output="boom", raises="ValueError"), limited)
    assert as_example(("()", limited)) is None


@pytest.mark.parametrize("backend", ["wasm", "process"])
@pytest.mark.parametrize("name", sorted(NOT_METHOD_ERRORS))
def test_a_methods_class_cannot_pass_for_the_sandboxs_errors(
    make_sandbox: Make, backend: str, name: str
) -> None:
    code = method(f"class {name}(Exception):\n    pass\nraise {name}('mine')")
    got = make_sandbox(code, backend=backend).call_literal("()")
    assert got.error_type == f"__pau_method__.{name}", got
    # It is the method's exception: it matches an expected one, as any exception does.
    assert outputs_equal(Example(input="()", output="mine", raises="ValueError"), got)


def _documented_modules() -> list[str]:
    text = (guest_dir() / "README.md").read_text(encoding="utf-8")
    section = text.split("## Modules a method can import", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the module list's code block is gone from sandbox_wasm/README.md"
    return block.group(1).split()


def test_the_documented_module_list_is_the_guests(make_sandbox: Make) -> None:
    code = (
        "import sys\ndef test_func():\n    return sorted(n for n, m in sys.modules.items() if m)\n"
    )
    got = make_sandbox(code).call_literal("()")
    internal = {"__main__", "__pau_method__", "componentize_py_types"}
    have = [n for n in parse_literal(got.value) if n not in internal]
    wanted = _documented_modules()
    assert have == wanted, textwrap.fill(
        f"update the list in {Path(guest_dir(), 'README.md')}: missing there "
        f"{sorted(set(have) - set(wanted))}, gone from the guest {sorted(set(wanted) - set(have))}"
    )
