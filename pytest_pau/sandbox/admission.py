"""A run-wide bound on the memory sandboxes use: each holds what its method was seen to need.

Each sandbox is capped (``memory_mb``, 256 MiB by default), but nothing capped their sum: 16
sandboxes each filling 200 MB took a host to 2.85 GB. Reserving every sandbox's cap for its
whole life bounded that sum, but an episode keeps its sandbox while it waits on the model,
and a CPython-for-WASI guest uses a small part of its cap: ``--pau-concurrency=64`` under
``-n 2`` quietly became ~19 episodes per worker (issue 34).

So a sandbox holds its **level** here, not its cap: the memory limit its instance runs
under (the store's linear-memory limit for ``wasm``; the address space the ``process``
worker may add, as ``RLIMIT_AS``). A sandbox starts at :data:`START_MB` (or its cap, if
smaller), which a CPython guest's start-up image and an ordinary method fit in. A call
that fails at its level for want of memory (a ``MemoryError``, or a crash: an interpreter
that could not allocate may abort) and whose level is below the cap is run again, on a fresh
instance, at twice the level: the sandbox first takes the difference from the run's bound
here (:meth:`MemoryAdmission.grow`), without waiting. The instance that failed was thrown
away, so the run again is the same call at a larger limit: its result is the one a sandbox
at that limit gives. A level is kept while the sandbox lives (a method that needed 100 MiB
once will likely need it again; a fresh instance would need as many runs again), and given
back when it closes. wasmtime reports no store's memory size to the host, so the level is
what is known: the memory a sandbox's instance uses never exceeds it, and, past the start,
a call of the sandbox failed at half of it. (A method that catches its own ``MemoryError``
and returns normally is not run again: it sees its level's limit, as it saw its cap's.)

When the bound has no room for a larger level, the call fails as a reported limit: a
``MemoryError`` result whose message names the run's bound (:data:`BOUND_MESSAGE`), counted
in ``Sandbox.bound_refusals`` (the Evaluator makes such an item an infrastructure error),
and the sandbox goes back to its start level (its instance was thrown away: the memory it
grew is free for others). Never a wait: calls last ~0.1 ms, and a wait inside one would
hold its episode for as long as others keep theirs; and never a host out of memory. A
sandbox alone in the process may grow to its cap past the bound (as it may start past it).

The bound per process is :func:`default_budget_mb`: 40% of the memory this machine (or its
cgroup) has, shared between xdist workers, or ``PAU_SANDBOX_MEMORY_MB``. A new sandbox whose
start level does not fit waits for others to close (the only wait; the episodes that wait
lose time, never results: a call's limits, fuel and wall clock, start when the call does).
Two rules keep it deadlock-free: a thread that already holds a sandbox never waits for
another (the coder's code runner inside an episode, a gold control beside it: it would wait
for itself), and a sandbox whose start level is larger than the whole budget still starts
when no other sandbox is live. Growth never waits, so it adds no wait to reason about. The
levels of live sandboxes stay within the budget, plus at most one nested start level per
thread holding a sandbox, plus the growth of a sandbox that was alone.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

#: Share of the machine's memory that live sandboxes' levels may take, per run.
SHARE = 0.4
#: Whatever the machine, room for this many default sandboxes (256 MiB) at least.
MIN_SANDBOXES = 2
#: A sandbox's first level in MiB, twice what ordinary methods need: the Wasm guest's
#: start-up image is 252 pages (15.75 MiB) of linear memory, and each of the 240 builtin
#: methods runs all its examples within 17 MiB. A method that needs more runs again higher.
START_MB = 32
#: What a call that needed more than the run's bound had left says (``str.format`` fields:
#: level, cap, held, budget).
BOUND_MESSAGE = (
    "the run's sandbox memory bound was reached: this call needed more than {level} MiB "
    "(its cap is {cap} MiB), and live sandboxes hold {held} of the {budget} MiB the run "
    "allows per process; set PAU_SANDBOX_MEMORY_MB higher (0: 40% of memory), or lower "
    "--pau-concurrency"
)


def machine_memory_mb() -> int | None:
    """The memory this process may use: physical memory, or the cgroup's limit when lower."""
    found = []
    with contextlib.suppress(ValueError, OSError, AttributeError):  # not POSIX
        found.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    for limit in (
        Path("/sys/fs/cgroup/memory.max"),
        Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
    ):
        try:
            text = limit.read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < (1 << 60):
            found.append(int(text))
    return min(found) // (1 << 20) if found else None


def default_budget_mb() -> int:
    """Live sandboxes' levels in MiB per process: ``PAU_SANDBOX_MEMORY_MB``, else
    :data:`SHARE` of :func:`machine_memory_mb` divided between the xdist workers."""
    from pytest_pau.settings.env_vars import env_int

    explicit = env_int("PAU_SANDBOX_MEMORY_MB")
    if explicit > 0:
        return explicit
    memory = machine_memory_mb() or 8192
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1))
    return max(MIN_SANDBOXES * 256, int(memory * SHARE) // workers)


@dataclass
class Hold:
    """What one sandbox holds: its level, and the thread that started it."""

    mb: int
    holder: int


class MemoryAdmission:
    """Admits sandboxes while the sum of their levels fits in ``budget_mb``.

    Args:
        budget_mb: The bound; None reads :func:`default_budget_mb` on first use.
    """

    def __init__(self, budget_mb: int | None = None) -> None:
        self._budget_mb = budget_mb
        self._cond = threading.Condition()
        self._held: dict[int, int] = {}
        self.in_use_mb = 0
        """The levels of the sandboxes live now."""
        self.peak_mb = 0
        """The most :attr:`in_use_mb` has been."""
        self.waits = 0
        """How many sandboxes had to wait for memory to start."""
        self.grown = 0
        """How many times a sandbox's level grew."""
        self.refused = 0
        """How many calls failed because the bound had no room for a larger level."""

    @property
    def budget_mb(self) -> int:
        if self._budget_mb is None:
            self._budget_mb = default_budget_mb()
        return self._budget_mb

    def acquire(self, mb: int) -> Hold:
        """Reserve a new sandbox's start level ``mb``, waiting while it does not fit."""
        me = threading.get_ident()
        budget = self.budget_mb
        with self._cond:
            if not self._held.get(me):
                waited = False
                while self.in_use_mb and self.in_use_mb + mb > budget:
                    waited = True
                    self._cond.wait()
                self.waits += waited
            self._take(me, mb)
        return Hold(mb, me)

    def grow(self, hold: Hold, mb: int) -> bool:
        """Raise ``hold``'s level by ``mb`` if the bound has room (or it is alone); never waits."""
        budget = self.budget_mb
        with self._cond:
            alone = self.in_use_mb == hold.mb
            if not alone and self.in_use_mb + mb > budget:
                self.refused += 1
                return False
            self._take(hold.holder, mb)
            hold.mb += mb
            self.grown += 1
        return True

    def _take(self, holder: int, mb: int) -> None:
        self._held[holder] = self._held.get(holder, 0) + mb
        self.in_use_mb += mb
        self.peak_mb = max(self.peak_mb, self.in_use_mb)

    def release(self, hold: Hold, keep_mb: int = 0) -> None:
        """Give back what ``hold`` holds beyond ``keep_mb`` (any thread may call it; calling
        it again gives back nothing more)."""
        with self._cond:
            mb = max(0, hold.mb - keep_mb)
            hold.mb -= mb
            left = self._held.get(hold.holder, 0) - mb
            if left > 0:
                self._held[hold.holder] = left
            else:
                self._held.pop(hold.holder, None)
            self.in_use_mb = max(0, self.in_use_mb - mb)
            self._cond.notify_all()

    def reset(self, budget_mb: int | None = None) -> None:
        """Start over with ``budget_mb`` (tests; a run that changed its workers)."""
        with self._cond:
            self._budget_mb = budget_mb
            self.peak_mb = self.in_use_mb
            self.waits = self.grown = self.refused = 0


ADMISSION = MemoryAdmission()
"""The process's admission: every sandbox goes through it."""
