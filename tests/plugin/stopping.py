"""Stopping a run by a signal, checked by order and counts, never by a stopwatch.

A run that stops promptly starts no request after the signal. Timing how long it took to
end failed on a busy machine (4.3 s where 4 were allowed, at load 8-12) while the run
behaved. Instead the scripted server holds its answers while every episode waits on one:
no request is then on the wire, so one that the server reads after the signal was sent
after it, whatever the load.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_pau.testing import ScriptedLLM

#: How long a test waits for the episodes to reach the server, or for held answers to be
#: let go; a bound, not a timing: a passing run needs a fraction of it.
WAIT_S = 120.0


class HeldAnswers:
    """Scripted rules whose answers wait while the gate is closed (it starts open)."""

    def __init__(self) -> None:
        self._open = threading.Event()
        self._open.set()

    def rules(self, rules: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        """``rules`` with each answer held at the gate."""
        return [(pattern, self._held(reply)) for pattern, reply in rules]

    def _held(self, reply: Any) -> Any:
        def answer(messages: list[dict[str, Any]]) -> Any:
            if not self._open.wait(timeout=WAIT_S):
                raise RuntimeError(f"an answer was held for {WAIT_S:.0f} s and never let go")
            return reply(messages) if callable(reply) else reply

        return answer

    def close(self) -> None:
        self._open.clear()

    def open(self) -> None:
        self._open.set()


def wait_for_reports(proc: subprocess.Popen[str], reported: int) -> None:
    """Read the run's ``-v`` output until ``reported`` items have an outcome."""
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        seen += " FAILED" in line or " PASSED" in line
        if seen == reported:
            return
    raise AssertionError(f"the run ended before {reported} items were reported")


def stop_file_in(tmp: Path) -> Callable[[], bool]:
    """Whether the controller has published its stop to the xdist workers: the stop file
    of the run folder it made in ``tmp`` (the run's ``TMPDIR``) exists."""
    return lambda: any(tmp.glob("pau-run-*/stop"))


def signal_while_every_episode_waits(
    proc: subprocess.Popen[str],
    llm: ScriptedLLM,
    gate: HeldAnswers,
    episodes: int,
    signum: int,
    published: Callable[[], bool] | None = None,
) -> float:
    """Hold the answers until ``episodes`` requests wait at the server, send ``signum``,
    then let the answers go; the server's clock reading just before the signal.

    Every running episode then waits on a request the server has read, so a request read
    after the returned time was sent after the signal. With ``published`` (xdist), the
    answers wait until the controller has told the workers to stop: from then on no item
    starts, though an episode in flight may send a call before its worker hears of it.
    """
    gate.close()
    deadline = time.monotonic() + WAIT_S
    while llm.in_flight < episodes:
        if time.monotonic() > deadline or proc.poll() is not None:
            gate.open()
            raise AssertionError(
                f"{llm.in_flight} of {episodes} episodes were waiting on the server "
                f"after {WAIT_S:.0f} s (run exit status {proc.poll()})"
            )
        time.sleep(0.01)
    sent = time.monotonic()
    proc.send_signal(signum)
    if published is not None:
        while not published() and proc.poll() is None:
            if time.monotonic() > deadline + WAIT_S:
                break  # the answers go; the test's own checks then say what went wrong
            time.sleep(0.01)
    gate.open()
    return sent


def requests_after(llm: ScriptedLLM, sent: float) -> list[int]:
    """The numbers of the requests the server read after ``sent``."""
    return [e.number for e in llm.exchanges if e.start > sent]


def bodies(llm: ScriptedLLM, numbers: list[int]) -> list[dict[str, Any]]:
    """The request bodies of the requests numbered ``numbers`` (1-based arrival order)."""
    return [llm.log[n - 1] for n in numbers]


def bodies_in_flight(llm: ScriptedLLM, at: float) -> list[dict[str, Any]]:
    """The request bodies the server had read and not yet answered at ``at``."""
    return [
        llm.log[e.number - 1]
        for e in llm.exchanges
        if e.start <= at and (e.end is None or e.end > at)
    ]
