"""How fast datasets load, against the floor of just parsing the same JSON.

Run: ``python benchmarks/dataset_bench.py [--rows 5000] [--repeat 5]``.

Figures (best of ``--repeat``):

1. builtin, in-process: ``load_file`` on the shipped 240 rows (validation and pydantic
   included, no process cache) vs ``json.loads`` of every line (the floor).
2. builtin, cold process: ``python -c "load_dataset('builtin')"`` vs ``python -c
   "import pytest_pau"`` (what a pytest run pays at collection).
3. a PAU-format file of ``--rows`` rows (15 distinct inputs each, as PAU's) vs
   ``json.loads`` of its lines.
4. humaneval: first load (conversion: parse, run every input in the sandbox) vs a cached
   load.

Targets (issue 2): builtin under 0.5 s; 5,000 rows under 2 s. Each in-process figure is
given as wall and as CPU time: on a shared 2-core machine wall time includes waiting for
the cores, CPU time is what the load itself costs.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_pau import load_dataset  # noqa: E402
from pytest_pau.dataset.builtin import DATA_FILE  # noqa: E402
from pytest_pau.dataset.files import load_file  # noqa: E402


def best(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in wall seconds."""
    return min(timed(fn) for _ in range(repeat))


def best_cpu(fn: Callable[[], object], repeat: int) -> float:
    """The least CPU time of this process over ``repeat`` runs of ``fn`` (stable when other
    work shares the cores, which makes wall time noisy)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def parse_only(path: Path) -> list[object]:
    """The floor: read and ``json.loads`` each line, nothing else."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def process_time(code: str, repeat: int) -> float:
    """Best wall time of ``python -c code`` in a fresh process."""
    return best(lambda: subprocess.run([sys.executable, "-c", code], check=True), repeat)


def write_big(path: Path, rows: int, seed: int = 0) -> Path:
    """A PAU-format file of ``rows`` rows shaped like PAU's: 3 train and 12 test examples
    per row, every input distinct (so no parse is shared), as in the published set."""
    rng = random.Random(seed)
    code = (
        "def validate_input_args(arg0, arg1):\n    if not isinstance(arg0, list):\n"
        "        raise TypeError('arg0 must be a list')\n\n"
        "def test_func(arg0, arg1):\n    validate_input_args(arg0, arg1)\n"
        "    return [x for x in arg0 if str(x) in arg1]\n"
    )
    with path.open("w", encoding="utf-8") as handle:
        for i in range(rows):
            pairs = []
            for j in range(15):
                items = [rng.randint(-999, 999) for _ in range(rng.randint(0, 8))]
                word = "".join(rng.choice("abcdef0123") for _ in range(rng.randint(0, 10)))
                pairs.append([repr((items, f"{word}{i}-{j}")), repr(items[:2])])
            row = {
                "id": f"r{i:05d}",
                "test_func_validated": code,
                "description": "Keeps the items of arg0 whose text occurs in arg1.",
                "header": "def test_func(arg0, arg1):",
                "train_examples": json.dumps(pairs[:3]),
                "test_examples": json.dumps(pairs[3:]),
                "all_examples": json.dumps(pairs),
            }
            handle.write(json.dumps(row) + "\n")
    return path


def line(name: str, ours: float, base: float, base_name: str) -> None:
    print(
        f"{name:<40} {ours * 1000:9.1f} ms   {base_name:<22} {base * 1000:9.1f} ms   x{ours / base:6.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    r = args.repeat

    def builtin() -> object:
        return load_file(DATA_FILE, source="builtin")

    def floor() -> object:
        return parse_only(DATA_FILE)

    line(
        "builtin load_file (240 rows), wall",
        best(builtin, r),
        best(floor, r),
        "json.loads per line",
    )
    line(
        "builtin load_file (240 rows), CPU",
        best_cpu(builtin, r),
        best_cpu(floor, r),
        "json.loads per line",
    )
    line(
        "builtin, cold process, wall",
        process_time("from pytest_pau import load_dataset; load_dataset('builtin')", r),
        process_time("import pytest_pau", r),
        "import pytest_pau",
    )
    with tempfile.TemporaryDirectory() as tmp:
        big = write_big(Path(tmp) / "big.jsonl", args.rows)

        def load_big() -> object:
            return load_file(big)

        def floor_big() -> object:
            return parse_only(big)

        line(
            f"PAU jsonl ({args.rows} rows), wall",
            best(load_big, r),
            best(floor_big, r),
            "json.loads per line",
        )
        line(
            f"PAU jsonl ({args.rows} rows), CPU",
            best_cpu(load_big, r),
            best_cpu(floor_big, r),
            "json.loads per line",
        )
        cache = Path(tmp) / "cache"
        start = time.perf_counter()
        count = len(load_dataset("humaneval", cache_dir=cache))
        cold = time.perf_counter() - start
        line(
            f"humaneval cached ({count})",
            best(lambda: load_dataset("humaneval", cache_dir=cache), r),
            cold,
            "first load (convert)",
        )


if __name__ == "__main__":
    main()
