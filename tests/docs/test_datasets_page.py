"""The selection commands of docs/datasets.md select what their comments say.

``M`` stands for any model: selection happens before a model is called, so each command
is collected (``--collect-only -q``) with ``--pau-model=oracle``, and the items listed are
checked against the builtin set itself (``smoke`` has 10, ``-k`` picks one id, ...). The
``--lf`` command follows a real run of a scripted model that fails two items.
"""

from __future__ import annotations

import shlex

import pytest

from pytest_pau import load_dataset
from pytest_pau.models import Instance
from pytest_pau.testing import ScriptedLLM
from tests.docs.pages import commands, fenced, section
from tests.firstrun.scripted import model_args

BLOCKS = fenced(section("datasets.md", "## Selecting instances"), "bash")
COMMANDS = [c for block in BLOCKS for c in commands(block)]
BUILTIN = load_dataset("builtin")


def _expected(args: list[str]) -> list[Instance]:
    """The builtin instances the comment of each command promises, in dataset order."""
    if "-k" in args:
        return [i for i in BUILTIN if i.id == args[args.index("-k") + 1]]
    if "-m" in args:
        expr = args[args.index("-m") + 1]
        picked = [i for i in BUILTIN if eval(expr, {}, _markers(i))]  # marker expressions
    else:
        picked = list(BUILTIN)
    limit = [a for a in args if a.startswith("--pau-limit=")]
    return picked[: int(limit[0].split("=")[1])] if limit else picked


class _Markers(dict[str, bool]):
    """An instance's marker names; any other name in a ``-m`` expression is false."""

    def __missing__(self, key: str) -> bool:
        return False


def _markers(instance: Instance) -> _Markers:
    return _Markers.fromkeys(
        {"pau", f"arity{instance.arity}", instance.source, *instance.tags}, True
    )


def _listed(result: pytest.RunResult) -> list[str]:
    prefix = "pau::test_pau["
    lines = [ln for ln in result.stdout.lines if ln.startswith(prefix)]
    return [ln[len(prefix) : -1] for ln in lines]


def test_the_page_shows_the_six_selections() -> None:
    assert len(COMMANDS) == 6, COMMANDS
    assert all(c.startswith("pytest --pau-model=M ") for c in COMMANDS), COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_selection_command_selects_what_it_says(
    command: str, docs_pytester: pytest.Pytester, weak_model: ScriptedLLM
) -> None:
    args = shlex.split(command)[2:]
    if "--lf" in args:
        # What failed last time: a scripted model fails two smoke items first.
        ran = docs_pytester.runpytest(*model_args(weak_model), "-m", "smoke", "--pau-limit=2")
        ran.assert_outcomes(failed=2)
        failed = [i.id for i in BUILTIN if "smoke" in i.tags][:2]
    collect = [] if "--collect-only" in args else ["--collect-only", "-q"]
    result = docs_pytester.runpytest("--pau-model=oracle", *args, *collect)
    assert result.ret == 0, result.stdout.str()
    listed = _listed(result)
    if "--lf" in args:
        assert listed == failed
        return
    assert listed == [i.id for i in _expected(args)]
    assert listed, command
    if "smoke" in command:
        assert len(listed) == 10  # "the 10 quick builtin instances"
    if "-k" in args:
        assert len(listed) == 1  # "one instance by id"
    if "--pau-limit=20" in args:
        assert len(listed) == 20
