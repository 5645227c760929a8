"""Oracle and null with the embedded judge and coder: the ceiling and the floor they allow.

For each selection (the builtin ``smoke`` set, and the first 20 HumanEval items) the script
runs ``pytest --pau-model=oracle`` and ``--pau-model=null`` with ``--pau-gold-control`` and
the default embedded judge and coder (``local``), one run at a time, each in a scratch
directory, with the pytest-pau of ``--tree`` on ``PYTHONPATH`` (a checkout of the commit to
measure). The four runs of one label share one ``--pau-cache-dir``, so the null run's gold
control reuses the oracle's coder answers; give each label (``before``, ``after``) its own
folder so that caching never mixes two prompt versions.

Printed (and written to ``OUT/LABEL/figures.json``): per run the judge mean, the code match
mean, the gold code match mean, the failure modes, the model requests and cache hits, the
wall time and the load average before and after.

Run::

    python benchmarks/oracle_null_bench.py run --tree /tmp/checkout --label before --out /tmp/pau_bench
    python benchmarks/oracle_null_bench.py table /tmp/pau_bench/before /tmp/pau_bench/after

``run --only smoke-oracle`` runs one of the four, ``--workers 2`` each with ``-n 2``;
``table`` reads the JSON reports only (it recomputes the figures from the items, so
reports of older versions read the same way).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

SELECTIONS: dict[str, list[str]] = {
    "smoke": ["-m", "smoke"],
    "humaneval20": ["--pau-dataset=humaneval", "--pau-limit=20"],
}
MODELS = ("oracle", "null")


def _run_one(
    tree: Path,
    out: Path,
    selection: str,
    model: str,
    python: str,
    limit: int | None = None,
    workers: int | None = None,
) -> dict[str, Any]:
    scratch = out / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    report = out / f"{selection}-{model}.json"
    cmd = [
        python,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        f"--pau-model={model}",
        "--pau-gold-control",
        f"--pau-report={report}",
        f"--pau-cache-dir={out / 'cache'}",
        *SELECTIONS[selection],
        # The last --pau-limit wins: a smaller one for a quick look on a busy machine.
        *([f"--pau-limit={limit}"] if limit is not None else []),
        # xdist workers, each with its share of the cores for llama.cpp (see
        # local_threads_bench.py); use the same N for the runs you compare.
        *(["-n", str(workers)] if workers else []),
    ]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    load_before = os.getloadavg()
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    load_after = os.getloadavg()
    (out / f"{selection}-{model}.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if not report.exists():
        raise SystemExit(
            f"{selection}/{model}: no report at {report} (exit {done.returncode}); "
            f"see {out / f'{selection}-{model}.log'}"
        )
    meta = {
        "command": cmd,
        "exit": done.returncode,
        "wall_s": wall,
        "load_before": load_before,
        "load_after": load_after,
    }
    (out / f"{selection}-{model}.meta.json").write_text(json.dumps(meta, indent=1), "utf-8")
    return meta


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def figures(out: Path, selection: str, model: str) -> dict[str, Any]:
    """The figures of one run, recomputed from its report's items."""
    report = json.loads((out / f"{selection}-{model}.json").read_text("utf-8"))
    meta_path = out / f"{selection}-{model}.meta.json"
    meta = json.loads(meta_path.read_text("utf-8")) if meta_path.exists() else {}
    items = [i for i in report["instances"] if i.get("error") is None and i.get("skipped") is None]
    modes = Counter(i["failure_mode"] for i in items if not i["passed"])
    calls = sum(i.get("model_calls", 0) for i in report["instances"])
    hits = sum(i.get("cache_hits", 0) for i in report["instances"])
    return {
        "selection": selection,
        "model": model,
        "items": len(report["instances"]),
        "scored": len(items),
        "passed": sum(bool(i["passed"]) for i in items),
        "judge_mean": _mean([i["judge_score"] for i in items if i["judge_score"] is not None]),
        "match_mean": _mean([i["code_match"] for i in items if i["code_match"] is not None]),
        "gold_match_mean": _mean(
            [i["gold_code_match"] for i in items if i.get("gold_code_match") is not None]
        ),
        "failure_modes": dict(modes.most_common()),
        "requests": calls - hits,
        "cache_hits": hits,
        "prompts_version": report["run"].get("prompts_version"),
        "wall_s": meta.get("wall_s"),
        "load_before": meta.get("load_before"),
        "load_after": meta.get("load_after"),
    }


def _fmt(x: float | None, spec: str = ".2f") -> str:
    return "n/a" if x is None else format(x, spec)


def table(folders: list[Path]) -> str:
    """A Markdown table of every run of every folder (label = the folder's name)."""
    lines = [
        "| label | selection | model | passed | judge mean | code match | gold code match "
        "| failure modes | wall s | load avg |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for folder in folders:
        for selection in SELECTIONS:
            for model in MODELS:
                if not (folder / f"{selection}-{model}.json").exists():
                    continue
                f = figures(folder, selection, model)
                modes = ", ".join(f"{k} {v}" for k, v in f["failure_modes"].items()) or "-"
                load = (
                    f"{f['load_before'][0]:.1f}-{f['load_after'][0]:.1f}"
                    if f["load_before"]
                    else "n/a"
                )
                lines.append(
                    f"| {folder.name} | {selection} | {model} | {f['passed']}/{f['scored']} "
                    f"| {_fmt(f['judge_mean'])} | {_fmt(f['match_mean'], '.3f')} "
                    f"| {_fmt(f['gold_match_mean'], '.3f')} | {modes} "
                    f"| {_fmt(f['wall_s'], '.0f')} | {load} |"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="Run oracle and null on both selections.")
    run.add_argument("--tree", type=Path, required=True, help="The checkout to measure.")
    run.add_argument("--label", required=True, help="before / after: a folder under --out.")
    run.add_argument("--out", type=Path, default=Path("/tmp/pau_bench"))
    run.add_argument("--only", action="append", help="SELECTION-MODEL, e.g. smoke-oracle.")
    run.add_argument("--python", default=sys.executable)
    run.add_argument("--limit", type=int, help="At most N items per selection (a quick look).")
    run.add_argument("--workers", type=int, help="Run each selection with -n N.")
    show = sub.add_parser("table", help="The Markdown table of finished runs.")
    show.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.cmd == "table":
        print(table(args.folders))
        return 0
    out: Path = args.out / args.label
    out.mkdir(parents=True, exist_ok=True)
    for selection in SELECTIONS:
        for model in MODELS:
            if args.only and f"{selection}-{model}" not in args.only:
                continue
            meta = _run_one(
                args.tree.resolve(), out, selection, model, args.python, args.limit, args.workers
            )
            print(f"{args.label} {selection} {model}: {meta['wall_s']:.0f} s", flush=True)
    figs = [
        figures(out, s, m) for s in SELECTIONS for m in MODELS if (out / f"{s}-{m}.json").exists()
    ]
    (out / "figures.json").write_text(json.dumps(figs, indent=1), encoding="utf-8")
    print(table([out]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
