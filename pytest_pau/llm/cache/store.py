"""An on-disk cache of model responses: one SQLite table in WAL mode.

Why not ``litellm.Cache(type="disk")`` or ``diskcache``: both pickle their values, so an
entry written by one version of litellm/pydantic may not load under another, and neither
keeps the model and the time beside each entry in a form one can query. This table
holds the :class:`~pytest_pau.models.Completion` as JSON with ``model``, ``created``,
``plugin_version`` and ``prompts_version`` columns; the stdlib ``sqlite3`` needs no extra
dependency, and a hit costs one indexed ``SELECT`` (tens of microseconds).

Several processes (pytest-xdist workers, ``pau cache``) may write at once: WAL mode lets
readers run beside one writer, and the busy timeout makes a second writer wait instead of
failing. Entries written by other plugin versions are read as well: the key does not
contain the version, only what determines the answer.

Failure policy (never silent):

- At open, everything that can be decided before an answer is paid for is decided: the
  file header, the schema, and a write probe (a row inserted and deleted in one committed
  transaction). A cache that cannot be used raises :class:`~pytest_pau.errors.CacheError`
  (:class:`~pytest_pau.errors.CacheCorruptError` when the file is damaged), naming the
  option, the file, the reason and the fix. :func:`pytest_pau.llm.cache.check.verify_cache`
  adds ``PRAGMA quick_check`` and sets a damaged file aside; the plugin calls it once
  before any worker starts.
- Mid-run, a failed ``put`` (disk full, the folder removed, a lock held past the busy
  timeout) does not raise: the answer is already paid for, and raising would throw it
  away (the item would error, and every later item would pay for its first call and
  error too). The answer is returned, a :class:`~pytest_pau.errors.CacheWarning` says
  which answers were not stored and why, and :attr:`ResponseCache.write_failures` counts
  them for the summary. A failed read is a miss, warned and counted the same way.
- A cache file removed or replaced during the run (``rm .pau_cache/*``) would take the
  writes of open connections into a deleted file without any error: every ``put`` checks
  that the path still names the file it wrote to, and otherwise reopens the path (a fresh
  file when it is gone) and stores the answer again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau._version import __version__
from pytest_pau.errors import CacheCorruptError, CacheError, CacheWarning, warn
from pytest_pau.llm.cache.cache_file import (
    FILENAME,
    check_header,
    describe_failure,
    file_id,
    is_corrupt,
    is_full,
)
from pytest_pau.llm.cache.key import CacheHit
from pytest_pau.llm.cache.schema import PROBE_KEY, setup

if TYPE_CHECKING:
    from pytest_pau.models import Completion


class ResponseCache:
    """A process- and thread-safe response cache in ``<directory>/llm-cache.sqlite3``.

    Opening it checks the header and the schema (migrating older layouts) and probes a
    write, so a cache that cannot store answers fails before any is paid for.

    Args:
        directory: The cache dir (``--pau-cache-dir``); created when missing.
        busy_timeout_s: How long a writer waits for another process's write lock.
        option: The option that named ``directory``, for error messages (``--cache-dir``
            in ``pau cache``).

    Raises:
        CacheCorruptError: the file is damaged or is not a pytest-pau cache.
        CacheError: the folder or file cannot be created, opened or written.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        busy_timeout_s: float = 60.0,
        option: str = "--pau-cache-dir",
    ) -> None:
        self.directory = Path(directory)
        self.path = self.directory / FILENAME
        self.busy_timeout_s = busy_timeout_s
        self.option = option
        self.write_failures = 0
        """Answers that could not be stored (each was paid for; a re-run pays again)."""
        self.read_failures = 0
        """Lookups that failed and were treated as misses."""
        self.last_failure: str | None = None
        """The message of the last failed read or write, for the run's summary."""
        self.unreadable = 0
        """Entries in a format this version cannot read: asked again (see :meth:`completion`)."""
        self.last_unreadable: str | None = None
        self._failures_lock = threading.Lock()
        self._warned: set[tuple[str, str]] = set()
        self._local = threading.local()
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            check_header(self.path)
            self._connect()
            self._probe_write()
        except (CacheError, sqlite3.Error, OSError) as exc:
            self.close()
            raise self.error(exc) from None

    # -- errors -------------------------------------------------------------------------

    def error(self, exc: BaseException, doing: str = "cannot be used") -> CacheError:
        """The :class:`CacheError` for ``exc``: the option, the file, the reason, the fix."""
        where = f"{self.option}={str(self.directory)!r}: the model cache {str(self.path)!r}"
        no_cache = ", or pass --pau-no-cache" if self.option == "--pau-cache-dir" else ""
        if is_corrupt(exc) or isinstance(exc, CacheCorruptError):
            reason = exc.reason if isinstance(exc, CacheCorruptError) else str(exc)
            return CacheCorruptError(
                f"{where} is damaged ({reason}); move it aside (pytest-pau does so at the "
                f"start of a run) or delete it{no_cache}",
                reason=reason,
            )
        if is_full(exc):  # permissions are not the problem: room is
            fix = "free space on that disk (or raise its quota), or pick a folder on another disk"
        elif self.path.parent.exists() and not self.path.parent.is_dir():
            fix = "name a folder (or a path that does not exist yet)"
        else:
            fix = "fix the permissions of the file and its folder, move the file aside, or pick another folder"
        return CacheError(
            f"{where} {doing} ({describe_failure(self.path, exc)}); {fix} with "
            f"{self.option}=DIR{no_cache}"
        )

    def _failed(self, kind: str, exc: BaseException) -> None:
        """Count a failed read or write and warn once per process and kind of failure."""
        reason = describe_failure(self.path, exc)
        if kind == "write":
            message = (
                f"the model cache {str(self.path)!r} could not store an answer ({reason}); "
                "the answer is used, but a re-run pays for it again. Answers that fail like "
                "this are counted in the run's summary; fix the cause (disk space, "
                f"permissions) before the next run, or point {self.option} elsewhere"
            )
        else:
            message = (
                f"the model cache {str(self.path)!r} could not be read ({reason}); the "
                "lookup counts as a miss. Run `pau cache info` to check the file"
            )
        with self._failures_lock:
            if kind == "write":
                self.write_failures += 1
            else:
                self.read_failures += 1
            self.last_failure = message
            first = (kind, type(exc).__name__) not in self._warned
            self._warned.add((kind, type(exc).__name__))
        if first:
            warn(message, CacheWarning, stacklevel=3)

    def failure_summary(self) -> str | None:
        """One line for the run's summary when reads or writes failed in this process."""
        if not (self.write_failures or self.read_failures or self.unreadable):
            return None
        if not (self.write_failures or self.read_failures):
            return (
                f"model cache: {self.unreadable} answer(s) in a format this version cannot "
                f"read were asked again; {self.last_unreadable}"
            )
        parts = []
        if self.write_failures:
            parts.append(f"{self.write_failures} answer(s) not stored (a re-run pays again)")
        if self.read_failures:
            parts.append(f"{self.read_failures} lookup(s) failed (counted as misses)")
        return f"model cache {str(self.path)!r}: {', '.join(parts)}; last: {self.last_failure}"

    # -- connections --------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        # A connection must not cross a fork (xdist workers are fresh processes, but
        # multiprocessing users may fork): reopen per process and per thread.
        if conn is not None and self._local.pid == os.getpid():
            return conn
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
            setup(conn, self.busy_timeout_s)
        except BaseException:
            conn.close()
            raise
        self._local.conn, self._local.pid = conn, os.getpid()
        self._local.ident = file_id(self.path)
        return conn

    def _probe_write(self) -> None:
        """Commit a row and its deletion: fails now when the file or its WAL is read-only."""
        conn = self._connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "INSERT OR REPLACE INTO responses (key, model, created, plugin_version, value) "
                "VALUES (?, '', 0, ?, '{}')",
                (PROBE_KEY, __version__),
            )
            conn.execute("DELETE FROM responses WHERE key = ?", (PROBE_KEY,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _moved(self) -> bool:
        """Whether the path no longer names the file this thread's connection writes to."""
        return file_id(self.path) != getattr(self._local, "ident", None)

    # -- reads and writes ---------------------------------------------------------------

    def lookup(self, key: str) -> CacheHit | None:
        """The entry of ``key`` with who wrote it, or None (a failed read is a warned miss)."""
        try:
            row = (
                self._connect()
                .execute(
                    "SELECT value, model, created, plugin_version, prompts_version "
                    "FROM responses WHERE key = ?",
                    (key,),
                )
                .fetchone()
            )
        except (sqlite3.Error, CacheError, OSError) as exc:
            self._failed("read", exc)
            return None
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except ValueError:
            return None  # a damaged entry is a miss; the next put overwrites it
        if not isinstance(value, dict):
            return None
        # ``created`` that is no number (a row another tool imported) is no reason to miss.
        created = row[2] if isinstance(row[2], (int, float)) else 0.0
        return CacheHit(value, row[1], float(created), row[3], row[4])

    def completion(self, hit: CacheHit) -> Completion | None:
        """The hit's answer in this version's format; None when it cannot be read.

        An entry another version wrote is migrated (:mod:`pytest_pau.llm.cache.answer_format`);
        one that cannot be is set aside as a miss: counted in :attr:`unreadable`, warned
        about once, asked again and replaced by this version's entry.
        """
        from pydantic import ValidationError

        from pytest_pau.llm.cache.answer_format import current
        from pytest_pau.models import Completion

        fields, why = current(hit.value)
        if fields is not None:
            try:
                return Completion.model_validate(fields)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first.get("loc", ())) or "the value"
                why = f"field {where!r}: {first.get('msg', 'invalid')}"
        self._unreadable(hit, why or "unreadable")
        return None

    def _unreadable(self, hit: CacheHit, why: str) -> None:
        message = (
            f"the model cache {str(self.path)!r} holds answers it cannot read, written by "
            f"pytest-pau {hit.plugin_version} ({why}); each is asked again and replaced by "
            "this version's entry (the others are read as they are)"
        )
        with self._failures_lock:
            self.unreadable += 1
            self.last_unreadable = message
            first = ("unreadable", hit.plugin_version) not in self._warned
            self._warned.add(("unreadable", hit.plugin_version))
        if first:
            warn(message, CacheWarning, stacklevel=3)

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value of ``key``, or None."""
        hit = self.lookup(key)
        return None if hit is None else hit.value

    def put(
        self,
        key: str,
        model: str,
        value: dict[str, Any],
        *,
        prompts_version: str | None = None,
    ) -> bool:
        """Store ``value`` (a successful answer: errors are never passed here).

        Returns:
            Whether it was stored. A failure is not raised (see the module docstring): it
            is counted in :attr:`write_failures` and warned about.
        """
        row = (
            key,
            model,
            time.time(),
            __version__,
            json.dumps(value, ensure_ascii=False),
            prompts_version,
        )
        sql = (
            "INSERT OR REPLACE INTO responses "
            "(key, model, created, plugin_version, value, prompts_version) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        try:
            self._connect().execute(sql, row)
            if self._moved():
                # The write went into a file that was removed or replaced: reopen the path
                # (a fresh file when it is gone) and store the answer there.
                self.close()
                self._connect().execute(sql, row)
                self._reopened()
        except (sqlite3.Error, CacheError, OSError) as exc:
            self._failed("write", exc)
            return False
        return True

    def _reopened(self) -> None:
        with self._failures_lock:
            first = ("reopen", "") not in self._warned
            self._warned.add(("reopen", ""))
        if first:
            warn(
                f"the model cache {str(self.path)!r} was removed or replaced during the run; "
                "it was reopened and answers are stored there from now on (answers stored "
                "before went with the old file)",
                CacheWarning,
                stacklevel=3,
            )

    def entry(self, key: str) -> dict[str, Any] | None:
        """The whole row of ``key`` (model, created, versions, value), for inspection."""
        hit = self.lookup(key)
        if hit is None:
            return None
        return {
            "model": hit.model,
            "created": hit.created,
            "plugin_version": hit.plugin_version,
            "prompts_version": hit.prompts_version,
            "value": hit.value,
        }

    def __len__(self) -> int:
        return int(self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def stats(self) -> dict[str, int]:
        """Entries per model."""
        rows = self._connect().execute("SELECT model, COUNT(*) FROM responses GROUP BY model")
        return {model: int(n) for model, n in rows}

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (autocommit; for ``pau cache`` maintenance)."""
        return self._connect()

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
