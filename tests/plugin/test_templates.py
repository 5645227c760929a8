"""``pau init`` templates, each written into a project and run there with pytester."""

from __future__ import annotations

import runpy
import shutil

import pytest

from pytest_pau.cli.main import main as pau
from pytest_pau.prompting import MARKERS
from pytest_pau.report.json_report import read_report

from .toy import scoring_args


def init(pytester: pytest.Pytester, template: str, *extra: str) -> int:
    return pau(["init", str(pytester.path), "--template", template, *extra])


def test_init_refuses_to_overwrite_without_force(pau_pytester, capsys) -> None:
    assert init(pau_pytester, "custom-agent") == 0
    assert "wrote " in capsys.readouterr().out
    assert init(pau_pytester, "custom-dataset") == 2  # conftest.py exists
    err = capsys.readouterr().err
    assert "conftest.py already exists" in err
    assert "--force" in err
    assert init(pau_pytester, "custom-dataset", "--force") == 0
    assert "pytest_pau_load_dataset" in (pau_pytester.path / "conftest.py").read_text()


def test_release_gate_template(pau_pytester, run_pau) -> None:
    assert init(pau_pytester, "release-gate") == 0
    ok = run_pau("-m", "smoke")
    ok.assert_outcomes(passed=2)
    assert ok.ret == pytest.ExitCode.OK
    ok.stdout.fnmatch_lines(
        [
            "baseline: none at */pau-baseline.json*",
            "release gates",
            "*PASS mean judge score >= 3.00: 5.00*",
            "*PASS pass rate >= 50.0%: 100.0%*",
            "*PASS mean code match >= 0.60: 1.00*",
        ]
    )
    shutil.copy(pau_pytester.path / "pau-report.json", pau_pytester.path / "pau-baseline.json")
    # The null model clears lowered item thresholds but not the ini's gates.
    bad = run_pau("-m", "smoke", "--pau-judge-threshold=1", "--pau-match-threshold=0", model="null")
    bad.assert_outcomes(passed=2)
    assert bad.ret == pytest.ExitCode.TESTS_FAILED
    bad.stdout.fnmatch_lines(
        [
            "baseline pau-baseline.json*2 items both runs scored*",
            "*mean judge score *5.00 -> 1.00 (-4.00)*",
            "*mean code match *1.00 -> 0.00 (-1.00)*",
            "*FAIL mean judge score >= 3.00: 1.00, short by 2.00*",
            "*FAIL mean code match >= 0.60: 0.00, short by 0.60*",
        ]
    )


def test_release_gate_template_compares_on_the_items_both_runs_scored(
    pau_pytester, run_pau
) -> None:
    assert init(pau_pytester, "release-gate") == 0
    # Writing the baseline: nothing to compare it with (it printed "+0.00" against itself).
    first = run_pau("--pau-report=pau-baseline.json", "--pau-min-pass-rate=0")
    first.stdout.fnmatch_lines(["baseline: this run writes pau-baseline.json; nothing to compare*"])
    assert "->" not in first.stdout.str()
    base = read_report(pau_pytester.path / "pau-baseline.json")
    smoke = {i.id: i for i in base.instances if i.id in ("toy/double", "toy/add")}
    assert len(smoke) == 2
    assert len([i for i in base.instances if i.judge_score is not None]) > 2
    # A part of the selection (a shard, -m) against the whole baseline: the baseline's
    # figures on the same items (it printed the whole baseline's means beside the part's).
    part = run_pau("-m", "smoke", "--pau-min-pass-rate=0")
    judge = sum(i.judge_score or 0 for i in smoke.values()) / 2
    part.stdout.fnmatch_lines(
        [
            "baseline pau-baseline.json*2 items both runs scored*",
            f"  mean judge score  {judge:.2f} -> {judge:.2f} (+0.00)",
        ]
    )


def test_custom_agent_template(pau_pytester, run_pau) -> None:
    assert init(pau_pytester, "custom-agent") == 0
    result = run_pau("-k", "double", "--pau-report=r.json", model="table-agent")
    result.assert_outcomes(failed=1)  # a table of calls is no description: judge 1
    [inst] = read_report(pau_pytester.path / "r.json").instances
    calls = [
        (s.parsed_input, s.result.value if s.result and s.result.ok else None)
        for s in inst.trajectory
    ]
    assert calls[:2] == [("(2,)", "4"), ("(5,)", "10")]
    assert inst.n_queries == 6
    assert inst.prediction.startswith(
        "For def test_func(arg0): these calls were observed: (2,) -> 4;"
    )
    # Any other model name keeps the builtin agents.
    run_pau("-k", "double").assert_outcomes(passed=1)


def test_custom_dataset_template(pau_pytester, scripted_llm) -> None:
    assert init(pau_pytester, "custom-dataset") == 0
    methods = runpy.run_path(str(pau_pytester.path / "conftest.py"))["METHODS"]
    codes = {m["description"]: m["code"] for m in methods.values()}

    def coder(messages: list[dict[str, str]]) -> str:
        text = messages[-1]["content"]
        code = next(c for d, c in codes.items() if d in text)
        return f"```python\n{code}```"

    llm = scripted_llm(
        [(MARKERS["judge"], "Same behaviour.\nRating: 5"), (MARKERS["coder"], coder)]
    )
    listed = pau_pytester.runpytest(
        "--pau-model=oracle", "--pau-dataset=mine", "--collect-only", "-q"
    )
    listed.stdout.fnmatch_lines(
        ["pau::test_pau[[]mine/shout[]]", "pau::test_pau[[]mine/safe_div[]]"]
    )
    result = pau_pytester.runpytest(
        "--pau-model=oracle", "--pau-dataset=mine", *scoring_args(llm), "--pau-report=r.json"
    )
    result.assert_outcomes(passed=2)
    by_id = {i.id: i for i in read_report(pau_pytester.path / "r.json").instances}
    assert by_id["mine/safe_div"].code_match == 1.0
    assert (
        pau_pytester.runpytest(
            "--pau-model=oracle", "--pau-dataset=mine", "-m", "arity2", "--collect-only", "-q"
        ).outlines[0]
        == "pau::test_pau[mine/safe_div]"
    )


def test_custom_test_template(pau_pytester, run_pau) -> None:
    assert init(pau_pytester, "custom-test") == 0
    result = run_pau("-rs")
    # judge >= 4: double, add, clamp pass; tricky (2) fails; boom errors in both tests.
    result.assert_outcomes(passed=3, failed=1, errors=2, skipped=4)
    result.stdout.fnmatch_lines(["*only methods tagged 'strings'*"])
    assert "pau::test_pau" not in result.stdout.str()
    plain = pau_pytester.runpytest("-rs")  # without --pau-model the file only skips
    plain.assert_outcomes(skipped=2)
