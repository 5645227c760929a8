"""Inputs the sandbox cannot read within a call's limits are refused on the host.

Reading decimal digits is quadratic in CPython: a 300,000-digit integer in an input used up
the guest's 5e9 fuel before the method started (a ``Timeout`` that looked like the
method's), and a 1,000,000-digit one took 63 s (19 s of it in the host's own check, on
CPython 3.11). Such inputs are an ``InputError`` naming the limit, with either backend.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pytest_pau.models import Example
from pytest_pau.sandbox import Sandbox, outputs_equal, parse_literal
from pytest_pau.sandbox.literals import MAX_INPUT_INT_DIGITS, DigitsError
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]
LAST_DIGITS = method("return x % 1000 if isinstance(x, int) else len(x)", params="x")


@pytest.mark.parametrize("backend", ["wasm", "process"])
def test_an_input_integer_over_the_digit_limit_is_refused_on_the_host(
    make_sandbox: Make, backend: str
) -> None:
    box = make_sandbox(LAST_DIGITS, backend=backend)
    at_limit = box.call_literal(f"({'7' * MAX_INPUT_INT_DIGITS},)")
    assert (at_limit.ok, at_limit.value) == (True, "777"), at_limit
    for digits in (MAX_INPUT_INT_DIGITS + 1, 300_000, 1_000_000):
        started = time.process_time()
        refused = box.call_literal(f"([1, -{'9' * digits}],)")
        took = time.process_time() - started
        assert refused.error_type == "InputError", (digits, refused)
        assert f"more than {MAX_INPUT_INT_DIGITS} digits" in (refused.message or ""), refused
        # Refused before any conversion: 1,000,000 digits took 19 s of the host's CPU.
        assert took < 0.5, (digits, took)
    # Digits that are no decimal integer are not limited: a string, a hexadecimal number.
    assert box.call_literal(f"('{'9' * 60_000}',)").value == "60000"
    assert box.call_literal(f"(0x{'f' * 60_000},)").value == "375"
    if backend == "wasm":  # refused on the host: the guest that answered first still serves
        assert box._backend.instances_started == 1  # type: ignore[attr-defined]


def test_outputs_have_no_digit_limit(make_sandbox: Make) -> None:
    box = make_sandbox(method("return 10 ** n", params="n"), max_output=1 << 20)
    got = box.call_literal("(60000,)")
    assert got.ok, got
    assert got.literal, got
    assert parse_literal(got.value or "") == 10**60000
    assert outputs_equal(Example(input="(0,)", output="1" + "0" * 60000), got)


def test_the_digit_limit_is_the_literal_readers() -> None:
    big = "1" * (MAX_INPUT_INT_DIGITS + 1)
    assert parse_literal(big) % 10 == 1  # without a limit, as outputs are read
    with pytest.raises(DigitsError, match=f"more than {MAX_INPUT_INT_DIGITS} digits"):
        parse_literal(f"[{big}]", 100, MAX_INPUT_INT_DIGITS)
    assert parse_literal("1" * MAX_INPUT_INT_DIGITS, 100, MAX_INPUT_INT_DIGITS) % 10 == 1
