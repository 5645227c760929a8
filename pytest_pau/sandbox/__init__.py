"""The sandbox that runs hidden methods and model-written code.

``Sandbox(code, entry="test_func", backend="wasm")`` runs a method on literal inputs in
CPython compiled to WebAssembly (wasmtime), with fuel, wall-clock and memory limits and
no filesystem, network, environment, subprocesses, threads or ctypes. ``backend="process"``
runs trusted code in a subprocess with rlimits instead. ``outputs_equal`` is the rule code
match scores with.
"""

from __future__ import annotations

from pytest_pau.models import CallResult
from pytest_pau.sandbox.literals import (
    MAX_INPUT_DEPTH,
    LiteralError,
    is_literal,
    literal_equal,
    parse_literal,
)
from pytest_pau.sandbox.match_rule import outputs_equal
from pytest_pau.sandbox.sandbox import (
    DEFAULT_FUEL,
    DEFAULT_MAX_OUTPUT,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    Sandbox,
)

__all__ = [
    "DEFAULT_FUEL",
    "DEFAULT_MAX_OUTPUT",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIMEOUT_S",
    "MAX_INPUT_DEPTH",
    "CallResult",
    "LiteralError",
    "Sandbox",
    "is_literal",
    "literal_equal",
    "outputs_equal",
    "parse_literal",
]
