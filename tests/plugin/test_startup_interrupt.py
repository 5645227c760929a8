"""Ctrl-C while pytest starts (importing the plugins and the initial conftest files, before
its session handles Ctrl-C): one line and exit status 2, never a raw KeyboardInterrupt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_pau.plugin.startup import MESSAGE
from tests.signals import as_in_a_terminal

SLOW_CONFTEST = """\
import pathlib, time
pathlib.Path("importing").touch()
time.sleep(60)
"""


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--pau-model=null"], []], ids=["active", "inactive"])
def test_ctrl_c_while_pytest_starts_is_one_line_and_exit_status_2(
    tmp_path: Path, args: list[str]
) -> None:
    # A conftest that takes its time to import stands for a start-up slowed by a loaded
    # machine: the signal lands in it, after pytest-pau's import, before the session.
    (tmp_path / "conftest.py").write_text(SLOW_CONFTEST)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        # As in a terminal: a test run started in the background inherits Ctrl-C ignored.
        preexec_fn=as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "importing").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "pytest never reached the conftest"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = (out + err).decode()
    # Was: a KeyboardInterrupt traceback, and the process killed by the signal (-2).
    assert proc.returncode == 2, text
    assert err.decode() == MESSAGE + "\n"
    assert MESSAGE == "Interrupted (Ctrl-C) while pytest was starting: nothing ran."
    assert "Traceback" not in text
    assert "KeyboardInterrupt" not in text
