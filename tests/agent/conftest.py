"""The agent tests use the shared ``double`` and ``scripted`` fixtures of tests/conftest.py."""

from __future__ import annotations

import ast

import pytest


@pytest.fixture
def literal_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``[n]``: how many characters ``ast.literal_eval`` has been given since (reset: ``[0] = 0``).

    The parsers' work measured in characters read, which does not depend on the machine.
    """
    read = [0]
    literal_eval = ast.literal_eval

    def counting(text: str) -> object:
        read[0] += len(text)
        return literal_eval(text)

    monkeypatch.setattr(ast, "literal_eval", counting)
    return read
