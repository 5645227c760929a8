"""Helpers of the cache tests: filling a cache, a writer process, an unprivileged process."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytest_pau.llm import ResponseCache

#: The table as the first layout created it (DB_VERSION 0): no prompts_version, no index.
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    plugin_version TEXT NOT NULL,
    value TEXT NOT NULL
)
"""


def fill(
    cache: ResponseCache, n: int, *, model: str = "m", days_old: float = 0.0, size: int = 1000
) -> list[str]:
    """Store ``n`` answers of ``size`` characters through ``put``, dated ``days_old`` ago."""
    keys = [f"{model}-{days_old}-{i}" for i in range(n)]
    for i, key in enumerate(keys):
        assert cache.put(key, model, {"text": f"{i:08d}" + "x" * size, "model": model})
    if days_old:
        conn = cache.connection()
        stamp = time.time() - days_old * 86400
        conn.executemany(
            "UPDATE responses SET created = ? WHERE key = ?",
            [(stamp + i, k) for i, k in enumerate(keys)],
        )
    return keys


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


WRITER = textwrap.dedent(
    """
    import sys, time
    from pytest_pau.llm import ResponseCache
    directory, seconds, tag = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    cache = ResponseCache(directory)
    end = time.time() + seconds
    n = 0
    while time.time() < end:
        if not cache.put(f"{tag}-{n}", "writer", {"text": "w" * 2000, "n": n}):
            sys.exit(f"put {n} failed: {cache.last_failure}")
        n += 1
        time.sleep(0.002)  # a run waits for its models; at most ~500 answers a second
    print(n)
    """
)


class Writer:
    """A process that stores answers in a cache for ``seconds``, like a pytest run does."""

    def __init__(self, directory: Path, seconds: float = 3.0, tag: str = "w") -> None:
        self.directory, self.tag = directory, tag
        self.proc = subprocess.Popen(
            [sys.executable, "-W", "error", "-c", WRITER, str(directory), str(seconds), tag],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.wait_for_rows()

    def wait_for_rows(self, timeout_s: float = 60.0) -> None:
        """Return once the writer has stored something (it is then writing)."""
        deadline = time.monotonic() + timeout_s
        path = self.directory / "llm-cache.sqlite3"
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.proc.communicate()
            conn = sqlite3.connect(path, timeout=30)
            try:
                n = conn.execute(
                    "SELECT COUNT(*) FROM responses WHERE model = 'writer'"
                ).fetchone()[0]
            finally:
                conn.close()
            if n:
                return
            time.sleep(0.02)
        raise AssertionError("the writer stored nothing")

    def finish(self, *, all_kept: bool = True) -> int:
        """Wait for the writer and assert it failed no put; with ``all_kept``, that every
        row it stored is still there. Returns how many it stored."""
        out, err = self.proc.communicate(timeout=120)
        assert self.proc.returncode == 0, err
        written = int(out.strip())
        if not all_kept:
            return written
        conn = sqlite3.connect(self.directory / "llm-cache.sqlite3")
        try:
            keys = {
                row[0] for row in conn.execute("SELECT key FROM responses WHERE model = 'writer'")
            }
        finally:
            conn.close()
        assert keys == {f"{self.tag}-{i}" for i in range(written)}, "writes were lost"
        return written


UNPRIVILEGED_CHECK = "import sys; open(sys.argv[1], 'a').write('x')"


def unprivileged(tmp_path: Path) -> list[str]:
    """A command prefix that runs a process which honours file permissions.

    As root, file modes do not stop writes: drop the capabilities that override them
    (``setpriv``), so a chmod-ed file is really read-only for the process. Skips when
    that is impossible.
    """
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only for a test")
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    probe = tmp_path / "probe-readonly"
    probe.write_text("")
    probe.chmod(0o444)
    done = subprocess.run(
        [*prefix, sys.executable, "-c", UNPRIVILEGED_CHECK, str(probe)], capture_output=True
    )
    probe.unlink()
    if done.returncode == 0:
        pytest.skip("setpriv could not drop root's permission override here")
    return prefix
