"""The run-wide bound on sandbox memory (issues 31, 34): the levels of live sandboxes stay
within the budget, a waiting sandbox starts when another closes, and a thread that holds one
never waits for another (no deadlock); a sandbox holds what its method was seen to need, not
its cap, so many sandboxes held open between calls do not wait, and a call that would push
past the bound fails as a MemoryError naming it."""

from __future__ import annotations

import threading
import time

import pytest

from pytest_pau.sandbox import Sandbox
from pytest_pau.sandbox.admission import (
    ADMISSION,
    START_MB,
    MemoryAdmission,
    default_budget_mb,
)

CODE = "def test_func(arg0):\n    return arg0 + 1\n"
#: Fills ``arg0`` MiB of its memory (every page written) and returns its length.
FILL = "def test_func(arg0):\n    return len(b'x' * (arg0 << 20))\n"


@pytest.fixture
def budget():
    """A budget of two start levels (32 MiB) for the test; the default again after it."""
    ADMISSION.reset(2 * START_MB)
    yield ADMISSION
    ADMISSION.reset(None)


def test_live_sandboxes_stay_within_the_budget(budget: MemoryAdmission) -> None:
    results: list[str | None] = []

    def episode() -> None:
        with Sandbox(CODE) as box:
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
    # Two fill the budget; the third starts in the same thread without waiting.
    with Sandbox(CODE) as outer, Sandbox(CODE) as middle, Sandbox(CODE) as inner:
        assert (outer.call(1).value, middle.call(2).value, inner.call(3).value) == ("2", "3", "4")
        assert budget.in_use_mb == 3 * START_MB
    assert budget.in_use_mb == 0


def test_a_sandbox_larger_than_the_budget_runs_alone(budget: MemoryAdmission) -> None:
    budget.reset(START_MB // 2)
    with Sandbox(CODE) as box:
        assert box.call(1).value == "2"


def test_a_sandbox_never_closed_gives_its_memory_back_when_collected(
    budget: MemoryAdmission,
) -> None:
    import gc

    box = Sandbox(CODE)
    assert budget.in_use_mb == START_MB
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


@pytest.fixture
def room():
    """A bound for the tests that set their own (``room.reset(mb)``); the default after."""
    yield ADMISSION
    ADMISSION.reset(None)


def test_sixty_four_sandboxes_held_open_between_calls_do_not_wait(
    room: MemoryAdmission, wasm_ready: None
) -> None:
    # Issue 34: 64 episodes, each holding its sandbox while the model answers. Room for 64
    # start levels (a quarter of 64 caps): every sandbox starts, none waits. When each held
    # its cap, 16 ran and the rest waited for them to close.
    room.reset(64 * START_MB)
    together = threading.Barrier(64, timeout=60)
    results: list[str | None] = []
    missed: list[str] = []

    def episode(k: int) -> None:
        with Sandbox(CODE) as box:
            results.append(box.call(k).value)
            try:
                together.wait()  # every sandbox is open here at once, between two calls
            except threading.BrokenBarrierError:
                missed.append(f"episode {k}")
            results.append(box.call(k).value)

    threads = [threading.Thread(target=episode, args=(k,)) for k in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not missed, f"{len(missed)} of 64 sandboxes could not be open at once"
    assert sorted(results) == sorted([str(k + 1) for k in range(64)] * 2)
    assert (room.waits, room.grown, room.peak_mb) == (0, 0, 64 * START_MB)
    assert room.in_use_mb == 0


def test_a_call_that_needs_more_than_its_level_runs_again_higher(
    room: MemoryAdmission, make_sandbox
) -> None:
    room.reset(4096)
    box = make_sandbox(FILL)
    assert box.level_mb == START_MB == 32
    small = box.call(8)
    assert (small.value, box.level_mb) == (str(8 << 20), 32)
    # 100 MiB do not fit in 32 or 64: the call runs again at 64, then at 128, each time on
    # a fresh instance, and its result is the one a sandbox at 128 MiB gives.
    big = box.call(100)
    assert big.value == str(100 << 20), big
    assert (box.level_mb, room.grown, room.in_use_mb) == (128, 2, 128)
    assert box.call(100).ok
    assert room.grown == 2, "the level is kept: no second run"
    # Past the cap it is the cap's MemoryError, as before.
    assert box.call(300).error_type == "MemoryError"
    assert box.level_mb == 256
    assert box.call(8).ok
    box.close()
    assert room.in_use_mb == 0


def test_a_call_that_would_push_past_the_bound_fails_as_a_memory_error_naming_it(
    room: MemoryAdmission, make_sandbox
) -> None:
    room.reset(96)
    other = make_sandbox(CODE)  # holds 32
    box = make_sandbox(FILL)  # 32; the bound has room for it to grow to 64, not to 128
    result = box.call(100)
    assert result.error_type == "MemoryError", result
    assert result.message == (
        "the run's sandbox memory bound was reached: this call needed more than 64 MiB (its "
        "cap is 256 MiB), and live sandboxes hold 96 of the 96 MiB the run allows per "
        "process; set PAU_SANDBOX_MEMORY_MB higher (0: 40% of memory), or lower "
        "--pau-concurrency"
    )
    # Its grown instance was thrown away: it is back at its start level.
    assert (room.grown, room.refused, room.waits, box.level_mb) == (1, 1, 0, 32)
    assert (room.in_use_mb, box.bound_refusals) == (64, 1)
    assert box.call(8).ok, "the sandbox still serves calls that fit"
    other.close()
    # Alone, a sandbox may grow to its cap (as one larger than the bound may start alone).
    assert box.call(100).value == str(100 << 20)
    assert box.level_mb == 128


@pytest.mark.slow
def test_a_process_sandbox_grows_its_address_space_the_same_way(
    room: MemoryAdmission, make_sandbox
) -> None:
    room.reset(4096)
    box = make_sandbox(FILL, backend="process")
    assert box.call(8).value == str(8 << 20)
    assert box.level_mb == 32
    assert box.call(100).value == str(100 << 20)
    assert box.level_mb == 128


def test_a_start_level_below_the_guests_image_runs_higher(
    room: MemoryAdmission, make_sandbox, monkeypatch
) -> None:
    # The guest's start-up image is 252 pages (15.75 MiB): a start level of 8 MiB cannot
    # instantiate it, which is a reason to run higher, not an error.
    from pytest_pau.sandbox import admission

    monkeypatch.setattr(admission, "START_MB", 8)
    room.reset(4096)
    box = make_sandbox(CODE)
    assert box.level_mb == 8
    assert box.call(1).value == "2"
    assert box.level_mb == 16
