"""``benchmarks/first_run_bench.py`` times README command 1 from a fresh clone (about 10
minutes, so the lead runs it, not CI): it must time the README's command as written, split
into the parts it reports, and refuse a README whose quick start has another shape."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.test_readme_commands import quick_start_command

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def test_it_reads_the_readmes_command_1_as_the_tests_do() -> None:
    import first_run_bench

    command = first_run_bench.readme_command(ROOT / "README.md")
    assert command == quick_start_command()
    steps = command.split(" && ")
    assert len(steps) == 4
    assert steps[2] == "cd demo"
    assert shlex.split(steps[1])[1:3] == ["install", "-e"]


def test_a_quick_start_of_two_lines_is_refused(tmp_path: Path) -> None:
    import first_run_bench

    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## Quick start\n\n```bash\npip install x\npytest\n```\n")
    with pytest.raises(SystemExit, match="is not one line"):
        first_run_bench.readme_command(readme)
