"""PAU parity: the same instances through the PAU reference and through pytest-pau.

Not a CI test: it needs a snapshot of the reference's public repository
(github.com/DhananjayAshok/PAU-Benchmark, MIT), which is exported at run time into the
work folder and never copied into this repository, and a Python environment with the
reference's dependencies (torch, transformers, datasets, pandas, openai, anthropic,
click, seaborn, pyyaml; see benchmarks/README.md). One model serves every role of both
tools: llama-cpp-python's OpenAI-compatible server (``python -m llama_cpp.server``) on
the embedded GGUF, behind a small proxy that sets ``temperature: 0`` and ``seed: 0`` on
every request (the reference sends no temperature; the server would sample at 0.8).

Stages (each one is skipped when its output is already in ``--workdir``, so a run that
stopped resumes where it stopped; delete a file to redo its stage):

1. ``ref/``: the reference exported, configured by its config files only (agent
   ``gpt-4o-mini``, judge ``gpt-4o``, coder ``gpt-4-coder``: names its router sends to
   the OpenAI client, which reads ``OPENAI_BASE_URL``), its dataset read offline from
   ``data/pau_local/test.jsonl`` (:func:`conformance_rows.reference_row`), and
   ``conformance.jsonl``, the same rows in our format.
2. The reference's interactive baseline, description eval, fixed coder and code eval
   (``baselines.py interactive|code``, ``eval.py description|code``), unmodified; the
   iteration limit is lowered by a wrapper that changes ``interactive``'s default
   argument (said in the results), as the machine is small.
3. pytest-pau on ``conformance.jsonl`` (``--pau-protocol=paper`` where this version has
   it; otherwise the closest settings, recorded as such).
4. ``pau import-reference`` of the reference's files.
5. Cross-scoring at temperature 0: the reference's descriptions through our judge and
   coder; ours through the reference's judge, coder and code scorer; each coder's code
   through the other tool's code scorer (same code, both scorers).
6. ``agreement.json`` and ``agreement.md``: per item and per input, what agrees and why not.

Run: ``python benchmarks/reference_conformance.py --reference DIR_OR_GIT_DIR
--reference-python PY --workdir DIR [--max-iterations 3] [--model local-small]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import conformance_results as results_of
import conformance_rows as rows
import conformance_stages as stages

AGENT, JUDGE, CODER = "gpt-4o-mini", "gpt-4o", "gpt-4-coder"
RUN = f"interactive_{AGENT}"
CODE_RUN = f"{RUN}_code_prediction_judge-{CODER}"
OURS_RUN = "interactive_ours"
OURS_CODE_RUN = f"{OURS_RUN}_code_prediction_judge-{CODER}"
OUR_CODE = "ourcoder_code_prediction_judge-sameinputs"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--reference",
        type=Path,
        required=True,
        help="The reference's repository: "
        "a bare git dir (as the fetch tool leaves it) or a checked-out folder.",
    )
    p.add_argument(
        "--reference-python",
        type=Path,
        required=True,
        help="Python of an environment with the reference's dependencies.",
    )
    p.add_argument(
        "--server-python",
        type=Path,
        default=None,
        help="Python with llama-cpp-python[server] (default: --reference-python).",
    )
    p.add_argument("--workdir", type=Path, required=True)
    p.add_argument("--model", default="local-small", choices=["local-small", "local"])
    p.add_argument("--instances", type=int, default=len(rows.BENCH_IDS))
    p.add_argument(
        "--max-iterations",
        type=int,
        default=3,
        help="Both agents' iteration limit (the paper's 20 is ~1 hour per "
        "instance on 2 loaded cores). Default 3.",
    )
    p.add_argument("--port", type=int, default=18431, help="llama.cpp server; the proxy +1.")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="llama.cpp threads. Default 1: on a "
        "shared 2-core machine two spinning threads ran 5x slower than one.",
    )
    return p.parse_args(argv)


@contextlib.contextmanager
def model_server(args: argparse.Namespace, work: Path) -> Iterator[str]:
    """The llama.cpp server and the temperature-0 proxy; yields the proxy's ``/v1`` URL."""
    from pytest_pau.llm.local.provider import extra_buffers_allowed
    from pytest_pau.llm.local.weights import resolve_weights

    for port in (args.port, args.port + 1):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                raise SystemExit(f"port {port} is in use (another run?); pass --port N")
    weights = resolve_weights(args.model)
    log = (work / "server.log").open("ab")
    python = str(args.server_python or args.reference_python)
    code = stages.server_code(
        weights, port=args.port, threads=args.threads, repack=extra_buffers_allowed()
    )
    server = subprocess.Popen([python, "-c", code], stdout=log, stderr=log)
    proxy = None
    try:
        stages.wait_for(f"http://127.0.0.1:{args.port}/v1/models", server, timeout_s=300)
        proxy = stages.start_proxy(args.port + 1, args.port, work / "requests.jsonl")
        yield f"http://127.0.0.1:{args.port + 1}/v1"
    finally:
        if proxy is not None:
            proxy.shutdown()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def reference_env(base_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "conformance",
        "PYTHONBREAKPOINT": "0",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }


#: The reference's code scorer checks the gold code in a forked process it gives 0.5 s
#: (``RunTestFunc.try_exec``); on a loaded machine the fork can miss that and the whole
#: ``eval.py code`` stops with this error. Such a run is repeated (and counted).
FORK_DEADLINE = "Failed to exec function code, cannot initialize RunTestFunc"
RETRIES: list[str] = []


def ref(args: argparse.Namespace, work: Path, env: dict[str, str], *argv: str) -> None:
    """Run one reference command from its folder; its output goes to ``reference.log``."""
    started = time.perf_counter()
    log_path = work / "reference.log"
    for attempt in range(1, 4):
        with log_path.open("a", encoding="utf-8") as log:
            log.write(f"\n$ {' '.join(argv)}\n")
            log.flush()
            mark = log.tell()
            done = subprocess.run(
                [str(args.reference_python), *argv],
                cwd=work / "ref",
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if done.returncode == 0:
            break
        with log_path.open(encoding="utf-8") as log:
            log.seek(mark)
            tail = log.read()
        if FORK_DEADLINE not in tail or attempt == 3:
            raise SystemExit(f"the reference's {' '.join(argv[:2])} failed; see {log_path}")
        RETRIES.append(f"{' '.join(argv[:3])}: attempt {attempt} missed the 0.5 s fork deadline")
    print(f"  reference {' '.join(argv[:3])}: {time.perf_counter() - started:.0f} s", flush=True)


def run_reference(args: argparse.Namespace, work: Path, env: dict[str, str]) -> None:
    results = work / "ref" / "results"
    if not (results / "predictions" / f"{RUN}.jsonl").exists():
        ref(
            args,
            work,
            env,
            str(work / "interactive_wrapper.py"),
            "interactive",
            "--model_name",
            AGENT,
            "--save_name",
            RUN,
        )
    if not (results / "evals" / f"{RUN}_description_prediction_judge-{JUDGE}.jsonl").exists():
        ref(args, work, env, "eval.py", "description", "--load_name", RUN)
    if not (results / "predictions" / f"{CODE_RUN}.jsonl").exists():
        ref(args, work, env, "baselines.py", "code", "--load_name", RUN, "--save_name", CODE_RUN)
    if not (results / "evals" / f"{CODE_RUN}.jsonl").exists():
        ref(args, work, env, "eval.py", "code", "--load_name", CODE_RUN)


def run_ours(args: argparse.Namespace, work: Path, base_url: str) -> dict[str, Any]:
    """pytest-pau on the same rows; returns how it was run (recorded in the results)."""
    from pytest_pau.settings import PauSettings

    paper = "protocol" in PauSettings.model_fields
    report = work / "ours.json"
    roles = {"model": "pau-agent", "judge-model": "pau-judge", "coder-model": "pau-coder"}
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        f"--pau-dataset={work / 'conformance.jsonl'}",
        "--pau-dataset-outputs=repr",
        f"--pau-max-iterations={args.max_iterations}",
        f"--pau-report={report}",
        f"--pau-cache-dir={work / 'cache'}",
        "--pau-concurrency=1",
    ]
    for option, name in roles.items():
        base = "api-base" if option == "model" else option.replace("-model", "-api-base")
        argv += [f"--pau-{option}=openai/{name}", f"--pau-{base}={base_url}"]
    if paper:
        argv.append("--pau-protocol=paper")
    setting = {"argv": argv[3:], "protocol": "paper" if paper else "pytest-pau"}
    if not report.exists():
        started = time.perf_counter()
        empty = work / "ours_project"
        empty.mkdir(exist_ok=True)
        env = {**os.environ, "OPENAI_API_KEY": "conformance"}
        env["PYTHONPATH"] = os.pathsep.join(
            [str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")]
        )
        with (work / "ours.log").open("w", encoding="utf-8") as log:
            subprocess.run(argv, cwd=empty, env=env, stdout=log, stderr=subprocess.STDOUT)
        print(f"  pytest-pau: {time.perf_counter() - started:.0f} s", flush=True)
        if not report.exists():
            raise SystemExit(f"pytest-pau wrote no report; see {work / 'ours.log'}")
    return setting


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # A SIGTERM (timeout, kill) unwinds like Ctrl-C, so the model server is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = args.workdir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    load_before = os.getloadavg()
    stages.prepare_reference(args.reference, work, AGENT, JUDGE, CODER, args.max_iterations)
    ref_rows = stages.build_datasets(work, rows.BENCH_IDS[: args.instances])
    with model_server(args, work) as base_url:
        env = reference_env(base_url)
        run_reference(args, work, env)
        setting = run_ours(args, work, base_url)
        stages.import_reference(work, RUN, JUDGE, CODE_RUN)
        stages.ours_through_reference(
            work, ref_rows, lambda *a: ref(args, work, env, *a), OURS_RUN, OURS_CODE_RUN, OUR_CODE
        )
        stages.reference_through_ours(work, base_url)
    results = results_of.agreement(work, ref_rows, CODE_RUN, OURS_RUN, OURS_CODE_RUN, OUR_CODE)
    results["run"] = {
        "model": args.model,
        "instances": len(ref_rows),
        "max_iterations": args.max_iterations,
        "ours": setting,
        "reference_retries": RETRIES,
        "wall_s": round(time.perf_counter() - started, 1),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    (work / "agreement.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    text = results_of.markdown(results)
    (work / "agreement.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
