"""Inspecting, clearing and pruning the cache, also while another process writes to it."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cache_helpers import OLD_SCHEMA, Writer, fill, integrity

from pytest_pau._version import __version__
from pytest_pau.errors import CacheCorruptError, CacheError
from pytest_pau.llm import LLMClient, ResponseCache
from pytest_pau.llm.cache.admin import clear, count_entries, prune
from pytest_pau.llm.cache.info import cache_info
from pytest_pau.testing import ScriptedLLM


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    """Two models: 40 entries of "a" 40 days old, 20 of "b" 10 days old, 10 of "a" today."""
    cache = ResponseCache(tmp_path)
    fill(cache, 40, model="a", days_old=40)
    fill(cache, 20, model="b", days_old=10)
    fill(cache, 10, model="a")
    return cache


def test_info_counts_entries_bytes_dates_and_versions(cache: ResponseCache) -> None:
    cache.put("p", "b", {"text": "p"}, prompts_version="v2")
    info = cache_info(cache.directory)
    assert info.path == cache.path
    assert info.entries == 71
    by_model = {m.model: m for m in info.models}
    assert by_model["a"].entries == 50
    assert by_model["b"].entries == 21
    assert info.models[0].model == "a", "largest first"
    assert by_model["a"].bytes > 50 * 1000
    assert info.payload_bytes == sum(m.bytes for m in info.models)
    now = time.time()
    assert now - 41 * 86400 < info.oldest < now - 39 * 86400  # type: ignore[operator]
    assert now - 60 < info.newest <= now  # type: ignore[operator]
    assert info.plugin_versions == {__version__: 71}
    assert info.prompts_versions == {"unknown": 70, "v2": 1}
    assert info.integrity == "ok"
    assert info.db_bytes + info.wal_bytes > info.payload_bytes
    data = info.to_json()
    assert data["entries"] == 71
    assert data["size_bytes"] == info.db_bytes + info.wal_bytes
    assert data["models"][0]["oldest_iso"].endswith("+00:00")


def test_info_reads_an_old_layout_without_changing_it(tmp_path: Path) -> None:
    path = tmp_path / "llm-cache.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(OLD_SCHEMA)
    conn.execute("INSERT INTO responses VALUES ('k', 'm', 5, '0.0.1', '{}')")
    conn.commit()
    conn.close()
    info = cache_info(tmp_path)
    assert (info.entries, info.db_version, info.prompts_versions) == (1, 0, {"unknown": 1})
    conn = sqlite3.connect(path)
    assert "prompts_version" not in [r[1] for r in conn.execute("PRAGMA table_info(responses)")]


def test_info_refuses_a_missing_or_damaged_file(tmp_path: Path) -> None:
    with pytest.raises(CacheError, match="no model cache at"):
        cache_info(tmp_path)
    assert not (tmp_path / "llm-cache.sqlite3").exists(), "info creates nothing"
    (tmp_path / "llm-cache.sqlite3").write_bytes(b"\0" * 4096)
    with pytest.raises(CacheCorruptError, match=r"damaged .*not an SQLite database"):
        cache_info(tmp_path)


def test_clear_one_model_then_all(cache: ResponseCache) -> None:
    assert clear(cache, model="b", dry_run=True).removed == 20
    assert count_entries(cache, "b") == 20
    done = clear(cache, model="b")
    assert (done.removed, done.remaining) == (20, 50)
    assert cache.stats() == {"a": 50}
    done = clear(cache)
    assert (done.removed, done.remaining) == (50, 0)
    assert done.reclaim is not None
    assert done.reclaim.problem is None
    assert done.reclaim.bytes_after < done.reclaim.bytes_before
    assert integrity(cache.path) == "ok"


def test_prune_by_age_keeps_newer_entries(cache: ResponseCache) -> None:
    assert prune(cache, older_than_s=20 * 86400, dry_run=True).removed == 40
    done = prune(cache, older_than_s=20 * 86400)
    assert (done.removed, done.remaining) == (40, 30)
    assert cache.stats() == {"a": 10, "b": 20}
    assert done.reclaim is not None
    assert done.reclaim.method == "incremental vacuum"
    assert prune(cache, older_than_s=20 * 86400).removed == 0


def test_prune_by_size_drops_the_oldest_until_the_file_fits(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    old = fill(cache, 300, model="a", days_old=30, size=4000)
    new = fill(cache, 100, model="a", size=4000)
    assert cache.path.stat().st_size > 1.5 * 2**20
    done = prune(cache, max_bytes=2**20)
    assert cache.path.stat().st_size <= 2**20
    assert Path(f"{cache.path}-wal").stat().st_size == 0, "the WAL is truncated"
    assert all(cache.get(k) is not None for k in new), "the newest stay"
    assert cache.get(old[0]) is None, "the oldest go first"
    kept_old = [k for k in old if cache.get(k) is not None]
    assert old[len(old) - len(kept_old) :] == kept_old, "removed strictly oldest first"
    assert done.remaining > 150, "not much more than needed"
    assert integrity(cache.path) == "ok"


def test_prune_by_size_never_deletes_entries_stored_after_it_started(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    fill(cache, 100, model="old", days_old=3, size=4000)
    fill(cache, 100, model="later", days_old=-1, size=4000)  # as if stored during the prune
    done = prune(cache, max_bytes=100_000)
    assert cache.stats() == {"later": 100}
    assert done.cutoff is not None
    assert done.cutoff <= time.time()


def test_prune_of_an_old_layout_file_vacuums_it_once(tmp_path: Path) -> None:
    path = tmp_path / "llm-cache.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(OLD_SCHEMA)
    conn.executemany(
        "INSERT INTO responses VALUES (?, 'm', ?, '0.0.1', ?)",
        [(f"k{i}", float(i), '{"text": "' + "x" * 3000 + '"}') for i in range(300)],
    )
    conn.commit()
    conn.close()
    cache = ResponseCache(tmp_path)
    done = prune(cache, older_than_s=1.0)  # created 0..299 s after the epoch: all old
    assert done.removed == 300
    assert done.reclaim is not None
    assert done.reclaim.method == "VACUUM"
    assert cache.connection().execute("PRAGMA auto_vacuum").fetchone()[0] == 2
    assert cache.path.stat().st_size < 100_000


def test_prune_needs_a_criterion(cache: ResponseCache) -> None:
    with pytest.raises(ValueError, match="older_than_s or max_bytes"):
        prune(cache)


# -- while a pytest-like process writes ------------------------------------------------------


@pytest.mark.slow
def test_info_clear_and_prune_beside_a_writing_process(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    fill(cache, 400, model="a", days_old=30, size=10_000)  # 4 MB
    fill(cache, 200, model="b", days_old=5, size=3000)  # 0.6 MB
    writer = Writer(tmp_path, seconds=4.0)
    by_size = prune(cache, max_bytes=3 * 2**20)  # some of "a" must go, none of "b"
    assert 0 < by_size.removed < 400
    assert by_size.cutoff is not None
    assert by_size.cutoff < time.time() - 20 * 86400
    info = cache_info(tmp_path)
    assert info.integrity == "ok"
    assert info.entries >= 600 - by_size.removed
    assert prune(cache, older_than_s=20 * 86400).removed == 400 - by_size.removed
    assert clear(cache, model="b").removed == 200
    prune(cache, max_bytes=50 * 2**20)  # big enough for all the writer's rows
    written = writer.finish()
    assert written > 50, "the writer kept writing"
    assert cache.stats() == {"writer": written}
    assert integrity(cache.path) == "ok"


@pytest.mark.slow
def test_clear_all_beside_a_writing_process_keeps_later_writes(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    fill(cache, 300, model="a", size=3000)
    writer = Writer(tmp_path, seconds=3.0)
    done = clear(cache)
    assert done.removed >= 300
    written = writer.finish(all_kept=False)
    left = count_entries(cache, "writer")
    assert left == len(cache)
    assert 0 < left <= written
    # Every row the writer stored after the clear started is there (checked in order).
    keys = [r[0] for r in cache.connection().execute("SELECT key FROM responses")]
    numbers = sorted(int(k.split("-")[1]) for k in keys)
    assert numbers == list(range(written - left, written))
    assert integrity(cache.path) == "ok"


def test_answers_of_a_real_client_are_listed_and_cleared(
    scripted_llm: Callable[..., ScriptedLLM], tmp_path: Path
) -> None:
    llm = scripted_llm([(r"^echo (.*)", lambda m: m[-1]["content"][5:])])
    client = LLMClient(llm.model, api_base=llm.api_base, cache=ResponseCache(tmp_path))
    for i in range(5):
        client.complete([{"role": "user", "content": f"echo {i}"}])
    info = cache_info(tmp_path)
    assert [(m.model, m.entries) for m in info.models] == [(llm.model, 5)]
    assert clear(client.cache, model=llm.model).removed == 5  # type: ignore[arg-type]
    assert not client.complete([{"role": "user", "content": "echo 1"}]).cached
    assert llm.requests == 6
