"""Start-up and the quick start: this tree against an earlier one, in one command.

Three figures, each measured for ``--baseline-rev`` (exported with ``git archive``) and
for this tree, alternating, in fresh processes:

1. **builtin load**: ``load_dataset("builtin")`` in a fresh interpreter (median of
   ``--repeat`` runs): the call alone, and the import of ``pytest_pau`` plus the call. This
   tree's first load (empty user cache) is shown apart.
2. **time to the first request**: ``pytest --pau-model=<scripted>`` on 96 builtin items,
   every role on a :class:`~pytest_pau.testing.ScriptedLLM`: seconds from the start of the
   process to the first request the server saw (imports, collection, litellm, the sandbox).
3. **quick start** (``--quick-start``): the README's first command, in ``demo/``, with
   ``local-small`` in every role when the 1.5B ``local`` is not installed (it is not on the
   development machine): 3 smoke items, 5 iterations, ``--pau-no-cache``, one llama.cpp
   thread; for the baseline, this tree with its prefix cache off
   (``PAU_LOCAL_PREFIX_CACHE_MB=0``) and this tree: the wall time, and what the summary
   says of the prompt tokens the embedded model evaluated. With
   ``--quick-start-concurrency N``, ``--pau-concurrency=N`` (episodes interleave on the
   one model: what the prefix cache is for), cache off and on only.

``PYTHONDONTWRITEBYTECODE`` is reported: with it set (as on the development machine)
every process compiles the project's modules again, which no load cache changes.

    python benchmarks/startup_bench.py                  # 1 and 2 (about 2 minutes)
    python benchmarks/startup_bench.py --quick-start    # and 3 (half an hour here)
    python benchmarks/startup_bench.py --only-quick-start --quick-start-concurrency 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plugin_bench import RULES
from quota_bench import ROOT, baseline_rev, export

from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM

LOAD = (
    "import time; t0 = time.perf_counter(); from pytest_pau import load_dataset; "
    "t1 = time.perf_counter(); d = load_dataset('builtin'); t2 = time.perf_counter(); "
    "assert len(d) == 240; print(t2 - t1, t2 - t0)"
)


def load_once(tree: Path, cache: Path) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PAU_USER_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", LOAD], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    call, total = (float(x) for x in out.stdout.split())
    return call, total


def first_request(llm: ScriptedLLM, tree: Path, folder: Path) -> float:
    folder.mkdir(parents=True)
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
        f"--pau-model={llm.model}", f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}", f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}", f"--pau-coder-api-base={llm.api_base}",
        "--pau-limit=96", "--pau-max-iterations=1", "--pau-no-cache", "--pau-concurrency=64",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tree), "PAU_USER_CACHE": str(user_cache_dir())}
    seen = len(llm.exchanges)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    while len(llm.exchanges) == seen and proc.poll() is None:
        time.sleep(0.01)
    took = time.monotonic() - start
    proc.kill()
    proc.wait()
    return took


def quick_start(
    tree: Path, model: str, env_extra: dict[str, str], concurrency: int | None
) -> tuple[float, list[str]]:
    roles = [f"--pau-model={model}", f"--pau-judge-model={model}", f"--pau-coder-model={model}"]
    more = [f"--pau-concurrency={concurrency}"] if concurrency else []
    cmd = [
        sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *roles, "-m", "smoke",
        "--pau-limit=3", "--pau-max-iterations=5", "--pau-no-cache", *more,
    ]  # fmt: skip
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "PAU_USER_CACHE": str(user_cache_dir()),
        **env_extra,
    }
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=tree / "demo", env=env, capture_output=True, text=True)
    took = time.monotonic() - start
    if "PAU summary" not in proc.stdout:
        sys.stdout.write(proc.stdout[-3000:] + proc.stderr[-2000:])
        raise SystemExit(f"the quick start failed with {tree}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(("embedded model", "tokens"))]
    return took, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-rev", default=None)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick-start", action="store_true")
    parser.add_argument("--only-quick-start", action="store_true", help="skip 1 and 2")
    parser.add_argument(
        "--quick-start-concurrency",
        type=int,
        default=None,
        help="episodes at once (the prefix cache off and on, without the baseline)",
    )
    parser.add_argument(
        "--model", default=None, help="local or local-small (default: local if installed)"
    )
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the weights are local or not at all
    rev = args.baseline_rev or baseline_rev()
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores; "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE')!r}")  # fmt: skip
    print(f"baseline: {rev} ({subprocess.getoutput(f'git -C {ROOT} rev-parse --short {rev}')})")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        base = export(rev, root / "baseline")
        trees = [("baseline", base), ("this tree", ROOT)]

        if not args.only_quick_start:
            measure_load_and_first_request(trees, root, args)
        if args.quick_start or args.only_quick_start:
            measure_quick_start(trees, args)
    print(f"\nload average at the end: {os.getloadavg()}")
    return 0


def measure_load_and_first_request(
    trees: list[tuple[str, Path]], root: Path, args: argparse.Namespace
) -> None:
    caches = {name: root / f"user-{i}" for i, (name, _) in enumerate(trees)}
    first_call, _ = load_once(ROOT, caches["this tree"])  # fills this tree's cache
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    for _ in range(args.repeat):
        for name, tree in trees:
            times[name].append(load_once(tree, caches[name]))
    print("\nbuiltin load, fresh process (median of", args.repeat, "runs)")
    print("| tree | load_dataset('builtin') ms | import + load ms |")
    print("| --- | --- | --- |")
    med = {}
    for name, _ in trees:
        call = statistics.median(c for c, _ in times[name]) * 1000
        total = statistics.median(t for _, t in times[name]) * 1000
        med[name] = (call, total)
        print(f"| {name} | {call:.0f} | {total:.0f} |")
    print(f"| this tree, first load (empty user cache) | {first_call * 1000:.0f} | |")
    b, n = med["baseline"], med["this tree"]
    print(f"this tree / baseline: load {n[0] / b[0]:.2f}x, import + load {n[1] / b[1]:.2f}x")

    firsts: dict[str, list[float]] = {name: [] for name, _ in trees}
    with ScriptedLLM(RULES, delay_s=0.2) as llm:
        for i in range(3):
            for name, tree in trees:
                firsts[name].append(first_request(llm, tree, root / f"f{i}-{name[:4]}"))
    print("\ntime to the first request, 96 items, --pau-concurrency=64 (3 runs each)")
    for name, _ in trees:
        print(f"  {name}: " + ", ".join(f"{s:.1f} s" for s in firsts[name])
              + f" (median {statistics.median(firsts[name]):.1f} s)")  # fmt: skip
    ratio = statistics.median(firsts["this tree"]) / statistics.median(firsts["baseline"])
    print(f"this tree / baseline: {ratio:.2f}x")


def measure_quick_start(trees: list[tuple[str, Path]], args: argparse.Namespace) -> None:
    """The baseline, this tree with its prefix cache off, and this tree, one after the other.

    llama.cpp runs one thread (``PAU_LOCAL_THREADS=1``) in every run: on a shared 2-core
    machine two threads that spin-wait for each other collapse whenever another process
    takes a core (a one-token decode was seen to take 3.4 s), which swamps what is measured.
    """
    model = args.model or ("local" if _installed("local") else "local-small")
    base = {"PAU_LOCAL_THREADS": "1"}
    runs = [
        ("baseline", trees[0][1], base),
        ("this tree, prefix cache off", ROOT, {**base, "PAU_LOCAL_PREFIX_CACHE_MB": "0"}),
        ("this tree", ROOT, base),
    ]
    if args.quick_start_concurrency:
        runs = runs[1:]
    walls: dict[str, float] = {}
    for name, tree, env in runs:
        wall, lines = quick_start(tree, model, env, args.quick_start_concurrency)
        walls[name] = wall
        print(f"  quick start, {name}: {wall:.1f} s; " + " | ".join(lines), flush=True)
    what = (
        f"--pau-concurrency={args.quick_start_concurrency}, "
        if args.quick_start_concurrency
        else ""
    )
    print(f"\nquick start ({model}, 3 smoke items, 5 iterations, {what}one llama.cpp thread):")
    first = next(iter(walls.values()))
    for name, wall in walls.items():
        print(f"  {name}: {wall:.1f} s ({wall / first:.2f}x)")


def _installed(name: str) -> bool:
    from pytest_pau.errors import LocalModelError
    from pytest_pau.llm.local.weights import resolve_weights

    try:
        resolve_weights(name)
    except LocalModelError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
