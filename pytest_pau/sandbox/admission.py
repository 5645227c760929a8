"""A run-wide bound on sandbox memory: a sandbox starts only when its cap fits.

Each sandbox is capped (``memory_mb``, 256 MiB by default), but nothing capped their sum: 16
sandboxes each filling 200 MB took a host to 2.85 GB, and ``--pau-concurrency=128`` on a
dataset of such methods would have asked for ~32 GiB of a 24 GiB machine. So every
:class:`~pytest_pau.sandbox.Sandbox` reserves its cap here before it starts and gives it back
when it closes; a sandbox whose cap does not fit in what is left waits for others to close
(admission by memory). The episodes that wait lose time, never results: a call's limits
(fuel, wall clock) start when the call does.

The budget per process is :func:`default_budget_mb`: 40% of the memory this machine (or its
cgroup) has, shared between xdist workers, or ``PAU_SANDBOX_MEMORY_MB``. Two rules keep it
deadlock-free: a thread that already holds a sandbox never waits for another (the coder's
code runner inside an episode, a gold control beside it: it would wait for itself), and a
sandbox larger than the whole budget still starts when no other sandbox is live. So the
caps of live sandboxes stay within the budget, plus at most one nested sandbox per thread
holding one (at most twice the budget: 80% of memory).
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

#: Share of the machine's memory that live sandboxes' caps may take, per run.
SHARE = 0.4
#: Whatever the machine, room for this many default sandboxes (256 MiB) at least.
MIN_SANDBOXES = 2


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
    """Live sandboxes' caps in MiB per process: ``PAU_SANDBOX_MEMORY_MB``, else
    :data:`SHARE` of :func:`machine_memory_mb` divided between the xdist workers."""
    from pytest_pau.settings.env import env_int

    explicit = env_int("PAU_SANDBOX_MEMORY_MB")
    if explicit > 0:
        return explicit
    memory = machine_memory_mb() or 8192
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1))
    return max(MIN_SANDBOXES * 256, int(memory * SHARE) // workers)


class MemoryAdmission:
    """Admits sandboxes while the sum of their caps fits in ``budget_mb``.

    Args:
        budget_mb: The bound; None reads :func:`default_budget_mb` on first use.
    """

    def __init__(self, budget_mb: int | None = None) -> None:
        self._budget_mb = budget_mb
        self._cond = threading.Condition()
        self._held: dict[int, int] = {}
        self.in_use_mb = 0
        """The caps of the sandboxes live now."""
        self.peak_mb = 0
        """The most :attr:`in_use_mb` has been."""
        self.waits = 0
        """How many sandboxes had to wait for memory."""

    @property
    def budget_mb(self) -> int:
        if self._budget_mb is None:
            self._budget_mb = default_budget_mb()
        return self._budget_mb

    def acquire(self, mb: int) -> int:
        """Reserve ``mb``, waiting while it does not fit; returns the holding thread's id."""
        me = threading.get_ident()
        budget = self.budget_mb
        with self._cond:
            if not self._held.get(me):
                waited = False
                while self.in_use_mb and self.in_use_mb + mb > budget:
                    waited = True
                    self._cond.wait()
                self.waits += waited
            self._held[me] = self._held.get(me, 0) + mb
            self.in_use_mb += mb
            self.peak_mb = max(self.peak_mb, self.in_use_mb)
        return me

    def release(self, mb: int, holder: int) -> None:
        """Give back what :meth:`acquire` reserved for ``holder`` (any thread may call it)."""
        with self._cond:
            left = self._held.get(holder, 0) - mb
            if left > 0:
                self._held[holder] = left
            else:
                self._held.pop(holder, None)
            self.in_use_mb = max(0, self.in_use_mb - mb)
            self._cond.notify_all()

    def reset(self, budget_mb: int | None = None) -> None:
        """Start over with ``budget_mb`` (tests; a run that changed its workers)."""
        with self._cond:
            self._budget_mb = budget_mb
            self.peak_mb = self.in_use_mb
            self.waits = 0


ADMISSION = MemoryAdmission()
"""The process's admission: every sandbox goes through it."""
