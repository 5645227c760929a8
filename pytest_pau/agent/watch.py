"""Who watches an episode while it runs: told the iteration each one starts.

The evaluator watches (``pytest -v`` shows ``explore 1/5 2 3 judge ...``); nobody else
has to. A context variable, so concurrent episodes, each in its own thread, each tell
their own watcher, and an agent run outside any watch tells nobody. One lookup per
iteration: nothing on the path of a model call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

OnIteration = Callable[[int, int], None]
"""Called with ``(iteration, max_iterations)``, 1-based, as an iteration starts."""

_watcher: ContextVar[OnIteration | None] = ContextVar("pau_episode_watcher", default=None)


@contextmanager
def watching(on_iteration: OnIteration) -> Iterator[None]:
    """Tell ``on_iteration`` of every iteration the episodes run here start."""
    token = _watcher.set(on_iteration)
    try:
        yield
    finally:
        _watcher.reset(token)


def iteration_started(iteration: int, max_iterations: int) -> None:
    """An agent starts iteration ``iteration`` of ``max_iterations``."""
    watcher = _watcher.get()
    if watcher is not None:
        watcher(iteration, max_iterations)
