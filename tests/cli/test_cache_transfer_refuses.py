"""``pau cache export`` / ``import`` refuse what they cannot read or write safely.

Through the real ``pau cache`` command: a FIFO is never opened (as the export file, as an
import source), a source whose ``responses`` computes its rows (an endless view, generated
columns) is refused before a row is read, a ``--since`` that is no moment is a usage error,
and a cache in WAL mode on read-only storage is called what it is. Cases that could hang
run in a subprocess with a timeout.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.errors import CacheError

from .test_cache_cli import filled, rows


def pau(*argv: str | Path) -> int:
    return main(["cache", *(str(a) for a in argv)])


def pau_process(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_pau", "cache", *map(str, argv)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_export_to_a_fifo_is_refused_and_the_fifo_left_alone(tmp_path: Path) -> None:
    filled(tmp_path / "c", 3)
    fifo = tmp_path / "out.sqlite3"
    os.mkfifo(fifo)
    run = pau_process("export", fifo, "--cache-dir", "c", cwd=tmp_path)  # was: blocked
    assert run.returncode == 2, run.stderr
    assert f"pau cache export {str(fifo)!r}: {str(fifo)!r} is a named pipe (FIFO)" in run.stderr
    assert "Checked before anything was written" in run.stderr
    assert fifo.is_fifo()


def test_export_onto_the_cache_itself_is_refused_by_the_guard(tmp_path: Path, capsys) -> None:
    filled(tmp_path / "c", 3)
    target = tmp_path / "c" / "llm-cache.sqlite3-wal"
    assert pau("export", target, "--cache-dir", tmp_path / "c") == 2
    assert "would overwrite the model cache" in capsys.readouterr().err


@pytest.mark.parametrize("since", ["nan", "inf", "-inf", "1e400"])
def test_a_since_that_is_no_moment_is_a_usage_error(
    tmp_path: Path, since: str, capsys: pytest.CaptureFixture[str]
) -> None:
    filled(tmp_path / "c", 3)
    with pytest.raises(SystemExit) as exit_:
        pau("export", tmp_path / "out.sqlite3", "--cache-dir", tmp_path / "c", f"--since={since}")
    assert exit_.value.code == 2  # was: "exported 0 entries", exit 0
    err = capsys.readouterr().err
    assert "argument --since: expected a time such as 2026-12-01T10:00:00Z" in err
    assert f"got {since!r}, which is no moment" in err
    assert not (tmp_path / "out.sqlite3").exists()


def test_import_of_a_fifo_says_what_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "in.sqlite3"
    os.mkfifo(fifo)
    run = pau_process("import", fifo, "--cache-dir", "c", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert f"{str(fifo)!r} is a named pipe (FIFO), not a regular file; it was not read" in (
        run.stderr
    )
    assert not (tmp_path / "c").exists()  # checked before the cache is created


def _source(path: Path, responses: str) -> Path:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(responses)
    return path


ENDLESS_VIEW = """
CREATE VIEW responses AS
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
  SELECT 'k' || i AS key, 'openai/m' AS model, 0.0 AS created, '0' AS plugin_version,
         '{"text": "' || hex(randomblob(500)) || '"}' AS value
  FROM n;
"""
GENERATED = """
CREATE TABLE responses (
  key TEXT PRIMARY KEY, model TEXT, created REAL, plugin_version TEXT,
  value TEXT GENERATED ALWAYS AS (hex(zeroblob(400000000))) VIRTUAL
);
INSERT INTO responses (key, model, created, plugin_version) VALUES ('k', 'openai/m', 0, '0');
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (ENDLESS_VIEW, "its 'responses' is a view, which computes its rows when read"),
        (GENERATED, "computes the column(s) value when read (generated columns)"),
    ],
    ids=["endless-view", "generated-column"],
)
def test_a_source_whose_responses_computes_its_rows_is_refused(
    tmp_path: Path, schema: str, expected: str
) -> None:
    source = _source(tmp_path / "hostile.sqlite3", schema)
    filled(tmp_path / "c", 3)
    run = pau_process("import", source, "--cache-dir", "c", cwd=tmp_path)  # was: endless
    assert run.returncode == 2, run.stderr
    assert f"{str(source)!r} is not a pytest-pau cache or export: " in run.stderr
    assert expected in run.stderr
    assert rows(tmp_path / "c") == {"openai/m": 3}


def test_rows_past_the_bytes_a_file_stores_stop_the_import(tmp_path: Path) -> None:
    from pytest_pau.llm.cache.import_sources import bounded

    def endless() -> Iterator[tuple[object, ...]]:
        n = 0
        while True:
            n += 1
            yield (f"k{n}", "m", 0.0, "0", "x" * 1000)

    got: list[object] = []

    def drain() -> None:
        got.extend(bounded(endless(), tmp_path / "f.sqlite3", 4096))

    with pytest.raises(CacheError, match=r"gave more than its 4,096 bytes on disk"):
        drain()
    assert 1000 <= len(got) <= 1100  # stopped within the 1 MiB margin, not at the end


def _read_only_bind(source: Path, target: Path) -> bool:
    """Mount ``source`` read-only at ``target`` (root only; False where not allowed)."""
    target.mkdir()
    steps = (["mount", "--bind", str(source), str(target)],
             ["mount", "-o", "remount,bind,ro", str(target)])  # fmt: skip
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return False
        if done.returncode != 0:
            if step is not steps[0]:
                subprocess.run(["umount", str(target)], capture_output=True, timeout=30)
            return False
    return True


@pytest.mark.slow
def test_a_wal_cache_on_read_only_storage_is_called_what_it_is(tmp_path: Path) -> None:
    cache = tmp_path / "c"
    filled(cache, 3)
    for name in ("llm-cache.sqlite3-shm", "llm-cache.sqlite3-wal"):
        (cache / name).unlink(missing_ok=True)  # as a CI cache restores it: no -shm
    ro = tmp_path / "ro"
    if not _read_only_bind(cache, ro):
        pytest.skip("needs a read-only mount (root)")
    try:
        imported = pau_process("import", ro, "--cache-dir", "mine", cwd=tmp_path)
        exported = pau_process("export", "out.sqlite3", "--cache-dir", ro, cwd=tmp_path)
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True, timeout=30)
    for run in (imported, exported):
        assert run.returncode == 2, run.stderr
        assert "is a pytest-pau cache in WAL mode on read-only storage" in run.stderr
        assert "Copy the folder to writable storage and give the copy" in run.stderr
    # was: "cannot be read as a pytest-pau cache", and "could not write 'out.sqlite3'"
    assert "cannot be read as a pytest-pau cache" not in imported.stderr
    assert "could not write" not in exported.stderr
