"""Hardening (issue 15), the cache: runs that start at once on one damaged cache set it aside
once, and every one of them goes on with the same fresh file (real processes, real sqlite)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cache_helpers import fill, integrity

from pytest_pau.llm import ResponseCache

#: One run's start: the check every run makes before its first item, then a write.
_START = textwrap.dedent(
    """
    import json, sys, time, warnings
    from pytest_pau.llm import ResponseCache
    from pytest_pau.llm.cache_check import verify_cache
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
