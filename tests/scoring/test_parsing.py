"""Pure parsing of judge, coder and classifier replies."""

from __future__ import annotations

import pytest

from pytest_pau.models import Step, Trajectory
from pytest_pau.scoring import (
    check_code,
    extract_code,
    mostly_format_failures,
    parse_label,
)

CODE = "def test_func(arg0):\n    return arg0 + 1"


@pytest.mark.parametrize(
    "reply",
    [
        f"```python\n{CODE}\n```",
        f"Here you go:\n```py\n{CODE}\n```\nThis adds one.",
        f"```python\nimport math\n```\nand\n```python\n{CODE}\n```",
        f"<think>```python\ndef test_func(x): return 0\n```</think>```python\n{CODE}\n```",
        f"```python\n{CODE}",  # cut by the token cap: unclosed fence
        f"Sure.\n{CODE}",
    ],
)
def test_extract_code(reply: str) -> None:
    assert extract_code(reply) == CODE


def test_extract_code_takes_the_last_defining_block() -> None:
    reply = "```python\ndef test_func(a):\n    return 1\n```\nFixed:\n```python\n" + CODE + "\n```"
    assert extract_code(reply) == CODE


@pytest.mark.parametrize(
    ("code", "problem"),
    [
        (CODE, None),
        ("import math\ntest_func = math.sqrt", None),
        ("def helper(x):\n    return x", "does not define test_func"),
        ("class A:\n    def test_func(self): pass", "does not define test_func"),
        ("def test_func(x):\n  return (", "does not compile"),
        ("", "no code"),
    ],
)
def test_check_code(code: str, problem: str | None) -> None:
    found = check_code(code)
    assert (found is None) if problem is None else (problem in (found or ""))


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Label: reasoning_error", "reasoning_error"),
        ("The calls showed it.\n**Label:** Reasoning Error", "reasoning_error"),
        ("label: insufficient-exploration", "insufficient_exploration"),
        ("It is not hallucination; it is a format_following problem.", "format_following"),
        ("I cannot tell.", None),
    ],
)
def test_parse_label(reply: str, label: str | None) -> None:
    assert parse_label(reply) == label


def _act(error: str | None) -> Step:
    return Step(kind="act", iteration=1, prompt="", response="", format_error=error)


def test_mostly_format_failures() -> None:
    assert mostly_format_failures(Trajectory(steps=[_act("x"), _act("x"), _act(None)]))
    assert not mostly_format_failures(Trajectory(steps=[_act("x"), _act(None)]))
    assert not mostly_format_failures(Trajectory())
