"""Writing to pytest's terminal while output capture is on.

A fixture or a step before the first item runs with capture on: what it writes to the
terminal reporter lands in the captured output unless capture is suspended around it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

__all__ = ["live_writer"]


def live_writer(config: pytest.Config) -> Callable[..., None] | None:
    """``write(text, *, newline=False, **markup)`` on pytest's terminal now, past the
    capture; None when there is no terminal reporter (``-p no:terminal``)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return None
    capman = config.pluginmanager.get_plugin("capturemanager")

    def write(text: str, *, newline: bool = False, **markup: bool) -> None:
        suspended = capman.global_and_fixture_disabled() if capman is not None else nullcontext()
        with suspended:
            if newline:
                reporter.write_line(text, **markup)
            else:
                reporter.write(text, **markup)

    return write
