"""A damaged cache: runs that start at once on one damaged cache set it aside
once, and every one of them goes on with the same fresh file (real processes, real sqlite)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cache_helpers import fill, integrity, unprivileged
from plugin.toy import SCORING_RULES, scoring_args, write_toy

from pytest_pau.llm import ResponseCache
from pytest_pau.testing import ScriptedLLM

#: One run's start: the check every run makes before its first item, then a write.
_START = textwrap.dedent(
    """
    import json, sys, time, warnings
    from pytest_pau.llm import ResponseCache
    from pytest_pau.llm.cache.check import verify_cache
    directory, start_at, tag = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    while time.time() < start_at:  # every process starts its check at the same moment
        pass
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check = verify_cache(directory)
        cache = ResponseCache(directory)
        stored = cache.put("key-" + tag, "m", {"text": tag})
        cache.close()
        print(json.dumps({"moved": [p.name for p in check.set_aside], "stored": stored,
                          "warnings": len(caught)}))
    except Exception as exc:
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
    """
)


def _damage(directory: Path) -> None:
    """A cache of 300 answers with four pages of junk in the middle (found by quick_check)."""
    cache = ResponseCache(directory)
    fill(cache, 300, size=3000)
    cache.close()
    path = directory / "llm-cache.sqlite3"
    with path.open("r+b") as fh:
        fh.seek(4096 * (path.stat().st_size // 4096 // 2))
        fh.write(os.urandom(4096 * 4))


# Three rounds: before the folder lock, one round of six processes failed about two times
# in three (a failed rename, a fresh file set aside, "disk I/O error"); with it, never.
@pytest.mark.slow
@pytest.mark.parametrize("round_", range(3))
def test_runs_starting_at_once_on_a_damaged_cache_set_it_aside_once(
    tmp_path: Path, round_: int
) -> None:
    processes = 6
    directory = tmp_path / "cache"
    _damage(directory)
    start_at = time.time() + 3.0  # after every interpreter has started
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _START, str(directory), str(start_at), str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    errors = [r["error"] for r in results if "error" in r]
    assert not errors, errors
    movers = [r for r in results if r["moved"]]
    assert len(movers) == 1, results
    assert sum(r["warnings"] for r in results) == 1, "only the one that moved it warns"
    assert all(r["stored"] for r in results)
    names = sorted(p.name for p in directory.iterdir())
    corrupt = [n for n in names if ".corrupt-" in n]
    assert sorted(corrupt) == sorted(movers[0]["moved"]), names
    assert integrity(directory / "llm-cache.sqlite3") == "ok"
    fresh = ResponseCache(directory)
    try:
        assert {fresh.get(f"key-{i}")["text"] for i in range(processes)} == {  # type: ignore[index]
            str(i) for i in range(processes)
        }, "every run wrote into the same fresh file"
    finally:
        fresh.close()


# -- through pytest: a read-only or damaged cache is decided before any answer is paid for ----


def _toy_run(
    tmp_path: Path, llm: ScriptedLLM, cache: Path, prefix: list[str]
) -> subprocess.CompletedProcess[str]:
    write_toy(tmp_path)
    argv = ["-m", "pytest", "-p", "no:cacheprovider", "--pau-model=oracle", "-m", "smoke"]
    argv += ["--pau-dataset=toy.jsonl", f"--pau-cache-dir={cache}", *scoring_args(llm)]
    return subprocess.run(
        [*prefix, sys.executable, *argv], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def scoring() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(SCORING_RULES) as llm:
        yield llm


@pytest.mark.slow
@pytest.mark.parametrize("read_only", ["file", "folder"])
def test_a_read_only_cache_stops_pytest_before_the_first_answer(
    tmp_path: Path, scoring: ScriptedLLM, read_only: str
) -> None:
    prefix = unprivileged(tmp_path)
    cache = tmp_path / "cache"
    filled = ResponseCache(cache)
    fill(filled, 3)
    filled.close()  # the last connection removes the -wal and -shm files
    target = cache / "llm-cache.sqlite3" if read_only == "file" else cache
    target.chmod(0o444 if read_only == "file" else 0o555)
    try:
        done = _toy_run(tmp_path, scoring, cache, prefix)
    finally:
        target.chmod(0o644 if read_only == "file" else 0o755)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    why = "the file is read-only" if read_only == "file" else "its folder is not writable"
    assert f"ERROR: --pau-cache-dir='{cache}': the model cache" in done.stderr
    assert why in done.stderr
    assert "--pau-no-cache" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert scoring.requests == 0, "nothing was paid for"


@pytest.mark.slow
def test_a_cache_with_junk_pages_is_set_aside_and_the_run_passes(
    tmp_path: Path, scoring: ScriptedLLM
) -> None:
    cache = tmp_path / "cache"
    _damage(cache)
    done = _toy_run(tmp_path, scoring, cache, [])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "note: the model cache" in done.stdout
    assert "was damaged (" in done.stdout
    moved = sorted(p.name for p in cache.glob("llm-cache.sqlite3.corrupt-*"))
    assert moved
    assert moved[0] in done.stdout
    assert integrity(cache / "llm-cache.sqlite3") == "ok"
    assert "DatabaseError" not in done.stdout + done.stderr
