"""The plugin end to end under xdist: wall time by worker count, and a re-run from cache.

A scripted model answers every call after a fixed latency (200 ms by default), for the
agent, the judge, the coder and the classifier alike, so a run is I/O-bound the way a
hosted model makes it. Each configuration runs ``pytest --pau-model=<scripted>`` in an
empty folder with a fresh model cache; speed-ups are ratios against the ``-n 1`` run of
the same invocation. The last run repeats one configuration on its filled cache: it must
make zero model requests.

    python benchmarks/plugin_bench.py                    # 40 instances, -n 1 2 8 16
    python benchmarks/plugin_bench.py --instances 8 --workers 1 2   # quick look
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_pau.paths import user_cache_dir
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM

# Every role answers in the format it is asked for; the agent never concludes, so each
# item makes the same calls: 3 per iteration, then judge and coder (the coder's code
# contradicts what the agent saw, so the failure is classified without a model call).
RULES = [
    (MARKERS["reason"], "Try a small positive number next; I expect a small result."),
    (MARKERS["act"], "INPUT: (1,)"),
    (MARKERS["reflect"], "CONCLUDE: NO\nSUMMARY: It may transform its argument; test more inputs."),
    (MARKERS["judge_retry"], "Rating: 3"),
    (MARKERS["judge"], "Partly right.\nRating: 3"),
    (MARKERS["coder"], "```python\ndef test_func(*args):\n    return None\n```"),
    (MARKERS["classify"], "Label: insufficient_exploration"),
]


def run_pytest(
    llm: ScriptedLLM, folder: Path, cache: Path, workers: int, args: argparse.Namespace
) -> float:
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--pau-model={llm.model}",
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
        f"--pau-limit={args.instances}",
        f"--pau-max-iterations={args.max_iterations}",
        f"--pau-cache-dir={cache}",
        "--pau-report=r.json",
        "-n",
        str(workers),
    ]
    env = {**os.environ, "PAU_USER_CACHE": str(user_cache_dir())}
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    # Every item fails (code match 0): exit 1 is expected; anything else is a broken run.
    if done.returncode not in (0, 1) or "PAU summary" not in done.stdout:
        sys.stdout.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"pytest -n {workers} failed with exit status {done.returncode}")
    return wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.2, help="Seconds per model answer.")
    parser.add_argument("--max-iterations", type=int, default=2)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 8, 16])
    args = parser.parse_args()

    print(
        f"{args.instances} builtin instances, {args.max_iterations} iterations, "
        f"{args.latency * 1000:.0f} ms per model answer, {os.cpu_count()} cores"
    )
    print(f"{'workers':>8} {'wall s':>8} {'speed-up':>9} {'requests':>9} {'items/s':>8}")
    with ScriptedLLM(RULES, delay_s=args.latency) as llm, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        base: float | None = None
        for n in args.workers:
            before = llm.requests
            wall = run_pytest(llm, root / f"run-{n}", root / f"cache-{n}", n, args)
            if base is None:
                base = wall
                print(
                    f"(model latency alone, one call at a time: "
                    f"{(llm.requests - before) * args.latency:.1f} s)"
                )
            print(
                f"{n:>8} {wall:>8.1f} {base / wall:>8.2f}x {llm.requests - before:>9} "
                f"{args.instances / wall:>8.2f}"
            )
        n = args.workers[-1]
        before = llm.requests
        wall = run_pytest(llm, root / "rerun", root / f"cache-{n}", n, args)
        print(
            f"re-run of -n {n} on its cache: {wall:.1f} s ({base / wall:.2f}x the -n "
            f"{args.workers[0]} run), {llm.requests - before} model requests"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
