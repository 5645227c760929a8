"""Many episodes at once: items stay pytest items, their episodes run ahead of pytest.

pytest runs items one after another. An item's episode is ~45 model calls, almost all of
it waiting on a provider, so :class:`EpisodePool` runs the episodes of the items pytest
will reach next in background threads, at most ``--pau-concurrency`` at once, in the
order pytest will reach them. When pytest reaches an item, its ``pau_result`` fixture
takes the episode's result (waiting for it when it is still running) and the item is
reported as usual: ``-k``, ``-x``, ``--junitxml``, the summary all behave as in a serial
run, and each outcome appears when pytest reaches its item.

Why threads and not asyncio: the stages are synchronous code (the sandbox, the embedded
model, litellm's sync path), model calls release the GIL while they wait, and wasmtime
releases it while the guest runs, so threads overlap everything that waits and let the
sandbox use a second core. Model calls are bounded per endpoint by
:mod:`pytest_pau.llm.limits`; an embedded model stays serialised by its own lock.

The threads are daemons and the run's cancel event stops them from starting any request,
so Ctrl-C ends the run at once: finished results are kept (and reported), calls in flight
are abandoned (a re-run makes them again; everything finished is in the model cache).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.errors import Deferred, deferred_warnings
from pytest_pau.llm.limits import Cancelled
from pytest_pau.models import Skip, SkipCause

if TYPE_CHECKING:
    from pytest_pau.models import Instance, InstanceResult

Evaluate = Callable[["Instance", Callable[[str], None]], "InstanceResult"]
"""``(instance, progress) -> result``: one episode, scored (the Evaluator's ``evaluate``)."""
Source = Callable[[], Iterable["Instance"]]
"""The instances pytest will reach next, in order (may grow while the run goes on)."""

#: How often a waiting caller wakes up (to print phases, to notice Ctrl-C).
_POLL_S = 0.05


@dataclass
class _Episode:
    instance: Instance
    state: str = "queued"
    """``queued``, ``running``, ``done``, ``failed`` (an exception to re-raise) or ``not-started``."""
    result: InstanceResult | None = None
    error: BaseException | None = None
    not_started: Skip | None = None
    phases: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)
    reported: bool = False
    warnings: Deferred = field(default_factory=list)
    """pytest-pau's warnings of the episode, issued when pytest reaches its item."""


class EpisodePool:
    """Runs the episodes of upcoming items in daemon threads, ``concurrency`` at once.

    Args:
        evaluate: Runs and scores one episode.
        concurrency: Episodes in flight at most.
        source: The upcoming instances (read whenever a thread looks for work).
        cancel: The run's cancel event; also set by :meth:`cancel`.
        may_start: Called with the instance before its episode starts: a
            :class:`~pytest_pau.models.Skip` not to start it (a spent budget, a decided
            gate), None to start it, or anything else
            (:data:`~pytest_pau.llm.budget.WAIT`) to try again once an episode ends (the
            early stop's look-ahead, a budget that running items may free).
        on_result: Called in the episode's thread with each result as it is made (the
            early stop learns of results before pytest reaches their items).
    """

    def __init__(
        self,
        evaluate: Evaluate,
        *,
        concurrency: int,
        source: Source,
        cancel: threading.Event,
        may_start: Callable[[Instance], object] = lambda _instance: None,
        on_result: Callable[[InstanceResult], None] | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"EpisodePool(concurrency={concurrency!r}): expected at least 1")
        self.evaluate = evaluate
        self.concurrency = concurrency
        self.source = source
        self.cancel_event = cancel
        self.may_start = may_start
        self.on_result = on_result
        self._episodes: dict[str, _Episode] = {}
        self._order: list[str] = []
        self._cond = threading.Condition()
        self._closed = False
        self.most_in_flight = 0
        self._running = 0
        self._threads = [
            threading.Thread(target=self._work, name=f"pau-episode-{i}", daemon=True)
            for i in range(concurrency)
        ]
        for thread in self._threads:
            thread.start()

    # -- the main thread ---------------------------------------------------------------------

    def result(self, instance: Instance, progress: Callable[[str], None] | None) -> InstanceResult:
        """The episode of ``instance``: started now if it was not, waited for if it runs.

        ``progress`` is called from this thread with each phase the episode went through
        (all at once when it had finished already), so the terminal is written by pytest's
        thread only.

        Raises:
            Whatever the evaluation raised that is not a result (a ConfigError).
        """
        with self._cond:
            episode = self._episodes.get(instance.id)
            if episode is None:
                episode = self._add(instance, first=True)
            elif episode.state == "queued":
                # pytest wants it now (its order differs from the plan, or -x stopped the
                # items before it): it goes first.
                self._order.remove(instance.id)
                self._order.insert(0, instance.id)
            self._cond.notify_all()
        shown = 0
        while True:
            finished = episode.done.wait(_POLL_S)
            if progress is not None:
                while shown < len(episode.phases):
                    progress(episode.phases[shown])
                    shown += 1
            if finished:
                break
        episode.reported = True
        for message, category in episode.warnings:
            # In pytest's thread, within the item: its filters apply, its summary shows it.
            warnings.warn(message, category, stacklevel=2)
        episode.warnings.clear()
        if episode.error is not None:
            raise episode.error
        if episode.result is None:  # not started: a budget, a decided gate
            raise NotStarted(episode.not_started or Skip(SkipCause.NOT_RUN, "not started"))
        return episode.result

    def unreported(self) -> list[InstanceResult]:
        """Results that finished before pytest reached their item (kept when a run stops)."""
        with self._cond:
            return [
                e.result for e in self._episodes.values() if e.result is not None and not e.reported
            ]

    def cancel(self) -> None:
        """Stop starting episodes and requests; running ones end at their next model call.

        Waits only a moment: a thread in the middle of a model call cannot be stopped, and
        its answer is not needed (a daemon, it ends with the process).
        """
        self.cancel_event.set()
        self.close(wait_s=0.1)

    def close(self, *, wait_s: float = 1.0) -> None:
        """Let the threads end (they are daemons: the process never waits for them)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        deadline = time.monotonic() + wait_s
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    # -- the threads ---------------------------------------------------------------------------

    def _add(self, instance: Instance, *, first: bool = False) -> _Episode:
        episode = _Episode(instance)
        self._episodes[instance.id] = episode
        if first:
            self._order.insert(0, instance.id)
        else:
            self._order.append(instance.id)
        return episode

    def _refill(self) -> None:
        """Plan the upcoming instances pytest has not been asked about yet (under the lock)."""
        for instance in self.source():
            if instance.id not in self._episodes:
                self._add(instance)

    def _next(self) -> _Episode | None:
        """The next queued episode to start, or None when the pool closes (under the lock)."""
        while True:
            if self._closed or self.cancel_event.is_set():
                return None
            self._refill()
            if self._order:
                episode = self._episodes[self._order[0]]
                reason = self.may_start(episode.instance)
                if reason is not None and not isinstance(reason, Skip):
                    # Not yet: an episode ending (or a poll) may let it start.
                    self._cond.wait(_POLL_S)
                    continue
                self._order.pop(0)
                if reason is not None:
                    episode.state, episode.not_started = "not-started", reason
                    episode.done.set()
                    continue
                episode.state = "running"
                return episode
            self._cond.wait(_POLL_S * 4)

    def _work(self) -> None:
        while True:
            with self._cond:
                episode = self._next()
                if episode is None:
                    return
                self._running += 1
                self.most_in_flight = max(self.most_in_flight, self._running)
            try:
                with deferred_warnings() as held:
                    try:
                        episode.result = self.evaluate(episode.instance, episode.phases.append)
                    finally:
                        episode.warnings.extend(held)
                episode.state = "done"
                if self.on_result is not None:
                    self.on_result(episode.result)
            except Cancelled:
                episode.state = "not-started"
                episode.not_started = Skip(SkipCause.INTERRUPTED, "the run was interrupted")
            except BaseException as exc:  # re-raised in pytest's thread, where it belongs
                episode.state, episode.error = "failed", exc
            finally:
                with self._cond:
                    self._running -= 1
                    self._cond.notify_all()
                episode.done.set()


class NotStarted(Exception):
    """An episode the pool did not start; the fixture skips its item with the reason."""

    def __init__(self, skip: Skip) -> None:
        super().__init__(skip.reason)
        self.skip = skip
