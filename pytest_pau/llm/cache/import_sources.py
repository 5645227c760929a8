"""What ``pau cache import`` and ``export`` read, checked before a row is: a regular file
with SQLite's header, a ``responses`` that is a stored table (a view or generated columns
compute their rows when read, and a recursive view never ends), read no further than the
bytes the file stores, and an unreadable file named for what it is (a WAL-mode cache on
read-only storage is a cache, not "no cache").
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from pathlib import Path

from pytest_pau.errors import CacheCorruptError, CacheError, ConfigError
from pytest_pau.files.guard import check_input_file, real
from pytest_pau.llm.cache.cache_file import FILENAME, check_header, disk_bytes, is_wal
from pytest_pau.llm.cache.schema import BASE_COLUMNS

#: What an import may read beyond the bytes a source stores (SQLite's own overhead makes
#: the stored size an upper bound of the text in it; this is a margin for small files).
READ_SLACK_BYTES = 1024 * 1024
COLUMNS = (*BASE_COLUMNS, "prompts_version")
"""The columns an export and an import copy, of those a source has."""


def cache_file(path: Path) -> Path:
    """``path`` itself, or the cache file inside it when it is a cache folder."""
    return path / FILENAME if path.is_dir() else path


def columns(db: sqlite3.Connection, schema: str, path: Path) -> list[str]:
    kind = db.execute(
        f"SELECT type, sql FROM {schema}.sqlite_master WHERE name = 'responses'"
    ).fetchone()
    if kind is not None and (kind[0] != "table" or "VIRTUAL" in str(kind[1]).upper()[:40]):
        # A view (or a virtual table) computes its rows when read: a recursive one never
        # ends. A cache and an export store theirs in a plain table.
        what = "a view" if kind[0] == "view" else f"a {kind[0]}, not a plain table"
        raise CacheCorruptError(
            f"{str(path)!r} is not a pytest-pau cache or export: its 'responses' is {what}, "
            "which computes its rows when read; nothing was read from it",
            reason=f"'responses' is {what}",
        )
    generated = [
        row[1] for row in db.execute(f"PRAGMA {schema}.table_xinfo(responses)") if row[6] in (2, 3)
    ]
    if generated:
        raise CacheCorruptError(
            f"{str(path)!r} is not a pytest-pau cache or export: its 'responses' table computes "
            f"the column(s) {', '.join(generated)} when read (generated columns); nothing was "
            "read from it",
            reason="generated columns",
        )
    found = [row[1] for row in db.execute(f"PRAGMA {schema}.table_info(responses)")]
    missing = [c for c in BASE_COLUMNS if c not in found]
    if missing:
        what = "no 'responses' table" if not found else f"no {', '.join(missing)} column(s)"
        raise CacheCorruptError(
            f"{str(path)!r} is not a pytest-pau cache or export: {what}; expected a file "
            "written by `pau cache export` or a cache folder's llm-cache.sqlite3",
            reason=what,
        )
    return [c for c in COLUMNS if c in found]


def readable(path: Path) -> Path:
    """The SQLite file at ``path`` (or in the cache folder ``path``), checked to be one:
    a regular file (a FIFO would block the read), with SQLite's header."""
    try:
        real(path, "pau cache")  # a symbolic-link loop is said, not "no such file"
    except ConfigError as exc:
        raise CacheError(f"{exc}; expected a file written by `pau cache export`") from None
    source = cache_file(path.expanduser())
    if not source.exists():
        raise CacheError(
            f"{str(path)!r}: no such file; expected a file written by `pau cache export` "
            "or a cache folder"
        )
    try:
        check_input_file(source, "pau cache")
    except ConfigError as exc:
        raise CacheError(f"{exc}; expected a file written by `pau cache export`") from None
    try:
        check_header(source)
    except CacheCorruptError as exc:
        raise CacheCorruptError(f"{str(source)!r}: {exc}", reason=exc.reason) from None
    return source


def check_sources(sources: Sequence[Path]) -> list[Path]:
    """The SQLite file of each source, each checked to be a pytest-pau cache or export.

    Raises:
        CacheError: naming the first source that is missing or is no cache.
    """
    files = []
    for path in sources:
        source = readable(path)
        try:
            with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db:
                columns(db, "main", source)
        except sqlite3.DatabaseError as exc:
            raise CacheError(unreadable(path, source, exc)) from None
        files.append(source)
    return files


def read_only_folder(folder: Path) -> bool:
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(folder, os.W_OK | os.X_OK)


def unreadable(given: Path, source: Path, exc: sqlite3.DatabaseError) -> str:
    """Why ``source`` could not be opened, in words that say what it is."""
    what = f"{type(exc).__name__}: {exc}"
    if is_wal(source) and read_only_folder(source.parent):
        # A cache in WAL mode: SQLite must create its -shm file beside it to read it.
        return (
            f"{str(given)!r} is a pytest-pau cache in WAL mode on read-only storage ({what}): "
            "SQLite reads such a file only where it can create its -shm file beside it. Copy "
            "the folder to writable storage and give the copy (a file `pau cache export` wrote "
            "is no WAL file: it reads anywhere)"
        )
    return (
        f"{str(given)!r} cannot be read as a pytest-pau cache ({what}); expected a file "
        "written by `pau cache export` or a cache folder"
    )


def stored_bytes(path: Path) -> int:
    """What the file and its WAL hold on disk: no table read from them holds more."""
    return sum(disk_bytes(path))


def bounded(
    rows: Iterable[tuple[object, ...]], path: Path, stored: int
) -> Iterator[tuple[object, ...]]:
    """``rows``, stopped with a :class:`CacheError` once they hold more bytes than the file
    stores (a generated column, a table that is not what it says): an import ends."""
    limit = stored + READ_SLACK_BYTES
    read = 0
    for row in rows:
        read += sum(len(v) if isinstance(v, (str, bytes)) else 8 for v in row)
        if read > limit:
            raise CacheError(
                f"pau cache import: {str(path)!r} gave more than its {stored:,} bytes on disk "
                "(a generated column or a table that is not stored?); stopped: the rows "
                "added so far are kept, nothing more was imported from it"
            )
        yield row
