"""Costs of the paper's footing (issue 27): the reference layout, recompute, ``pau paper``.

Every figure is measured beside its baseline in the same run:

- loading: the builtin set written in the PAU reference's layout (first train output a
  value, later ones repr text, test outputs JSON values, ``all_examples`` ending in
  ``"None"``), read with ``auto`` (signature detection, reading by position) against the
  same instances written as repr text and read with ``outputs="repr"``;
- ``--pau-dataset-outputs=recompute``: the first load (every gold method run in the wasm
  sandbox) and a cached one, against the plain load above;
- ``pau paper``: three 741-instance reports (the size of PAU's test split): the statistics
  and tables alone, then with the figures and the page, against reading the three reports.

Run: ``python benchmarks/paper_bench.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_pau import load_dataset
from pytest_pau.dataset.builtin import load_builtin
from pytest_pau.models import InstanceResult, Report, RunInfo
from pytest_pau.report.compare_io import read_scores
from pytest_pau.report.json_report import write_report
from pytest_pau.report.paper_plots import write_paper
from pytest_pau.report.paper_table import build_book, csv_text, markdown


def _value(text: str) -> object:
    return ast.literal_eval(text)


def write_files(folder: Path) -> tuple[Path, Path, int]:
    """The builtin set in the reference's layout and as repr text; rows JSON can hold."""
    ref, rep = [], []
    for inst in load_builtin("test"):
        # The reference drops inputs that raise, then rows with under 2 train or 4 test.
        train = [e for e in inst.train_examples if e.raises is None][:2]
        test = [e for e in inst.test_examples if e.raises is None]
        if len(train) < 2 or len(test) < 4:
            continue
        try:
            cells = [
                [train[0].input, _value(train[0].output)],
                *[[e.input, e.output] for e in train[1:]],
            ]
            tests = [[e.input, _value(e.output)] for e in test]
            row = {
                "test_func_validated": inst.code,
                "description": inst.description,
                "header": inst.header,
                "train_examples": json.dumps(cells),
                "test_examples": json.dumps(tests),
                "all_examples": json.dumps([[i, o, "None"] for i, o in cells]),
            }
        except (TypeError, ValueError):
            continue  # a set, bytes...: json.dumps fails, the reference drops the row
        ref.append(row)
        rep.append(
            {
                **{k: row[k] for k in ("test_func_validated", "description", "header")},
                "train_examples": json.dumps([[e.input, e.output] for e in train]),
                "test_examples": json.dumps([[e.input, e.output] for e in test]),
            }
        )
    paths = folder / "reference.jsonl", folder / "repr.jsonl"
    for path, rows in zip(paths, (ref, rep), strict=True):
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return paths[0], paths[1], len(ref)


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def reports(folder: Path, n: int = 741) -> list[Path]:
    out = []
    for k, (model, skill) in enumerate(
        (("gpt-5.4-mini", 0.6), ("claude-opus-4.6", 0.8), ("x", 0.3))
    ):
        rng = random.Random(k)
        items = []
        for i in range(n):
            judge = min(5, max(1, round(1 + 4 * skill * rng.random() + rng.gauss(0, 0.8))))
            items.append(
                InstanceResult(
                    id=f"hf/{i:04d}",
                    source="hf",
                    arity=1,
                    judge_score=None if rng.random() < 0.03 else judge,
                    code_match=rng.choice([0.0, 0.25, 0.5, 0.75, 1.0]),
                    n_queries=rng.randint(0, 20),
                    concluded=rng.random() < 0.6,
                )
            )
        run = RunInfo(
            plugin_version="b",
            model=model,
            judge_model="openai/meta-llama/Llama-3.1-70B-Instruct",
            coder_model="openai/Qwen/Qwen3-Coder-30B-A3B-Instruct",
            dataset="hf:DJ-Research/PAU-Benchmark",
            split="test",
            mode="interactive",
            seed=0,
            max_iterations=20,
            protocol="paper",
        )
        path = folder / f"{model}.json"
        write_report(path, Report(run=run, instances=items))
        out.append(path)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ref, rep, rows = write_files(folder)
        plain = best(lambda: load_dataset(str(rep), outputs="repr"), args.repeat)
        layout = best(lambda: load_dataset(str(ref)), args.repeat)
        assert load_dataset(str(ref)).info.outputs == "reference"
        cache = folder / "cache"
        start = time.perf_counter()
        first = load_dataset(str(ref), outputs="recompute", cache_dir=cache)
        cold = time.perf_counter() - start
        cached = best(
            lambda: load_dataset(str(ref), outputs="recompute", cache_dir=cache), args.repeat
        )
        print(f"{rows} builtin methods in the reference's layout")
        print(f"  repr file, outputs=repr (baseline)   {plain * 1000:8.1f} ms")
        print(
            f"  reference layout, auto              {layout * 1000:8.1f} ms  {layout / plain:5.2f}x"
        )
        print(f"  recompute, first load               {cold * 1000:8.1f} ms  {cold / plain:5.1f}x")
        print(
            f"  recompute, cached                   {cached * 1000:8.1f} ms  {cached / plain:5.2f}x"
        )
        print(f"  {first.info.notes[0]}")
        paths = reports(folder)
        read = best(lambda: [read_scores(p) for p in paths], args.repeat)
        names = [str(p) for p in paths]

        def tables() -> None:
            book = build_book([read_scores(p) for p in paths], names)
            markdown(book)
            csv_text(book)

        table = best(tables, args.repeat)
        out = folder / "paper"
        figures = best(
            lambda: write_paper(build_book([read_scores(p) for p in paths], names), out),
            args.repeat,
        )
        shutil.rmtree(out, ignore_errors=True)
        print("pau paper, 3 reports of 741 instances")
        print(f"  read the reports (baseline)         {read * 1000:8.1f} ms")
        print(f"  + statistics, 6 bootstraps, tables  {table * 1000:8.1f} ms  {table / read:5.1f}x")
        print(
            f"  + figures and the page              {figures * 1000:8.1f} ms  {figures / read:5.1f}x"
        )
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
