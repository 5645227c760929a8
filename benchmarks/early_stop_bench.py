"""Items run per early-stop decision, with many episodes in flight (issue 26).

A scripted model on 127.0.0.1 answers every call after ``--latency`` seconds over real
HTTP; the graded dataset's judge rates every item 1 (a clearly failing model) or cycles through
``--grades``, and the gate is ``--pau-min-mean-judge=3 --pau-early-stop``. For each
configuration the run's report gives when the verdict was known (``decided_after``), how
many items ran (started and finished: the rest were skipped by the early stop) and the
wall time. Run it with this checkout first on the path, and again with another tree
(``--tree``) to compare:

    PYTHONPATH=. python benchmarks/early_stop_bench.py
    python benchmarks/early_stop_bench.py --tree /tmp/old   # the code before the change

Configurations: one process at ``--pau-concurrency=64``, ``-n 2`` at 16 and at 32.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pytest_pau.testing import ScriptedLLM  # noqa: E402
from tests.plugin.graded import RULES, args, write_graded  # noqa: E402

CONFIGS = {
    "1 process, --pau-concurrency=64": ["--pau-concurrency=64"],
    "-n 2, --pau-concurrency=16": ["-n", "2", "--pau-concurrency=16"],
    "-n 2, --pau-concurrency=32": ["-n", "2", "--pau-concurrency=32"],
}


def run_one(
    tree: Path, items: int, grades: list[int], latency: float, extra: list[str]
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, ScriptedLLM(RULES, delay_s=latency) as llm:
        folder = Path(tmp)
        write_graded(folder, [grades[k % len(grades)] for k in range(items)])
        env = {**os.environ, "PYTHONPATH": str(tree)}
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
        command += args(llm, "graded.jsonl", "--pau-min-mean-judge=3", "--pau-early-stop")
        command += ["--pau-report=r.json", *extra]
        start = time.perf_counter()
        subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        report = json.loads((folder / "r.json").read_text())
        stop = report["summary"].get("early_stop") or {}
        ran = sum(1 for i in report["instances"] if not i["skipped"])
        return {
            "decided_after": stop.get("decided_after") or items,
            "ran": ran,
            "requests": llm.requests,
            "wall_s": wall,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="Code to run.")
    parser.add_argument("--items", type=int, default=160)
    parser.add_argument(
        "--grades",
        default="1",
        help="What the judge rates the items, cycled: 1 (clearly failing), 1,2,3,4 (2.5)...",
    )
    parser.add_argument("--latency", type=float, default=0.2, help="Seconds per model answer.")
    parser.add_argument("--repeat", type=int, default=1)
    a = parser.parse_args()
    grades = [int(g) for g in a.grades.split(",")]
    mean = sum(grades[k % len(grades)] for k in range(a.items)) / a.items
    print(f"tree {a.tree}; {a.items} items, grades {a.grades} (mean {mean:.2f}), gate 3")
    print(f"latency {a.latency} s per answer")
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| configuration | decided after | items run | requests | wall s |")
    print("|---|---|---|---|---|")
    for name, extra in CONFIGS.items():
        for _ in range(a.repeat):
            r = run_one(a.tree, a.items, grades, a.latency, extra)
            print(
                f"| {name} | {r['decided_after']:.0f} | {r['ran']:.0f} | {r['requests']:.0f} "
                f"| {r['wall_s']:.1f} |"
            )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
