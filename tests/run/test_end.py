"""The end of a run without pytest: one call from results and settings to the verdict."""

from __future__ import annotations

import subprocess
import sys

from pytest_pau.models import InstanceResult, RunInfo
from pytest_pau.run import RunEnd, settle
from pytest_pau.settings import PauSettings

RUN = RunInfo(
    plugin_version="0",
    model="m",
    judge_model="j",
    coder_model="c",
    dataset="d",
    split="test",
    mode="interactive",
    seed=0,
    max_iterations=20,
)


def _results(*scores: float) -> list[InstanceResult]:
    return [
        InstanceResult(
            id=f"s/{i}", source="s", arity=1, judge_score=s, code_match=1.0, passed=s >= 3
        )
        for i, s in enumerate(scores)
    ]


def _end(settings: PauSettings, results: list[InstanceResult], **kw: object) -> RunEnd:
    ids = [r.id for r in results]
    return RunEnd(settings=settings, results=results, run_info=RUN, selected_ids=ids, **kw)  # type: ignore[arg-type]


def test_a_gated_run_is_settled_in_one_call() -> None:
    # Results made here carry no judge check: with it on, a judge gate would be not decided
    # (test_a_judge_check_on_that_rated_nothing_decides_no_judge_gate).
    gated = PauSettings(model="m", min_mean_judge=3.0, judge_check="off")
    passed = settle(_end(gated, _results(5, 4, 3)))
    assert passed.verdict is not None
    assert (passed.verdict.status, passed.verdict.exit_status) == ("passed", 0)
    assert passed.gates_passed is True
    [gate] = passed.gates
    assert (gate.name, gate.option, gate.status) == (
        "min_mean_judge",
        "--pau-min-mean-judge",
        "passed",
    )
    failed = settle(_end(gated, _results(1, 2, 3), pytest_status=1))
    assert failed.verdict is not None
    assert (failed.verdict.status, failed.verdict.exit_status) == ("failed", 1)
    assert failed.gates_passed is False


def test_a_problem_fails_a_run_whose_gates_pass_and_is_named() -> None:
    gated = PauSettings(model="m", min_pass_rate=0.5)
    summary = settle(_end(gated, _results(5, 5), problems=["--pau-html='x': could not write"]))
    assert summary.verdict is not None
    assert summary.verdict.exit_status == 1
    assert "--pau-html='x': could not write" in summary.verdict.reasons


def test_a_shard_decides_no_gate() -> None:
    shard = PauSettings(model="m", min_mean_judge=3.0, shard="1/2")
    summary = settle(_end(shard, _results(5, 5)))
    assert summary.gates == []
    assert summary.verdict is not None
    assert (summary.verdict.status, summary.verdict.rule) == ("not decided", "shard")


def test_the_end_of_a_run_loads_no_pytest() -> None:
    code = (
        "import sys; import pytest_pau.run.end, pytest_pau.report.summary, "
        "pytest_pau.stats.gates; print(any(m == 'pytest' or m.startswith('_pytest') "
        "for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_judge_check_on_that_rated_nothing_decides_no_judge_gate() -> None:
    # The same results with the check on (the default) and none of its ratings: nothing
    # shows the judge sees, so the judge gate waits, and says why.
    summary = settle(_end(PauSettings(model="m", min_mean_judge=3.0), _results(5, 4, 3)))
    assert summary.judge_check is not None
    assert (summary.judge_check.sampled, summary.judge_check.checked) == (3, 0)
    [gate] = summary.gates
    assert gate.status == "not decided"
    assert "rated no right/wrong pair" in (gate.detail or "")
    assert summary.verdict is not None
    assert summary.verdict.exit_status == 1
    # In a shard no check line is made up: the merged run decides.
    shard = settle(_end(PauSettings(model="m", shard="1/2"), _results(5, 5)))
    assert shard.judge_check is None
