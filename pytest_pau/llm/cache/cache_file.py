"""Facts about the cache file that need no open connection: its name, its header, sizes,
what an sqlite3 error means, and moving a damaged file aside."""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from pytest_pau.errors import CacheCorruptError

FILENAME = "llm-cache.sqlite3"
CALIBRATION_FILENAME = "calibration.sqlite3"
"""Oracle/null scores per instance and scorers, beside the model cache (report/calibration.py)."""
SQLITE_HEADER = b"SQLite format 3\x00"

# sqlite3 primary result codes (exc.sqlite_errorcode & 0xFF).
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6
_SQLITE_IOERR, _SQLITE_FULL = 10, 13


def is_corrupt(exc: BaseException) -> bool:
    """Whether an sqlite3 error means a damaged file (not a lock, permission or full disk)."""
    if not isinstance(exc, sqlite3.DatabaseError) or isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc)
    return "malformed" in text or "not a database" in text


def is_busy(exc: BaseException) -> bool:
    """Whether an sqlite3 error is another connection holding a lock past the timeout."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    return "locked" in str(exc)


def is_full(exc: BaseException) -> bool:
    """Whether an error means no room to write: a full disk or quota, a file size limit."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    return code == _SQLITE_FULL or (code == 0 and "disk is full" in str(exc))


def is_wal(path: Path) -> bool:
    """Whether the SQLite file at ``path`` is in WAL mode (its header's bytes 18-19 are 2).

    Reading one needs its ``-shm`` file, which SQLite creates beside it when missing: on
    read-only media that fails with "unable to open database file".
    """
    try:
        with path.open("rb") as fh:
            head = fh.read(20)
    except OSError:
        return False
    return head.startswith(SQLITE_HEADER) and head[18:20] == b"\x02\x02"


def _no_folder(folder: Path) -> str:
    """Why ``folder``, which should hold the cache, is none: a loop, a file, or gone."""
    try:
        folder.resolve(strict=False)
    except (RuntimeError, OSError):  # RuntimeError: a loop, before Python 3.13
        return "its folder is a symbolic-link loop"
    if folder.exists():
        return "the path given as its folder is a file, not a folder"
    return "its folder was removed"


def describe_failure(path: Path, exc: BaseException) -> str:
    """Why ``path`` could not be used, in words, with sqlite's own message at the end."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if is_busy(exc):
        hint = "another process held its lock past the busy timeout"
    elif code == _SQLITE_FULL or is_full(exc):
        hint = "the disk is full"
    elif code == _SQLITE_IOERR:
        hint = "the disk could not be written: full, over a file size limit, or failing"
    elif not path.parent.is_dir():
        hint = _no_folder(path.parent)
    elif path.exists() and not os.access(path, os.W_OK):
        hint = "the file is read-only"
    elif not os.access(path.parent, os.W_OK | os.X_OK):
        hint = "its folder is not writable (SQLite also writes the -wal and -shm files there)"
    else:
        hint = ""
    what = f"{type(exc).__name__}: {exc}"
    return f"{hint}; {what}" if hint else what


def check_header(path: Path) -> None:
    """Refuse a file that is not an SQLite database (an empty file is a new database).

    Raises:
        CacheCorruptError: naming the file and its first bytes.
    """
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size == 0:
        return
    with path.open("rb") as fh:
        head = fh.read(100)
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        raise CacheCorruptError(
            f"not an SQLite database: {size:,} bytes starting with {head[:16]!r}, "
            f"expected {SQLITE_HEADER!r}"
        )


def disk_bytes(path: Path) -> tuple[int, int]:
    """Sizes of the database file and of its WAL (0 for a missing file)."""
    sizes = []
    for name in (path, Path(f"{path}-wal")):
        try:
            sizes.append(name.stat().st_size)
        except OSError:
            sizes.append(0)
    return sizes[0], sizes[1]


def set_aside(path: Path) -> tuple[Path, ...]:
    """Rename ``path`` and its -wal/-shm to ``<name>.corrupt-<UTC time>[-N]<suffix>``.

    The WAL keeps its ``-wal`` suffix after the new name, so SQLite (``.recover``) reads
    the moved file together with it.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while any(Path(f"{base}{s}").exists() for s in ("", "-wal", "-shm")):
        base = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    moved = []
    for suffix in ("", "-wal", "-shm"):
        src = Path(f"{path}{suffix}")
        if src.exists():
            dst = Path(f"{base}{suffix}")
            os.replace(src, dst)
            moved.append(dst)
    return tuple(moved)


def file_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, or None when it is gone: tells a replaced file apart."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)
