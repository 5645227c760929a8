"""The README: short, the two commands first, its test command the one CI runs.

``.ci/run`` runs the README's test command on a clean clone; here its line must be that
command, character for character, and the Development block's suite line its tail. The
Development block's ruff line runs as shown (the project's lint must be clean).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.pages import README, ROOT, commands, fenced, page, section

#: The issue's bound: what it is, the two commands, the everyday ones, where to read on.
MAX_LINES = 300


def _test_command() -> str:
    (_, suite) = fenced(section(README, "## Quick start"), "bash")
    (line,) = commands(suite)
    return line


def test_the_readme_is_short_and_its_first_commands_are_the_quick_starts() -> None:
    lines = page(README).count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines: move reference material to docs/"
    first_two = [c for b in fenced(page(README), "bash")[:2] for c in commands(b)]
    quick = [c for b in fenced(section(README, "## Quick start"), "bash") for c in commands(b)]
    assert first_two == quick
    first = re.search(r"^```(\w*)$", page(README), re.M)
    assert first is not None
    assert first.group(1) == "bash", "the README's first block must be the quick start's"


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [ln for ln in script.splitlines() if ln.startswith("python3.11 -m venv")]
    assert runs == [_test_command()], "the README's test command is not what .ci/run runs"
    (suite, _) = commands(fenced(section(README, "## Development"), "bash")[0])
    assert _test_command().endswith(" && " + suite)


def test_ruff_check_as_the_readme_shows() -> None:
    (_, lint) = commands(fenced(section(README, "## Development"), "bash")[0])
    args = lint.split()
    assert args[0] == ".venv/bin/ruff", lint
    ruff = Path(sys.executable).parent / "ruff"  # the .venv of the command, wherever it is
    if not ruff.is_file():
        pytest.skip(f"no ruff beside {sys.executable}: install the dev extra")
    run = subprocess.run(
        [str(ruff), *args[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
