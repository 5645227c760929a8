"""Fixtures of the scoring tests (``double`` and ``scripted`` come from tests/conftest.py)."""

from __future__ import annotations

import pytest

from pytest_pau.models import Example, Instance

ISQRT_CODE = """
import math

def test_func(arg0):
    if arg0 < 0:
        raise ValueError("negative input")
    return math.isqrt(arg0)
"""


@pytest.fixture
def isqrt() -> Instance:
    """Integer square root; raises ValueError on negatives (exceptions among its outputs)."""
    return Instance(
        id="t/isqrt",
        source="t",
        code=ISQRT_CODE,
        header="def test_func(arg0):",
        description="Returns the integer square root of a non-negative int; raises ValueError "
        "for a negative one.",
        train_examples=[Example(input="(9,)", output="3")],
        test_examples=[
            Example(input="(0,)", output="0"),
            Example(input="(10,)", output="3"),
            Example(input="(-1,)", output="negative input", raises="ValueError"),
            Example(input="(-7,)", output="negative input", raises="ValueError"),
        ],
        arity=1,
    )
