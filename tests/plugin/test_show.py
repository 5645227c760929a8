"""``pau show``: listing a report and printing one trajectory."""

from __future__ import annotations

import re

import pytest

from pytest_pau.cli.main import main as pau


@pytest.fixture
def report_path(run_pau, pau_pytester):
    run_pau("--pau-report=r.json")
    return pau_pytester.path / "r.json"


def test_show_lists_instances(report_path, capsys) -> None:
    assert pau(["show", str(report_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "oracle on toy.jsonl/test: 5 instances (judge openai/scripted, coder openai/scripted)"
    )
    assert out[4].split() == ["PASSED", "5", "1.00", "toy/clamp"]
    assert out[5].split() == ["FAILED", "2", "1.00", "insufficient_exploration", "toy/tricky"]
    assert out[6].split() == ["ERROR", "-", "1.00", "infrastructure", "toy/boom"]
    # Then the run's verdict, as its exit status was (summary.verdict).
    assert out[7:10] == [
        "PAU run failed (no release gate set): exit status 1",
        "  - no release gate set: pytest's outcomes decide the exit status",
        "  - 1 item errored (toy/boom)",
    ]
    assert pau(["show", str(report_path), "--failed"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed[: listed.index("PAU run failed (no release gate set): exit status 1")]) == 4


def test_show_prints_one_trajectory(report_path, capsys) -> None:
    assert pau(["show", str(report_path), "tricky"]) == 0
    out = capsys.readouterr().out
    for expected in (
        "toy/tricky  FAILED  judge 2/5  code match 1.00  failure mode insufficient_exploration",
        "2 queries, concluded YES (overconfident)",
        "  gold:       TRICKY: returns the argument minus one.",
        "  judge:      The candidate misses the special case.",
        "trajectory: 3 steps",
        "    call:       test_func(3,) -> 2",
        "    call:       test_func(8,) -> 7",
        "  [3] oracle",
        "code written by the coder:",
        "        return arg0 - 1",
    ):
        assert expected in out, expected


def test_show_errors_name_the_problem(report_path, tmp_path, capsys) -> None:
    assert pau(["show", str(report_path), "toy/"]) == 2
    assert "matches 5 instances" in capsys.readouterr().err
    assert pau(["show", str(report_path), "nope"]) == 2
    assert "no instance 'nope' in the report" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"run": {}}')
    assert pau(["show", str(bad)]) == 2
    assert "is not a pytest-pau JSON report: at run.plugin_version" in capsys.readouterr().err


def test_a_reader_that_left_gets_no_traceback(report_path) -> None:
    # `pau show REPORT | head` ended in a BrokenPipeError traceback once head had its lines.
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line: every write fails
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest_pau.cli.main", "show", str(report_path)],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "BrokenPipeError" not in proc.stderr, proc.stderr
    assert proc.returncode == 141  # 128 + SIGPIPE: what a shell reports for such a writer


def test_a_failed_gates_reason_shows_its_value_and_bound(run_pau, pau_pytester, capsys) -> None:
    # `pau show` printed "--pau-min-pass-rate=0.9 failed: exact: all 4 items seen" bare,
    # where the HTML page gives the pass rate that decided it and the bound.
    result = run_pau("--pau-min-pass-rate=0.9", "--pau-report=r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert pau(["show", str(pau_pytester.path / "r.json")]) == 0
    reasons = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  - ")]
    (gate,) = [r for r in reasons if "--pau-min-pass-rate" in r]
    assert re.search(r"^  - failed: pass rate >= 90\.0%: \d+\.\d%", gate), gate
    assert "--pau-min-pass-rate=0.9 failed" in gate  # how it was decided, still there
