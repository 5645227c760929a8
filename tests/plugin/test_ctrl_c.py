"""After Ctrl-C no request starts: the episodes are cancelled at the signal, before sending."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from pytest_pau.testing import ScriptedLLM
from tests.signals import as_in_a_terminal

from .conftest import USER_CACHE
from .stopping import (
    WAIT_S,
    HeldAnswers,
    requests_after,
    signal_while_every_episode_waits,
    wait_for_reports,
)
from .test_concurrency import RULES, args, write_dataset


@pytest.mark.slow
def test_no_request_starts_after_ctrl_c(pau_pytester: pytest.Pytester) -> None:
    # The issue: requests still started 0.3-1.0 s after Ctrl-C (14 at concurrency 16).
    write_dataset(pau_pytester.path, 48)
    gate = HeldAnswers()
    with ScriptedLLM(gate.rules(RULES), delay_s=0.3) as llm:
        env = {**os.environ, "PAU_USER_CACHE": USER_CACHE, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v"]
        command += args(llm, "--pau-concurrency=16", "--pau-no-cache", "--pau-report=r.json")
        proc = subprocess.Popen(
            command,
            cwd=pau_pytester.path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=as_in_a_terminal,
        )
        wait_for_reports(proc, 1)  # episodes are in flight now, 16 at a time
        # All 16 wait on a request the server has read when the signal comes: one read
        # later was sent later (no margin for a request on the wire, whatever the load).
        sent = signal_while_every_episode_waits(proc, llm, gate, 16, signal.SIGINT)
        rest, _ = proc.communicate(timeout=WAIT_S)
        late = requests_after(llm, sent)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, rest[-3000:]
    assert not late, f"{len(late)} requests started after Ctrl-C"
