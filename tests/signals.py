"""Stop signals as a terminal delivers them, for tests that send one to a child process.

A shell without job control (``cmd &`` in a script, many CI runners) starts background jobs
with SIGINT ignored, and ``nohup`` ignores SIGHUP; a child inherits an ignored signal across
``exec``. Python then installs no KeyboardInterrupt handler, pytest-pau rightly keeps a
signal the user chose to ignore, and a test that sends one would wait for an exit that
never comes. Such a child starts with the three stop signals at their defaults.
"""

from __future__ import annotations

import signal

__all__ = ["as_in_a_terminal"]


def as_in_a_terminal() -> None:
    """``preexec_fn``: SIGINT, SIGTERM and SIGHUP at their defaults in the child."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
