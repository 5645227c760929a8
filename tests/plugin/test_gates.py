"""Release gates decide the exit status; the baseline gate; the early stop (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.signals import as_in_a_terminal

from .toy import TOY, toy_rows

BELOW = "--pau-min-pass-rate=0.5"
#: write_many's rows are copies of one or two descriptions: no decoy for the judge check,
#: which would leave every judge gate not decided (tests/plugin/test_judge_check.py).
NO_CHECK = "--pau-judge-check=off"


def write_many(folder: Path, passing: int, failing: int, name: str = "many.jsonl") -> Path:
    """A dataset of copies of the toy's ``double`` (oracle passes) and ``tricky`` (fails)."""
    rows = {r["id"]: r for r in toy_rows()}
    lines = []
    for kind, count in (("double", passing), ("tricky", failing)):
        for i in range(count):
            lines.append(json.dumps({**rows[kind], "id": f"{kind}{i:03d}"}))
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


def report_of(folder: Path, name: str = "report.json") -> dict:
    return json.loads((folder / name).read_text())


# -- the exit status follows the gates ------------------------------------------------------


def test_items_below_their_thresholds_do_not_fail_a_run_whose_gates_pass(run_pau) -> None:
    # double and add pass, tricky fails: pass rate 2/3 >= 0.5.
    result = run_pau("-m", "not medium", BELOW)
    result.assert_outcomes(passed=2, failed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "*PASS pass rate >= 50.0%: 66.7%*(--pau-min-pass-rate)",
            "PAU release gates passed: exit status 0 (1 item below their thresholds*--pau-exit=items*",
        ]
    )


def test_exit_items_keeps_item_failures_failing_the_run(run_pau) -> None:
    result = run_pau("-m", "not medium", BELOW, "--pau-exit=items")
    result.assert_outcomes(passed=2, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_without_a_gate_a_failed_item_fails_the_run_as_before(run_pau) -> None:
    result = run_pau("-m", "not medium")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "release gates passed" not in result.stdout.str()


def test_a_failed_gate_exits_1_even_when_items_pass(run_pau) -> None:
    result = run_pau("-m", "smoke", "--pau-min-mean-judge=5", model="null")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["PAU release gate failed (--pau-min-mean-judge=5)*exit status 1"])


def test_an_infrastructure_error_beside_passing_gates_exits_1(run_pau) -> None:
    # clamp passes, boom errors (E): the gate passes on clamp, the error fails the run.
    result = run_pau("-m", "medium", BELOW)
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["PAU release gates passed, but the run failed: *boom* (an error or another test's *"]
    )


def test_an_ordinary_failing_test_beside_passing_gates_exits_1(run_pau, pau_pytester) -> None:
    pau_pytester.makepyfile(test_other="def test_bad():\n    assert 1 == 2\n")
    result = run_pau("-k", "double or add or bad", BELOW)
    result.assert_outcomes(passed=2, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["PAU release gates passed, but the run failed: test_other.py*"])


def test_nothing_selected_with_a_gate_exits_1_and_says_why(run_pau) -> None:
    result = run_pau("-k", "nothing_matches_this", BELOW)
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # not 5: the gate cannot be measured
    result.stdout.fnmatch_lines(["PAU release gate failed (--pau-min-pass-rate=0.5): no PAU item*"])


# -- the baseline gate ----------------------------------------------------------------------

MARGINS = "--pau-max-regression=judge:0.5,match:0.1,pass:0.1"


def test_the_baseline_gate_passes_when_the_run_matches_the_baseline(run_pau, pau_pytester) -> None:
    write_many(pau_pytester.path, 40, 0)
    base = run_pau(NO_CHECK, "--pau-report=base.json", dataset="many.jsonl")
    assert base.ret == pytest.ExitCode.OK
    # Two more instances here than in the baseline: listed, not compared.
    write_many(pau_pytester.path, 42, 0)
    result = run_pau(
        NO_CHECK, "--pau-baseline=base.json", MARGINS, "--pau-report=new.json", dataset="many.jsonl"
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "baseline base.json*40 instances in both runs*",
            "  PASS judge score not worse by more than 0.5: +0.000 over 40 (this run scored 40, "
            "the baseline 40, of 40), 95% lower bound *",
            "  PASS code match not worse by more than 0.1: *",
            "  PASS pass rate not worse by more than 0.1: *",
            "*only in this run*2 (many/double040, many/double041)*",
        ]
    )
    baseline = report_of(pau_pytester.path, "new.json")["summary"]["baseline"]
    assert [r["passed"] for r in baseline["regressions"]] == [True, True, True]
    assert baseline["shared"] == 40


def test_the_baseline_gate_fails_on_a_regression_and_lists_the_flips(run_pau, pau_pytester) -> None:
    write_many(pau_pytester.path, 30, 0)
    run_pau(NO_CHECK, "--pau-report=base.json", dataset="many.jsonl")
    result = run_pau(
        NO_CHECK,
        "--pau-baseline=base.json",
        MARGINS,
        "--pau-report=new.json",
        dataset="many.jsonl",
        model="null",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  FAIL judge score not worse by more than 0.5: -4.000 over 30 (this run scored 30, "
            "the baseline 30, of 30), *",
            "  flipped: 30 pass -> fail (many/double000, many/double001, *, +25 more)",
            "PAU release gate failed (--pau-max-regression=judge:0.5, --pau-max-regression=match:0.1, --pau-max-regression=pass:0.1)*exit status 1",
        ]
    )


def test_a_baseline_from_another_judge_is_refused_before_any_item(run_pau, pau_pytester) -> None:
    run_pau("-m", "smoke", "--pau-report=base.json")
    path = pau_pytester.path / "base.json"
    data = json.loads(path.read_text())
    data["run"]["judge_model"] = "gpt-4o"
    data["run"]["split"] = "train"
    path.write_text(json.dumps(data))
    result = run_pau("-m", "smoke", "--pau-baseline=base.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--pau-baseline=base.json: runs differ in split (baseline 'train', this run 'test')",
            "--pau-baseline=base.json: runs differ in judge model (baseline 'gpt-4o', *",
            "scores from other settings are not comparable*",
        ]
    )


def test_baseline_options_are_checked_up_front(run_pau, pau_pytester) -> None:
    result = run_pau("--pau-max-regression=judge:0.2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-max-regression=judge:0.2 needs --pau-baseline*"])
    result = run_pau("--pau-baseline=missing.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-baseline='missing.json': *missing.json*"])
    result = run_pau("--pau-baseline=x.json", "--pau-max-regression=judge:7")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*DELTA must be >= 0 and below 4 (the range of the judge score)*"])


# -- the early stop -------------------------------------------------------------------------


def test_early_stop_ends_a_clearly_bad_run_after_a_fraction_of_the_items(
    run_pau, pau_pytester
) -> None:
    write_many(pau_pytester.path, 60, 0)
    early = run_pau(
        NO_CHECK,
        "--pau-min-mean-judge=3",
        "--pau-early-stop",
        "--pau-report=early.json",
        dataset="many.jsonl",
        model="null",
    )
    assert early.ret == pytest.ExitCode.TESTS_FAILED
    early.stdout.fnmatch_lines(
        [
            "  FAIL mean judge score >= 3.00: 1.00 (mean over the selection, sequential: decided "
            "after * of 60 items), *",
            "early stop: every verdict known at 95% after * of 60 items; * items not run*",
        ]
    )
    report = report_of(pau_pytester.path, "early.json")
    stop = report["summary"]["early_stop"]
    assert stop["decided_after"] < 30
    skipped = [r for r in report["instances"] if r["skipped"]]
    assert len(skipped) == stop["not_run"] > 0
    assert all("--pau-early-stop: every gate was decided after" in r["skipped"] for r in skipped)
    # The report keeps dataset order, the run went in a seeded shuffle.
    assert [r["id"] for r in report["instances"]] == sorted(r["id"] for r in report["instances"])
    ids = [r["id"] for r in report["instances"]]
    ran = [r["id"] for r in report["instances"] if not r["skipped"]]
    assert ran != ids[: len(ran)]  # not the first items of the dataset: a fair sample
    # No more items in flight than the decision could need (before: 23 ran for a
    # decision after 8, at the default --pau-concurrency=16).
    assert stop["ran"] == len(ran) <= stop["decided_after"] + 2
    full = run_pau(NO_CHECK, "--pau-min-mean-judge=3", dataset="many.jsonl", model="null")
    assert full.ret == early.ret  # the same verdict as the full run
    full.stdout.fnmatch_lines(["  FAIL mean judge score >= 3.00: 1.00, short by 2.00*"])


def test_early_stop_needs_a_gate(run_pau) -> None:
    result = run_pau("--pau-early-stop")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-early-stop needs a gate to decide*"])


def test_early_stop_order_is_a_seeded_shuffle(run_pau, pau_pytester) -> None:
    write_many(pau_pytester.path, 12, 0)
    runs = [
        run_pau(
            NO_CHECK,
            "--collect-only",
            "-q",
            "--pau-early-stop",
            BELOW,
            f"--pau-seed={seed}",
            dataset="many.jsonl",
        )
        for seed in (0, 0, 1)
    ]
    orders = [[ln for ln in r.outlines if "test_pau[" in ln] for r in runs]
    assert orders[0] == orders[1]
    assert orders[0] != orders[2]
    assert sorted(orders[0]) == sorted(orders[2])
    assert orders[0] != sorted(orders[0])


def test_the_toy_has_the_instances_these_tests_assume() -> None:
    assert {t["id"] for t in TOY} >= {"double", "add", "clamp", "tricky", "boom"}


def test_early_stop_under_xdist_stops_every_worker_and_keeps_the_verdict(
    run_pau, pau_pytester
) -> None:
    write_many(pau_pytester.path, 80, 0)
    result = run_pau(
        NO_CHECK,
        "-n",
        "2",
        "--pau-min-mean-judge=3",
        "--pau-early-stop",
        "--pau-report=early.json",
        # One episode at a time per worker: these episodes take milliseconds, and with
        # many in flight the whole set would be done before the first verdict.
        "--pau-concurrency=1",
        dataset="many.jsonl",
        model="null",
        subprocess=True,
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  FAIL mean judge score >= 3.00: 1.00 (mean over the selection, sequential: decided after * of 80 items), *"
        ]
    )
    report = report_of(pau_pytester.path, "early.json")
    stop = report["summary"]["early_stop"]
    skipped = [r for r in report["instances"] if r["skipped"]]
    # Both workers heard the stop: most of the 80 items never started.
    assert stop["decided_after"] < 30
    assert len(skipped) == stop["not_run"] >= 30
    assert len(report["instances"]) == 80  # every selected item has a result or a reason


@pytest.mark.slow
def test_ctrl_c_on_the_xdist_controller_stops_the_workers_and_keeps_their_results(
    pau_pytester: pytest.Pytester,
) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from pytest_pau.report.json_report import read_report
    from pytest_pau.testing import ScriptedLLM

    from .stopping import (
        WAIT_S,
        HeldAnswers,
        bodies,
        bodies_in_flight,
        requests_after,
        signal_while_every_episode_waits,
        stop_file_in,
        wait_for_reports,
    )
    from .test_concurrency import RULES, args, owner, write_dataset

    write_dataset(pau_pytester.path, 40)
    gate = HeldAnswers()
    tmp = pau_pytester.path / "tmp"  # the run's own folder lands here (stop_file_in)
    tmp.mkdir()
    with ScriptedLLM(gate.rules(RULES), delay_s=0.3) as llm:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp)}
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "-v"]
        command += args(llm, "--pau-concurrency=2", "--pau-report=r.json", BELOW)
        proc = subprocess.Popen(
            command,
            cwd=pau_pytester.path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,  # the signal goes to the controller only, as a CI kill
            preexec_fn=as_in_a_terminal,
        )
        wait_for_reports(proc, 4)
        # Two workers, two episodes each, all waiting on the server when the signal comes;
        # their answers wait until the controller has told the workers to stop.
        sent = signal_while_every_episode_waits(
            proc, llm, gate, 4, signal.SIGINT, stop_file_in(tmp)
        )
        rest, _ = proc.communicate(timeout=WAIT_S)
        asked_after = len(llm.log)
        time.sleep(1.0)
        assert len(llm.log) == asked_after, "a worker kept calling the model after the run ended"
        late = {owner(b) for b in bodies(llm, requests_after(llm, sent))} - {None}
        running = {owner(b) for b in bodies_in_flight(llm, sent)}
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, rest[-3000:]
    # No item started after Ctrl-C (order and counts, not a stopwatch): a later request is
    # an episode in flight finishing a call before its worker heard of the stop.
    assert late <= running, f"items started after Ctrl-C: {sorted(late - running)}"
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted
    finished = [i for i in report.instances if i.skipped is None]
    assert len(finished) >= 4
    assert len(finished) < 40


def test_gate_without_any_pau_item_says_why_it_fails(run_pau, pau_pytester) -> None:
    pau_pytester.makepyfile(test_other="def test_other():\n    pass\n")
    result = run_pau("-k", "other", "--pau-min-pass-rate=0.5")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["PAU release gate failed (--pau-min-pass-rate=0.5): no PAU item produced a result*"]
    )
