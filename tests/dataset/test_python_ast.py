"""Python's ast one thread at a time (pytest_pau/dataset/python_ast.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "pytest_pau"

# Eight threads read the same literal while every garbage collection (one every
# allocation) sleeps a little, handing the interpreter to another thread in the middle of a
# conversion: the race CPython 3.11 turns into "AST constructor recursion depth mismatch".
RACE = textwrap.dedent(
    """
    import gc, sys, threading, time
    from pytest_pau.dataset import python_ast
    import ast
    read = python_ast.literal_eval if sys.argv[1] == "guarded" else ast.literal_eval
    text = "[" + ", ".join(f"({i}, [{i}, {{'k': {i}}}])" for i in range(50)) + "]"
    errors = []
    gc.callbacks.append(lambda phase, info: time.sleep(0.0001) if phase == "start" else None)
    gc.set_threshold(1)
    def work():
        for _ in range(200):
            if errors:
                return
            try:
                assert read(text)[3] == (3, [3, {"k": 3}])
            except SystemError as exc:
                errors.append(str(exc))
                return
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(len(errors), errors[:1])
    """
)


def _race(kind: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", RACE, kind],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=PACKAGE.parent,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.slow
def test_threads_reading_literals_at_once_never_see_the_recursion_depth_error() -> None:
    raw = _race("raw")
    if raw.startswith("0 "):
        pytest.skip(f"this Python ({sys.version.split()[0]}) shows no race to guard against")
    assert "recursion depth mismatch" in raw
    assert _race("guarded") == "0 []"


def test_only_python_ast_parses_python_text() -> None:
    """Every parse goes through the lock: no other module calls ast's parsers itself."""
    direct = re.compile(r"\bast\.(?:parse|literal_eval)\(|\bcompile\((?:tree|node)\b")
    offenders = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "python_ast.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if direct.search(line) and not line.lstrip().startswith(("#", '"'))
    ]
    # dataset/execute.py's ast runs inside the sandbox's own process, not in ours.
    assert [o for o in offenders if not o.startswith("dataset/execute.py")] == []
