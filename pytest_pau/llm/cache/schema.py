"""The cache file's table: its layout, its version, and the migration of older layouts."""

from __future__ import annotations

import sqlite3
import time

from pytest_pau.errors import CacheCorruptError

#: ``PRAGMA user_version`` of the table layout. 0: the first layout (no ``prompts_version``
#: column, no index on ``created``); 1: both added (older files are migrated when opened).
DB_VERSION = 1
#: The key of the write probe's row; never a real key (those are 64 hex digits).
PROBE_KEY = "pau-write-probe"
#: Columns every layout has; a ``responses`` table without them is not a pytest-pau cache.
BASE_COLUMNS = ("key", "model", "created", "plugin_version", "value")

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    plugin_version TEXT NOT NULL,
    value TEXT NOT NULL,
    prompts_version TEXT
)
"""


def setup(conn: sqlite3.Connection, busy_timeout_s: float) -> None:
    """Switch to WAL, create or migrate the table, waiting out other processes.

    Switching the journal mode takes an exclusive lock and SQLite does not call the
    busy handler for it, so two xdist workers opening a *new* cache file at the same
    moment get an immediate "database is locked": retry that until the busy timeout.
    """
    deadline = time.monotonic() + busy_timeout_s
    delay = 0.005
    while True:
        try:
            # Only takes effect on a new file (before its first table): lets
            # `pau cache prune` give pages back in small steps, beside a running writer.
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            # After a checkpoint (a large prune leaves a WAL as big as what it moved),
            # cut the WAL file back to 64 MiB instead of keeping its largest size.
            conn.execute(f"PRAGMA journal_size_limit = {64 * 2**20}")
            conn.execute(SCHEMA)
            migrate(conn)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def migrate(conn: sqlite3.Connection) -> None:
    """Bring an older table layout to :data:`DB_VERSION` (added columns only).

    Older plugin versions keep working on a migrated file: they name their columns
    in ``INSERT`` (the new ones stay NULL) and ``CREATE TABLE IF NOT EXISTS`` is a no-op.
    """
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= DB_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others then see it done
    try:
        if int(conn.execute("PRAGMA user_version").fetchone()[0]) < DB_VERSION:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(responses)")}
            missing = [c for c in BASE_COLUMNS if c not in columns]
            if missing:
                raise CacheCorruptError(
                    f"its 'responses' table has no {', '.join(missing)} column(s): "
                    "not a pytest-pau cache"
                )
            if "prompts_version" not in columns:
                conn.execute("ALTER TABLE responses ADD COLUMN prompts_version TEXT")
            conn.execute("CREATE INDEX IF NOT EXISTS responses_created ON responses (created)")
            conn.execute(f"PRAGMA user_version = {DB_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
