"""``--junitxml`` agrees with the exit status: gates as testcases, items below threshold as data.

On the toy items without ``boom`` (three pass, ``tricky`` falls below the judge threshold):
a run whose gates pass exits 0, so its file must count no failure; one testcase per gate
says pass or fail with its bound; ``--pau-exit=items`` keeps the item's failure; a run
without gates is pytest's own file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., pytest.RunResult]
NOT_BOOM = ("-k", "not boom")


def suite(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    found = root.find("testsuite")
    assert found is not None
    return found


def counts(s: ET.Element) -> dict[str, int]:
    return {k: int(s.get(k, "0")) for k in ("tests", "failures", "errors", "skipped")}


def case(s: ET.Element, name: str) -> ET.Element:
    (found,) = [c for c in s.iter("testcase") if c.get("name") == name]
    return found


def props(c: ET.Element) -> dict[str, str]:
    return {p.get("name", ""): p.get("value", "") for p in c.iter("property")}


def test_a_run_whose_gates_pass_writes_no_failure_and_a_passed_gate(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    result = run_pau(*NOT_BOOM, "--pau-min-pass-rate=0.5", "--junitxml=j.xml")
    assert result.ret == pytest.ExitCode.OK
    s = suite(pau_pytester.path / "j.xml")
    assert counts(s) == {"tests": 5, "failures": 0, "errors": 0, "skipped": 1}
    tricky = case(s, "test_pau[toy/tricky]")
    assert tricky.find("failure") is None
    skipped = tricky.find("skipped")
    assert skipped is not None
    assert skipped.get("type") == "pau.below_threshold"
    assert "data for the release gates" in skipped.get("message", "")
    assert "toy/tricky: judge score 2 < 3" in skipped.get("message", "")
    assert props(tricky)["pau_judge_score"] == "2.0"  # its scores stay
    gate = case(s, "pass rate >= 50.0%")
    assert gate.get("classname") == "pau.release_gates"
    assert gate.find("failure") is None
    p = props(gate)
    assert (p["pau_gate_option"], p["pau_gate_threshold"], p["pau_gate_value"]) == (
        "--pau-min-pass-rate",
        "0.5",
        "0.75",
    )
    assert p["pau_gate_line"] == "PASS pass rate >= 50.0%: 75.0%  (--pau-min-pass-rate)"
    result.stdout.fnmatch_lines([f"  {p['pau_gate_line']}"])  # the summary's own line


def test_a_failed_gate_is_the_files_one_failure(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    result = run_pau(
        *NOT_BOOM, "--pau-min-pass-rate=0.9", "--pau-min-mean-match=0.5", "--junitxml=j.xml"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    s = suite(pau_pytester.path / "j.xml")
    assert counts(s) == {"tests": 6, "failures": 1, "errors": 0, "skipped": 1}
    failure = case(s, "pass rate >= 90.0%").find("failure")
    assert failure is not None
    line = "FAIL pass rate >= 90.0%: 75.0%, short by 15.0 points  (--pau-min-pass-rate)"
    assert failure.get("message") == line
    result.stdout.fnmatch_lines([f"  {line}"])
    assert case(s, "mean code match >= 0.50").find("failure") is None


def test_exit_items_keeps_the_items_failure_and_adds_the_gates(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    result = run_pau(*NOT_BOOM, "--pau-min-pass-rate=0.5", "--pau-exit=items", "--junitxml=j.xml")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    s = suite(pau_pytester.path / "j.xml")
    assert counts(s) == {"tests": 5, "failures": 1, "errors": 0, "skipped": 0}
    assert case(s, "test_pau[toy/tricky]").find("failure") is not None
    assert case(s, "pass rate >= 50.0%").find("failure") is None


def test_without_gates_the_file_is_pytests_own(run_pau: Run, pau_pytester: pytest.Pytester) -> None:
    result = run_pau(*NOT_BOOM, "--junitxml=j.xml")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    s = suite(pau_pytester.path / "j.xml")
    assert counts(s) == {"tests": 4, "failures": 1, "errors": 0, "skipped": 0}
    assert not [c for c in s.iter("testcase") if c.get("classname") == "pau.release_gates"]
