"""Running items: outcomes, failure messages, the summary, junitxml, gates, the report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pytest_pau.models import Report
from pytest_pau.report.json_report import read_report

from .toy import TOY_IDS


def test_pass_fail_and_infrastructure_error_outcomes(run_pau) -> None:
    result = run_pau("-rA")
    result.assert_outcomes(passed=3, failed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    for line in (
        "PASSED pau::test_pau[[]toy/double[]]",
        "FAILED pau::test_pau[[]toy/tricky[]] - Failed: toy/tricky: judge score 2 < 3",
        "ERROR pau::test_pau[[]toy/boom[]] - Failed: toy/boom: infrastructure error*",
    ):
        result.stdout.fnmatch_lines([line])


def test_failure_message_shows_gold_prediction_judge_and_mode(run_pau) -> None:
    result = run_pau("-m", "hard", "--pau-report=r.json")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_pau[[]toy/tricky[]] _*",
            "*toy/tricky: judge score 2 < 3",
            "failure mode: insufficient_exploration*",
            "agent: concluded YES after 2 queries*overconfident*",
            "gold: *TRICKY: returns the argument minus one.",
            "predicted: *TRICKY: returns the argument minus one.",
            "judge 2/5: *The candidate misses the special case.",
            "code: *code match 1.00*",
            "trajectory: *pau show r.json toy/tricky",
        ]
    )


def test_failure_message_shows_the_first_code_mismatch(run_pau) -> None:
    result = run_pau("-k", "double", model="null")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*toy/double: judge score 1 < 3 and code match 0.00 < 0.8*",
            "predicted: *The function takes its arguments and returns a value computed from them.",
            "judge 1/5: *The candidate says nothing specific.",
            "code: *code match 0.00; first mismatch: test_func(0,) expected 0, got None (+2 more)",
        ]
    )


def test_infrastructure_error_is_an_error_with_the_cause(run_pau) -> None:
    result = run_pau("-k", "boom")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_pau[[]toy/boom[]]*",
            "*toy/boom: infrastructure error*not counted as a failure*",
            "*gave no parseable 'Rating: N'*",
        ]
    )


def test_summary_block(run_pau) -> None:
    result = run_pau()
    result.stdout.fnmatch_lines(
        [
            "*= PAU summary =*",
            "model oracle on toy.jsonl/test: interactive, max 20 iterations, seed 0; judge openai/scripted*",
            "items 5: 3 passed, 1 failed, 1 error (infrastructure)",
            "pass rate     75.0%  95% CI [[]30.1%, 95.4%[]]  (3/4 scored)",
            "judge score  mean 4.25  95% CI [[]*[]]  n=4",
            "    5 ██████████████████████████████     3   75.0%",
            "    2 ██████████                         1   25.0%",
            "code match   mean 1.00  95% CI [[]0.51, 1.00[]]  n=4",
            "  1.0 ██████████████████████████████     4  100.0%",
            "by arity       items  passed    pass  judge  match",
            "  arity1           3       1   50.0%   3.50   1.00",
            "  arity2           1       1  100.0%   5.00   1.00",
            "by source*",
            "  toy              5       3   75.0%   4.25   1.00",
            "failure modes (1 failed by the model)",
            "  insufficient_exploration      1  100.0%",
            "infrastructure errors 1 *",
            "concluded 4/4  overconfident 1 (concluded YES and failed)  unparseable judge answers 1",
            "model requests * made, cost $0.0000; cache hits *, free",
            "tokens * prompt + * completion (of every answer, cached ones included)",
            "wall * s  (item time * s, * s per item)",
        ]
    )
    assert "low fidelity" not in result.stdout.str()


def test_junitxml_carries_judge_score_and_code_match(run_pau, pau_pytester) -> None:
    run_pau("--junitxml=junit.xml")
    root = ET.parse(pau_pytester.path / "junit.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {f"test_pau[{i}]" for i in TOY_IDS}
    props = {p.get("name"): p.get("value") for p in cases["test_pau[toy/tricky]"].iter("property")}
    assert props["pau_judge_score"] == "2.0"
    assert props["pau_code_match"] == "1.0"
    assert props["pau_passed"] == "False"
    assert props["pau_failure_mode"] == "insufficient_exploration"
    assert cases["test_pau[toy/double]"].get("classname") == "pau"


def test_report_schema(run_pau, pau_pytester) -> None:
    result = run_pau("--pau-report=out/r.json")
    result.stdout.fnmatch_lines(["PAU report: */out/r.json"])
    raw = json.loads((pau_pytester.path / "out" / "r.json").read_text())
    assert set(raw) == {"run", "instances", "summary", "notes"}
    # The terminal's notes: the scripted server says nothing of its model beyond the alias.
    assert len(raw["notes"]) == 1
    assert "are cached by alias and address only" in raw["notes"][0]
    result.stdout.fnmatch_lines([f"note: {raw['notes'][0]}"])
    assert raw["summary"]["calibration"] is None  # no embedded judge or coder
    report = Report.model_validate(raw)
    assert report == read_report(pau_pytester.path / "out" / "r.json")
    assert [i.id for i in report.instances] == TOY_IDS
    run = report.run
    assert (run.model, run.judge_model, run.dataset, run.split, run.mode) == (
        "oracle",
        "openai/scripted",
        "toy.jsonl",
        "test",
        "interactive",
    )
    assert run.thresholds["judge_threshold"] == 3.0
    assert run.prompts_version
    assert run.started <= run.finished
    assert not run.interrupted
    by_id = {i.id: i for i in report.instances}
    tricky = by_id["toy/tricky"]
    assert (tricky.passed, tricky.judge_score, tricky.code_match, tricky.failure_mode) == (
        False,
        2.0,
        1.0,
        "insufficient_exploration",
    )
    assert [s.kind for s in tricky.trajectory] == ["act", "act", "oracle"]
    assert tricky.trajectory[0].result is not None
    assert tricky.trajectory[0].result.value == "2"
    assert by_id["toy/boom"].failure_mode == "infrastructure"
    assert by_id["toy/boom"].error
    summary = raw["summary"]
    assert summary["counts"] == {
        "selected": 5,
        "items": 5,
        "scored": 4,
        "counted": 4,  # under --pau-protocol=paper: 5 (the error counts too)
        "passed": 3,
        "failed": 1,
        "errors": 1,
        "skipped": 0,
    }
    assert summary["judge"]["histogram"] == {"1": 0, "2": 1, "3": 0, "4": 0, "5": 3}
    assert summary["code_match"]["histogram"]["1.0"] == 4
    assert summary["pass_rate"] == 0.75
    assert summary["failure_modes"]["insufficient_exploration"] == 1
    assert summary["judge"]["unparseable_answers"] == 1
    assert summary["gates"] == []
    assert summary["gates_passed"] is True


@pytest.mark.parametrize(
    ("gate", "met"),
    [
        ("--pau-min-mean-judge=1", True),
        ("--pau-min-mean-judge=1.5", False),
        ("--pau-min-pass-rate=1", True),
        ("--pau-min-mean-match=0", True),
        ("--pau-min-mean-match=0.1", False),
    ],
)
def test_each_gate_sets_the_exit_status_even_when_every_item_passes(
    run_pau, gate: str, met: bool
) -> None:
    # null's answers pass lowered item thresholds (judge 1 >= 1, code match 0 >= 0).
    result = run_pau(
        "-m", "smoke", "--pau-judge-threshold=1", "--pau-match-threshold=0", gate, model="null"
    )
    result.assert_outcomes(passed=2)
    assert result.ret == (pytest.ExitCode.OK if met else pytest.ExitCode.TESTS_FAILED)
    result.stdout.fnmatch_lines(
        ["release gates", f"  {'PASS' if met else 'FAIL'} *({gate.split('=')[0]})"]
    )


def test_impossible_gate_threshold_is_a_usage_error(run_pau) -> None:
    result = run_pau("--pau-min-pass-rate=1.01")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-min-pass-rate: expected a number between 0 and 1*'1.01'*"])


def test_failed_gate_names_gate_threshold_and_value(run_pau) -> None:
    result = run_pau("-m", "not medium", "--pau-min-pass-rate=0.8", "--pau-min-mean-judge=3")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "release gates",
            "*PASS mean judge score >= 3.00: 4.00*(--pau-min-mean-judge)",
            "*FAIL pass rate >= 80.0%: 66.7%, short by 13.3 points*(--pau-min-pass-rate)",
            "PAU release gate failed (--pau-min-pass-rate=0.8)*exit status 1",
        ]
    )


def test_gate_on_ci_uses_the_lower_bound(run_pau) -> None:
    # Judge scores 5, 5, 5, 2: mean 4.25, exact lower 95% bound 2.31 (valid from n = 1).
    plain = run_pau("-k", "not boom", "--pau-min-mean-judge=3.5")
    plain.stdout.fnmatch_lines(["*PASS mean judge score >= 3.50: 4.25*"])
    strict = run_pau("-k", "not boom", "--pau-min-mean-judge=3.5", "--pau-gate-on-ci")
    assert strict.ret == pytest.ExitCode.TESTS_FAILED
    strict.stdout.fnmatch_lines(
        [
            "*FAIL mean judge score >= 3.50: 95% lower confidence bound (exact) 2.31, short by 1.19*",
        ]
    )


def test_ini_options(pau_pytester, scoring_llm) -> None:
    from .toy import scoring_args

    pairs = [a.removeprefix("--").split("=", 1) for a in scoring_args(scoring_llm)]
    ini = "\n".join(f"{k.replace('-', '_')} = {v}" for k, v in pairs)
    pau_pytester.makeini(
        f"""
        [pytest]
        pau_model = oracle
        pau_dataset = toy.jsonl
        pau_limit = 2
        pau_min_pass_rate = 0.9
        pau_report = ini.json
        {ini.replace(chr(10), chr(10) + "        ")}
        """
    )
    result = pau_pytester.runpytest("-m", "not smoke")
    result.assert_outcomes(passed=1, failed=1)  # clamp, tricky
    result.stdout.fnmatch_lines(["  FAIL pass rate >= 90.0%: 50.0%*"])
    assert (pau_pytester.path / "ini.json").exists()
    override = pau_pytester.runpytest("-m", "not smoke", "--pau-limit=1", "--pau-min-pass-rate=0.5")
    override.assert_outcomes(passed=1)
    assert override.ret == pytest.ExitCode.OK


def test_bad_ini_value_is_a_usage_error_naming_key_and_file(pau_pytester) -> None:
    pau_pytester.makeini("[pytest]\npau_model = oracle\npau_match_threshold = 80%\n")
    result = pau_pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*tox.ini: pau_match_threshold = '80%': expected a number between 0 and 1 such as 0.8, got '80%';*"
            "--pau-match-threshold*",
        ]
    )


def test_pyproject_ini_section(pau_pytester, scoring_llm) -> None:
    from .toy import scoring_args

    pairs = [a.removeprefix("--").split("=", 1) for a in scoring_args(scoring_llm)]
    extra = "\n".join(f'{k.replace("-", "_")} = "{v}"' for k, v in pairs)
    pau_pytester.makepyprojecttoml(
        f"""
        [tool.pytest.ini_options]
        pau_model = "oracle"
        pau_dataset = "toy.jsonl"
        pau_judge_threshold = "2"
        {extra.replace(chr(10), chr(10) + "        ")}
        """
    )
    result = pau_pytester.runpytest("-m", "hard")
    result.assert_outcomes(passed=1)  # tricky's 2 now passes the judge threshold


def test_interrupted_run_still_writes_what_finished(pau_pytester, run_pau) -> None:
    pau_pytester.makeconftest(
        """
        def pytest_runtest_logfinish(nodeid, location):
            if nodeid.endswith("[toy/add]"):
                raise KeyboardInterrupt
        """
    )
    # no_reraise_ctrlc: the interrupt ends the inner run only, not this test session.
    # One episode at a time, so what has finished at the interrupt is known (with many in
    # flight, tests/plugin/test_concurrency.py checks what is kept).
    result = run_pau("--pau-report=r.json", "--pau-concurrency=1", no_reraise_ctrlc=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted
    assert [i.id for i in report.instances] == ["toy/double", "toy/add"]
    assert report.summary.counts.selected == 5
    result.stdout.fnmatch_lines(["items 2: 2 passed, 0 failed*(of 5 selected: run interrupted)*"])


def test_html_and_plots_outputs(run_pau, pau_pytester) -> None:
    result = run_pau("-m", "smoke", "--pau-html=out/r.html", "--pau-plots=out/plots")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["HTML report: */out/r.html", "plots: * PNG files in */out/plots"])
    assert "toy/double" in (pau_pytester.path / "out" / "r.html").read_text()
    assert list((pau_pytester.path / "out" / "plots").glob("*.png"))


def test_spent_budget_skips_the_remaining_items(run_pau) -> None:
    result = run_pau("-m", "smoke", "--pau-max-cost-usd=0", "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(
        ["skipped 2: budget --pau-max-cost-usd spent*", "SKIPPED*budget --pau-max-cost-usd spent*"]
    )


def test_unwritable_report_location_is_a_usage_error_before_any_item(pau_pytester, run_pau) -> None:
    (pau_pytester.path / "afile").touch()
    result = run_pau("--pau-report=afile/r.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-report='afile/r.json': cannot write the file there*"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert "PAU summary" not in result.stdout.str()


def test_report_write_failure_keeps_summary_gates_and_other_outputs(pau_pytester, run_pau) -> None:
    # The folder is fine at start; a file takes its name while the items run.
    pau_pytester.makeconftest(
        """
        def pytest_runtest_logfinish(nodeid, location):
            open("out", "w").close()
        """
    )
    result = run_pau(
        "-m", "smoke", "--pau-report=out/r.json", "--pau-html=r.html", "--pau-min-pass-rate=0.5"
    )
    result.assert_outcomes(passed=2)
    out = result.stdout.str()
    assert "INTERNALERROR" not in out + result.stderr.str()
    # Every item passed and the gate is met, but the requested report is missing.
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "items 2: 2 passed, 0 failed*",
            "*--pau-report='out/r.json': could not write the JSON report (*)*",
            "release gates",
            "  PASS *(--pau-min-pass-rate)",
            "HTML report: */r.html",
        ]
    )
    assert (pau_pytester.path / "r.html").is_file()
    assert not (pau_pytester.path / "out").is_dir()


def test_items_skipped_by_a_mark_are_not_an_interrupted_run(pau_pytester, run_pau) -> None:
    pau_pytester.makeconftest(
        """
        import pytest

        def pytest_collection_modifyitems(items):
            for item in items:
                if item.nodeid.endswith("[toy/add]"):
                    item.add_marker(pytest.mark.skip(reason="not today"))
        """
    )
    result = run_pau("--pau-report=r.json")
    result.assert_outcomes(passed=2, failed=1, errors=1, skipped=1)
    report = read_report(pau_pytester.path / "r.json")
    assert not report.run.interrupted
    assert report.summary.counts.selected == 5
    assert report.summary.counts.items == 4
    result.stdout.fnmatch_lines(
        [
            "items 4: 2 passed, 1 failed, 1 error (infrastructure)*(of 5 selected; 1 without a result)*",
            "*1 selected item produced no PAU result*",
        ]
    )
    out = result.stdout.str()
    assert "run interrupted" not in out
    assert "stopped early" not in out


def test_exitfirst_counts_as_a_run_that_stopped_early(pau_pytester, run_pau) -> None:
    result = run_pau("-x", "--pau-report=r.json", "--pau-concurrency=1")
    result.assert_outcomes(passed=3, failed=1)
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted
    result.stdout.fnmatch_lines(
        ["items 4: 3 passed, 1 failed*(of 5 selected: run interrupted)*", "*stopped early*"]
    )
