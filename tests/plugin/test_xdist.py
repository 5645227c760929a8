"""pytest-xdist: workers send results to the controller, which writes one report."""

from __future__ import annotations

import json

import pytest

from pytest_pau.models import InstanceResult
from pytest_pau.report.json_report import read_report

from .toy import TOY_IDS

# Fields that depend on timing or on what the cache already held, not on the model.
#: Item fields that depend on scheduling and timing, not on the answers (the same run
#: differs in them from one process layout to another; waits: the pacer's).
TIMING = {
    "duration_s",
    "ended_at",
    "connection_caps",
    "connection_caps_lowest",
    "waits",
    "wait_s",
    "quotas",
}
VOLATILE = TIMING | {"cache_hits"}


def outcome(result: InstanceResult) -> dict[str, object]:
    data = result.model_dump(exclude=VOLATILE)
    for step in data["trajectory"]:
        if step.get("result"):
            step["result"].pop("duration_s", None)
            step["result"].pop("fuel", None)
    return data


@pytest.mark.slow
def test_xdist_results_equal_a_serial_run(run_pau, pau_pytester) -> None:
    serial = run_pau("--pau-report=serial.json", "-p", "no:xdist")
    serial.assert_outcomes(passed=3, failed=1, errors=1)
    parallel = run_pau("--pau-report=xdist.json", "-n", "2", subprocess=True)
    parallel.assert_outcomes(passed=3, failed=1, errors=1)
    # One summary and one report, from the controller only.
    assert parallel.stdout.str().count("= PAU summary =") == 1
    parallel.stdout.fnmatch_lines(["items 5: 3 passed, 1 failed, 1 error (infrastructure)*"])

    a = read_report(pau_pytester.path / "serial.json")
    b = read_report(pau_pytester.path / "xdist.json")
    assert [i.id for i in b.instances] == TOY_IDS  # dataset order, whatever finished first
    assert [outcome(i) for i in a.instances] == [outcome(i) for i in b.instances]
    for key in ("counts", "judge", "code_match", "failure_modes", "pass_rate", "by_arity"):
        assert a.summary.model_dump()[key] == b.summary.model_dump()[key], key
    assert b.summary.cache_hits > 0  # the re-run was served from the model cache


@pytest.mark.slow
def test_xdist_gate_failure_sets_the_controller_exit_status(run_pau) -> None:
    result = run_pau(
        "-n",
        "2",
        "-m",
        "smoke",
        "--pau-min-mean-judge=5.0",
        "--pau-judge-threshold=1",
        "--pau-match-threshold=0",
        model="null",
        subprocess=True,
    )
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["  FAIL mean judge score >= 5.00: 1.00, short by 4.00*"])


@pytest.mark.slow
def test_xdist_workers_share_one_budget_ledger(pau_pytester) -> None:
    # A priced model name, so litellm computes a real cost for each scripted answer.
    from pytest_pau.testing import ScriptedLLM

    from .toy import SCORING_RULES, scoring_args

    with ScriptedLLM(SCORING_RULES, model="openai/gpt-4o-mini") as priced:
        result = pau_pytester.runpytest_subprocess(
            "--pau-model=oracle",
            "--pau-dataset=toy.jsonl",
            "--pau-cache-dir=cache",
            "--pau-max-cost-usd=1000",
            "--pau-report=r.json",
            "-n",
            "2",
            *scoring_args(priced),
        )
    result.assert_outcomes(passed=3, failed=1, errors=1)
    ledgers = list((pau_pytester.path / "cache" / "budget").glob("run-*.usd"))
    assert len(ledgers) == 1, ledgers  # one file for the whole run, not one per worker
    ledger = json.loads(ledgers[0].read_text())
    spent = ledger["spent"]
    assert ledger["reserved"] == {}  # every call settled
    assert ledger["running"] == {}  # and every item
    report = read_report(pau_pytester.path / "r.json")
    total = sum(i.cost_usd for i in report.instances)
    assert spent > 0
    assert spent == pytest.approx(total, rel=1e-6)
