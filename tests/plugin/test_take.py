"""Every result enters a run one way (:func:`pytest_pau.plugin.intake.take`), which feeds the early stop
once per item: a scored item's, one that arrives twice in one process (its episode's
thread, then its report), an item without a result, a crashed worker's."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_pau.models import Instance, InstanceResult
from pytest_pau.plugin import intake
from pytest_pau.plugin.state import PauRun
from pytest_pau.settings import PauSettings


def _session(tmp_path: Path, n: int) -> tuple[PauRun, Counter[str]]:
    config: Any = SimpleNamespace(option=SimpleNamespace(numprocesses=0))
    settings = PauSettings(model="oracle", cache_dir=tmp_path, early_stop=True, min_mean_judge=3.0)
    state = PauRun(config, settings)
    state.instances = [
        Instance(
            id=f"t/{i}",
            source="t",
            code="def test_func(x):\n    return x\n",
            header="def test_func(x):",
            description="d",
            arity=1,
        )
        for i in range(n)
    ]
    state.order = {inst.id: i for i, inst in enumerate(state.instances)}
    intake.count_selected(state, [f"test_pau[t/{i}]" for i in range(n)])
    assert state.intake.early is not None
    fed: Counter[str] = Counter()
    add = state.intake.early.add

    def counting(item_id: str, result: InstanceResult | None) -> bool:
        fed[item_id] += 1
        return add(item_id, result)

    state.intake.early.add = counting  # type: ignore[method-assign]
    return state, fed


def _result(i: int, judge: float = 4.0) -> InstanceResult:
    return InstanceResult(id=f"t/{i}", source="t", arity=1, judge_score=judge, code_match=1.0)


def test_a_result_that_arrives_twice_feeds_the_early_stop_once(tmp_path: Path) -> None:
    state, fed = _session(tmp_path, 4)
    intake.take(state, _result(0, judge=4.0))  # from its episode's thread
    # Then from its report, changed by a hook: the report's result is the run's.
    intake.record(state, _result(0, judge=2.0).model_dump_json())
    assert state.intake.results["t/0"].judge_score == 2.0
    intake.no_result(state, "t/0")  # its teardown: it has a result
    assert fed == {"t/0": 1}


def test_an_item_without_a_result_is_fed_once_whatever_comes_later(tmp_path: Path) -> None:
    state, fed = _session(tmp_path, 4)
    intake.no_result(state, "t/1")  # skipped by the user's fixture...
    intake.no_result(state, "t/1")
    intake.take(state, _result(1))  # ...while its episode, started ahead, still finished
    assert fed == {"t/1": 1}
    assert "t/1" in state.intake.results


def test_a_crashed_workers_item_enters_as_an_error_fed_once(tmp_path: Path) -> None:
    from pytest_pau.plugin.crash import handle_crash

    state, fed = _session(tmp_path, 2)
    report: Any = SimpleNamespace(
        outcome="failed", node=SimpleNamespace(gateway=SimpleNamespace(id="gw1")), when="call"
    )
    result = handle_crash(state, "test_pau[t/0]", report)
    assert result is not None
    intake.take(state, result)  # what the plugin's pytest_handlecrashitem does
    intake.no_result(state, "t/0")
    assert fed == {"t/0": 1}
    assert (state.intake.results["t/0"].error or "").startswith("WorkerCrash")
    assert report.when == "setup"
    assert state.intake.crashes == [("t/0", "gw1")]


@pytest.mark.parametrize("n", [1, 5])
def test_every_item_is_fed_once_and_the_gate_sees_all(tmp_path: Path, n: int) -> None:
    state, fed = _session(tmp_path, n)
    for i in range(n):
        intake.take(state, _result(i))
        intake.record(state, _result(i).model_dump_json())
        intake.no_result(state, f"t/{i}")
    assert fed == {f"t/{i}": 1 for i in range(n)}
    assert state.intake.early is not None
    # Every item reached the gates, up to the item that decided them all.
    assert state.intake.early.fed == (state.intake.early.decided_after or n)


def test_a_result_made_after_the_run_ended_is_left_out(tmp_path: Path) -> None:
    state, fed = _session(tmp_path, 3)
    intake.take(state, _result(0))
    intake.stop_taking(state)  # the summary is being made of what came before
    intake.take(state, _result(1))  # an episode's thread that outlived the pool
    assert list(state.intake.results) == ["t/0"]
    assert fed == {"t/0": 1}


def test_ctrl_c_while_a_result_is_serialised_arrives_after_it() -> None:
    # Ctrl-C inside pydantic's serializer became a PydanticSerializationError, and pytest an
    # INTERNALERROR (exit 3) instead of an interrupted run (seen once in the whole suite).
    from pytest_pau.plugin.hooks import dump_held

    done: list[bool] = []

    def dump() -> str:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the signal is pending here, not raised
        done.append(True)
        return "{}"

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            dump_held(dump)
    finally:
        signal.signal(signal.SIGINT, before)
    assert done == [True]
