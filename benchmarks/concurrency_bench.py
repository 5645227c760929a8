"""Many episodes at once: the full PAU-sized gate against a hosted-model-like latency.

A scripted model on 127.0.0.1 answers every call (agent, judge, coder) after ``--latency``
seconds over real HTTP and litellm; the agent never concludes, so an item is
``3 x iterations`` agent calls plus the judge and the coder. Each case runs in an empty
folder with ``--pau-no-cache`` (every call a real request):

* ``n8``: ``-n 8`` (xdist processes), one episode at a time per worker (what the plugin did
  before ``--pau-concurrency``), on 96 instances with 3 iterations;
* ``c64``: the same 96 instances with ``--pau-concurrency=64`` in one process;
* ``headline``: 741 instances (the builtin set repeated under new ids), 14 iterations
  (~45 calls per item), ``-n 2 --pau-concurrency=64`` (33,345 requests; the model-time
  floor at 64 in flight is 521 s);
* ``quarter``: the headline's shape at about a quarter of its requests (370 instances, 7
  iterations, ~8,900 requests, ~140 s at 64 in flight): a quick A/B before the headline.

For each: wall time, model requests, the time-weighted mean of requests in flight (from the
first request's arrival to the last answer), the overlap over the whole wall time
(requests x latency / wall), the most requests in flight at once, the first request's
delay after start (imports, litellm, the sandbox engine), the peak memory of the whole
pytest process tree (sampled from /proc every 0.5 s), the provider waits the report counts
(``first answer``, ``connections``...), and the load average before and after.

``--baseline-tree PATH`` runs every case a second time with ``PYTHONPATH=PATH`` (another
checkout, e.g. ``git worktree add /tmp/base c5c5cf6``), alternating with this tree, so both
see the same machine::

    python benchmarks/concurrency_bench.py                       # n8, c64, headline
    python benchmarks/concurrency_bench.py --case c64            # a few minutes
    python benchmarks/concurrency_bench.py --case headline --baseline-tree /tmp/base
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
    llm: ScriptedLLM,
    folder: Path,
    *,
    instances: int,
    iterations: int,
    extra: list[str],
    tree: str | None = None,
) -> dict[str, float | str]:
    """One pytest run of a case; ``tree``: the checkout on ``PYTHONPATH`` (None: as is)."""
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
    if tree is not None:
        env["PYTHONPATH"] = tree
    load_before = os.getloadavg()[0]
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
    exchanges = [e for e in llm.exchanges[first_before:] if e.end is not None]
    first = min(e.start for e in exchanges) - started_at if exchanges else float("nan")
    busy = sum(e.end - e.start for e in exchanges)
    window = max(e.end for e in exchanges) - min(e.start for e in exchanges)
    summary = json.loads((folder / "r.json").read_text()).get("summary", {})
    waits = ", ".join(
        f"{why} {n} / {summary.get('wait_s', {}).get(why, 0.0):.1f} s"
        for why, n in sorted(summary.get("waits", {}).items())
    )
    return {
        "wall_s": wall,
        "requests": requests,
        "in_flight": busy / window if window > 0 else float("nan"),
        "overlap": busy / wall,
        "most_in_flight": max_in_flight(exchanges),
        "first_request_s": first,
        "peak_rss_gib": peak[0] / 2**20,
        "items": len(json.loads((folder / "r.json").read_text()).get("instances", [])),
        "waits": waits or "none",
        "load": f"{load_before:.2f} -> {os.getloadavg()[0]:.2f}",
    }


def max_in_flight(exchanges: list) -> int:  # type: ignore[type-arg]
    events = sorted([(e.start, 1) for e in exchanges] + [(e.end, -1) for e in exchanges])
    most = current = 0
    for _, step in events:
        current += step
        most = max(most, current)
    return most


#: name: (label, instances, iterations, pytest options)
CASES: dict[str, tuple[str, int, int, list[str]]] = {
    "n8": ("-n 8, one episode per worker (96 x 3 it.)", 96, 3, ["-n", "8", "--pau-concurrency=1"]),
    "c64": ("--pau-concurrency=64, one process (96 x 3 it.)", 96, 3, ["--pau-concurrency=64"]),
    "quarter": (
        "-n 2 --pau-concurrency=64 (370 x 7 it.)",
        370,
        7,
        ["-n", "2", "--pau-concurrency=64"],
    ),
    "headline": (
        "-n 2 --pau-concurrency=64 (741 x 14 it.)",
        741,
        14,
        ["-n", "2", "--pau-concurrency=64"],
    ),
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument(
        "--case",
        action="append",
        choices=sorted(CASES),
        help="run only these cases (repeatable; default: n8, c64, headline)",
    )
    parser.add_argument(
        "--skip-headline", action="store_true", help="the same as --case n8 --case c64"
    )
    parser.add_argument(
        "--baseline-tree",
        metavar="PATH",
        help="also run every case with PYTHONPATH=PATH (another checkout), alternating",
    )
    return parser.parse_args(argv)


def trees_of(baseline: str | None) -> list[tuple[str, str | None]]:
    """This tree (as it is imported), and the baseline checkout if one is given."""
    trees: list[tuple[str, str | None]] = [("this tree", None)]
    if baseline:
        base = Path(baseline).resolve()
        if not (base / "pytest_pau" / "__init__.py").is_file():
            raise SystemExit(
                f"--baseline-tree {baseline!r}: no pytest_pau/__init__.py there; pass a "
                "checkout of pytest-pau, e.g. `git worktree add /tmp/base c5c5cf6`"
            )
        trees.append((f"baseline {base}", str(base)))
    return trees


def main() -> int:
    args = parse_args()
    names = args.case or (["n8", "c64"] if args.skip_headline else ["n8", "c64", "headline"])
    trees = trees_of(args.baseline_tree)
    print(f"load average at the start: {os.getloadavg()}; {os.cpu_count()} cores")
    rows = []
    with ScriptedLLM(RULES, delay_s=args.latency) as llm, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in names:
            label, instances, iterations, extra = CASES[name]
            for k, (tree_name, tree) in enumerate(trees):
                r = run(llm, root / f"{name}-{k}", instances=instances, iterations=iterations,
                        extra=extra, tree=tree)  # fmt: skip
                rows.append((label, tree_name, r))
                print(
                    f"{tree_name}: {label}: {r['wall_s']:.1f} s, mean in flight {r['in_flight']:.1f}",
                    flush=True,
                )
    print(f"load average at the end: {os.getloadavg()}")
    print(
        "| run | tree | wall s | requests | items | mean in flight | overlap | most in flight "
        "| first request s | peak RSS GiB | waits | load |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, tree_name, r in rows:
        print(
            f"| {label} | {tree_name} | {r['wall_s']:.1f} | {r['requests']:,} | {r['items']} | "
            f"{r['in_flight']:.1f} | {r['overlap']:.1f} | {r['most_in_flight']} | "
            f"{r['first_request_s']:.1f} | {r['peak_rss_gib']:.2f} | {r['waits']} | {r['load']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
