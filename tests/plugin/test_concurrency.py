"""Many episodes at once (``--pau-concurrency``) against a scripted model that answers in 1 s.

Every role is one scripted server over real HTTP through litellm. An item is five model
calls (reason, act, reflect: it concludes at once; judge; coder), so a serial run of 16
items takes 80 s of waiting; concurrent ones overlap it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import MARKERS, ScriptedLLM
from tests.signals import as_in_a_terminal

from .conftest import USER_CACHE
from .stopping import (
    WAIT_S,
    HeldAnswers,
    requests_after,
    signal_while_every_episode_waits,
    wait_for_reports,
)
from .test_xdist import VOLATILE
from .toy import SCORING_RULES, adder_row, write_rows

LATENCY_S = 1.0
#: reason, act, reflect, judge, coder, and the coder on the gold description (every item
#: here fails, and a failed item's gold control tells the coder's fault from the model's).
CALLS_PER_ITEM = 6


def write_dataset(folder: Path, n: int, name: str = "many.jsonl") -> Path:
    """``n`` one-argument methods, ``add<k>``, each with inputs only it uses (so every
    request can be traced back to its instance)."""
    rows = [
        adder_row(k, id=f"add{k:02d}", description=f"Returns the argument plus {k}.")
        for k in range(n)
    ]
    return write_rows(folder, name, rows)


def owner(body: dict[str, Any]) -> int | None:
    """Which instance a request belongs to: its starting input ``(100k,)`` (``(100k)`` in
    the coder's example calls) or its gold text (the judge's reference first: a judge
    check's decoy is another instance's gold text)."""
    text = "\n".join(str(m.get("content")) for m in body.get("messages", []))
    found = (
        re.search(r"\(10(\d\d),?\)", text)
        or re.search(r"Reference description:.*?plus (\d+)\.", text, re.S)
        or re.search(r"plus (\d+)\.", text)
    )
    return int(found.group(1)) if found else None


RULES: list[tuple[str, Any]] = [
    (MARKERS["reason"], "Try the starting input again."),
    (MARKERS["act"], "INPUT: (7,)"),
    (MARKERS["reflect"], "CONCLUDE: YES\nSUMMARY: Returns a number."),
    *SCORING_RULES,
]


@pytest.fixture
def slow_llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(RULES, delay_s=LATENCY_S) as llm:
        yield llm


def args(llm: ScriptedLLM, *extra: str) -> list[str]:
    return [
        f"--pau-model={llm.model}",
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
        "--pau-dataset=many.jsonl",
        *extra,
    ]


@pytest.mark.slow
def test_sixteen_items_overlap(pau_pytester: pytest.Pytester, slow_llm: ScriptedLLM) -> None:
    write_dataset(pau_pytester.path, 16)
    # CALLS_PER_ITEM counts the episode's own calls: no judge check beside them.
    result = pau_pytester.runpytest(
        *args(slow_llm, "--pau-concurrency=16", "--pau-report=r.json", "--pau-judge-check=off")
    )
    result.assert_outcomes(failed=16)
    assert slow_llm.requests == 16 * CALLS_PER_ITEM
    # Counted, not timed (a busy machine stretches the wall time, not the overlap): 12 and
    # more requests at one moment, each from its own episode. The wall time of this run is
    # a benchmark figure (benchmarks/concurrency_bench.py).
    assert slow_llm.max_in_flight >= 12
    # Each outcome is reported when pytest reaches its item, in collection order.
    lines = [ln for ln in result.stdout.lines if ln.startswith("FAILED pau::")]
    assert [re.search(r"add\d\d", ln).group(0) for ln in lines] == [  # type: ignore[union-attr]
        f"add{k:02d}" for k in range(16)
    ]


@pytest.mark.slow
def test_episodes_waiting_on_the_model_keep_the_concurrency_asked_for(
    pau_pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 34: each sandbox reserved its 256 MiB cap for its whole life, and an episode
    # keeps its sandbox while it waits on the model, so the memory bound, not
    # --pau-concurrency, decided how many episodes ran (~19 per worker of 64). Here the
    # bound holds 10 caps: 32 episodes ran ~10 at a time (a mean of ~14 requests in
    # flight). A sandbox now holds what it uses (32 MiB), and all 32 run.
    monkeypatch.setenv("PAU_SANDBOX_MEMORY_MB", "2560")
    write_dataset(pau_pytester.path, 64)
    with ScriptedLLM(RULES, delay_s=3.0) as llm:  # long enough that the CPU does not limit
        result = pau_pytester.runpytest_subprocess(
            # CALLS_PER_ITEM counts the episode's own calls: no judge check beside them.
            *args(llm, "--pau-concurrency=32", "--pau-no-cache", "--pau-judge-check=off")
        )
        result.assert_outcomes(failed=64)
        assert llm.requests == 64 * CALLS_PER_ITEM
        # The time-weighted mean of requests in flight, from the first request to the last
        # answer: 32 if every episode always waited on the model.
        in_flight = llm.overlap()
    assert in_flight >= 22, f"{in_flight:.1f} requests in flight on average, of 32 episodes"


def _outcomes(path: Path) -> list[dict[str, Any]]:
    volatile = VOLATILE
    out = []
    for item in read_report(path).instances:
        data = item.model_dump(exclude=volatile)
        for step in data["trajectory"]:
            if step.get("result"):
                step["result"].pop("duration_s", None)
            step.pop("tokens", None)
        out.append(data)
    return out


def test_results_equal_a_serial_run(
    pau_pytester: pytest.Pytester, scoring_llm: ScriptedLLM
) -> None:
    write_dataset(pau_pytester.path, 8)
    with ScriptedLLM(RULES) as llm:
        serial = pau_pytester.runpytest(
            *args(llm, "--pau-concurrency=1", "--pau-report=serial.json", "--pau-no-cache")
        )
        many = pau_pytester.runpytest(
            *args(llm, "--pau-concurrency=8", "--pau-report=many.json", "--pau-no-cache")
        )
    assert serial.ret == many.ret
    assert _outcomes(pau_pytester.path / "serial.json") == _outcomes(
        pau_pytester.path / "many.json"
    )


def test_a_429_storm_shrinks_the_cap_and_every_item_is_still_scored(
    pau_pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAU_RETRY_BASE_S", "0.05")
    monkeypatch.setenv("PAU_RETRY_ATTEMPTS", "12")
    write_dataset(pau_pytester.path, 8)
    with ScriptedLLM(RULES, delay_s=0.2) as llm:
        llm.fail("429", times=24, retry_after=0.1, at=3)
        result = pau_pytester.runpytest(
            *args(llm, "--pau-concurrency=8", "--pau-max-connections=8", "--pau-report=r.json")
        )
    result.assert_outcomes(failed=8)
    report = read_report(pau_pytester.path / "r.json")
    assert all(item.judge_score is not None for item in report.instances)
    assert report.summary.rate_limited >= 20
    result.stdout.fnmatch_lines(
        ["rate limited * times (HTTP 429, retried); connection cap at the end: *"]
    )
    # The cap halved during the storm, then grew back while the server kept up.
    assert min(report.summary.connection_caps_lowest.values()) < 8
    result.stdout.fnmatch_lines(["*connection cap at the end: * (lowest *)*"])


def test_the_budget_holds_with_many_in_flight_and_the_overshoot_is_reported(
    pau_pytester: pytest.Pytester,
) -> None:
    write_dataset(pau_pytester.path, 12)
    # A model litellm prices: every answer costs money, and the run stops starting calls.
    with ScriptedLLM(RULES, model="openai/gpt-4o-mini", delay_s=0.2) as llm:
        result = pau_pytester.runpytest(
            *args(llm, "--pau-concurrency=4", "--pau-max-cost-usd=0.0008", "--pau-report=r.json")
        )
    report = read_report(pau_pytester.path / "r.json")
    skipped = [i for i in report.instances if i.skipped]
    assert skipped, "the budget must stop the run before all 12 items"
    assert all("--pau-max-cost-usd" in (i.skipped or "") for i in skipped)
    # Calls already in flight may finish after the cap is reached: at most one per episode
    # (and no call costs more than a whole item).
    per_call = max(i.cost_usd for i in report.instances)
    assert report.summary.cost_usd <= 0.0008 + 4 * per_call
    if report.summary.cost_usd > 0.0008:
        result.stdout.fnmatch_lines(["budget: spent $* of $0.0008; the calls already in flight*"])


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_items_and_the_rerun_repeats_none_of_their_calls(
    pau_pytester: pytest.Pytester,
) -> None:
    write_dataset(pau_pytester.path, 16)
    gate = HeldAnswers()
    env = {**os.environ, "PAU_USER_CACHE": USER_CACHE, "PYTHONUNBUFFERED": "1"}
    with ScriptedLLM(gate.rules(RULES), delay_s=LATENCY_S) as slow_llm:
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v"]
        command += args(slow_llm, "--pau-concurrency=4", "--pau-report=r.json")
        proc = subprocess.Popen(
            command,
            cwd=pau_pytester.path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=as_in_a_terminal,
        )
        wait_for_reports(proc, 3)
        sent = signal_while_every_episode_waits(proc, slow_llm, gate, 4, signal.SIGINT)
        rest, _ = proc.communicate(timeout=WAIT_S)
        assert proc.returncode == pytest.ExitCode.INTERRUPTED, (
            f"exit {proc.returncode}: {rest[-3000:]}"
        )
        # Stopped at once: no episode sent another request after the signal.
        assert not requests_after(slow_llm, sent), rest[-3000:]
        report = read_report(pau_pytester.path / "r.json")
        assert report.run.interrupted
        finished = {int(i.id.split("add")[1]) for i in report.instances if i.skipped is None}
        assert 3 <= len(finished) < 16

        before = len(slow_llm.log)
        again = pau_pytester.runpytest(*args(slow_llm, "--pau-concurrency=8"))
        again.assert_outcomes(failed=16)
        asked = {owner(body) for body in slow_llm.log[before:]}
    assert not asked & finished, f"the re-run asked again for finished items {asked & finished}"


@pytest.mark.slow
def test_xdist_workers_each_run_their_items_concurrently(
    pau_pytester: pytest.Pytester, slow_llm: ScriptedLLM
) -> None:
    write_dataset(pau_pytester.path, 16)
    result = pau_pytester.runpytest_subprocess(
        *args(slow_llm, "-n", "2", "--pau-concurrency=8", "--pau-report=r.json")
    )
    result.assert_outcomes(failed=16)
    # 2 workers x 8 episodes, each one call at a time: more than 8 at one moment means both
    # workers ran episodes concurrently. Counted, not timed: a busy machine stretched this
    # run to 44.9 s, not its overlap.
    assert slow_llm.max_in_flight >= 12
    assert len(read_report(pau_pytester.path / "r.json").instances) == 16


def test_verbose_phases_are_never_interleaved(
    pau_pytester: pytest.Pytester, scoring_llm: ScriptedLLM
) -> None:
    write_dataset(pau_pytester.path, 6)
    with ScriptedLLM(RULES, delay_s=0.05) as llm:
        result = pau_pytester.runpytest(*args(llm, "--pau-concurrency=6", "-v", "--pau-no-cache"))
    lines = [ln for ln in result.stdout.lines if ln.startswith("pau::test_pau[")]
    assert len(lines) == 6
    # The time left once an item finished, each iteration as it started, then the phases.
    phases = (
        r"pau::test_pau\[many/add\d\d\] (\[~\d+s left\] )?explore 1/\d+( \d+)* judge code "
        r"(classify )?FAILED +\[ *\d+%\]"
    )
    for line in lines:
        assert re.fullmatch(phases, line), line
    assert "left] explore" not in lines[0]
    assert all("left] explore" in line for line in lines[1:])
