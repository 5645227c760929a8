"""The issue's acceptance check: an empty folder collects the whole builtin or HumanEval set."""

from __future__ import annotations

import re

import pytest


def _collected(result: pytest.RunResult) -> int:
    match = re.search(r"(\d+) tests? collected", result.stdout.str())
    assert match, result.stdout.str()[-2000:]
    return int(match.group(1))


def test_empty_folder_collects_240_builtin_items(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--pau-model=local", "--collect-only", "-q")
    assert _collected(result) == 240
    result.stdout.fnmatch_lines(["*test_pau[[]builtin/*[]]"])


def test_empty_folder_collects_humaneval(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--pau-model=local", "--pau-dataset=humaneval", "--collect-only", "-q"
    )
    assert _collected(result) >= 160
    result.stdout.fnmatch_lines(["*test_pau[[]humaneval/000_has_close_elements[]]"])
