"""Stop starting items once the same unfixable error has ended several items in a row.

A refused key, an unknown model or a sandbox that cannot be built fails every item the
same way; retrying each of 240 items only makes the run slower to say so. After
:data:`STOP_AFTER` consecutive items with one identical error that no retry can fix, the
run starts no further item: those are skipped with the reason, which the summary shows.
A result of any other kind in between (passed, failed, another error) resets the count.

Per process: under xdist each worker stops on its own streak.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pau.models import InstanceResult

#: Consecutive items with the same non-retryable error that stop the run.
STOP_AFTER = 3
#: Errors that a retry, or the next item, cannot fix (the evaluator writes the class first).
NON_RETRYABLE = ("LLMConfigError", "LocalModelError", "SandboxBuildError")
_SHOWN = 400


def non_retryable(error: str | None) -> bool:
    """Whether an item's ``error`` is one that the next item would hit too."""
    return error is not None and error.split(" ", 1)[0].rstrip(":") in NON_RETRYABLE


class FailureStreak:
    """Counts items that ended with one identical non-retryable error, in finishing order.

    Thread-safe: episodes finish in background threads (``--pau-concurrency``).
    """

    def __init__(self, limit: int = STOP_AFTER) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._error: str | None = None
        self._count = 0
        self.reason: str | None = None
        """Why no further item starts, once the streak reached ``limit`` (then it stays)."""

    def observe(self, result: InstanceResult) -> None:
        """Count ``result`` (an item that was started and finished)."""
        if result.skipped is not None and result.error is None:
            return  # not run: says nothing about the next item
        with self._lock:
            if self.reason is not None:
                return
            error = result.error
            if not non_retryable(error):
                self._error, self._count = None, 0
                return
            if error == self._error:
                self._count += 1
            else:
                self._error, self._count = error, 1
            if self._count >= self.limit:
                shown = error if len(error or "") <= _SHOWN else f"{(error or '')[:_SHOWN]}..."
                self.reason = (
                    f"not started: {self._count} items in a row failed with the same error, "
                    f"which no retry fixes, so the run stopped starting items; fix it and "
                    f"re-run. The error: {shown}"
                )
