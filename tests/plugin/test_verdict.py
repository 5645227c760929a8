"""A release verdict no combination of options can make wrong (issue 26), through real pytest.

Every run here speaks HTTP to one scripted server whose judge grades each instance
differently (:mod:`tests.plugin.graded`), so a selection's true means are known and a run
that sees only some items can be caught passing what the selection fails. Each test also
checks that the JSON report's ``summary.verdict`` says what the exit status says.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.testing import ScriptedLLM

from .graded import RULES, args, grades, write_graded

PRICED = "openai/gpt-4o-mini"  # litellm knows its price: every call costs money


@pytest.fixture
def priced() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(RULES, model=PRICED) as llm:
        yield llm


@pytest.fixture
def free() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(RULES) as llm:
        yield llm


def report_of(folder: Path, name: str = "r.json") -> dict[str, Any]:
    return json.loads((folder / name).read_text())


def verdict_is_the_exit_status(folder: Path, ret: int, name: str = "r.json") -> dict[str, Any]:
    summary = report_of(folder, name)["summary"]
    verdict = summary["verdict"]
    assert verdict["exit_status"] == int(ret)
    assert summary["gates_passed"] == (verdict["status"] == "passed") == (int(ret) == 0)
    return verdict


def item_cost(pytester: pytest.Pytester, llm: ScriptedLLM) -> float:
    """What one item of the graded set costs at litellm's price (measured, one item)."""
    one = pytester.runpytest(*args(llm, "graded.jsonl", "--pau-limit=1", "--pau-report=one.json"))
    assert one.ret == pytest.ExitCode.TESTS_FAILED  # code match 0: the item fails
    cost = report_of(pytester.path, "one.json")["summary"]["cost_usd"]
    assert cost > 0
    return float(cost)


# 24 items, the first four graded 5 (what a budget cut in dataset order keeps), the
# rest low: the selection's mean judge score is 63 / 24 = 2.625, below the gate of 3.
TRUNCATED = grades([8, 5, 4, 2, 1], first=[5, 5, 5, 5])


@pytest.mark.parametrize("on_ci", [False, True])
def test_a_spent_budget_does_not_pass_the_gate_on_the_items_that_ran(
    pau_pytester: pytest.Pytester, priced: ScriptedLLM, on_ci: bool
) -> None:
    assert sum(TRUNCATED) / len(TRUNCATED) == pytest.approx(2.625)
    write_graded(pau_pytester.path, TRUNCATED)
    budget = 8 * item_cost(pau_pytester, priced)  # four items: each call reserves its worst case
    result = pau_pytester.runpytest(
        *args(priced, "graded.jsonl", "--pau-min-mean-judge=3", "--pau-concurrency=1"),
        f"--pau-max-cost-usd={budget:.8f}",
        "--pau-report=r.json",
        *(["--pau-gate-on-ci"] if on_ci else []),
    )
    # Before: "PASS mean judge score >= 3.00: 5.00" (lower bound 3.39 with --pau-gate-on-ci)
    # on the four items that ran, and exit status 0.
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  NOT DECIDED mean judge score >= 3.00: *5.00 over 4 scored items; * over all 24 "
            "selected (20 of 24 items not run (budget spent))  (--pau-min-mean-judge)",
            "PAU release gates not decided (--pau-min-mean-judge=3 not decided: 20 of 24 items "
            "not run (budget spent)): exit status 1",
        ]
    )
    verdict = verdict_is_the_exit_status(pau_pytester.path, result.ret)
    assert verdict["status"] == "not decided"
    assert "20 of 24 items not run (budget spent)" in " ".join(verdict["reasons"])


def test_early_stop_and_a_spent_budget_do_not_decide_on_the_few_that_ran(
    pau_pytester: pytest.Pytester, priced: ScriptedLLM
) -> None:
    # Selection mean 2.9 against a gate of 3.0; the budget runs out early.
    write_graded(pau_pytester.path, grades([9, 6, 5, 5, 5]))
    budget = 5.5 * item_cost(pau_pytester, priced)
    result = pau_pytester.runpytest(
        *args(priced, "graded.jsonl", "--pau-min-mean-judge=3", "--pau-early-stop"),
        f"--pau-max-cost-usd={budget:.8f}",
        "--pau-concurrency=2",
        "--pau-report=r.json",
    )
    # Before: PASS (decided after 29 of 30 items) with a handful scored, exit status 0.
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  NOT DECIDED mean judge score >= 3.00: * (mean over the selection, sequential: not "
            "decided after * of 30 items: * items not run (budget spent))  (--pau-min-mean-judge)",
        ]
    )
    verdict = verdict_is_the_exit_status(pau_pytester.path, result.ret)
    assert verdict["status"] == "not decided"


# 40 items of mean 3.3 judged against 3.0: not shown beyond noise at 95%.
BORDERLINE = grades([5, 7, 8, 11, 9])


def test_early_stop_keeps_what_gate_on_ci_means(
    pau_pytester: pytest.Pytester, free: ScriptedLLM
) -> None:
    assert sum(BORDERLINE) / len(BORDERLINE) == pytest.approx(3.3)
    write_graded(pau_pytester.path, BORDERLINE)
    gate = (*args(free, "graded.jsonl", "--pau-min-mean-judge=3", "--pau-gate-on-ci"),)
    alone = pau_pytester.runpytest(*gate, "--pau-report=alone.json")
    assert alone.ret == pytest.ExitCode.TESTS_FAILED
    alone.stdout.fnmatch_lines(
        ["  FAIL mean judge score >= 3.00: 95% lower confidence bound (exact) 2.*"]
    )
    early = pau_pytester.runpytest(*gate, "--pau-early-stop", "--pau-report=early.json")
    # Before: exit status 0, "PASS ... 3.29 (decided after ...)": the observed mean.
    assert early.ret == pytest.ExitCode.TESTS_FAILED
    early.stdout.fnmatch_lines(
        [
            "*FAIL mean judge score >= 3.00: 3.30 (95% anytime test*not shown after all 40 items), not shown to reach it*",
        ]
    )
    verdict_is_the_exit_status(pau_pytester.path, alone.ret, "alone.json")
    verdict_is_the_exit_status(pau_pytester.path, early.ret, "early.json")


def test_errors_fail_the_run_and_the_json_verdict_says_so(
    pau_pytester: pytest.Pytester, free: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    # 20 items of grade 4 and one whose judge never answers with a rating: the gate is
    # met even with that item at 1, but the error fails the run.
    path = write_graded(pau_pytester.path, [4] * 20)
    with path.open("a") as f:
        row = json.loads(path.read_text().splitlines()[0])
        row.update(id="boom", description="Returns the argument plus 0. NORATING")
        f.write(json.dumps(row) + "\n")
    result = pau_pytester.runpytest(
        *args(free, "graded.jsonl", "--pau-min-mean-judge=3"), "--pau-report=r.json"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  PASS mean judge score >= 3.00: 4.00 over 20 scored items; at least 3.86 over all "
            "21 selected (1 of 21 items errored)  (--pau-min-mean-judge)",
            "PAU release gates passed, but the run failed: *boom* failed (an error or another "
            "test's failure)*: exit status 1",
        ]
    )
    verdict = verdict_is_the_exit_status(pau_pytester.path, result.ret)
    assert verdict["status"] == "failed"
    assert any("1 item errored (graded/boom)" in r for r in verdict["reasons"])
    # pau show says what the closing line said, and every reason.
    from pytest_pau.cli.main import main

    capsys.readouterr()
    assert main(["show", str(pau_pytester.path / "r.json")]) == 0
    shown = capsys.readouterr().out
    closing = next(ln for ln in result.outlines if ln.startswith("PAU release gates passed, but"))
    assert closing in shown.splitlines()
    assert "  - 1 item errored (graded/boom)" in shown.splitlines()


@pytest.mark.slow
def test_a_small_budget_under_xdist_and_many_in_flight_buys_finished_items(
    pau_pytester: pytest.Pytester,
) -> None:
    # Issue 31: a $0.10 cap on 60 items at -n 2 --pau-concurrency=64 spent $0.27 and
    # scored no item (every episode started, none could finish). Here, before: $0.0023 of
    # a $0.0015 cap spent, 0 of 30 items scored.
    write_graded(pau_pytester.path, grades([6, 6, 6, 6, 6]))
    with ScriptedLLM(RULES, model=PRICED, delay_s=0.05) as llm:
        cost = item_cost(pau_pytester, llm)
        # Ten items' worth; a call reserves its worst case (the coder's 768 tokens cost 3
        # of these scripted items), so fewer than ten fit at once.
        cap = 10 * cost
        result = pau_pytester.runpytest_subprocess(
            *args(llm, "graded.jsonl", "--pau-min-mean-judge=3"),
            "-n",
            "2",
            "--pau-concurrency=16",
            f"--pau-max-cost-usd={cap:.8f}",
            "--pau-report=r.json",
        )
    report = report_of(pau_pytester.path)
    summary = report["summary"]
    assert summary["cost_usd"] <= cap
    assert summary["counts"]["scored"] >= 3, "a spent budget buys finished items"
    unfinished = [i for i in report["instances"] if i["skipped"] and i["cost_usd"] > 0]
    assert len(unfinished) <= 2, f"{len(unfinished)} items spent money and did not finish"
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the gate is not decided on 30 items
    verdict_is_the_exit_status(pau_pytester.path, result.ret)


def test_a_nan_score_is_refused_where_it_enters(run_pau, pau_pytester: pytest.Pytester) -> None:
    # A conftest hook sees the scored result of a failed item and writes NaN into it.
    pau_pytester.makeconftest(
        """
        def pytest_pau_classify_failure(config, instance, result, trajectory):
            result.code_match = float("nan")
            return None
        """
    )
    result = run_pau("-k", "tricky or double", "--pau-min-mean-judge=1", "--pau-report=r.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    report = report_of(pau_pytester.path)
    tricky = next(i for i in report["instances"] if i["id"] == "toy/tricky")
    # Before: NaN went into the report as null ("no code match"), without a word.
    assert tricky["error"].startswith("ScoreError: the item's result was refused: code_match nan")
    verdict = verdict_is_the_exit_status(pau_pytester.path, result.ret)
    assert "1 item errored (toy/tricky)" in verdict["reasons"]
    # A baseline whose scores are NaN is refused before any model call, naming the field.
    base = report_of(pau_pytester.path)
    base["instances"][0]["judge_score"] = float("nan")
    (pau_pytester.path / "base.json").write_text(json.dumps(base))
    refused = run_pau("-k", "double", "--pau-baseline=base.json")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(
        [
            "*--pau-baseline='base.json': *at instances[[]0].judge_score: Input should be a finite "
            "number (got nan)*"
        ]
    )


def test_the_default_baseline_margin_is_the_judge_score_alone(
    run_pau, pau_pytester: pytest.Pytester
) -> None:
    # With judge, match and pass each a chance to fail, a same-quality re-run of 100 items
    # passed 22% of the time (tests/stats/test_power.py); judge:0.2 alone 57%.
    base = run_pau("-k", "double or add or clamp", "--pau-report=base.json")
    assert base.ret == pytest.ExitCode.OK
    result = run_pau("-k", "double or add or clamp", "--pau-baseline=base.json")
    lines = [ln for ln in result.outlines if "not worse by more than" in ln]
    assert len(lines) == 1
    assert "judge score not worse by more than 0.2" in lines[0]
