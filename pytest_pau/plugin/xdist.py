"""pytest-xdist glue: hand each worker enough items to keep its episodes in flight.

xdist's default ``load`` scheduling keeps only two items queued on a worker once items take
longer than 0.1 s (``LoadScheduling.check_schedule``), so a worker could never have more
than two episodes in flight, whatever ``--pau-concurrency`` says. :class:`PauScheduling`
keeps every worker's queue ``depth`` items deep instead (twice its concurrency), still
dealing the items out as workers finish them, so the load stays balanced.

On a worker, :func:`worker_queue` reads the items xdist has sent it and not yet run: the
episode pool starts their episodes ahead of pytest. On the controller after Ctrl-C,
:func:`drain_results` keeps the results that were on their way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def make_scheduler(config: pytest.Config, log: Any, depth: int) -> Any:
    """A :class:`PauScheduling` (built here: xdist is imported only under ``-n``)."""
    from xdist.scheduler.load import LoadScheduling

    class PauScheduling(LoadScheduling):  # type: ignore[misc]
        """``load`` scheduling with ``depth`` items queued on every worker."""

        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.depth = depth

        def schedule(self) -> None:
            super().schedule()  # xdist's first distribution (and its collection checks)
            # Then deal the rest out one item at a time, round robin, until every worker
            # holds ``depth``: an even share each, whatever order the workers came up in.
            while self.pending:
                hungry = [n for n in self.nodes if len(self.node2pending[n]) < self.depth]
                if not hungry:
                    break
                for node in hungry:
                    if self.pending:
                        self._send_tests(node, 1)

        def check_schedule(self, node: Any, duration: float = 0) -> None:
            if node.shutting_down:
                return
            if self.pending:
                missing = self.depth - len(self.node2pending[node])
                if missing > 0:
                    self._send_tests(node, missing)
            else:
                node.shutdown()

    return PauScheduling(config, log)


def uses_load_scheduling(config: pytest.Config) -> bool:
    """Whether the run distributes with ``load`` (``-n`` alone): then ours replaces it.

    Any other ``--dist`` (``loadscope``, ``worksteal``...) is the user's choice and stays.
    """
    return bool(config.getoption("dist", None) == "load")


def worker_queue(config: pytest.Config, session: pytest.Session) -> Callable[[], list[Any]] | None:
    """On an xdist worker: a function listing the items it was sent and has not run yet.

    Reads xdist's ``WorkerInteractor`` (the queue it fills from the controller's
    ``runtests`` commands). None when that is not available (another xdist version): the
    worker then runs one episode at a time, and the caller says so.
    """
    interactor = next(
        (p for p in config.pluginmanager.get_plugins() if type(p).__name__ == "WorkerInteractor"),
        None,
    )
    queue = getattr(interactor, "torun", None)
    if queue is None or not hasattr(queue, "lock"):
        return None

    def pending() -> list[Any]:
        with queue.lock() as waiting:
            indices = [i for i in waiting if isinstance(i, int)]
        upcoming = getattr(interactor, "nextitem_index", None)
        if isinstance(upcoming, int):
            indices.insert(0, upcoming)
        items = session.items
        return [items[i] for i in indices if 0 <= i < len(items)]

    return pending


def drain_results(config: pytest.Config, *, wait_s: float = 2.0, quiet_s: float = 0.5) -> list[str]:
    """On the controller after Ctrl-C: the PAU results workers sent that nobody read yet.

    xdist stops reading its event queue when the controller is interrupted, and then tears
    the workers down; results that reached the controller meanwhile would be lost though
    they were paid for. This reads the queue for up to ``wait_s`` seconds (until it stays
    empty for ``quiet_s``) and returns the ``pau_result`` of every test report in it. The
    workers stop starting items as soon as the stop file appears, so little arrives.
    """
    import queue as queue_module
    import time

    dsession = config.pluginmanager.getplugin("dsession")
    events = getattr(dsession, "queue", None)
    if events is None:
        return []
    found: list[str] = []
    deadline = time.monotonic() + wait_s
    while (left := deadline - time.monotonic()) > 0:
        try:
            name, kwargs = events.get(timeout=min(quiet_s, left))
        except queue_module.Empty:
            break
        report = kwargs.get("rep") if name == "testreport" else None
        data = getattr(report, "pau_result", None)
        if isinstance(data, str):
            found.append(data)
    return found


def remote_gateways(config: pytest.Config) -> list[str]:
    """The ``--tx`` specs of a distributed run that start workers on other hosts (not popen).

    ``ssh=host``, ``socket=addr`` and the like run workers elsewhere, with their own disk: a
    file the controller names (the budget ledger, the stop file) is not theirs to see.
    """
    distributed = (config.getoption("dist", "no") or "no") != "no"
    if not distributed and not config.getoption("distload", False):  # -d, before xdist reads it
        return []
    remote = []
    for spec in config.getoption("tx", None) or ():
        text = str(spec)
        count, star, rest = text.partition("*")  # "2*popen//chdir=x"
        body = rest if star and count.strip().isdigit() else text
        keys = {part.split("=", 1)[0].strip() for part in body.split("//")}
        if "popen" not in keys:
            remote.append(str(spec))
    return remote
