"""Per-episode usage: every answer a client gives is also added to the current scope.

Clients are shared by every episode of a process (and under ``--pau-concurrency`` many
episodes run at once), so a client's own running total cannot say what one item cost.
:func:`usage_scope` opens a :class:`~pytest_pau.models.Usage` for the code that runs inside
it, in this thread and context; :class:`~pytest_pau.llm.LLMClient` adds each answer to it,
so an item counts exactly its own calls, those of an episode that ended in an error too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pytest_pau.models import Usage

_current: ContextVar[Usage | None] = ContextVar("pau_usage_scope", default=None)


@contextmanager
def usage_scope() -> Iterator[Usage]:
    """A fresh :class:`Usage` that every answer given inside the block is added to."""
    usage = Usage()
    token = _current.set(usage)
    try:
        yield usage
    finally:
        _current.reset(token)


def charge(usage: Usage) -> None:
    """Add ``usage`` to the current scope, if one is open."""
    scope = _current.get()
    if scope is not None:
        scope.add(usage)
