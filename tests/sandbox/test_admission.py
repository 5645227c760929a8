"""The run-wide bound on sandbox memory (issue 31): the caps of live sandboxes stay within
the budget, a waiting sandbox starts when another closes, and a thread that holds one never
waits for another (no deadlock)."""

from __future__ import annotations

import threading
import time

import pytest

from pytest_pau.sandbox import Sandbox
from pytest_pau.sandbox.admission import ADMISSION, MemoryAdmission, default_budget_mb

CODE = "def test_func(arg0):\n    return arg0 + 1\n"


@pytest.fixture
def budget():
    """A budget of two 32 MiB sandboxes for the test; the default again after it."""
    ADMISSION.reset(64)
    yield ADMISSION
    ADMISSION.reset(None)


def test_live_sandboxes_stay_within_the_budget(budget: MemoryAdmission) -> None:
    results: list[str | None] = []

    def episode() -> None:
        with Sandbox(CODE, memory_mb=32) as box:
            results.append(box.call(1).value)
            time.sleep(0.2)  # hold it, as an episode does while the model answers

    threads = [threading.Thread(target=episode) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results == ["2"] * 6, "every sandbox ran, each when its memory was free"
    assert budget.peak_mb <= 64, "never more than two 32 MiB sandboxes at once"
    assert budget.waits >= 1
    assert budget.in_use_mb == 0, "closing gives the memory back"


def test_a_thread_holding_a_sandbox_never_waits_for_another(budget: MemoryAdmission) -> None:
    # The coder's code runner and its gold control live at once in one episode's thread.
    with Sandbox(CODE, memory_mb=64) as outer:  # the whole budget
        with Sandbox(CODE, memory_mb=32) as inner:
            assert (outer.call(1).value, inner.call(2).value) == ("2", "3")
        assert budget.in_use_mb == 64
    assert budget.in_use_mb == 0


def test_a_sandbox_larger_than_the_budget_runs_alone(budget: MemoryAdmission) -> None:
    with Sandbox(CODE, memory_mb=256) as box:
        assert box.call(1).value == "2"


def test_a_sandbox_never_closed_gives_its_memory_back_when_collected(
    budget: MemoryAdmission,
) -> None:
    import gc

    box = Sandbox(CODE, memory_mb=32)
    assert budget.in_use_mb == 32
    del box
    gc.collect()
    assert budget.in_use_mb == 0


def test_the_default_budget_is_a_share_of_memory_split_between_workers(monkeypatch) -> None:
    monkeypatch.delenv("PAU_SANDBOX_MEMORY_MB", raising=False)
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "1")
    alone = default_budget_mb()
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "4")
    assert default_budget_mb() == max(512, alone // 4)
    monkeypatch.setenv("PAU_SANDBOX_MEMORY_MB", "300")
    assert default_budget_mb() == 300
