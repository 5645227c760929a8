"""Episodes run ahead of pytest: the glue between a run's state and its :class:`EpisodePool`.

With ``--pau-concurrency`` above 1, the items pytest will reach next have their episodes
started in threads while pytest still reports earlier ones. Which items are "next" is the
session's item list in one process, and the worker's xdist queue under ``-n``. Whatever
finished but was never reached (pytest stopped) is kept as a result on the controller.
"""

from __future__ import annotations

import warnings
from functools import partial
from typing import TYPE_CHECKING

import pytest

from pytest_pau.models import Skip, SkipCause
from pytest_pau.plugin.episodes import EpisodePool
from pytest_pau.plugin.evaluate import admission, evaluate_one, evaluator_of
from pytest_pau.plugin.intake import stop_taking, take

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.plugin.state import PauRun


def start_episodes(state: PauRun, session: pytest.Session) -> None:
    """Run the episodes of the items pytest will reach next, ahead of it, in threads."""
    if state.is_worker and state.stop.path is not None:
        state.stop.watch(state.episodes.cancel)
    n = state.settings.episodes_in_flight()
    if n <= 1:
        return
    from pytest_pau.plugin import collect

    if state.is_worker:
        from pytest_pau.plugin.xdist import worker_queue

        queued = worker_queue(state.config, session)
        if queued is None:
            _warn_once(
                "pytest-xdist's worker queue is not readable in this version: each worker "
                "runs one episode at a time (--pau-concurrency has no effect under -n)"
            )
            return

        def upcoming() -> list[Instance]:
            return [i for item in queued() if (i := collect.instance_of(item)) is not None]

    else:
        planned = [
            i
            for item in session.items
            if (i := collect.instance_of(item)) is not None and not collect.skipped(item)
        ]

        def upcoming() -> list[Instance]:
            return planned

    _ = evaluator_of(state)  # built once, here, in pytest's thread (hooks run there)

    def may_start(instance: Instance) -> object:
        if session.shouldstop or session.shouldfail:
            why = f"not run: pytest stopped the run ({session.shouldstop or session.shouldfail})"
            return Skip(SkipCause.PYTEST_STOPPED, why)
        return admission(state, instance)

    state.episodes.pool = EpisodePool(
        partial(evaluate_one, state),
        concurrency=n,
        source=upcoming,
        cancel=state.episodes.cancel,
        may_start=may_start,
        # One process: the run (and its early stop) takes each result when it is made.
        on_result=None if state.is_worker else partial(take, state),
    )


def stop_episodes(state: PauRun, *, interrupted: bool) -> None:
    """End the pool; on Ctrl-C cancel what runs. Counts the results pytest never reached
    (the run took them when they were made)."""
    if state.episodes.pool is None:
        return
    if interrupted:
        state.episodes.pool.cancel()
    else:
        state.episodes.pool.close()
    if not state.is_worker:
        stop_taking(state)  # an episode's thread that outlives the pool adds nothing
        state.intake.ahead = sum(
            r.id in state.intake.results for r in state.episodes.pool.unreported()
        )


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, stacklevel=2)
