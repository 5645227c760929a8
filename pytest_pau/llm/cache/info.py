"""What a model cache holds (``pau cache info``): read-only, also on a read-only file.

It opens the file with a plain connection, neither migrating nor probing a write, so it
works on a cache one may not change and on older layouts (a missing ``prompts_version``
column reads as unknown).
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pytest_pau.errors import CacheCorruptError, CacheError
from pytest_pau.llm.cache.admin import PAYLOAD_SQL
from pytest_pau.llm.cache.cache_file import (
    FILENAME,
    check_header,
    describe_failure,
    disk_bytes,
    is_corrupt,
)
from pytest_pau.llm.cache.check import run_quick_check

_AUTO_VACUUM = {0: "none", 1: "full", 2: "incremental"}
#: ``created`` read as a time: a number of seconds from 1970 to the end of year 9999 (what
#: ``datetime`` can show); anything else an import or another tool wrote is "undated".
_DATED = "(typeof(created) IN ('integer', 'real') AND created BETWEEN 0 AND 253402300799)"


@dataclass(frozen=True)
class ModelEntries:
    """The entries of one model."""

    model: str
    entries: int
    bytes: int
    """Payload: the stored JSON plus key and model (the file adds pages and the index)."""
    oldest: float | None
    """The oldest entry's ``created`` (None: no entry has a valid time)."""
    newest: float | None
    undated: int = 0
    """Entries whose ``created`` is no time (text, or out of range): an imported row, say."""


@dataclass(frozen=True)
class CacheInfo:
    """A model cache's file, sizes, entries and versions."""

    path: Path
    db_bytes: int
    """Size of the database file."""
    wal_bytes: int
    """Size of its WAL file (entries not yet checkpointed into the database)."""
    free_bytes: int
    """Free pages inside the database (``pau cache prune`` gives them back)."""
    entries: int
    payload_bytes: int
    models: tuple[ModelEntries, ...]
    """By payload, largest first."""
    oldest: float | None
    newest: float | None
    plugin_versions: dict[str, int]
    """Entries per pytest-pau version that wrote them."""
    prompts_versions: dict[str, int]
    """Entries per prompts version (``unknown``: written before it was recorded)."""
    db_version: int
    """``PRAGMA user_version``: the table layout (:data:`~pytest_pau.llm.cache.schema.DB_VERSION`)."""
    auto_vacuum: str
    integrity: str | None
    """``ok``, the quick check's problems, or None when not checked."""
    check_s: float | None
    undated: int = 0
    """Entries whose ``created`` is no time: not counted in ``oldest`` / ``newest``."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: paths as strings, times also as ISO 8601 UTC."""
        data = asdict(self)
        data["path"] = str(self.path)
        data["size_bytes"] = self.db_bytes + self.wal_bytes
        for holder in (data, *data["models"]):
            for key in ("oldest", "newest"):
                holder[key + "_iso"] = iso(holder[key])
        return data


def iso(stamp: float | None) -> str | None:
    """A timestamp as ISO 8601 in UTC, to the second."""
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def cache_info(directory: str | os.PathLike[str], *, check: bool = True) -> CacheInfo:
    """Describe the cache in ``directory`` without changing it.

    Args:
        directory: The cache dir.
        check: Run ``PRAGMA quick_check`` (about 1.5 ms per MiB).

    Raises:
        CacheError: no cache file there, or it cannot be read.
        CacheCorruptError: the file is damaged.
    """
    path = Path(directory) / FILENAME
    if not path.is_file():
        raise CacheError(f"no model cache at {str(path)!r}")
    try:
        check_header(path)
    except CacheCorruptError as exc:
        raise _damaged(path, exc.reason) from None
    db_bytes, wal_bytes = disk_bytes(path)
    # A WAL database needs its -shm file, which SQLite creates beside it: in a read-only
    # folder, read the file as immutable instead. Only without a WAL file: one would hold
    # entries not in the database yet, and a writer may be appending to it.
    targets: list[tuple[str | Path, bool]] = [(path, False)]
    failure: sqlite3.Error | None = None
    if wal_bytes == 0:
        targets.append((path.absolute().as_uri() + "?immutable=1", True))
    for target, uri in targets:
        try:
            conn = sqlite3.connect(target, timeout=10.0, uri=uri)
        except sqlite3.Error as exc:
            failure = exc
            continue
        try:
            return _describe(conn, path, db_bytes, wal_bytes, check)
        except sqlite3.Error as exc:
            if is_corrupt(exc):
                raise _damaged(path, str(exc)) from None
            failure = exc
        finally:
            conn.close()
    assert failure is not None
    raise CacheError(f"cannot read {str(path)!r} ({describe_failure(path, failure)})") from None


def _damaged(path: Path, reason: str) -> CacheCorruptError:
    return CacheCorruptError(
        f"{str(path)!r} is damaged ({reason}); the next pytest run moves it aside and starts "
        "a fresh cache, or move it away yourself",
        reason=reason,
    )


def _describe(
    conn: sqlite3.Connection, path: Path, db_bytes: int, wal_bytes: int, check: bool
) -> CacheInfo:
    def scalar(sql: str) -> Any:
        return conn.execute(sql).fetchone()[0]

    page_size = int(scalar("PRAGMA page_size"))
    free_bytes = int(scalar("PRAGMA freelist_count")) * page_size
    auto_vacuum = _AUTO_VACUUM.get(int(scalar("PRAGMA auto_vacuum")), "?")
    db_version = int(scalar("PRAGMA user_version"))
    integrity, check_s = None, None
    if check:
        started = time.perf_counter()
        integrity = run_quick_check(conn) or "ok"
        check_s = time.perf_counter() - started
    columns = {row[1] for row in conn.execute("PRAGMA table_info(responses)")}
    models: list[ModelEntries] = []
    plugin_versions: dict[str, int] = {}
    prompts_versions: dict[str, int] = {}
    if columns:
        rows = conn.execute(
            f"SELECT model, COUNT(*), SUM({PAYLOAD_SQL}), "
            f"MIN(CASE WHEN {_DATED} THEN created END), "
            f"MAX(CASE WHEN {_DATED} THEN created END), "
            f"SUM(CASE WHEN {_DATED} THEN 0 ELSE 1 END) "
            "FROM responses GROUP BY model ORDER BY 3 DESC, 1"
        )
        models = [
            ModelEntries(str(m), int(n), int(b or 0), _stamp(o), _stamp(w), int(u or 0))
            for m, n, b, o, w, u in rows
        ]
        for version, n in conn.execute(
            "SELECT plugin_version, COUNT(*) FROM responses GROUP BY 1 ORDER BY 2 DESC"
        ):
            plugin_versions[str(version)] = int(n)
        if "prompts_version" in columns:
            for version, n in conn.execute(
                "SELECT prompts_version, COUNT(*) FROM responses GROUP BY 1 ORDER BY 2 DESC"
            ):
                prompts_versions["unknown" if version is None else str(version)] = int(n)
        elif models:
            prompts_versions["unknown"] = sum(m.entries for m in models)
    return CacheInfo(
        path=path,
        db_bytes=db_bytes,
        wal_bytes=wal_bytes,
        free_bytes=free_bytes,
        entries=sum(m.entries for m in models),
        payload_bytes=sum(m.bytes for m in models),
        models=tuple(models),
        oldest=min((m.oldest for m in models if m.oldest is not None), default=None),
        newest=max((m.newest for m in models if m.newest is not None), default=None),
        plugin_versions=plugin_versions,
        prompts_versions=prompts_versions,
        db_version=db_version,
        auto_vacuum=auto_vacuum,
        integrity=integrity,
        check_s=check_s,
        undated=sum(m.undated for m in models),
    )


def _stamp(value: Any) -> float | None:
    return None if value is None else float(value)


__all__ = ["CacheInfo", "ModelEntries", "cache_info", "iso"]
