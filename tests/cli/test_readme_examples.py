"""The README's ``pau call`` examples and the builtin ids it names exist and run (issue 15)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.dataset import load_dataset

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
CALLS = re.findall(r"`(pau call [^`]+)`", README)
CALLS = [c for c in CALLS if "FILE_OR_INSTANCE" not in c]
# Ids the README's commands select (``-k "builtin/..."``) or call; sample outputs aside.
IDS = sorted(
    set(re.findall(r'-k "(builtin/[a-z0-9_]+)"', README))
    | {c.split()[2] for c in CALLS if c.split()[2].startswith("builtin/")}
)


def test_the_readme_has_pau_call_examples_and_builtin_ids() -> None:
    assert CALLS, "the README's `pau call` example is gone: update this test"
    assert IDS


def test_every_builtin_id_the_readme_names_exists() -> None:
    known = {i.id for i in load_dataset("builtin")}
    assert [i for i in IDS if i not in known] == []


@pytest.mark.parametrize("command", CALLS)
def test_readme_pau_call_example_runs(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(shlex.split(command)[1:]) == 0
    assert "value:" in capsys.readouterr().out
