"""The ``pau call`` examples of the README and the docs pages, and the builtin ids they name,
exist and run (issue 15)."""

from __future__ import annotations

import re
import shlex

import pytest

from pytest_pau.cli.main import main
from pytest_pau.dataset import load_dataset
from tests.docs.pages import all_text, commands, fenced

TEXT = all_text()
# Inline (`pau call ...`) and in bash blocks (one command a line, comments dropped).
CALLS = re.findall(r"`(pau call [^`]+)`", TEXT)
CALLS += [
    c
    for block in fenced(TEXT, "bash")
    for c in commands(block)
    if c.startswith("pau call ") and c not in CALLS
]
CALLS = sorted({c for c in CALLS if "FILE_OR_INSTANCE" not in c})
# Ids the pages' commands select (``-k "builtin/..."``) or call; sample outputs aside.
IDS = sorted(
    set(re.findall(r'-k "(builtin/[a-z0-9_]+)"', TEXT))
    | {c.split()[2] for c in CALLS if c.split()[2].startswith("builtin/")}
)


def test_the_pages_have_pau_call_examples_and_builtin_ids() -> None:
    assert CALLS, "no page shows a `pau call` example any more: update this test"
    assert IDS


def test_every_builtin_id_the_pages_name_exists() -> None:
    known = {i.id for i in load_dataset("builtin")}
    assert [i for i in IDS if i not in known] == []


@pytest.mark.parametrize("command", CALLS)
def test_pau_call_example_runs(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(shlex.split(command)[1:]) == 0
    assert "value:" in capsys.readouterr().out
