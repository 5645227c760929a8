"""Ctrl-C while pytest starts: one line and exit status 2, not a raw ``KeyboardInterrupt``.

pytest handles a Ctrl-C once its session has begun (``wrap_session``: exit status 2,
``INTERRUPTED``). Before that, while it imports the plugins' entry points (this one among
them) and the initial ``conftest.py`` files, a ``KeyboardInterrupt`` escapes ``pytest.main``:
Python prints its traceback and the process dies of the signal (exit status -2 to a parent).

:func:`hold` (run when this module is imported: the plugin imports it first) answers a Ctrl-C from
then until the session begins with one line and exit status 2; :func:`release` (the
plugin's first ``pytest_configure``, inside the session) hands Ctrl-C back to Python, and
to pytest. Only Python's default handler is replaced, and only in the main thread: a
program that set its own keeps it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from types import FrameType

MESSAGE = "Interrupted (Ctrl-C) while pytest was starting: nothing ran."


def _interrupted(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C: Python's
    with contextlib.suppress(OSError):  # no stderr to write to: the exit status says it
        os.write(2, (MESSAGE + "\n").encode())
    raise SystemExit(2)


def hold() -> None:
    """Answer Ctrl-C with :data:`MESSAGE` and exit status 2 until :func:`release`."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted)


def release() -> None:
    """Give Ctrl-C back to Python's default handler (pytest's session handles it now)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is _interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)


hold()
