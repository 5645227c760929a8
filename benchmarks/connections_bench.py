"""Connections under many threads: litellm's shared pool against one pool per thread.

64 threads each send 30 chat completions, one after another with a pause of up to 50 ms,
through litellm's sync path (``litellm.completion``) to a scripted model on 127.0.0.1
that answers after ``--latency`` seconds. Two ways of pooling connections, alternating,
each run in a fresh interpreter (litellm keeps its clients for the process):

- ``shared``: litellm's own ``httpx.Client`` (what pytest-pau used before
  ``llm/http_pool.py``), one pool for all threads, httpx's keep-alive limit of 20;
- ``per-thread``: ``llm/http_pool.PerThreadTransport``, what pytest-pau installs.

Printed per run: TCP connections the server accepted, wall time, the process's CPU time,
and the requests' p50 / p99 / slowest latency.

    python benchmarks/connections_bench.py              # 2 rounds of both, ~2 minutes
    python benchmarks/connections_bench.py --rounds 3 --threads 96
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(mode: str, threads: int, per_thread: int, latency: float) -> dict[str, object]:
    from pytest_pau.llm.litellm_setup import get_litellm
    from pytest_pau.testing import ScriptedLLM

    litellm = get_litellm()  # installs the per-thread pool
    if mode == "shared":
        litellm.client_session = None  # litellm builds its own client, as before
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    with ScriptedLLM([(".", "ok")], delay_s=latency) as llm:

        def work(k: int) -> None:
            pauses = random.Random(k)
            for _ in range(per_thread):
                time.sleep(pauses.random() * 0.05)
                started = time.monotonic()
                try:
                    litellm.completion(
                        model="openai/m",
                        api_base=llm.api_base,
                        api_key="sk-none",
                        messages=[{"role": "user", "content": "hi"}],
                        timeout=60,
                        max_retries=0,
                    )
                except Exception as exc:  # counted and printed, never hidden
                    with lock:
                        errors.append(type(exc).__name__)
                with lock:
                    latencies.append(time.monotonic() - started)

        cpu0, wall0 = time.process_time(), time.monotonic()
        workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
        ordered = sorted(latencies)
        return {
            "mode": mode,
            "requests": llm.requests,
            "connections": llm.connections,
            "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2),
            "p50_s": round(ordered[len(ordered) // 2], 2),
            "p99_s": round(ordered[int(0.99 * (len(ordered) - 1))], 2),
            "max_s": round(ordered[-1], 2),
            "errors": len(errors),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--per-thread", type=int, default=30)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--mode", choices=("shared", "per-thread"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:  # the child: one run, one JSON line
        print(json.dumps(one_run(args.mode, args.threads, args.per_thread, args.latency)))
        return
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores")
    print("| run | requests | connections | wall s | CPU s | p50 s | p99 s | slowest s | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    totals: dict[str, list[float]] = {"shared": [0.0, 0.0], "per-thread": [0.0, 0.0]}
    for _ in range(args.rounds):
        for mode in ("shared", "per-thread"):
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    *("--mode", mode, "--threads", str(args.threads)),
                    *("--per-thread", str(args.per_thread), "--latency", str(args.latency)),
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            row = json.loads(out.stdout.strip().splitlines()[-1])
            totals[mode][0] += float(row["wall_s"])
            totals[mode][1] += float(row["cpu_s"])
            print(
                f"| {mode} | {row['requests']} | {row['connections']} | {row['wall_s']} "
                f"| {row['cpu_s']} | {row['p50_s']} | {row['p99_s']} | {row['max_s']} "
                f"| {row['errors']} |",
                flush=True,
            )
    (shared_wall, shared_cpu), (own_wall, own_cpu) = totals["shared"], totals["per-thread"]
    print(
        f"per-thread / shared: wall {own_wall / shared_wall:.2f}x, CPU {own_cpu / shared_cpu:.2f}x"
    )
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
