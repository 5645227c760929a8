"""Literal text: what crosses the sandbox boundary, and the nan-aware equality."""

from __future__ import annotations

import math

import pytest

from pytest_pau.sandbox import LiteralError, is_literal, literal_equal, parse_literal

ROUND_TRIP = [
    (1, "a", b"\x00\xff", None, True),
    [1, [2, [3, []]]],
    {1, 2, 3},
    frozenset({1, (2, 3)}),
    set(),
    frozenset(),
    {(1, 2): "a", frozenset({3}): [4], None: {5: 6}, b"k": 1.5},
    complex(1, -2),
    complex(-0.0, 3),
    2**200,
    -(2**5000),
    math.inf,
    -math.inf,
    [math.nan, complex(math.nan, math.inf)],
    "quote ' and \" and \\ and \n and \ud800",
    -0.0,
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=lambda v: type(v).__name__)
def test_repr_reads_back_equal(value: object) -> None:
    assert is_literal(value)
    assert literal_equal(parse_literal(repr(value)), value)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "x",
        "lambda: 1",
        "[i for i in range(3)]",
        "1 + 2",
        "open('f')",
        "{**a}",
        "...",
        "f'{1}'",
        "(yield)",
    ],
)
def test_non_literals_are_refused(text: str) -> None:
    with pytest.raises(LiteralError):
        parse_literal(text)


def test_deep_nesting_is_refused_not_crashing() -> None:
    with pytest.raises(LiteralError, match=r"nested|deep"):
        parse_literal("[" * 5000 + "]" * 5000)


@pytest.mark.parametrize(
    "value",
    [
        range(3),
        object(),
        [1, object()],
        type("C", (), {})(),
        __import__("collections").Counter("ab"),
    ],
    ids=["range", "object", "list-of-object", "instance", "Counter"],
)
def test_non_literal_values(value: object) -> None:
    assert not is_literal(value)


def test_cycles_are_not_literals() -> None:
    x: list[object] = [1]
    x.append(x)
    assert not is_literal(x)


def test_nan_equality_is_deep_but_values_still_differ() -> None:
    assert literal_equal([math.nan, {1: math.nan}], [math.nan, {1: math.nan}])
    assert literal_equal({math.nan}, {math.nan})
    assert not literal_equal([math.nan], [1.0])
    assert not literal_equal({1: 2}, {1: 3})
    assert literal_equal(1, 1.0)  # PAU compares with ==


@pytest.mark.parametrize(
    "text",
    ["{[1]: 2}", "{[1], [2]}", "frozenset([[1]])", "1" + "0" * 400 + " + 1j"],
    ids=["unhashable-key", "unhashable-element", "unhashable-frozenset", "complex-overflow"],
)
def test_values_python_cannot_build_are_refused_not_raised(text: str) -> None:
    # A model's input or a hostile __repr__ can write these; callers catch LiteralError only.
    with pytest.raises(LiteralError, match="not a valid literal value"):
        parse_literal(text)


def test_code_match_survives_a_result_whose_repr_is_no_valid_literal() -> None:
    from pytest_pau.models import Example
    from pytest_pau.sandbox import Sandbox, outputs_equal

    code = "class R:\n    def __repr__(self):\n        return '{[1]: 2}'\ndef test_func(a):\n    return R()\n"
    with Sandbox(code) as box:
        got = box.call_literal("(1,)")
        assert box.call_literal("{[1]: 2}").error_type == "InputError"
    assert got.ok
    assert not got.literal
    assert not outputs_equal(Example(input="(1,)", output="{1: 2}"), got)
