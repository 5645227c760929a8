"""Sandbox speed: cold start, fresh sandbox, call latency, against in-process exec.

Run: ``python benchmarks/sandbox_bench.py [--calls 2000]``. Prints every figure, and each
latency as a ratio to plain in-process ``exec`` measured in the same run (what PAU's
reference code does, with no isolation at all). The component must already be built
(``pau sandbox build``); the cold start is measured in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

METHOD = """
def validate_input_args(s, n):
    if not isinstance(s, str) or not isinstance(n, int):
        raise TypeError("expected (str, int)")

def test_func(s, n):
    validate_input_args(s, n)
    words = s.split()
    return [w[::-1] for w in words if len(w) > n]
"""
INPUT = "('the quick brown fox jumps over the lazy dog', 3)"
#: A second workload that imports modules: the state check then compares what it reaches.
IMPORTING = """
import re
from collections import Counter

def validate_input_args(s):
    if not isinstance(s, str):
        raise TypeError("expected str")

def test_func(s):
    validate_input_args(s)
    words = re.findall(r"[a-z]+", s.lower())
    return Counter(words).most_common(2)
"""
IMPORTING_INPUT = "('the cat and the hat and the bat',)"

COLD = """
import time
t0 = time.perf_counter()
from pytest_pau.sandbox import Sandbox
t1 = time.perf_counter()
box = Sandbox({method!r})
r = box.call_literal({input!r})
t2 = time.perf_counter()
assert r.ok, r
print(f"{{t1 - t0}} {{t2 - t1}}")
"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def exec_baseline(calls: int, method: str = METHOD, text: str = INPUT) -> list[float]:
    """Unsafe reference: compile once, exec in fresh globals and call, per query."""
    from pytest_pau.sandbox import parse_literal

    code = compile(method, "<method>", "exec")
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        args = parse_literal(text)
        namespace: dict[str, object] = {}
        exec(code, namespace)
        repr(namespace["test_func"](*args))  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return times


def live_calls(
    backend: str, calls: int, code: str = METHOD, text: str = INPUT
) -> tuple[list[float], int | None]:
    from pytest_pau.sandbox import Sandbox

    with Sandbox(code, backend=backend) as box:
        box.call_literal(text)
        times, fuel = [], None
        for _ in range(calls):
            t = time.perf_counter()
            result = box.call_literal(text)
            times.append(time.perf_counter() - t)
            fuel = result.fuel
        return times, fuel


def fresh_sandboxes(n: int) -> list[float]:
    from pytest_pau.sandbox import Sandbox

    times = []
    for _ in range(n):
        t = time.perf_counter()
        box = Sandbox(METHOD)
        box.call_literal(INPUT)
        times.append(time.perf_counter() - t)
        box.close()
    return times


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--fresh", type=int, default=100)
    parser.add_argument("--cold", type=int, default=5)
    args = parser.parse_args()

    colds = []
    for _ in range(args.cold):
        out = subprocess.run(
            [sys.executable, "-c", COLD.format(method=METHOD, input=INPUT)],
            capture_output=True,
            text=True,
            check=True,
        )
        colds.append(tuple(float(x) for x in out.stdout.split()))
    from pytest_pau.sandbox.runtime import get_runtime

    get_runtime()
    base = exec_baseline(args.calls)
    wasm, fuel = live_calls("wasm", args.calls)
    risky, _ = live_calls("wasm", max(50, args.calls // 10), METHOD + "\ngetattr(str, 'upper')\n")
    proc, _ = live_calls("process", args.calls)
    imp_base = exec_baseline(args.calls, IMPORTING, IMPORTING_INPUT)
    imp_wasm, imp_fuel = live_calls("wasm", args.calls, IMPORTING, IMPORTING_INPUT)
    imp_proc, _ = live_calls("process", args.calls, IMPORTING, IMPORTING_INPUT)
    fresh = fresh_sandboxes(args.fresh)

    from pytest_pau.sandbox import Sandbox

    before = rss_mib()
    boxes = [Sandbox(METHOD) for _ in range(10)]
    for box in boxes:
        box.call_literal(INPUT)
    mem = rss_mib() - before
    for box in boxes:
        box.close()

    print(
        f"cold start, first sandbox in a fresh process (cache warm): import {statistics.median(c[0] for c in colds) * 1000:.0f} ms"
        f" + first sandbox and call {statistics.median(c[1] for c in colds) * 1000:.0f} ms (median of {args.cold})"
    )
    print(
        f"fresh sandbox per method (construct + first call): median {statistics.median(fresh) * 1000:.2f} ms, p99 {_percentile(fresh, 0.99) * 1000:.2f} ms"
    )
    for title, rows in [
        (
            "one call on a live sandbox",
            [
                ("in-process exec (unsafe baseline)", base),
                ("wasm", wasm),
                ("wasm, risky code (fresh instance per call)", risky),
                ("process backend", proc),
            ],
        ),
        (
            "same, a method importing re and Counter",
            [
                ("in-process exec (unsafe baseline)", imp_base),
                ("wasm", imp_wasm),
                ("process backend", imp_proc),
            ],
        ),
    ]:
        b_med = statistics.median(rows[0][1])
        print(f"{title:<44} {'median':>10} {'p99':>10} {'x exec':>8}")
        for name, times in rows:
            med = statistics.median(times)
            print(
                f"  {name:<42} {med * 1000:>8.3f}ms {_percentile(times, 0.99) * 1000:>8.3f}ms {med / b_med:>7.1f}x"
            )
    print(f"fuel per call: {fuel:,} (first workload), {imp_fuel:,} (importing)")
    print(f"10 live sandboxes add {mem:.0f} MiB RSS")


if __name__ == "__main__":
    main()
