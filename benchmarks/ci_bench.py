"""What running past one machine costs: cache export/import, the shard balance, pau merge.

    python benchmarks/ci_bench.py [--entries 33345] [--items 741] [--dir /tmp/pau-ci-bench]

A full run of the 741-item set makes about 33,345 requests, so its cache holds that many
answers (~1 KiB each here). Timed, each against a baseline measured in the same run:

* ``pau cache export`` of the whole cache, against copying its file (``shutil.copy``);
* ``pau cache import`` of that export into an empty cache, and again into the cache that
  already holds it (every key compared), against the export;
* the shard balance's look-up of 741 finished-item rows (``cached_ids``), against 741
  ``ResponseCache.get`` calls, and ``partition`` of 741 ids into 3 parts;
* ``join_shards`` + ``summarize`` of 3 shard reports of 741 items in all (what
  ``pau merge`` computes), against ``build_summary`` + the gates of the serial report.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pytest_pau.llm import ResponseCache
from pytest_pau.llm.cache.transfer import export_cache, import_caches
from pytest_pau.models import Instance, InstanceResult, Report, RunInfo, ShardInfo
from pytest_pau.plugin.shard import cached_ids, marker_key, partition
from pytest_pau.report.summary import build_summary
from pytest_pau.settings import PauSettings


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """Median seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build_cache(directory: Path, entries: int, rng: random.Random) -> ResponseCache:
    cache = ResponseCache(directory)
    conn = cache.connection()
    conn.execute("BEGIN")
    for n in range(entries):
        text = "".join(rng.choice("abcdefgh ") for _ in range(1000))
        conn.execute(
            "INSERT INTO responses (key, model, created, plugin_version, value) "
            "VALUES (?, 'openai/m', ?, '0', ?)",
            (f"{n:064x}", time.time(), f'{{"text": "{text}"}}'),
        )
    conn.execute("COMMIT")
    return cache


def results(ids: list[str], rng: random.Random) -> list[InstanceResult]:
    out = []
    for i in ids:
        judge = float(rng.randint(1, 5))
        match = rng.random()
        out.append(
            InstanceResult(
                id=i,
                source="b",
                arity=rng.randint(1, 3),
                judge_score=judge,
                code_match=match,
                passed=judge >= 3 and match >= 0.8,
                tokens={"prompt": 900, "completion": 60, "reasoning": 0},
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=33_345)
    parser.add_argument("--items", type=int, default=741)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pau-ci-bench"))
    args = parser.parse_args()
    rng = random.Random(0)
    shutil.rmtree(args.dir, ignore_errors=True)
    args.dir.mkdir(parents=True)
    print(f"load average {os.getloadavg()[0]:.1f}")

    cache = build_cache(args.dir / "cache", args.entries, rng)
    cache.close()
    db = args.dir / "cache" / "llm-cache.sqlite3"
    copy_s = timed(lambda: shutil.copy(db, args.dir / "copy.sqlite3"))
    export_s = timed(lambda: export_cache(args.dir / "cache", args.dir / "e.sqlite3"))
    mib = (args.dir / "e.sqlite3").stat().st_size / 2**20

    def fresh_import() -> None:
        shutil.rmtree(args.dir / "fresh", ignore_errors=True)
        target = ResponseCache(args.dir / "fresh")
        import_caches(target.connection(), [args.dir / "e.sqlite3"])
        target.close()

    import_s = timed(fresh_import)
    again = ResponseCache(args.dir / "fresh")
    again_s = timed(lambda: import_caches(again.connection(), [args.dir / "e.sqlite3"]))
    print(f"{args.entries:,} entries, export {mib:.1f} MiB")
    print(f"file copy (baseline)      {copy_s * 1000:8.1f} ms")
    print(f"export                    {export_s * 1000:8.1f} ms  ({export_s / copy_s:.1f}x copy)")
    print(
        f"import into an empty cache{import_s * 1000:8.1f} ms  ({import_s / export_s:.1f}x export)"
    )
    print(f"import, every key held    {again_s * 1000:8.1f} ms  ({again_s / export_s:.1f}x export)")

    ids = [f"b/m{k:04d}" for k in range(args.items)]
    instances = [
        Instance(id=i, source="b", code="def test_func(a):\n    return a\n",
                 header="def test_func(arg0):", description=f"d {i}", arity=1)
        for i in ids
    ]  # fmt: skip
    settings = PauSettings(model="openai/m", cache_dir=args.dir / "fresh")
    for inst in instances[: args.items // 2]:
        again.put(marker_key(settings, inst), "pytest-pau/finished-items", {"requests": 5})
    keys = [marker_key(settings, inst) for inst in instances]
    gets_s = timed(lambda: [again.get(k) for k in keys])
    lookup_s = timed(lambda: cached_ids(settings, instances))
    found = cached_ids(settings, instances)[0]
    part_s = timed(lambda: partition(ids, found, 3), repeat=9)
    print(f"{args.items} ResponseCache.get (baseline) {gets_s * 1000:6.1f} ms")
    print(f"cached_ids of {args.items} (keys + one query) {lookup_s * 1000:6.1f} ms  "
          f"({lookup_s / gets_s:.2f}x the gets); partition into 3: {part_s * 1000:.2f} ms")  # fmt: skip

    from pytest_pau.cli.merge import settings_of
    from pytest_pau.report.shards import join_shards
    from pytest_pau.run import RunEnd, settle
    from pytest_pau.stats.gates import Gates

    items = results(ids, rng)
    gated = PauSettings(model="openai/m", min_pass_rate=0.5, min_mean_judge=3.0, gate_on_ci=True)
    run = RunInfo(
        plugin_version="1", model="m", judge_model="j", coder_model="c", dataset="d",
        split="test", mode="interactive", seed=0, max_iterations=20,
    )  # fmt: skip
    parts = partition(ids, found, 3)
    record = gated.model_dump(mode="json", exclude={"cache_dir", "report", "html", "plots"})
    by_id = {r.id: r for r in items}
    shards = [
        (
            f"s{k}",
            Report(
                run=run.model_copy(update={"shard": f"{k + 1}/3"}),
                instances=[by_id[i] for i in part],
                shard=ShardInfo(index=k + 1, count=3, selection=ids, own=part,
                                cached=[i for i in ids if i in set(found)], settings=record),
            ),
        )
        for k, part in enumerate(parts)
    ]  # fmt: skip

    def serial() -> None:
        levels = {"min_pass_rate": 0.5, "min_mean_judge": 3.0}
        build_summary(items, gates=Gates(levels=levels, on_ci=True))

    def merged() -> None:
        joined = join_shards(shards)
        settle(
            RunEnd(
                settings=settings_of(joined), results=joined.results, run_info=run,
                selected_ids=ids, selected=len(ids),
            )
        )  # fmt: skip

    serial_s, merged_s = timed(serial), timed(merged)
    print(f"summary + gates of {args.items} items (baseline) {serial_s * 1000:6.1f} ms")
    print(f"join 3 shards + the same   {merged_s * 1000:6.1f} ms  ({merged_s / serial_s:.2f}x)")
    again.close()
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
