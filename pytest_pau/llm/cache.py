"""An on-disk cache of model responses: one SQLite table in WAL mode.

Why not ``litellm.Cache(type="disk")`` or ``diskcache``: both pickle their values, so an
entry written by one version of litellm/pydantic may not load under another, and neither
keeps the model and the time beside each entry in a form one can query. This table
holds the :class:`~pytest_pau.models.Completion` as JSON with ``model``, ``created`` and
``plugin_version`` columns; the stdlib ``sqlite3`` needs no extra dependency, and a hit
costs one indexed ``SELECT`` (tens of microseconds).

Several processes (pytest-xdist workers) may write at once: WAL mode lets readers run
beside one writer, and the busy timeout makes a second writer wait instead of failing.
Entries written by other plugin versions are read as well: the key does not contain
the version, only what determines the answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from pytest_pau._version import __version__

SCHEMA_VERSION = 1
FILENAME = "llm-cache.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    plugin_version TEXT NOT NULL,
    value TEXT NOT NULL
)
"""


def cache_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """SHA-256 of the model, the messages and every parameter that shapes the answer.

    ``api_base`` is left out on purpose: the model string names the model, and the same
    model served from another host (a moved proxy, a new port) gives the same answers.
    """
    payload = json.dumps(
        {"v": SCHEMA_VERSION, "model": model, "messages": messages, "params": params},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


class ResponseCache:
    """A process- and thread-safe response cache in ``<directory>/llm-cache.sqlite3``.

    Args:
        directory: The cache dir (``--pau-cache-dir``); created when missing.
        busy_timeout_s: How long a writer waits for another process's write lock.
    """

    def __init__(self, directory: str | os.PathLike[str], *, busy_timeout_s: float = 60.0) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / FILENAME
        self.busy_timeout_s = busy_timeout_s
        self._local = threading.local()
        self._connect()  # create the table now so a broken path fails here, not mid-run

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        # A connection must not cross a fork (xdist workers are fresh processes, but
        # multiprocessing users may fork): reopen per process and per thread.
        if conn is not None and self._local.pid == os.getpid():
            return conn
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
        self._setup(conn)
        self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def _setup(self, conn: sqlite3.Connection) -> None:
        """Switch to WAL and create the table, waiting out other processes doing the same.

        Switching the journal mode takes an exclusive lock and SQLite does not call the
        busy handler for it, so two xdist workers opening a *new* cache file at the same
        moment get an immediate "database is locked": retry that until the busy timeout.
        """
        deadline = time.monotonic() + self.busy_timeout_s
        delay = 0.005
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.2)

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value of ``key``, or None."""
        row = (
            self._connect().execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        )
        if row is None:
            return None
        try:
            value: dict[str, Any] = json.loads(row[0])
        except ValueError:
            return None  # a damaged entry is a miss; the next put overwrites it
        return value

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        """Store ``value`` (a successful answer: errors are never passed here)."""
        self._connect().execute(
            "INSERT OR REPLACE INTO responses (key, model, created, plugin_version, value) "
            "VALUES (?, ?, ?, ?, ?)",
            (key, model, time.time(), __version__, json.dumps(value, ensure_ascii=False)),
        )

    def entry(self, key: str) -> dict[str, Any] | None:
        """The whole row of ``key`` (model, created, plugin_version, value), for inspection."""
        row = (
            self._connect()
            .execute(
                "SELECT model, created, plugin_version, value FROM responses WHERE key = ?", (key,)
            )
            .fetchone()
        )
        if row is None:
            return None
        return {
            "model": row[0],
            "created": row[1],
            "plugin_version": row[2],
            "value": json.loads(row[3]),
        }

    def __len__(self) -> int:
        return int(self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def stats(self) -> dict[str, int]:
        """Entries per model."""
        rows = self._connect().execute("SELECT model, COUNT(*) FROM responses GROUP BY model")
        return {model: int(n) for model, n in rows}

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
