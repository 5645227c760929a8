"""Progress on long work: the slow steps of a first run are done before the first item and
said on the terminal (``plugin/warmup.py``; a later run, with them done, says nothing), and
each item's line shows the time left and the embedded model's speed."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.plugin import warmup


def test_a_quick_step_says_nothing() -> None:
    said: list[str] = []
    with warmup.told("the sandbox: compiling it", said.append):
        pass
    assert said == []


def test_a_slow_step_is_announced_while_it_runs_and_timed_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(warmup, "ANNOUNCE_AFTER_S", 0.01)
    said: list[str] = []
    announced = threading.Event()

    def say(line: str) -> None:
        said.append(line)
        announced.set()

    with warmup.told("the sandbox: compiling it for this CPU (once per version)", say):
        # The step goes on until the announcement is on screen: no race with the timer.
        assert announced.wait(30)
    assert said[0] == "pau: the sandbox: compiling it for this CPU (once per version) ..."
    assert said[1].startswith("pau: the sandbox: ready in ")
    assert said[1].endswith(" s")
    assert len(said) == 2


@pytest.mark.slow
def test_a_first_run_compiles_the_sandbox_before_its_items_and_says_so(
    run_pau: Callable[..., pytest.RunResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "empty-user-cache"))
    first = run_pau("-v", subprocess=True).stdout.lines
    announce = "pau: the sandbox: compiling it for this CPU (once per version) ..."
    assert announce in first
    start = first.index(announce)
    assert first[start + 1].startswith("pau: the sandbox: ready in ")
    items = [k for k, line in enumerate(first) if line.startswith("pau::test_pau[")]
    assert items
    assert min(items) > start + 1
    again = run_pau("-v", subprocess=True).stdout.lines
    assert not [line for line in again if line.startswith("pau: the sandbox")]


@pytest.mark.slow
def test_under_xdist_the_controller_compiles_the_sandbox_before_any_item_and_says_so(
    run_pau: Callable[..., pytest.RunResult],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # Workers write nothing to the terminal: the controller does the first run's slow steps
    # once, before it hands out an item, and the workers find them done.
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "empty-user-cache"))
    lines = run_pau("-v", "-n", "2", subprocess=True).stdout.lines
    announce = "pau: the sandbox: compiling it for this CPU (once per version) ..."
    assert lines.count(announce) == 1, "\n".join(lines)
    start = lines.index(announce)
    assert lines[start + 1].startswith("pau: the sandbox: ready in ")
    outcomes = [k for k, line in enumerate(lines) if re.search(r"\b(PASSED|FAILED)\b", line)]
    assert outcomes
    assert min(outcomes) > start + 1
    compiled = list((tmp_path / "empty-user-cache").rglob("*.cwasm"))
    assert len(compiled) == 1  # one compile, the controller's


def test_the_item_line_shows_the_embedded_models_speed_and_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``[~2m00s left] explore 1/5 2 judge code classify 17 tok/s PASSED``: the parts that
    are not phases, from the results (the phases: test_concurrency.py)."""
    import time
    from types import SimpleNamespace

    from pytest_pau.models import InstanceResult
    from pytest_pau.plugin.fixtures import _speed, time_left

    local = InstanceResult(
        id="a", source="s", arity=1, local_prompt={"answer_tokens": 170, "ms": 10_000}
    )
    assert _speed(local) == "17 tok/s"
    assert _speed(InstanceResult(id="b", source="s", arity=1)) is None  # remote or cached
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)  # the clock stands still: no load effect
    done = {
        "a": InstanceResult(id="a", source="s", arity=1, duration_s=60.0, ended_at=now - 30),
        "b": InstanceResult(id="b", source="s", arity=1, duration_s=20.0, ended_at=now),
    }
    run = SimpleNamespace(selected=5, episodes=SimpleNamespace(results=done))
    # 90 s since the first item started, 2 items done: 45 s each, 3 left.
    assert time_left(run) == "2m15s"  # type: ignore[arg-type]
    run.selected = 2
    assert time_left(run) is None  # type: ignore[arg-type]
    run.episodes.results = {}
    assert time_left(run) is None  # type: ignore[arg-type]
