"""``benchmarks/concurrency_bench.py``: the headline command benchmarks/README.md shows is the
script's (it takes 20 minutes on a quiet machine, so the lead runs it, not CI), and a baseline
that is no checkout is refused before anything runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def test_the_readme_headline_command_runs_the_headline_against_a_baseline() -> None:
    import concurrency_bench

    text = (ROOT / "benchmarks" / "README.md").read_text()
    section = text.split("### The headline, re-run after every change", 1)[1]
    line = next(x.strip() for x in section.splitlines() if "concurrency_bench.py" in x)
    command = line.split()
    assert command[:2] == ["python", "benchmarks/concurrency_bench.py"]
    args = concurrency_bench.parse_args(command[2:])
    assert (args.case, args.baseline_tree, args.latency) == (["headline"], "/tmp/base", 1.0)
    _label, instances, iterations, extra = concurrency_bench.CASES["headline"]
    assert (instances, iterations, extra) == (741, 14, ["-n", "2", "--pau-concurrency=64"])
    assert concurrency_bench.trees_of(str(ROOT)) == [
        ("this tree", None),
        (f"baseline {ROOT}", str(ROOT)),
    ]


def test_a_baseline_that_is_no_checkout_is_refused_naming_it(tmp_path: Path) -> None:
    import concurrency_bench

    with pytest.raises(SystemExit, match=r"--baseline-tree '.*': no pytest_pau/__init__.py there"):
        concurrency_bench.trees_of(str(tmp_path))
