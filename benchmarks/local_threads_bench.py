"""llama.cpp threads under pytest-xdist: every core per worker vs. a fair share.

Run: ``python benchmarks/local_threads_bench.py [--workers 2] [--limit 4]``. Runs the same
uncached benchmark twice in an empty folder, with the real ``local-small`` model as agent,
judge and coder: once with ``PAU_LOCAL_THREADS`` set to every core (what each worker took
before), once with the default (cores / workers). Prints both wall times and the ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(workers: int, limit: int, threads: int | None) -> float:
    env = dict(os.environ)
    env.pop("PAU_LOCAL_THREADS", None)
    if threads is not None:
        env["PAU_LOCAL_THREADS"] = str(threads)
    argv = [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
        "--pau-model=local-small", "--pau-judge-model=local-small",
        "--pau-coder-model=local-small", "-m", "smoke", f"--pau-limit={limit}",
        "--pau-max-iterations=3", "--pau-no-cache", "-n", str(workers),
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run(argv, cwd=Path(folder), env=env, capture_output=True, check=False)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=4)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    every = run(args.workers, args.limit, cores)
    share = run(args.workers, args.limit, None)
    print(f"{args.limit} smoke items, local-small, -n {args.workers} on {cores} cores")
    print(f"  every core per worker (baseline)  {every:8.1f} s")
    print(f"  cores / workers (default)         {share:8.1f} s   x{every / share:.1f} faster")


if __name__ == "__main__":
    main()
