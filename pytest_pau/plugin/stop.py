"""A stop request every process of a run sees, and the run's private folder.

:class:`RunStop` is shared by the controller and its xdist workers: the controller writes a
file whose path it gave each worker at start (``pytest_configure_node``), and workers stop
starting episodes once it exists. The early stop and Ctrl-C on the controller use it. The
early stop also publishes its look-ahead there (:meth:`RunStop.allow`): how far into the
seeded order items may start, so that no more items are in flight than the next decision
could need.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from pytest_pau.models import Skip, SkipCause

#: ``workerinput`` key of the stop file's path.
STOP_FILE_KEY = "pau_stop_file"
#: The first word of an interrupt's stop reason (Ctrl-C, a stop signal).
INTERRUPT = "interrupted"


class RunStop:
    """A stop request shared by the controller and its xdist workers.

    Args:
        path: The shared file (None: this process only, e.g. a run without xdist).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._reason: Skip | None = None
        self._allowed: int | None = None
        self._window = None if path is None else path.with_name(path.name + ".window")

    def allow(self, position: int) -> None:
        """Items before ``position`` in the run order may start (the controller)."""
        if position == self._allowed:
            return
        self._allowed = position
        if self._window is not None:
            tmp = self._window.with_suffix(".tmp")
            try:
                tmp.write_text(str(position), encoding="utf-8")
                os.replace(tmp, self._window)
            except OSError:
                pass  # workers then start items without the look-ahead: slower, still right

    def allowed(self) -> int | None:
        """How far into the run order items may start (None: no limit)."""
        if self._window is not None and self._reason is None:
            try:
                return int(self._window.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return self._allowed
        return self._allowed

    def request(self, reason: Skip) -> None:
        """Ask every process to start no more episodes (first reason wins); the file holds
        the cause on its first line, then the words."""
        if self._reason is not None:
            return
        self._reason = reason
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            try:
                tmp.write_text(f"{reason.cause}\n{reason.reason}", encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError:
                pass  # the controller still stops; workers finish what they have

    def reason(self) -> Skip | None:
        """Why the run stops, or None (workers read the file; a found reason is kept)."""
        if self._reason is None and self.path is not None:
            try:
                text = self.path.read_text(encoding="utf-8")
            except OSError:
                return None
            cause, _, words = text.partition("\n")
            try:
                self._reason = Skip(SkipCause(cause), words or "stopped")
            except ValueError:  # not written by this version
                self._reason = Skip(SkipCause.NOT_RUN, text or "stopped")
        return self._reason

    def watch(self, cancel: threading.Event) -> None:
        """A worker's watch on the controller's stop file: Ctrl-C there sets ``cancel``."""

        def poll() -> None:
            while not cancel.is_set():
                reason = self.reason()
                if reason is not None:
                    if reason.cause == SkipCause.INTERRUPTED:
                        cancel.set()
                    return
                time.sleep(0.05)  # a cheap stat; Ctrl-C reaches the workers within it

        threading.Thread(target=poll, name="pau-stop-watch", daemon=True).start()


#: The signals a run treats as Ctrl-C: what CI runners send on a timeout or a cancel
#: (SIGTERM), and a closed terminal or SSH session (SIGHUP).
STOP_SIGNALS = tuple(
    sig for name in ("SIGTERM", "SIGHUP") if (sig := getattr(signal, name, None)) is not None
)


class SignalInterrupt(KeyboardInterrupt):
    """A stop signal, raised in the main thread as Ctrl-C's ``KeyboardInterrupt`` is."""

    def __init__(self, signum: int) -> None:
        self.name = signal.Signals(signum).name
        super().__init__(f"{self.name} received")


def interrupt_on_signals(on_signal: Callable[[], None] | None = None) -> Callable[[], None]:
    """Make SIGTERM and SIGHUP stop the run as Ctrl-C does; returns what undoes it.

    ``on_signal`` runs first, in the handler (the run's cancel event: no request starts
    from then on, as after Ctrl-C).

    By default they end the process at once: no report, xdist workers left running (and
    paying for requests). Raised as a :class:`SignalInterrupt`, pytest stops the run as on
    Ctrl-C: no item starts, what finished is kept and written (``run.interrupted``), the
    workers are told to stop and torn down. Only a signal whose disposition is still the
    default is taken (one that is ignored, ``nohup``, or handled by someone else stays so),
    only in the main thread, and a second one ends the process as it would have.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, object] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        if on_signal is not None:
            on_signal()
        for sig in previous:
            signal.signal(sig, signal.SIG_DFL)  # a second one ends the process
        raise SignalInterrupt(signum)

    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) == signal.SIG_DFL:
            previous[sig] = signal.signal(sig, handler)

    def restore() -> None:
        for sig, old in previous.items():
            if signal.getsignal(sig) in (handler, signal.SIG_DFL):
                signal.signal(sig, old)  # type: ignore[arg-type]

    return restore


def make_run_dir() -> Path:
    """A private folder for the run's shared files (the controller removes it at the end)."""
    return Path(tempfile.mkdtemp(prefix="pau-run-"))


def remove_run_dir(path: Path | None) -> None:
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)
