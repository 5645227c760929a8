"""Stop signals: SIGTERM (what CI runners send on a timeout or a cancel) and
SIGHUP stop a run as Ctrl-C does, on the controller and under xdist: no item starts, what
finished is written (``run.interrupted``), the workers end and pay for nothing more.

Each test runs pytest in its own session (``start_new_session``) and signals the controller
alone, as a CI runner that kills the job's main process does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM
from tests.signals import as_in_a_terminal

from .conftest import USER_CACHE
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

#: Written into the project: each xdist worker notes its pid, to check it ended.
WORKER_PIDS = """
import os

def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        with open(f"pid-{worker}", "w") as f:
            f.write(str(os.getpid()))
"""


def _start(folder: Path, llm: ScriptedLLM, *extra: str) -> subprocess.Popen[str]:
    (folder / "tmp").mkdir(exist_ok=True)  # the run's own folder lands here (stop_file_in)
    env = {
        **os.environ,
        "PAU_USER_CACHE": USER_CACHE,
        "PYTHONUNBUFFERED": "1",
        "TMPDIR": str(folder / "tmp"),
    }
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v"]
    command += args(llm, "--pau-report=r.json", *extra)
    return subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_in_a_terminal,  # SIGHUP too: under nohup the run would keep ignoring it
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has ended: only its exit status is left
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_keeps_and_writes_what_finished(
    pau_pytester: pytest.Pytester, signum: int
) -> None:
    write_dataset(pau_pytester.path, 16)
    gate = HeldAnswers()
    with ScriptedLLM(gate.rules(RULES), delay_s=0.5) as llm:
        proc = _start(pau_pytester.path, llm, "--pau-concurrency=4")
        wait_for_reports(proc, 3)
        sent = signal_while_every_episode_waits(proc, llm, gate, 4, signum)
        rest, _ = proc.communicate(timeout=WAIT_S)
        asked = len(llm.log)
        time.sleep(1.0)
        assert len(llm.log) == asked, "a request started after the run ended"
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, rest[-3000:]
    # Stopped at once: no episode sent another request after the signal (order, not time:
    # at load 8-12 the run took 4 s and more to end, and behaved).
    assert not requests_after(llm, sent), rest[-3000:]
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted
    finished = [i for i in report.instances if i.skipped is None]
    assert 3 <= len(finished) < 16
    name = signal.Signals(signum).name
    assert f"{name} received" in rest


@pytest.mark.slow
def test_sigterm_to_the_xdist_controller_ends_the_workers_and_keeps_their_results(
    pau_pytester: pytest.Pytester,
) -> None:
    write_dataset(pau_pytester.path, 40)
    pau_pytester.makeconftest(WORKER_PIDS)
    gate = HeldAnswers()
    with ScriptedLLM(gate.rules(RULES), delay_s=0.3) as llm:
        proc = _start(pau_pytester.path, llm, "-n", "2", "--pau-concurrency=2")
        wait_for_reports(proc, 4)
        # Two workers, two episodes each.
        published = stop_file_in(pau_pytester.path / "tmp")
        sent = signal_while_every_episode_waits(proc, llm, gate, 4, signal.SIGTERM, published)
        rest, _ = proc.communicate(timeout=WAIT_S)
        asked = len(llm.log)
        time.sleep(1.5)
        assert len(llm.log) == asked, "a worker kept calling the model after the run ended"
        # An item's first request names its input, so a started item shows (a later call
        # such as the coder's may name none: None is no item).
        late = {owner(b) for b in bodies(llm, requests_after(llm, sent))} - {None}
        running = {owner(b) for b in bodies_in_flight(llm, sent)}
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, rest[-3000:]
    # No item started after the signal: a later request is an episode in flight finishing
    # a call before its worker heard of the stop (order and counts, not a stopwatch).
    assert late <= running, f"items started after the signal: {sorted(late - running)}"
    pids = [int(p.read_text()) for p in pau_pytester.path.glob("pid-gw*")]
    assert len(pids) == 2
    assert not [pid for pid in pids if _alive(pid)], "a worker outlived the controller"
    report = read_report(pau_pytester.path / "r.json")
    assert report.run.interrupted
    finished = [i for i in report.instances if i.skipped is None]
    assert 4 <= len(finished) < 40
