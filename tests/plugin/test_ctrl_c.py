"""After Ctrl-C no request starts: the episodes are cancelled at the signal, before sending."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from pytest_pau.testing import ScriptedLLM

from .conftest import USER_CACHE
from .test_concurrency import RULES, args, ctrl_c_as_in_a_terminal, write_dataset


@pytest.mark.slow
def test_no_request_starts_after_ctrl_c(pau_pytester: pytest.Pytester) -> None:
    # The issue: requests still started 0.3-1.0 s after Ctrl-C (14 at concurrency 16).
    write_dataset(pau_pytester.path, 48)
    with ScriptedLLM(RULES, delay_s=0.3) as llm:
        env = {**os.environ, "PAU_USER_CACHE": USER_CACHE, "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v"]
        command += args(llm, "--pau-concurrency=16", "--pau-no-cache", "--pau-report=r.json")
        proc = subprocess.Popen(
            command,
            cwd=pau_pytester.path,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=ctrl_c_as_in_a_terminal,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if " FAILED" in line or " PASSED" in line:
                break  # episodes are in flight now, 16 at a time
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
        # The server stamps each request as it arrives (the same monotonic clock); one
        # already on the wire when the signal came may land a moment later.
        late = [e for e in llm.exchanges if e.start > sent + 0.05]
    assert proc.returncode == pytest.ExitCode.INTERRUPTED
    assert not late, f"{len(late)} requests started after Ctrl-C"
