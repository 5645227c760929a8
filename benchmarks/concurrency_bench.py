"""Many episodes at once: the full PAU-sized gate against a hosted-model-like latency.

A scripted model on 127.0.0.1 answers every call (agent, judge, coder) after ``--latency``
seconds over real HTTP and litellm; the agent never concludes, so an item is
``3 x iterations`` agent calls plus the judge and the coder. Three runs, each in an empty
folder with a fresh model cache:

1. baseline: ``-n 8`` (xdist processes), one episode at a time per worker (what the plugin
   did before ``--pau-concurrency``), on 96 instances with 3 iterations;
2. the same 96 instances with ``--pau-concurrency=64`` in one process;
3. the headline: 741 instances (the builtin set repeated under new ids), 14 iterations
   (~45 calls per item), ``-n 2 --pau-concurrency=32``.

For each: wall time, model requests, the effective overlap (requests x latency / wall), the
most requests the server had in flight at once, the first request's delay after start (the
start-up: imports, litellm, the sandbox engine), and the peak memory of the whole pytest
process tree (sampled from /proc every 0.5 s).

    python benchmarks/concurrency_bench.py                 # all three (about 15 minutes)
    python benchmarks/concurrency_bench.py --skip-headline # the 96-instance pair only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# The same scripted roles as plugin_bench.py: the agent never concludes.
from plugin_bench import RULES

from pytest_pau import load_dataset
from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM


def write_dataset(path: Path, n: int) -> None:
    """``n`` rows: the builtin instances, repeated under new ids."""
    base = load_dataset("builtin")
    rows = []
    for i in range(n):
        inst = base[i % len(base)]
        rows.append(
            {
                "id": f"{inst.local_id}-{i // len(base)}",
                "header": inst.header,
                "description": inst.description,
                "test_func_validated": inst.code,
                "train_examples": json.dumps([[e.input, e.output] for e in inst.train_examples]),
                "test_examples": json.dumps(
                    [
                        [e.input, e.output, e.raises] if e.raises else [e.input, e.output]
                        for e in inst.test_examples
                    ]
                ),
                "tags": inst.tags,
            }
        )
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def tree_rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KiB (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/status") as fh:
                kib = next((int(ln.split()[1]) for ln in fh if ln.startswith("VmRSS:")), 0)
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = kib
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def run(
    llm: ScriptedLLM, folder: Path, *, instances: int, iterations: int, extra: list[str]
) -> dict[str, float]:
    folder.mkdir(parents=True)
    write_dataset(folder / "set.jsonl", instances)
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
        f"--pau-model={llm.model}", f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}", f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}", f"--pau-coder-api-base={llm.api_base}",
        "--pau-dataset=set.jsonl", f"--pau-max-iterations={iterations}",
        f"--pau-cache-dir={folder / 'cache'}", "--pau-report=r.json",
        # Fresh answers for every call: the repeated rows share prompts, and a cache hit
        # would make the headline cheaper than 741 distinct instances are.
        "--pau-no-cache", *extra,
    ]  # fmt: skip
    env = {**os.environ, "PAU_USER_CACHE": str(user_cache_dir())}
    before = llm.requests
    first_before = len(llm.exchanges)
    start = time.perf_counter()
    started_at = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss_kib(proc.pid))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    sampler.join(1)
    if proc.returncode not in (0, 1) or "PAU summary" not in out:
        sys.stdout.write(out[-4000:])
        raise SystemExit(f"pytest {' '.join(extra)} failed with exit status {proc.returncode}")
    requests = llm.requests - before
    exchanges = llm.exchanges[first_before:]
    first = min(e.start for e in exchanges) - started_at if exchanges else float("nan")
    busy = sum(e.duration for e in exchanges)
    return {
        "wall_s": wall,
        "requests": requests,
        "overlap": busy / wall,
        "most_in_flight": max_in_flight(exchanges),
        "first_request_s": first,
        "peak_rss_gib": peak[0] / 2**20,
    }


def max_in_flight(exchanges: list) -> int:  # type: ignore[type-arg]
    events = sorted([(e.start, 1) for e in exchanges] + [(e.end, -1) for e in exchanges])
    most = current = 0
    for _, step in events:
        current += step
        most = max(most, current)
    return most


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--skip-headline", action="store_true")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores")
    rows = []
    with ScriptedLLM(RULES, delay_s=args.latency) as llm, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        small = {"instances": 96, "iterations": 3}
        rows.append(
            (
                "-n 8, one episode per worker (96 x 3 it.)",
                run(llm, root / "a", **small, extra=["-n", "8", "--pau-concurrency=1"]),
            )
        )
        rows.append(
            (
                "--pau-concurrency=64, one process (96 x 3 it.)",
                run(llm, root / "b", **small, extra=["--pau-concurrency=64"]),
            )
        )
        if not args.skip_headline:
            rows.append(("-n 2 --pau-concurrency=32 (741 x 14 it.)",
                         run(llm, root / "c", instances=741, iterations=14,
                             extra=["-n", "2", "--pau-concurrency=32"])))  # fmt: skip
    print(f"load average at the end: {os.getloadavg()}")
    print("| run | wall s | requests | overlap | most in flight | first request s | peak RSS GiB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, r in rows:
        print(
            f"| {name} | {r['wall_s']:.1f} | {r['requests']:.0f} | {r['overlap']:.1f} | "
            f"{r['most_in_flight']:.0f} | {r['first_request_s']:.1f} | {r['peak_rss_gib']:.2f} |"
        )
    base = rows[0][1]
    for name, r in rows[1:]:
        print(f"{name}: {base['wall_s'] / r['wall_s'] * r['requests'] / base['requests']:.2f}x "
              f"the baseline's requests per second")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
