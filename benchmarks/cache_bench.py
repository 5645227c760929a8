"""Model-cache maintenance on a ~100 MiB cache: the start-up check, info, prune, clear.

    python benchmarks/cache_bench.py [--mib 100] [--dir /tmp/pau-cache-bench]

Builds a cache of ~3 KiB answers (the size of a PAU agent turn) dated over 60 days, then
times, each on a fresh copy: opening it (header, schema, write probe), ``verify_cache``
(adds ``PRAGMA quick_check``), ``cache_info``, ``prune`` by age (half the entries) and by
size (to a quarter), on a file of the old layout (one ``VACUUM``) and of the new one
(incremental vacuum), with a process writing beside it: its slowest ``put`` is the wait a
pytest worker sees.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_pau.llm import ResponseCache
from pytest_pau.llm.cache.admin import clear, prune
from pytest_pau.llm.cache.cache_file import disk_bytes
from pytest_pau.llm.cache.check import verify_cache
from pytest_pau.llm.cache.info import cache_info

_WRITER = textwrap.dedent(
    """
    import sys, time
    from pytest_pau.llm import ResponseCache
    cache = ResponseCache(sys.argv[1])
    stop = sys.argv[2]
    import os
    n, worst = 0, 0.0
    while not os.path.exists(stop):
        t = time.perf_counter()
        assert cache.put(f"bench-writer-{n}", "writer", {"text": "w" * 2000})
        worst = max(worst, time.perf_counter() - t)
        n += 1
        time.sleep(0.005)
    print(n, worst)
    """
)


def build(directory: Path, mib: int, *, old_layout: bool) -> None:
    cache = ResponseCache(directory)
    conn = cache.connection()
    if old_layout:  # the first layout, as files made before this version
        conn.execute("DROP INDEX responses_created")
        conn.execute("ALTER TABLE responses DROP COLUMN prompts_version")
        conn.execute("PRAGMA user_version = 0")
        conn.execute("PRAGMA auto_vacuum = NONE")
        conn.execute("VACUUM")
    now, n, total = time.time(), 0, 0
    conn.execute("BEGIN")
    while total < mib * 2**20:
        text = f'{{"text": "{n:08d}{"abcdefgh " * 330}", "model": "m{n % 3}"}}'
        conn.execute(
            "INSERT INTO responses (key, model, created, plugin_version, value) "
            "VALUES (?, ?, ?, '0.1.0', ?)",
            (f"{n:064x}", f"m{n % 3}", now - (n * 7919 % 60) * 86400 - n * 1e-3, text),
        )
        n, total = n + 1, total + len(text) + 80
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    cache.close()


def timed(label: str, fn: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = fn()
    print(f"{label:<58} {time.perf_counter() - start:7.2f} s")
    return result


def with_writer(directory: Path, fn: Callable[[], Any]) -> tuple[Any, str]:
    stop = directory / "stop"
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(directory), str(stop)],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    try:
        result = fn()
    finally:
        stop.touch()
        out, _ = proc.communicate(timeout=300)
    n, worst = out.split()
    return result, f"writer: {n} puts, none failed, slowest {float(worst) * 1000:.0f} ms"


def bench_layout(base: Path, mib: int, layout: str) -> None:
    master = base / f"master-{layout}"
    timed(
        f"build {mib} MiB ({layout} layout)", lambda: build(master, mib, old_layout=layout == "old")
    )

    def copy(name: str) -> Path:
        target = base / f"{layout}-{name}"
        shutil.copytree(master, target)
        return target

    size = (master / "llm-cache.sqlite3").stat().st_size
    print(f"  file {size / 2**20:.1f} MiB")
    d = copy("open")
    timed(
        "  ResponseCache() (header, schema/migration, write probe)",
        lambda: ResponseCache(d).close(),
    )
    timed("  ResponseCache() again", lambda: ResponseCache(d).close())
    timed("  verify_cache (+ PRAGMA quick_check)", lambda: verify_cache(d))
    info = timed("  cache_info (+ quick_check)", lambda: cache_info(d))
    print(f"    {info.entries:,} entries")
    for what, kwargs in (
        ("prune --older-than 30 (half)", {"older_than_s": 30 * 86400}),
        ("prune --max-size (a quarter)", {"max_bytes": size // 4}),
    ):
        d = copy(what.split()[1])
        cache = ResponseCache(d)

        def run(cache: ResponseCache = cache, what: str = what, kwargs: Any = kwargs) -> Any:
            return timed(f"  {what}, writer beside", lambda: prune(cache, **kwargs))

        removal, note = with_writer(d, run)
        r = removal.reclaim
        print(
            f"    removed {removal.removed:,}, {r.method}: {r.bytes_before / 2**20:.1f} -> "
            f"{r.bytes_after / 2**20:.1f} MiB in {r.seconds:.2f} s; {note}"
        )
        if r.problem:
            print(f"    note: {r.problem}")
        cache.close()
        print(
            f"    after the writer closed: {sum(disk_bytes(d / 'llm-cache.sqlite3')) / 2**20:.1f} MiB"
        )
    d = copy("clear")
    cache = ResponseCache(d)
    removal, note = with_writer(d, lambda: timed("  clear, writer beside", lambda: clear(cache)))
    print(f"    removed {removal.removed:,}; {note}")
    cache.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=100)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pau-cache-bench"))
    args = parser.parse_args()
    shutil.rmtree(args.dir, ignore_errors=True)
    for layout in ("old", "new"):
        bench_layout(args.dir, args.mib, layout)
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
