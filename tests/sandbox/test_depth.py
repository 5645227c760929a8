"""Deeply nested values: inputs the guest cannot read are refused on the host, and deep
results come back as text or as an error, never as a crash.

Nesting is counted in levels of containers and signs, the argument tuple included:
``([[1]],)`` is 3 levels deep.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pau.models import Example
from pytest_pau.sandbox import MAX_INPUT_DEPTH, Sandbox, outputs_equal, parse_literal
from pytest_pau.sandbox.literals import NestingError
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]
IDENTITY = method("return x", params="x")


def _nest(levels: int, shape: str) -> str:
    """An argument tuple whose innermost value sits ``levels`` deep (the tuple is level 0)."""
    n = levels - 1  # containers (or signs) inside the argument tuple
    if shape == "list":
        value = "[" * n + "1" + "]" * n
    elif shape == "tuple":
        value = "(" * n + "1" + ",)" * n
    elif shape == "dict":
        value = "{'k': " * n + "1" + "}" * n
    elif shape == "dict-key":
        value = "{" + "(" * (n - 1) + "1" + ",)" * (n - 1) + ": 0}"
    elif shape == "set":
        value = "{" + "(" * (n - 1) + "1" + ",)" * (n - 1) + "}"
    elif shape == "frozenset":  # frozenset({...}) is two levels: the call and the set
        value = "frozenset({" * (n // 2) + "1" + "})" * (n // 2)
        value = "[" * (n % 2) + value + "]" * (n % 2)
    elif shape == "mixed":
        wrappers = [("[", "]"), ("{'k': ", "}"), ("(", ",)")]
        value = "".join(wrappers[i % 3][0] for i in range(n)) + "1"
        value += "".join(wrappers[i % 3][1] for i in reversed(range(n)))
    elif shape == "signs":
        value = "[" * (n - 49) + "-" * 49 + "1" + "]" * (n - 49)
    else:
        raise AssertionError(shape)
    return f"({value},)"


SHAPES = ["list", "tuple", "dict", "dict-key", "set", "frozenset", "mixed", "signs"]


@pytest.mark.parametrize("shape", SHAPES)
def test_the_nesting_helper_counts_levels_as_the_parser_does(shape: str) -> None:
    text = _nest(MAX_INPUT_DEPTH, shape)
    parse_literal(text, MAX_INPUT_DEPTH)
    with pytest.raises(NestingError):
        parse_literal(text, MAX_INPUT_DEPTH - 1)


@pytest.mark.parametrize("backend", ["wasm", "process"])
@pytest.mark.parametrize("shape", SHAPES)
def test_inputs_at_the_limit_pass_and_deeper_ones_are_refused_on_the_host(
    make_sandbox: Make, backend: str, shape: str
) -> None:
    box = make_sandbox(IDENTITY, backend=backend)
    at_limit = _nest(MAX_INPUT_DEPTH, shape)
    got = box.call_literal(at_limit)
    assert got.ok, got
    assert parse_literal(got.value) == parse_literal(at_limit)[0]
    for levels in (MAX_INPUT_DEPTH + 1, 120, 150, 199, 400, 5000):
        refused = box.call_literal(_nest(levels, shape))
        assert refused.error_type == "InputError", (levels, refused)
        assert f"deeper than {MAX_INPUT_DEPTH} levels" in (refused.message or ""), refused
    # Refused on the host: the interpreter that answered first is still the one serving.
    if backend == "wasm":
        assert box._backend.instances_started == 1  # type: ignore[attr-defined]
    assert box.call_literal(at_limit).value == got.value


@pytest.mark.parametrize("shape", SHAPES)
def test_the_guest_reads_a_margin_beyond_the_limit(make_sandbox: Make, shape: str) -> None:
    # Straight to the guest, past the host's check: the limit must stay below what the
    # guest really reads (it traps beyond 110 levels of lists), or a guest change that uses
    # more stack would turn inputs at the limit into the method's RecursionError.
    box = make_sandbox(IDENTITY)
    out = box._backend.call(_nest(MAX_INPUT_DEPTH + 6, shape), 0, 1 << 20)  # type: ignore[attr-defined]
    assert out["ok"], out


@pytest.mark.parametrize("backend", ["wasm", "process"])
def test_deep_results_come_back_as_text_or_an_error(make_sandbox: Make, backend: str) -> None:
    box = make_sandbox(
        method("v = 1\nfor _ in range(n):\n    v = [v]\nreturn v", params="n"), backend=backend
    )
    for levels in (150, 250, 1000):
        got = box.call_literal(f"({levels},)")
        if not got.ok:
            # CPython 3.11 (the process backend here) reprs at most ~1000 levels.
            assert (backend, levels, got.error_type) == ("process", 1000, "RecursionError"), got
            continue
        assert got.value == "[" * levels + "1" + "]" * levels
        assert got.literal is (levels <= 200), got  # the reader's own limit
        # The host compares it without crashing: as values up to 200 levels, then as text.
        assert outputs_equal(Example(input="(0,)", output=got.value), got)
        assert not outputs_equal(Example(input="(0,)", output=got.value[1:-1]), got)
    # Too deep for repr itself: the method's RecursionError, as in CPython; the sandbox
    # keeps serving.
    got = box.call_literal("(100000,)")
    assert got.error_type == "RecursionError", got
    assert box.call_literal("(3,)").value == "[[[1]]]"
