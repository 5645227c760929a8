"""The cache's table layout: new files, migrating old ones, who wrote an entry."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cache_helpers import OLD_SCHEMA, integrity

from pytest_pau._version import __version__
from pytest_pau.errors import CacheCorruptError
from pytest_pau.llm import ResponseCache, cache_key
from pytest_pau.llm.cache import CacheHit
from pytest_pau.llm.cache.check import verify_cache
from pytest_pau.llm.cache.schema import DB_VERSION, PROBE_KEY


def old_cache(directory: Path, rows: int = 3) -> Path:
    """A cache file as the first layout made it, with entries an old plugin wrote."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "llm-cache.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(OLD_SCHEMA)
    for i in range(rows):
        conn.execute(
            "INSERT OR REPLACE INTO responses (key, model, created, plugin_version, value) "
            "VALUES (?, ?, ?, ?, ?)",
            (f"old{i}", "m", 1000.0 + i, "0.0.1", f'{{"text": "old {i}"}}'),
        )
    conn.close()
    return path


def columns(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute("PRAGMA table_info(responses)")]
    finally:
        conn.close()


def pragma(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"PRAGMA {name}").fetchone()[0])
    finally:
        conn.close()


def test_a_new_file_has_the_current_layout(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    assert columns(cache.path) == [
        "key",
        "model",
        "created",
        "plugin_version",
        "value",
        "prompts_version",
    ]
    assert pragma(cache.path, "user_version") == DB_VERSION
    assert pragma(cache.path, "auto_vacuum") == 2, "incremental, so prune can shrink it"
    assert len(cache) == 0, "the write probe leaves no row"
    conn = sqlite3.connect(cache.path)
    indexes = [row[1] for row in conn.execute("PRAGMA index_list(responses)")]
    assert "responses_created" in indexes


def test_an_old_layout_file_is_migrated_and_still_read(tmp_path: Path) -> None:
    path = old_cache(tmp_path)
    assert "prompts_version" not in columns(path)
    cache = ResponseCache(tmp_path)
    assert "prompts_version" in columns(path)
    assert pragma(path, "user_version") == DB_VERSION
    assert cache.get("old1") == {"text": "old 1"}
    hit = cache.lookup("old2")
    assert hit == CacheHit({"text": "old 2"}, "m", 1002.0, "0.0.1", None)
    cache.put("new", "m", {"text": "new"}, prompts_version="p1")
    assert cache.entry("new")["prompts_version"] == "p1"  # type: ignore[index]
    cache.close()
    # An old plugin (named columns, the old CREATE) keeps working on the migrated file.
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(OLD_SCHEMA)
    conn.execute(
        "INSERT OR REPLACE INTO responses (key, model, created, plugin_version, value) "
        "VALUES ('older', 'm', 5, '0.0.1', '{\"text\": \"o\"}')"
    )
    conn.close()
    again = ResponseCache(tmp_path)
    assert again.lookup("older").prompts_version is None  # type: ignore[union-attr]
    assert len(again) == 5
    assert integrity(path) == "ok"


def test_lookup_says_who_wrote_an_entry(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = cache_key("m", [{"role": "user", "content": "x"}], {"seed": 0})
    before = time.time()
    assert cache.put(key, "m", {"text": "y"}, prompts_version="1.2+abc")
    hit = cache.lookup(key)
    assert hit is not None
    assert hit.value == {"text": "y"}
    assert hit.model == "m"
    assert hit.plugin_version == __version__
    assert hit.prompts_version == "1.2+abc"
    assert before <= hit.created <= time.time()
    assert cache.get(key) == {"text": "y"}, "get keeps returning the bare value"
    assert cache.lookup("missing") is None
    assert cache.get(PROBE_KEY) is None


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    cache.connection().execute(
        "INSERT INTO responses (key, model, created, plugin_version, value) "
        "VALUES ('bad', 'm', 0, 'x', 'not json'), ('list', 'm', 0, 'x', '[1]')"
    )
    assert cache.lookup("bad") is None
    assert cache.lookup("list") is None


def test_a_foreign_table_is_refused_and_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "llm-cache.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE responses (id INTEGER, body TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(CacheCorruptError, match=r"no key, model, created.*not a pytest-pau cache"):
        ResponseCache(tmp_path)
    with pytest.warns(UserWarning, match="not a pytest-pau cache"):
        check = verify_cache(tmp_path)
    assert check.set_aside
    assert check.set_aside[0].exists()
    assert "prompts_version" in columns(path)


_MIGRATOR = textwrap.dedent(
    """
    import sys, time
    from pytest_pau.llm import ResponseCache
    start = float(sys.argv[2])
    while time.time() < start:
        pass
    cache = ResponseCache(sys.argv[1])
    assert cache.get("old0") == {"text": "old 0"}
    assert cache.put(sys.argv[3], "m", {"text": sys.argv[3]}, prompts_version="p")
    """
)


@pytest.mark.slow
def test_processes_migrating_an_old_file_at_once_all_succeed(tmp_path: Path) -> None:
    old_cache(tmp_path)
    start = time.time() + 1.0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _MIGRATOR, str(tmp_path), str(start), f"k{i}"],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(6)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    cache = ResponseCache(tmp_path)
    assert len(cache) == 3 + 6
    assert columns(cache.path).count("prompts_version") == 1
    assert integrity(cache.path) == "ok"
