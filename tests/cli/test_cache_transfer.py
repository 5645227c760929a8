"""``pau cache export`` / ``import``: caches that travel between machines (union by key).

Export writes one consistent file whatever a run writes meanwhile; import adds what the
cache lacks, says which keys came with another answer (and keeps the cache's), refuses a
file that is no cache before adding anything, and loses no write of a process beside it.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.llm import ResponseCache
from pytest_pau.llm.cache.transfer import is_export

from .test_cache_cli import _WRITER, filled, rows


def pau(*argv: str | Path) -> int:
    return main(["cache", *(str(a) for a in argv)])


def values(directory: Path) -> dict[str, str]:
    conn = sqlite3.connect(directory / "llm-cache.sqlite3")
    try:
        return dict(conn.execute("SELECT key, value FROM responses").fetchall())
    finally:
        conn.close()


def test_export_then_import_is_a_union_by_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, merged = tmp_path / "a", tmp_path / "b", tmp_path / "merged"
    filled(a, 30, "openai/x")
    filled(b, 20, "openai/y")
    shared = ResponseCache(b)
    shared.put("openai/x-0-0", "openai/x", {"text": "x" * 500})  # the same answer as a's
    shared.close()
    assert pau("export", tmp_path / "a.sqlite3", "--cache-dir", a) == 0
    assert f"exported 30 entries to {tmp_path / 'a.sqlite3'} (" in capsys.readouterr().out
    assert pau("export", tmp_path / "b.sqlite3", "--cache-dir", b) == 0
    assert is_export(tmp_path / "a.sqlite3")
    assert pau("import", tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", "--cache-dir", merged) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'a.sqlite3'}: 30 read, 30 added, 0 already there" in out
    assert f"{tmp_path / 'b.sqlite3'}: 21 read, 20 added, 1 already there" in out
    assert "50 entries added from 2 file(s)" in out
    assert values(merged) == {**values(a), **values(b)}
    # Again: nothing new, nothing lost.
    assert pau("import", tmp_path / "a.sqlite3", "--cache-dir", merged) == 0
    assert "30 read, 0 added, 30 already there" in capsys.readouterr().out
    assert rows(merged) == {"openai/x": 30, "openai/y": 20}


def test_a_key_with_another_answer_is_reported_and_the_caches_answer_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine, theirs = ResponseCache(tmp_path / "mine"), ResponseCache(tmp_path / "theirs")
    mine.put("k1", "openai/x", {"text": "Rating: 4", "latency_s": 1.0})
    theirs.put("k1", "openai/x", {"text": "Rating: 2", "latency_s": 3.0})
    mine.put("k2", "openai/x", {"text": "same", "latency_s": 1.0})
    theirs.put("k2", "openai/x", {"text": "same", "latency_s": 9.0})  # only the timing differs
    mine.put("m", "pytest-pau/finished-items", {"requests": 5})
    theirs.put("m", "pytest-pau/finished-items", {"requests": 0})  # bookkeeping, no answer
    mine.close()
    theirs.close()
    assert pau("import", tmp_path / "theirs", "--cache-dir", tmp_path / "mine") == 0
    captured = capsys.readouterr()
    assert "3 read, 0 added, 2 already there, 1 with another answer (the cache's kept)" in (
        captured.out
    )
    assert "conflict: key k1 (openai/x)" in captured.err
    assert "1 key(s) had two different answers" in captured.err
    assert '"Rating: 4"' in values(tmp_path / "mine")["k1"]


def test_export_since_a_time_and_the_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    filled(tmp_path / "c", 10, "openai/old", days_old=2)
    filled(tmp_path / "c", 5, "openai/new")
    day_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
    out = tmp_path / "new.sqlite3"
    assert pau("export", out, "--cache-dir", tmp_path / "c", "--since", day_ago) == 0
    assert "exported 5 entries" in capsys.readouterr().out
    assert pau("export", out, "--cache-dir", tmp_path / "c") == 0  # an earlier export: replaced
    assert "exported 15 entries" in capsys.readouterr().out
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    assert pau("export", other, "--cache-dir", tmp_path / "c") == 2
    assert "exists and is not an earlier export; it is left alone" in capsys.readouterr().err
    assert other.read_text() == "mine"
    itself = tmp_path / "c" / "llm-cache.sqlite3"
    assert pau("export", itself, "--cache-dir", tmp_path / "c") == 2
    assert "writing pau cache export would overwrite the model cache" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pau("export", out, "--cache-dir", tmp_path / "c", "--since", "2026-12-01T10:00:00")
    assert "a time without one means something else" in capsys.readouterr().err
    # A file that is no cache: named, and nothing is imported, not even from the good one.
    assert pau("import", out, other, "--cache-dir", tmp_path / "d") == 2
    assert f"{str(other)!r}" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()  # checked before the cache is even created
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).execute("CREATE TABLE t (x)").connection.close()
    assert pau("import", empty, "--cache-dir", tmp_path / "d") == 2
    assert "is not a pytest-pau cache or export: no 'responses' table" in (capsys.readouterr().err)


@pytest.mark.slow
def test_export_and_import_beside_a_writing_process(tmp_path: Path) -> None:
    filled(tmp_path / "src", 200, "openai/a")
    filled(tmp_path / "live", 100, "openai/b")
    writer = subprocess.Popen(
        [sys.executable, "-W", "error", "-c", _WRITER, str(tmp_path / "live"), "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while rows(tmp_path / "live").get("writer", 0) == 0:
        assert writer.poll() is None, writer.communicate()
        time.sleep(0.02)
    base = [sys.executable, "-m", "pytest_pau", "cache"]
    for argv in (
        ["export", str(tmp_path / "src.sqlite3"), "--cache-dir", str(tmp_path / "src")],
        ["export", str(tmp_path / "live.sqlite3"), "--cache-dir", str(tmp_path / "live")],
        ["import", str(tmp_path / "src.sqlite3"), "--cache-dir", str(tmp_path / "live")],
    ):
        done = subprocess.run([*base, *argv], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    written = int(out)
    assert rows(tmp_path / "live") == {"openai/a": 200, "openai/b": 100, "writer": written}
    exported = sqlite3.connect(tmp_path / "live.sqlite3")
    counts = dict(exported.execute("SELECT model, COUNT(*) FROM responses GROUP BY model"))
    assert counts["openai/b"] == 100
    assert 0 < counts["writer"] <= written  # a snapshot taken while it wrote
    assert exported.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
