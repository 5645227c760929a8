"""Speed of ``pau compare`` on two 5,000-instance reports (target: under 3 s, parsing included).

Every figure is measured beside its baseline in the same run:

- reading: the light score reader of ``pau compare`` (``read_scores``) against the full
  ``Report`` model (``read_report``) and against plain ``json.loads`` of the same files;
- statistics: ``compare_reports`` (one shared set of 10,000 resamples for every mean,
  interval and paired test, as count matrices times a value matrix) against the
  straightforward way: ``bootstrap_ci`` per run and metric, and a paired bootstrap per
  metric that gathers resampled differences with its own index matrix;
- end to end: ``pau compare A.json B.json`` as a fresh process (interpreter start,
  imports, reading, statistics, printing).

Run: ``python benchmarks/compare_bench.py [--instances 5000] [--steps 12] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baseline_stats import bootstrap_ci

from pytest_pau.models import CallResult, InstanceResult, Mismatch, Report, RunInfo, Step, StepKind
from pytest_pau.report.compare_io import read_scores
from pytest_pau.report.json_report import read_report, write_report
from pytest_pau.stats.compare import METRICS, compare_reports

KINDS: tuple[StepKind, ...] = ("reason", "act", "reflect")


def make_report(n: int, *, seed: int, skill: float, steps: int) -> Report:
    """``n`` instances with a trajectory of ``steps`` steps (prompts of a few hundred chars)."""
    rng = random.Random(seed)
    difficulty = random.Random(99)
    results = []
    for i in range(n):
        latent = difficulty.gauss(0, 1) + skill + rng.gauss(0, 0.7)
        judge = float(min(5, max(1, round(3 + 1.2 * latent))))
        match = round(min(1.0, max(0.0, 0.6 + 0.3 * latent + rng.gauss(0, 0.1))), 2)
        traj = []
        for k in range(steps):
            kind: StepKind = KINDS[k % 3]
            traj.append(
                Step(
                    kind=kind,
                    iteration=k // 3 + 1,
                    prompt="Observations so far: ... " * 20,
                    response="(3, 'abc')"
                    if kind == "act"
                    else "The method seems to count letters. " * 4,
                    parsed_input="(3, 'abc')" if kind == "act" else None,
                    result=CallResult(ok=True, value="7", literal=True) if kind == "act" else None,
                    concluded=False if kind == "reflect" else None,
                )
            )
        passed = judge >= 3 and match >= 0.8
        results.append(
            InstanceResult(
                id=f"bench/m{i:05d}",
                source="bench",
                arity=1 + i % 3,
                passed=passed,
                judge_score=judge,
                code_match=match,
                failure_mode="none" if passed else "reasoning_error",
                prediction="Counts the letters of the string.",
                gold="Returns the number of letters.",
                code="def test_func(a, b):\n    return len(b) + a\n",
                trajectory=traj,
                mismatches=[] if passed else [Mismatch(input="(1, 'x')", expected="2", got="3")],
            )
        )
    run = RunInfo(
        plugin_version="0",
        model=f"model-{seed}",
        judge_model="j",
        coder_model="c",
        dataset="bench",
        split="test",
        mode="interactive",
        seed=0,
        max_iterations=20,
    )
    return Report(run=run, instances=results)


def naive_compare(reports: list[Report], resamples: int = 10_000) -> None:
    """The straightforward statistics: one bootstrap per cell, gathered differences per pair."""
    ids = [r.id for r in reports[0].instances]
    by_id = [{r.id: r for r in rep.instances} for rep in reports]
    for _, getter in METRICS.values():
        cols = [[getter(m[i]) for i in ids] for m in by_id]
        for col in cols:
            bootstrap_ci(col)
        best = [
            max((v for v in vals if v is not None), default=None)
            for vals in zip(*cols, strict=True)
        ]
        bootstrap_ci(best)
        a = np.array([np.nan if v is None else v for v in cols[0]])
        b = np.array([np.nan if v is None else v for v in cols[1]])
        d = (b - a)[~(np.isnan(a) | np.isnan(b))]
        rng = np.random.default_rng(0)
        means = np.empty(resamples)
        chunk = max(1, 2_000_000 // d.size)
        for start in range(0, resamples, chunk):
            stop = min(resamples, start + chunk)
            means[start:stop] = d[rng.integers(0, d.size, size=(stop - start, d.size))].mean(axis=1)
        np.quantile(means, [0.025, 0.975])


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=5000)
    parser.add_argument(
        "--steps", type=int, default=12, help="trajectory steps per instance (default 12)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="best of N (default 3)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for seed, skill in ((0, 0.0), (1, 0.05)):
            paths.append(
                write_report(
                    Path(tmp) / f"r{seed}.json",
                    make_report(args.instances, seed=seed, skill=skill, steps=args.steps),
                )
            )
        size_mb = sum(p.stat().st_size for p in paths) / 1e6
        print(
            f"two reports of {args.instances:,} instances, {args.steps} steps each: {size_mb:.1f} MB of JSON"
        )

        t_json = best_of(lambda: [json.loads(p.read_bytes()) for p in paths], args.repeat)
        t_full = best_of(lambda: [read_report(p) for p in paths], args.repeat)
        t_light = best_of(lambda: [read_scores(p) for p in paths], args.repeat)
        print(f"read both, json.loads (floor)        {t_json:6.3f} s")
        print(f"read both, full Report model         {t_full:6.3f} s")
        print(
            f"read both, read_scores (pau compare) {t_light:6.3f} s   {t_full / t_light:.1f}x faster than full, "
            f"{t_light / t_json:.2f}x json.loads"
        )

        full = [read_report(p) for p in paths]
        light = [read_scores(p) for p in paths]
        t_naive = best_of(lambda: naive_compare(full), args.repeat)
        t_stats = best_of(lambda: compare_reports(light), args.repeat)
        print(f"statistics, naive per-cell bootstraps {t_naive:6.3f} s")
        print(
            f"statistics, compare_reports           {t_stats:6.3f} s   {t_naive / t_stats:.1f}x faster "
            "(3 metrics: 2 runs + Max + paired diff, 10,000 resamples)"
        )
        print(f"pau compare in-process (read + stats) {t_light + t_stats:6.3f} s   target < 3 s")

        pau = [sys.executable, "-m", "pytest_pau.cli.main", "compare", *map(str, paths)]
        t_cli = best_of(lambda: subprocess.run(pau, check=True, capture_output=True), args.repeat)
        t_py = best_of(
            lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.repeat
        )
        print(
            f"pau compare, fresh process           {t_cli:6.3f} s   (bare interpreter start {t_py:.3f} s)"
        )
        ok = t_cli < 3.0
        print(f"target (< 3 s end to end): {'met' if ok else 'NOT met'}")
        times = [best_of(lambda: compare_reports(light), 1) for _ in range(3)]
        print(f"compare_reports spread over 3 runs: median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
