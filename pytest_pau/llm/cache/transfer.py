"""Caches that travel: export a cache to one file, import files into a cache (union by key).

CI machines do not share a disk, and SQLite in WAL mode must not live on a network
filesystem; a CI cache (GitHub's ``actions/cache``) saves one job's folder under one key. So
each job exports what it has to a plain SQLite file (the same ``responses`` table, in
rollback-journal mode, with a ``pau_export`` table saying what it is), uploads it, and the
job that needs them all imports every file:

- :func:`export_cache` copies the rows in one ``INSERT ... SELECT`` from the attached cache:
  a read snapshot, so a run writing meanwhile neither blocks it nor is blocked, and the
  file holds a consistent set. It is written beside its destination and renamed over it.
- :func:`import_caches` adds each file's rows whose key the cache lacks, in short
  transactions (a run writing to the cache meanwhile waits at most one batch). A key the
  cache already holds with another answer is a *conflict*: the cache keeps its answer and
  the conflict is counted and named (a provider that is not deterministic at temperature 0
  answers the same request two ways; which one a re-run gets must not depend on import
  order silently).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pytest_pau._version import __version__
from pytest_pau.errors import CacheCorruptError, CacheError, ConfigError
from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg
from pytest_pau.llm.cache.cache_file import FILENAME, check_header, is_wal
from pytest_pau.llm.cache.import_sources import (
    bounded,
    check_sources,
    columns,
    read_only_folder,
    readable,
    stored_bytes,
    unreadable,
)
from pytest_pau.llm.cache.schema import PROBE_KEY, SCHEMA

#: The table that marks a file as an export, with what made it.
EXPORT_TABLE = "pau_export"
#: Value fields that say how an answer was obtained, not what it is: ignored when two
#: answers under one key are compared.
VOLATILE_FIELDS = ("latency_s", "cached", "cached_other_version")
#: Models whose rows are bookkeeping, not answers (a differing value is no conflict).
BOOKKEEPING_MODELS = ("pytest-pau/finished-items", "pytest-pau/shard-plans")
#: Rows per transaction of an import.
BATCH = 500
#: The files of a cache folder an export must never replace.
_CACHE_FILES = tuple(f"{FILENAME}{suffix}" for suffix in ("", "-wal", "-shm"))


@dataclass(frozen=True)
class ExportResult:
    """What :func:`export_cache` wrote."""

    path: Path
    entries: int
    bytes: int


@dataclass
class ImportResult:
    """What :func:`import_caches` did with one file."""

    path: Path
    read: int = 0
    added: int = 0
    same: int = 0
    """Keys the cache already held with the same answer."""
    conflicts: int = 0
    """Keys the cache already held with another answer (the cache's answer is kept)."""
    examples: list[tuple[str, str]] = field(default_factory=list)
    """``(key, model)`` of the first conflicts."""


def export_cache(directory: Path, destination: Path, *, since: float | None = None) -> ExportResult:
    """Write the cache's entries (those stored at or after ``since``) to ``destination``.

    Args:
        directory: The cache folder.
        destination: The export file; an earlier export there is replaced, any other file
            is refused.
        since: Seconds since the epoch; None exports every entry.

    Raises:
        CacheError: No cache there, the destination is another kind of file or the cache
            itself, or the file cannot be written.
    """
    source = readable(directory)
    destination = destination.expanduser()
    # The one guard over every output: not the cache's files, no FIFO, device or folder
    # (is_export below would open a FIFO and wait for a writer), a writable place.
    cache = output_arg(
        "--cache-dir", source.parent, folder=True, what="the model cache", writes=_CACHE_FILES
    )
    try:
        check_outputs([output_arg("pau cache export", destination)], [cache], checked=WRITE_CHECKED)
    except ConfigError as exc:
        raise CacheError(str(exc)) from None
    if destination.exists() and not is_export(destination):
        raise CacheError(
            f"pau cache export: {str(destination)!r} exists and is not an earlier "
            "export; it is left alone: pick another file name"
        )
    tmp = destination.with_name(f".{destination.name}.{os.getpid()}.tmp")
    try:
        tmp.unlink(missing_ok=True)
        with contextlib.closing(sqlite3.connect(tmp, isolation_level=None)) as db:
            db.execute("PRAGMA journal_mode = DELETE")
            db.execute(SCHEMA)
            db.execute(f"CREATE TABLE {EXPORT_TABLE} (name TEXT PRIMARY KEY, value TEXT)")
            db.execute("ATTACH DATABASE ? AS src", (str(source),))
            db.execute("PRAGMA src.busy_timeout = 60000")
            names = ", ".join(columns(db, "src", source))
            where = "key != ?" + ("" if since is None else " AND created >= ?")
            params: tuple[object, ...] = (PROBE_KEY,) if since is None else (PROBE_KEY, since)
            db.execute("BEGIN")
            # One statement: one read snapshot of the cache, whatever a run writes meanwhile.
            db.execute(
                f"INSERT INTO main.responses ({names}) "
                f"SELECT {names} FROM src.responses WHERE {where}",
                params,
            )
            entries = int(db.execute("SELECT COUNT(*) FROM main.responses").fetchone()[0])
            meta = {
                "format": "pytest-pau cache export 1",
                "plugin_version": __version__,
                "exported": str(time.time()),
                "source": str(source),
                "since": "" if since is None else str(since),
                "entries": str(entries),
            }
            db.executemany(f"INSERT INTO {EXPORT_TABLE} VALUES (?, ?)", meta.items())
            db.execute("COMMIT")
            db.execute("DETACH DATABASE src")
        os.replace(tmp, destination)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        if (
            isinstance(exc, sqlite3.DatabaseError)
            and is_wal(source)
            and read_only_folder(source.parent)
        ):
            raise CacheError(f"pau cache export: {unreadable(source, source, exc)}") from None
        raise CacheError(
            f"pau cache export: could not write {str(destination)!r} from {str(source)!r} "
            f"({type(exc).__name__}: {exc})"
        ) from None
    return ExportResult(destination, entries, destination.stat().st_size)


def is_export(path: Path) -> bool:
    """Whether ``path`` is a file :func:`export_cache` wrote."""
    try:
        check_header(path)
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            row = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (EXPORT_TABLE,)
            ).fetchone()
    except (CacheCorruptError, sqlite3.Error, OSError):
        return False
    return row is not None


def _answer(value: str) -> object:
    """What an answer says, without how it was obtained (for conflict checks)."""
    try:
        data = json.loads(value)
    except ValueError:
        return value
    if isinstance(data, dict):
        for name in VOLATILE_FIELDS:
            data.pop(name, None)
    return data


def import_caches(target: sqlite3.Connection, sources: Sequence[Path]) -> list[ImportResult]:
    """Add every row of ``sources`` whose key ``target`` lacks (see the module docstring).

    Args:
        target: A connection to the cache (autocommit: ``ResponseCache.connection()``).
        sources: Export files or cache folders/files, in order (an earlier one wins a key).

    Raises:
        CacheError: A source is missing or is not a pytest-pau cache or export (checked
            for every source before any row is added).
    """
    files = check_sources(sources)
    results = []
    for path in files:
        with contextlib.closing(sqlite3.connect(path, timeout=60.0)) as src:
            try:
                names = columns(src, "main", path)
                cursor = src.execute(
                    f"SELECT {', '.join(names)} FROM responses WHERE key != ?", (PROBE_KEY,)
                )
                rows = bounded(cursor, path, stored_bytes(path))
                results.append(_import_rows(target, path, names, rows))
            except sqlite3.DatabaseError as exc:
                raise CacheError(
                    f"pau cache import: could not read {str(path)!r} "
                    f"({type(exc).__name__}: {exc}); nothing more was imported from it"
                ) from None
    return results


def _import_rows(
    target: sqlite3.Connection,
    path: Path,
    columns: list[str],
    rows: Iterable[tuple[object, ...]],
) -> ImportResult:
    result = ImportResult(path)
    key_at, value_at, model_at = (
        columns.index("key"),
        columns.index("value"),
        columns.index("model"),
    )
    insert = (
        f"INSERT OR IGNORE INTO responses ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    batch: list[tuple[object, ...]] = []

    def flush() -> None:
        keys = [str(r[key_at]) for r in batch]
        marks = ", ".join("?" for _ in keys)
        held = dict(
            target.execute(f"SELECT key, value FROM responses WHERE key IN ({marks})", keys)
        )
        new = []
        for row in batch:
            key = str(row[key_at])
            if key not in held:
                new.append(row)
            elif _answer(held[key]) == _answer(str(row[value_at])) or (
                row[model_at] in BOOKKEEPING_MODELS
            ):
                result.same += 1
            else:
                result.conflicts += 1
                if len(result.examples) < 5:
                    result.examples.append((key, str(row[model_at])))
        if new:
            target.execute("BEGIN IMMEDIATE")
            try:
                before = target.total_changes
                target.executemany(insert, new)
                added = target.total_changes - before
                target.execute("COMMIT")
            except BaseException:
                if target.in_transaction:
                    target.execute("ROLLBACK")
                raise
            result.added += added
            # A key a run wrote between the look-up and the insert is kept as it wrote it.
            result.same += len(new) - added
        batch.clear()

    for row in rows:
        result.read += 1
        batch.append(tuple(row))
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    return result


def read_values(directory: Path, keys: Sequence[str]) -> dict[str, object]:
    """The stored values of those of ``keys`` the cache in ``directory`` holds (read only).

    Raises:
        sqlite3.Error, OSError: The file exists but cannot be read.
    """
    path = directory.expanduser() / FILENAME
    if not path.is_file() or not keys:
        return {}
    out: dict[str, object] = {}
    with contextlib.closing(sqlite3.connect(path, timeout=60.0)) as db:
        for start in range(0, len(keys), BATCH):
            chunk = list(keys[start : start + BATCH])
            marks = ", ".join("?" for _ in chunk)
            for key, value in db.execute(
                f"SELECT key, value FROM responses WHERE key IN ({marks})", chunk
            ):
                try:
                    out[key] = json.loads(value)
                except ValueError:
                    continue  # a damaged row is no value
    return out


def keys_present(directory: Path, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` the cache in ``directory`` holds (read only; none when it has no file).

    Raises:
        sqlite3.Error, OSError: The file exists but cannot be read.
    """
    path = directory.expanduser() / FILENAME
    if not path.is_file() or not keys:
        return set()
    found: set[str] = set()
    with contextlib.closing(sqlite3.connect(path, timeout=60.0)) as db:
        for start in range(0, len(keys), BATCH):
            chunk = list(keys[start : start + BATCH])
            marks = ", ".join("?" for _ in chunk)
            found.update(
                row[0]
                for row in db.execute(f"SELECT key FROM responses WHERE key IN ({marks})", chunk)
            )
    return found
