"""The slow steps of a first run, done before the first item and said on the terminal.

A first run joins and checks an embedded model's weights (1.1 GB: seconds to a minute)
and compiles the sandbox for this CPU (about 15 s on 2 cores); done inside the first item, they
showed nothing after ``collected ... selected``. Here they run first, in pytest's
thread, and a step that takes longer than :data:`ANNOUNCE_AFTER_S` is announced while it
runs and timed when it ends::

    pau: the sandbox: compiling it for this CPU (once per version) ...
    pau: the sandbox: ready in 5.2 s

A later run finds both done and prints nothing. An error is left to the items, which
report it as before (each names what failed and how to fix it). Under xdist the controller
does it when the first worker has collected, before it hands out an item; the workers then
find both done (only the controller writes to the terminal).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from pytest_pau.errors import PauError
from pytest_pau.plugin.terminal import live_writer
from pytest_pau.settings.values import LOCAL_MODELS

if TYPE_CHECKING:
    import pytest

    from pytest_pau.plugin.state import PauRun

#: A step is announced once it has taken this long (a quick one stays silent).
ANNOUNCE_AFTER_S = 1.0


def steps(state: PauRun) -> list[tuple[str, Callable[[], object]]]:
    """What a first run of these settings does slowly, in order: ``(what, do)``."""
    s = state.settings
    out: list[tuple[str, Callable[[], object]]] = []
    for name in dict.fromkeys((s.model, s.judge_model, s.coder_model)):
        if name in LOCAL_MODELS:
            out.append(
                (
                    f"the embedded model {name}: joining its weights from their packages "
                    "and checking their SHA-256 (once per version)",
                    partial(_weights, name),
                )
            )
    if s.sandbox == "wasm":
        out.append(("the sandbox: compiling it for this CPU (once per version)", _sandbox))
    return out


def _weights(name: str) -> object:
    from pytest_pau.llm.local.weights import resolve_weights

    return resolve_weights(name)


def _sandbox() -> object:
    from pytest_pau.sandbox.runtime import get_runtime

    return get_runtime()


def warm_up(state: PauRun, config: pytest.Config) -> None:
    """Run :func:`steps` now, announcing the slow ones on the terminal."""
    write = live_writer(config)

    def say(line: str) -> None:
        if write is not None:
            write(line, newline=True)

    for what, do in steps(state):
        with told(what, say):
            try:
                do()
            except PauError:
                return  # the items meet it again and report it, with its fix


@contextmanager
def told(what: str, say: Callable[[str], None]) -> Iterator[None]:
    """Say ``pau: WHAT ...`` once the step has run :data:`ANNOUNCE_AFTER_S`, and how
    long it took when it ends; nothing for a quicker step."""
    lock = threading.Lock()
    state = {"announced": False, "over": False}
    started = time.perf_counter()
    prefix = what.partition(": ")[0]

    def announce() -> None:
        with lock:
            if not state["over"]:
                state["announced"] = True
                say(f"pau: {what} ...")

    timer = threading.Timer(ANNOUNCE_AFTER_S, announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["over"] = True
            announced = state["announced"]
        if announced:
            say(f"pau: {prefix}: ready in {time.perf_counter() - started:.1f} s")
