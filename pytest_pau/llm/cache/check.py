"""The model cache's start-up check: header, schema, ``PRAGMA quick_check``, a write probe.

The plugin calls :func:`verify_cache` once per run, in the process that starts before
any xdist worker, so that a damaged file can be set aside while nobody has it open.

Measured on a 2-core machine, a 121 MiB cache of 30,884 entries: ``PRAGMA quick_check``
0.08-0.23 s warm (``integrity_check`` 0.2-0.8 s), so the quick check runs at every
start: about 1-2 ms per MiB. On a 50 MB cache (12,000 entries of 2.5 KB), the whole
check took 0.10-0.13 s warm with ``quick_check`` and 0.02-0.03 s without it.

The check runs under an exclusive ``flock`` on the cache folder, so that runs starting at
once set a damaged file aside once (:func:`_checking`).
"""

from __future__ import annotations

import os
import sqlite3
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytest_pau.errors import CacheCorruptError, CacheError, CacheWarning
from pytest_pau.llm.cache.cache_file import FILENAME, check_header, is_corrupt, set_aside
from pytest_pau.llm.cache.schema import BASE_COLUMNS
from pytest_pau.llm.cache.store import ResponseCache


@dataclass(frozen=True)
class CacheCheck:
    """What :func:`verify_cache` found and did."""

    path: Path
    """The cache file (a fresh one when the old one was set aside)."""
    entries: int
    """Entries in the file now."""
    seconds: float
    """Time the check took."""
    set_aside: tuple[Path, ...] = ()
    """Where a damaged file (and its -wal/-shm) went; empty when it was sound."""
    warning: str | None = None
    """The set-aside warning, for the run's summary (also issued as a CacheWarning)."""


def verify_cache(
    directory: str | os.PathLike[str],
    *,
    option: str = "--pau-cache-dir",
    quick_check: bool = True,
    busy_timeout_s: float = 60.0,
) -> CacheCheck:
    """Open the cache as a run starts: check it, set a damaged file aside, probe a write.

    Call it in one process before any other opens the cache (the xdist controller, in
    ``prepare_cache``): a damaged file is renamed, which must not happen under a worker.

    Args:
        directory: The cache dir.
        option: The option that named it, for messages.
        quick_check: Run ``PRAGMA quick_check`` (O(size), ~1.5 ms per MiB); without it
            only the header, the schema and a write are checked.
        busy_timeout_s: How long to wait for another process's lock.

    Returns:
        The check; ``warning`` is set when a damaged file was set aside.

    Raises:
        CacheError: the cache cannot be created or written (the message names ``option``,
            the file, the reason and what to do), or a damaged file cannot be moved.
    """
    start = time.perf_counter()
    with _checking(Path(directory), option, busy_timeout_s):
        return _verify(directory, option, quick_check, busy_timeout_s, start)


@contextmanager
def _checking(directory: Path, option: str, timeout_s: float) -> Iterator[None]:
    """Hold an exclusive lock on the cache folder while the file is checked and set aside.

    Several runs may start at once on one cache (two CI jobs on one runner, a run beside
    ``pau cache``): unlocked, each finds the damage, one renames the file, and the others
    fail to rename it, or rename the fresh file the first one just started, or find their
    connection's file moved under it ("disk I/O error"). With the lock, the first sets the
    file aside and the others then find a sound fresh file.

    The lock is ``flock`` on the folder itself, so a read-only folder needs no lock file.
    Without ``fcntl`` (Windows), or where the folder cannot be opened, there is no lock
    and the open that follows reports the folder's problem.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        yield  # the cache's own open names the problem (a file in the way, permissions)
        return
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise CacheError(
                        f"{option}={str(directory)!r}: another process has been checking the "
                        f"model cache there for over {timeout_s:.0f} s; wait for it, or pick "
                        "another folder, or pass --pau-no-cache"
                    ) from None
                time.sleep(0.05)
            except OSError:
                break  # a file system without locks: check unlocked, as before
        yield
    finally:
        os.close(fd)  # releases the lock


def _verify(
    directory: str | os.PathLike[str],
    option: str,
    quick_check: bool,
    busy_timeout_s: float,
    start: float,
) -> CacheCheck:
    path = Path(directory) / FILENAME
    problem = _read_only_check(path, quick_check)
    entries = 0
    if problem is None:
        try:
            cache = ResponseCache(directory, busy_timeout_s=busy_timeout_s, option=option)
        except CacheCorruptError as exc:
            problem = exc.reason
        else:
            try:
                entries = len(cache)
            finally:
                cache.close()
    if problem is None:
        return CacheCheck(path, entries, time.perf_counter() - start)
    try:
        moved = set_aside(path)
    except OSError as exc:
        raise CacheError(
            f"{option}={str(directory)!r}: the model cache {str(path)!r} is damaged "
            f"({problem}) and cannot be moved aside ({exc}); move or delete it yourself, "
            "or pick another folder"
        ) from None
    ResponseCache(directory, busy_timeout_s=busy_timeout_s, option=option).close()
    others = " (with its -wal/-shm files)" if len(moved) > 1 else ""
    warning = (
        f"the model cache {str(path)!r} was damaged ({problem}); it was moved to "
        f"{str(moved[0])!r}{others} and a fresh cache started, so answers cached before "
        f"are paid for again. `sqlite3 {moved[0].name} .recover` may save its entries; "
        "delete it when it is not needed"
    )
    warnings.warn(warning, CacheWarning, stacklevel=2)
    return CacheCheck(path, 0, time.perf_counter() - start, moved, warning)


def _read_only_check(path: Path, quick_check: bool) -> str | None:
    """What is wrong with the file, read through a read-only connection; None if sound.

    Read-only, so that a damaged file is set aside as it was: closing a writable
    connection would checkpoint the WAL into it and delete the WAL. Problems other than
    damage (a lock, permissions) are left to the writable open that follows.
    """
    try:
        check_header(path)
        if not path.is_file() or path.stat().st_size == 0:
            return None
    except CacheCorruptError as exc:
        return exc.reason
    except OSError:
        return None  # not a damage: the writable open names the problem
    try:
        conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error:
        return None
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(responses)")}
        missing = [c for c in BASE_COLUMNS if c not in columns]
        if columns and missing:
            return (
                f"its 'responses' table has no {', '.join(missing)} column(s): "
                "not a pytest-pau cache"
            )
        return run_quick_check(conn) if quick_check else None
    except sqlite3.Error as exc:
        return str(exc) if is_corrupt(exc) else None
    finally:
        conn.close()


def run_quick_check(conn: sqlite3.Connection) -> str | None:
    """``PRAGMA quick_check``: None when sound, else its first problems."""
    rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    if rows == ["ok"]:
        return None
    more = f" (and {len(rows) - 3} more)" if len(rows) > 3 else ""
    return "quick_check: " + "; ".join(rows[:3]) + more


__all__ = ["CacheCheck", "run_quick_check", "verify_cache"]
