"""Checking, inspecting and shrinking the model cache (the plugin's start-up and ``pau cache``).

Everything here is safe while a pytest run writes to the same file: reads see a snapshot
(WAL), deletions run in short transactions (:data:`CHUNK` rows) so a worker's ``put``
waits milliseconds, not the whole operation, and rows written after the operation started
are never deleted (``clear`` stops at the highest rowid it saw, ``prune`` deletes only
rows older than a cutoff in the past).

The start-up check is in :mod:`pytest_pau.llm.cache.check`, the description of a cache
in :mod:`pytest_pau.llm.cache.info`.
"""

from __future__ import annotations

import math
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from pytest_pau.errors import CacheError
from pytest_pau.llm.cache.cache_file import FILENAME, describe_failure, disk_bytes
from pytest_pau.llm.cache.store import ResponseCache

#: Rows deleted per transaction: short enough that a writer waits only milliseconds.
CHUNK = 2000
#: Pages given back per ``incremental_vacuum`` transaction (8 MiB of 4 KiB pages).
VACUUM_STEP = 2048
#: ``prune --max-size`` aims this far below the size, for the estimate's error.
SIZE_MARGIN = 0.95
#: Attempts at ``wal_checkpoint(TRUNCATE)`` beside a writer, 50 ms apart.
CHECKPOINT_TRIES = 20


def _maintenance(cache: ResponseCache) -> sqlite3.Connection:
    """The connection, set to delete cheaply: Debian's SQLite zeroes every freed page by
    default (``SECURE_DELETE``), which doubled the WAL written by a large prune."""
    conn = cache.connection()
    conn.execute("PRAGMA secure_delete = FAST")
    return conn


# -- sizes -------------------------------------------------------------------------------


def _pragma_int(conn: sqlite3.Connection, name: str) -> int:
    return int(conn.execute(f"PRAGMA {name}").fetchone()[0])


def used_bytes(conn: sqlite3.Connection) -> int:
    """Bytes of the pages in use (the file's size once free pages are given back)."""
    pages = _pragma_int(conn, "page_count") - _pragma_int(conn, "freelist_count")
    return pages * _pragma_int(conn, "page_size")


#: SQL of an entry's payload: the stored JSON in bytes, plus its key and model.
PAYLOAD_SQL = "length(CAST(value AS BLOB)) + length(key) + length(model)"


# -- removing entries --------------------------------------------------------------------


@dataclass(frozen=True)
class Reclaim:
    """How the space of removed entries was given back to the file system."""

    method: str
    """``incremental vacuum``, ``VACUUM`` or ``none``."""
    bytes_before: int
    """Database + WAL on disk before."""
    bytes_after: int
    """Database + WAL on disk after."""
    seconds: float
    problem: str | None = None
    """Why space could not be (fully) given back; the entries are removed either way."""


@dataclass(frozen=True)
class Removal:
    """What :func:`clear` or :func:`prune` removed."""

    removed: int
    """Entries deleted (would be deleted, with ``dry_run``)."""
    remaining: int
    """Entries left."""
    seconds: float
    cutoff: float | None = None
    """``prune``: entries created before this time were removed."""
    reclaim: Reclaim | None = None
    """None with ``dry_run`` or when nothing was removed and nothing was free."""
    rounds: list[int] = field(default_factory=list)
    """``prune --max-size``: entries removed per round (the size is re-measured)."""


def count_entries(cache: ResponseCache, model: str | None = None) -> int:
    """Entries in the cache, or of one model."""
    sql, params = "SELECT COUNT(*) FROM responses", ()
    if model is not None:
        sql, params = sql + " WHERE model = ?", (model,)  # type: ignore[assignment]
    return int(cache.connection().execute(sql, params).fetchone()[0])


def clear(cache: ResponseCache, *, model: str | None = None, dry_run: bool = False) -> Removal:
    """Delete every entry, or those of ``model``, that existed when the call started.

    Rows go in windows of :data:`CHUNK` rowids, one transaction each; rows written
    meanwhile get higher rowids and are kept.
    """
    start = time.perf_counter()
    conn = _maintenance(cache)
    if dry_run:
        n = count_entries(cache, model)
        return Removal(n, len(cache) - n, time.perf_counter() - start)
    high = conn.execute("SELECT MAX(rowid) FROM responses").fetchone()[0] or 0
    where, params = ("AND model = ?", (model,)) if model is not None else ("", ())
    low, removed = 0, 0
    while low < high:
        row = conn.execute(
            "SELECT rowid FROM responses WHERE rowid > ? AND rowid <= ? ORDER BY rowid "
            "LIMIT 1 OFFSET ?",
            (low, high, CHUNK - 1),
        ).fetchone()
        top = high if row is None else int(row[0])
        cur = conn.execute(
            f"DELETE FROM responses WHERE rowid > ? AND rowid <= ? {where}", (low, top, *params)
        )
        removed += cur.rowcount
        low = top
    reclaim = reclaim_space(conn, cache.path)
    return Removal(removed, len(cache), time.perf_counter() - start, reclaim=reclaim)


def _delete_before(conn: sqlite3.Connection, cutoff: float) -> int:
    removed = 0
    while True:
        cur = conn.execute(
            "DELETE FROM responses WHERE rowid IN (SELECT rowid FROM responses "
            "WHERE created < ? ORDER BY created LIMIT ?)",
            (cutoff, CHUNK),
        )
        removed += cur.rowcount
        if cur.rowcount < CHUNK:
            return removed


def size_cutoff(conn: sqlite3.Connection, max_bytes: int) -> float | None:
    """The creation time before which entries must go for the file to fit in ``max_bytes``.

    Keeps the newest entries whose payload, scaled by the file's bytes per payload byte
    (pages, index, free space in pages), fits in ``SIZE_MARGIN * max_bytes``. None when
    the entries in use already fit.
    """
    used = used_bytes(conn)
    if used <= max_bytes:
        return None
    payload = conn.execute(f"SELECT SUM({PAYLOAD_SQL}) FROM responses").fetchone()[0] or 0
    if payload <= 0:
        return None
    budget = SIZE_MARGIN * max_bytes * payload / used
    kept = 0
    rows = conn.execute(f"SELECT created, {PAYLOAD_SQL} FROM responses ORDER BY created DESC")
    try:
        for created, size in rows:
            kept += size
            if kept > budget:
                return math.nextafter(float(created), math.inf)  # this one goes too
    finally:
        # An unfinished SELECT keeps its read transaction open: the deletes after it would
        # not commit, and incremental_vacuum and the checkpoint could not run.
        rows.close()
    return None


def prune(
    cache: ResponseCache,
    *,
    older_than_s: float | None = None,
    max_bytes: int | None = None,
    dry_run: bool = False,
) -> Removal:
    """Delete entries older than ``older_than_s``, then the oldest until under ``max_bytes``.

    ``max_bytes`` is the size of the database file once free pages are given back; the
    size is measured again after each round (at most 4 rounds). Entries stored after the
    call started are never deleted, so a pytest run writing beside it loses nothing (and
    the file may stay above ``max_bytes`` by what that run wrote meanwhile).
    """
    if older_than_s is None and max_bytes is None:
        raise ValueError("prune needs older_than_s or max_bytes")
    start = time.perf_counter()
    started = time.time()
    conn = _maintenance(cache)
    cutoff = None if older_than_s is None else started - older_than_s

    def by_size(current: float | None) -> float | None:
        """The later of ``current`` and the size's cutoff, never after the start."""
        found = size_cutoff(conn, max_bytes) if max_bytes is not None else None
        if found is None:
            return current
        found = min(found, started)
        return found if current is None else max(current, found)

    if dry_run:
        cutoff = by_size(cutoff)
        n = 0
        if cutoff is not None:
            sql = "SELECT COUNT(*) FROM responses WHERE created < ?"
            n = int(conn.execute(sql, (cutoff,)).fetchone()[0])
        return Removal(n, len(cache) - n, time.perf_counter() - start, cutoff=cutoff)
    rounds = []
    if cutoff is not None:
        rounds.append(_delete_before(conn, cutoff))
    reclaim = reclaim_space(conn, cache.path)
    for _ in range(4 if max_bytes is not None else 0):
        later = by_size(cutoff)
        if later is None or later == cutoff:
            break  # it fits, or only entries stored after the start are left to delete
        cutoff = later
        rounds.append(_delete_before(conn, cutoff))
        reclaim = _merge(reclaim, reclaim_space(conn, cache.path))
    return Removal(sum(rounds), len(cache), time.perf_counter() - start, cutoff, reclaim, rounds)


def _merge(first: Reclaim, then: Reclaim) -> Reclaim:
    methods = {m for m in (first.method, then.method) if m != "none"}
    return Reclaim(
        " + ".join(sorted(methods)) or "none",
        first.bytes_before,
        then.bytes_after,
        first.seconds + then.seconds,
        then.problem or first.problem,
    )


def reclaim_space(conn: sqlite3.Connection, path: Path) -> Reclaim:
    """Give free pages back to the file system, then checkpoint and truncate the WAL.

    Files made by this version have ``auto_vacuum = INCREMENTAL``: free pages go back in
    transactions of :data:`VACUUM_STEP` pages, so writers beside it wait milliseconds.
    Older files get one ``VACUUM`` that also turns incremental vacuum on; it holds the
    write lock while it copies the whole file (about 1 s per 100 MiB here; writers wait
    within their busy timeout) and needs free disk space of about the file's size.
    """
    start = time.perf_counter()
    before = sum(disk_bytes(path))
    method, problem = "none", None
    try:
        free = _pragma_int(conn, "freelist_count")
        if _pragma_int(conn, "auto_vacuum") == 2:
            if free:
                method = "incremental vacuum"
            for _ in range(free // VACUUM_STEP + 2):  # bounded: writers free pages too
                if not _pragma_int(conn, "freelist_count"):
                    break
                # executescript steps the pragma to the end; execute() would step it once,
                # which gives back one page (the pragma returns no columns to fetch).
                conn.executescript(f"PRAGMA incremental_vacuum({VACUUM_STEP});")
        elif free:
            method = "VACUUM"
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
            conn.execute("VACUUM")
    except sqlite3.Error as exc:
        problem = (
            f"free space not given back ({describe_failure(path, exc)}); new entries reuse "
            "it. Run the command again when no pytest run is using the cache"
        )
    busy = 1
    try:
        # A writer beside it can hold a snapshot for a moment: SQLite then answers busy
        # at once instead of waiting; try a few times.
        for _ in range(CHECKPOINT_TRIES):
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                break
            time.sleep(0.05)
    except sqlite3.Error as exc:
        problem = problem or f"WAL not checkpointed ({exc})"
    if busy and problem is None:
        problem = (
            "another process is using the cache, so the WAL file could not be truncated "
            "now; it shrinks to 64 MiB at its next checkpoint and goes when the last "
            "connection closes"
        )
    return Reclaim(method, before, sum(disk_bytes(path)), time.perf_counter() - start, problem)


def open_for_maintenance(
    directory: str | os.PathLike[str], *, option: str = "--cache-dir"
) -> ResponseCache:
    """Open an existing cache to change it (never creates one).

    Raises:
        CacheError: there is no cache file, or it cannot be written.
    """
    path = Path(directory) / FILENAME
    if not path.is_file():
        raise CacheError(f"{option}={str(directory)!r}: no model cache there ({str(path)!r})")
    return ResponseCache(directory, option=option)


__all__ = [
    "PAYLOAD_SQL",
    "Reclaim",
    "Removal",
    "clear",
    "count_entries",
    "open_for_maintenance",
    "prune",
    "reclaim_space",
    "size_cutoff",
    "used_bytes",
]
