"""Ctrl-C and SIGTERM stop a ``pau`` command with one line and the shell's exit status.

``pau merge`` of a large run is stopped while it reads the shards: exit 130 for Ctrl-C
(``pau merge: interrupted``), 143 for SIGTERM (``pau merge: stopped by SIGTERM``), no
traceback, no temporary file left, and an output present only whole. Was: SIGTERM killed it
where it was (exit -15, nothing said); Ctrl-C after the plugin's start-up module was imported
said "Interrupted (Ctrl-C) while pytest was starting: nothing ran." (exit 2); one during the
JSON's serialization came out as a raw ``PydanticSerializationError``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from tests.signals import as_in_a_terminal

from . import test_merge_refuses as shards

ITEMS = 6000


def _big_shards(folder: Path) -> list[Path]:
    ids = [f"s/i{i:05d}" for i in range(ITEMS)]
    parts = {1: ids[::2], 2: ids[1::2]}
    paths = []
    for k in (1, 2):
        report = shards.shard_report(k, selection=ids, own=parts[k])
        path = folder / f"shard-{k}.json"
        path.write_text(report.model_dump_json(indent=1))
        paths.append(path)
    return paths


def _opened(pid: int, path: Path) -> bool:
    try:
        return any(os.path.realpath(f"/proc/{pid}/fd/{fd}") == str(path)
                   for fd in os.listdir(f"/proc/{pid}/fd"))  # fmt: skip
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc to time the signal")
@pytest.mark.parametrize(
    ("sig", "status", "line"),
    [
        (signal.SIGTERM, 143, "pau merge: stopped by SIGTERM"),
        (signal.SIGINT, 130, "pau merge: interrupted"),
    ],
)
def test_a_signal_stops_pau_merge_with_one_line_and_nothing_half_written(
    tmp_path: Path, sig: signal.Signals, status: int, line: str
) -> None:
    paths = _big_shards(tmp_path)
    out = tmp_path / "out.json"
    argv = [sys.executable, "-m", "pytest_pau", "merge", *map(str, paths), "-o", str(out)]
    # On a busy machine the merge can read its shards between two looks at /proc, or end
    # before the signal lands (exit 0, a whole output): such a try decides nothing and is
    # made again; what a caught signal must give is checked on every try that caught one.
    caught = 0
    for _ in range(5):
        out.unlink(missing_ok=True)
        proc = subprocess.Popen(
            [*argv, "--html", str(tmp_path / "out.html")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=as_in_a_terminal,
        )
        deadline = time.monotonic() + 120
        while not _opened(proc.pid, paths[0].resolve()) and proc.poll() is None:
            assert time.monotonic() < deadline, "pau merge never opened the first shard"
            time.sleep(0.001)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        leftovers = sorted(
            p.name for p in tmp_path.iterdir() if p not in paths and p.name != "out.html"
        )
        assert leftovers in ([], ["out.json"]), leftovers
        if out.exists():
            json.loads(out.read_text())  # whole, never half written
        if proc.returncode == 0:
            continue  # the merge had finished: too late to tell anything
        assert proc.returncode == status, err
        assert err.strip().splitlines()[-1] == line
        assert "Traceback" not in err
        caught += 1
        break
    assert caught, "five tries, and pau merge finished before each signal (a busy machine?)"


def test_the_command_gives_the_signals_back(tmp_path: Path) -> None:
    """``main`` called in a process (a test, a notebook) leaves its handlers as they were."""
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    main(["merge", str(tmp_path / "none.json"), "-o", str(tmp_path / "o.json")])
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_ctrl_c_stops_pau_judge_check_writing_nothing_and_the_cache_keeps_the_ratings(
    tmp_path: Path,
) -> None:
    """Ctrl-C in the middle of ``pau judge-check`` (its judge hanging on the second item):
    one line, exit 130, no JSON (a check of the first items only would read as a check of
    fewer); the ratings made are in the cache, so the same command again asks only the rest
    (docs/gates.md says so; sweep of issue 40)."""
    from pytest_pau.prompting import MARKERS
    from pytest_pau.testing import ScriptedLLM
    from tests.cli.test_judge_check_cli import judge_args
    from tests.plugin.toy import judge_reply

    state = {"hang": True, "calls": 0}

    def judge(messages: list[dict[str, str]]) -> str:
        while state["hang"] and state["calls"] >= 3:  # the second item's first rating
            time.sleep(0.05)
        state["calls"] += 1
        return judge_reply(messages)

    rules = [(MARKERS["judge_retry"], judge_reply), (MARKERS["judge"], judge)]
    with ScriptedLLM(rules) as llm:
        argv = judge_args(llm, tmp_path, "-n", "2")
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest_pau", *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).parents[2],
            preexec_fn=as_in_a_terminal,
        )
        deadline = time.monotonic() + 120
        while llm.requests < 4 and proc.poll() is None:  # the first item's 3, one of the next
            assert time.monotonic() < deadline, "pau judge-check never reached its 2nd item"
            time.sleep(0.01)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        state["hang"] = False
        assert proc.returncode == 130, err
        assert err.strip().splitlines()[-1] == "pau judge-check: interrupted"
        assert "Traceback" not in err
        assert not (tmp_path / "check.json").exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "toy.jsonl"]
        before = llm.requests
        assert main(argv) == 0
        data = json.loads((tmp_path / "check.json").read_text())
    assert data["cache_hits"] == 3  # the first item's ratings, made before the signal
    assert data["requests"] == llm.requests - before == 3
