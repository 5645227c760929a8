"""outputs_equal: the code-match rule."""

from __future__ import annotations

import pytest

from pytest_pau.models import CallResult, Example
from pytest_pau.sandbox import outputs_equal


def ok(value: str, literal: bool = True) -> CallResult:
    return CallResult(ok=True, value=value, literal=literal)


def err(error_type: str) -> CallResult:
    return CallResult(ok=False, error_type=error_type, message="boom")


@pytest.mark.parametrize(
    ("expected", "got", "match"),
    [
        (Example(input="(1,)", output="[1, 2]"), ok("[1, 2]"), True),
        (Example(input="(1,)", output="[1, 2]"), ok("[1,2]"), True),
        (Example(input="(1,)", output="[1, 2]"), ok("[2, 1]"), False),
        (Example(input="(1,)", output="{1, 2}"), ok("{2, 1}"), True),
        (Example(input="(1,)", output="nan"), ok("nan"), True),
        (Example(input="(1,)", output="[nan, inf]"), ok("[nan, inf]"), True),
        (Example(input="(1,)", output="True"), ok("1"), True),
        (Example(input="(1,)", output="range(0, 3)"), ok("range(0, 3)", literal=False), True),
        (Example(input="(1,)", output="range(0, 3)"), ok("range(0, 4)", literal=False), False),
        (
            Example(input="(1,)", output="division by zero", raises="ZeroDivisionError"),
            err("ValueError"),
            True,
        ),
        (Example(input="(1,)", output="x", raises="ValueError"), err("Timeout"), False),
        (Example(input="(1,)", output="x", raises="ValueError"), err("InputError"), False),
        (Example(input="(1,)", output="x", raises="ValueError"), ok("1"), False),
        (Example(input="(1,)", output="1"), err("ValueError"), False),
        (
            Example(input="(1,)", output="1"),
            CallResult(ok=True, value="1...[truncated 5 chars]", truncated=True),
            False,
        ),
    ],
)
def test_outputs_equal(expected: Example, got: CallResult, match: bool) -> None:
    assert outputs_equal(expected, got) is match
