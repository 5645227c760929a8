"""The exceptions pytest-pau raises.

    PauError                      base of everything below
    ├── ConfigError               a bad option or ini value (the plugin turns it into pytest.UsageError)
    ├── DatasetError              bad data: names the file, the line or row, and the field
    ├── SandboxError              the sandbox itself failed (not the method it runs)
    │   └── SandboxBuildError     the Wasm component could not be built or loaded
    ├── LLMError                  a model call failed for good
    │   ├── LLMConfigError        not retryable: bad key, unknown model, bad request
    │   ├── LLMUnavailableError   retryable errors persisted past the retry budget
    │   ├── LLMResponseError      the server answered with something that is no answer
    │   └── ReasoningBudgetError  a reasoning model spent every cap on hidden reasoning
    ├── BudgetExceeded            --pau-max-cost-usd is spent; no new model calls start
    ├── ScoreError                a judge, coder or hook gave a score that is none (NaN...)
    ├── CacheError                the model cache cannot be opened or written (names the fix)
    │   └── CacheCorruptError     the cache file is damaged (the plugin sets it aside at start)
    ├── LocalModelError           the embedded model is missing, corrupt, or its extra not installed
    ├── UserCacheError            the per-user cache (PAU_USER_CACHE) cannot hold a folder
    └── MergeError                shard reports that do not make one run (missing, twice, mismatched)

An error that the model under test did not cause (sandbox build, provider outage, budget)
is an *infrastructure* failure: the plugin reports it as an error (E), not a failure (F).

    CacheWarning                  (a UserWarning) the cache was set aside or an answer not stored
    WaitWarning                   (a UserWarning) a provider asked for a long pause: how long
                                  is waited (at most PAU_MAX_PAUSE_S) and what it asked for

:func:`warn` issues pytest-pau's own warnings; inside :func:`deferred_warnings` (an
episode running ahead of pytest in a background thread) it keeps them, so that they are
issued when pytest reaches the item, under its warning filters and in its summary.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class PauError(Exception):
    """Base class of every error pytest-pau raises on purpose."""


class ConfigError(PauError):
    """An option or ini value is invalid; the message names it and the accepted values."""


class DatasetError(PauError):
    """A dataset file or row is invalid: ``data.jsonl line 7: field 'header': required``."""


class SandboxError(PauError):
    """The sandbox could not run a call (as opposed to the method raising)."""


class SandboxBuildError(SandboxError):
    """Building or loading the Wasm component failed."""


class LLMError(PauError):
    """A model call failed for good."""


class LLMConfigError(LLMError):
    """A non-retryable model error: wrong key, unknown model, malformed request."""


class LLMUnavailableError(LLMError):
    """Retryable model errors (429, 5xx, timeouts) persisted past the retry budget."""


class LLMResponseError(LLMError):
    """The server's answer cannot be read as one: no choices, text that is not text.

    Raised at the client's boundary (:func:`pytest_pau.llm.response.answer_problem`), never
    cached; ``spent`` is the answer's usage (it was billed), so the item still counts it.
    """

    def __init__(self, message: str, *, spent: object = None) -> None:
        super().__init__(message)
        self.spent = spent


class ReasoningBudgetError(LLMError):
    """A reasoning model gave no visible answer: every attempt's cap went to hidden reasoning.

    ``spent`` is the usage of the attempts (they are billed), so the item still counts it.
    """

    def __init__(self, message: str, *, spent: object = None) -> None:
        super().__init__(message)
        self.spent = spent


class BudgetExceeded(PauError):
    """The run's ``--pau-max-cost-usd`` budget is spent."""


class ScoreError(PauError):
    """A score that is not a number on its scale (NaN, out of range): refused where it enters."""


class LocalModelError(PauError):
    """The embedded local model could not be found, verified or loaded."""


class UserCacheError(PauError):
    """A folder of the per-user cache (built sandbox, joined weights) cannot be made: names
    the folder, the reason and ``PAU_USER_CACHE``."""


class MergeError(PauError):
    """``pau merge`` refused its shards: one is missing or given twice, or they disagree on
    the selection, the settings, the protocol, the judge, the coder or the prompts (each
    problem is one line of the message)."""


class CacheError(PauError):
    """The model cache cannot be opened or written: names the option, the file and the fix."""


class CacheCorruptError(CacheError):
    """The cache file is not a readable SQLite database (damaged pages, or another file)."""

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else message
        """What is wrong with the file, without the advice around it."""


class CacheWarning(UserWarning):
    """The cache needed attention but the run goes on: a damaged file was set aside, or an
    answer that was paid for could not be stored (a re-run pays for it again)."""


class WaitWarning(UserWarning):
    """A provider asked to wait longer than a few seconds (a ``retry-after``, an announced
    quota's reset): how long the run waits, at most ``PAU_MAX_PAUSE_S``, and what it asked."""


Deferred = list[tuple[str, type[Warning]]]
_deferred: ContextVar[Deferred | None] = ContextVar("pau_deferred_warnings", default=None)


def warn(message: str, category: type[Warning], *, stacklevel: int = 2) -> None:
    """Issue a warning, or keep it when :func:`deferred_warnings` is open in this context.

    Python's warning filters and pytest's capture of them are process-wide: a warning
    issued in a background thread lands in whatever item pytest runs at that moment, or
    nowhere (between items, or on an xdist worker's stderr).
    """
    held = _deferred.get()
    if held is not None:
        held.append((message, category))
        return
    warnings.warn(message, category, stacklevel=stacklevel + 1)


@contextmanager
def deferred_warnings() -> Iterator[Deferred]:
    """Keep every :func:`warn` of this context in the list given (to issue them later)."""
    held: Deferred = []
    token = _deferred.set(held)
    try:
        yield held
    finally:
        _deferred.reset(token)


#: Characters of a bad value an error message quotes at most: enough to recognise it,
#: never a whole file in the terminal.
QUOTE_CHARS = 200


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters with the full length said.

    >>> quote("x" * 1000, limit=10)
    "'xxxxxxxxx... (1,002 characters in all)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}... ({len(text):,} characters in all)"
