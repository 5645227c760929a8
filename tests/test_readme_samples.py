"""The samples of a failed item and of the summary are what real runs print.

They are in ``docs/getting-started.md``, section "What a run prints".

A scripted model under test explores ``builtin/word_length_histogram`` with one call,
concludes with a description that splits on single spaces, the scripted judge rates it 2
and the scripted coder writes what that description says (and the true code from the gold
description, so the gold control finds the coder faithful). Everything else is the real
plugin: the sandbox runs the method, the self-contradiction check finds the call the
description disagrees with, and pytest prints the failure. The page's block must appear
in that output line for line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_pau import load_dataset
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.docs.pages import section
from tests.firstrun.scripted import VAGUE, model_args
from tests.firstrun.scripted import coder_reply as faithful_coder
from tests.plugin.toy import judge_reply

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = section("getting-started.md", "## What a run prints")

ITEM = "builtin/word_length_histogram"
PREDICTED = (
    "Splits the string on single spaces and returns a dict mapping each piece's length to the "
    "number of pieces with that length, keys in ascending order."
)
WRONG_CODE = (
    "def test_func(s):\n"
    "    counts = {}\n"
    "    for piece in s.split(' '):\n"
    "        counts[len(piece)] = counts.get(len(piece), 0) + 1\n"
    "    return dict(sorted(counts.items()))\n"
)
JUDGE = (
    "The candidate splits on single spaces, so a run of spaces makes empty pieces that the "
    "reference, which splits on any whitespace, never counts.\nRating: 2"
)


def _coder(messages: list[dict[str, str]]) -> str:
    if PREDICTED in messages[-1]["content"]:
        return f"```python\n{WRONG_CODE}```"
    return faithful_coder(messages)


RULES: list[tuple[str, Any]] = [
    (MARKERS["judge"], JUDGE),
    (MARKERS["coder"], _coder),
    (MARKERS["reason"], "Two spaces between words will show how it splits."),
    (MARKERS["act"], "INPUT: ('to  be',)"),
    (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {PREDICTED}"),
]


def _failure_block() -> list[str]:
    m = re.search(r"A failure reads like this:\n\n```\n(.*?)```", SAMPLES, re.S)
    assert m is not None, "the failure sample is gone from getting-started.md: update this test"
    return m.group(1).rstrip("\n").splitlines()


def _pytest(folder: Path, rules: list[tuple[str, Any]], *args: str) -> str:
    """pytest in ``folder`` with ``rules`` as model, judge and coder; its output (exit 1)."""
    with ScriptedLLM(rules) as llm:
        options = ["-p", "no:cacheprovider", "-q", *model_args(llm), *args]
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *options],
            cwd=folder,
            env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "92"},
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 1, run.stdout + run.stderr  # items fail / a gate fails
    return run.stdout


@pytest.mark.slow
def test_the_failure_sample_is_a_real_runs_output(tmp_path: Path) -> None:
    out = _pytest(tmp_path, RULES, "-k", ITEM, "--pau-report=report.json")
    block = _failure_block()
    lines = out.splitlines()
    assert block[0] in lines, f"{block[0]!r} not in the output:\n{out}"
    start = lines.index(block[0])
    # pytest's own lines ("E   ") prefix the message; the page shows it without them.
    shown = [re.sub(r"^E {3}", "", ln) for ln in lines[start : start + len(block) + 1]]
    assert [ln for ln in shown if ln.strip()][: len(block) - block.count("")] == [
        ln for ln in block if ln.strip()
    ], out


# The summary sample: ten smoke items, the model under test right on six of them.
SMOKE = [i for i in load_dataset("builtin") if "smoke" in i.tags]
KNOWN = {i.id for i in SMOKE[:6]}
GATES = ["--pau-min-mean-judge=3", "--pau-min-pass-rate=0.7"]


def _instance_in(messages: list[dict[str, str]]) -> Instance | None:
    text = "\n".join(m["content"] for m in messages)
    return next((i for i in SMOKE if f"- input {i.train_examples[0].input} -> " in text), None)


def _first_input(messages: list[dict[str, str]]) -> str:
    inst = _instance_in(messages)
    return f"INPUT: {inst.train_examples[0].input if inst else '(1,)'}"


def _conclude(messages: list[dict[str, str]]) -> str:
    inst = _instance_in(messages)
    known = inst is not None and inst.id in KNOWN
    return f"CONCLUDE: YES\nSUMMARY: {inst.description if known and inst else VAGUE}"


SUMMARY_RULES: list[tuple[str, Any]] = [
    (MARKERS["judge_retry"], judge_reply),
    (MARKERS["judge"], judge_reply),
    (MARKERS["coder"], faithful_coder),
    (MARKERS["classify"], "It concluded after one call.\nLabel: insufficient_exploration"),
    (MARKERS["reason"], "I will call it with the first example's input."),
    (MARKERS["act"], _first_input),
    (MARKERS["reflect"], _conclude),
]


def _summary_block() -> list[str]:
    m = re.search(r"a summary block made for CI logs.*?:\n\n```\n(.*?)```", SAMPLES, re.S)
    assert m is not None, "the summary sample is gone from getting-started.md: update this test"
    return m.group(1).rstrip("\n").splitlines()


def _masked(line: str) -> str:
    """The lines whose figures change from run to run (times, the server's port)."""
    line = re.sub(
        r"^wall [0-9.]+ s  \(item time [0-9.]+ s, [0-9.]+ s per item\)$",
        "wall W s  (item time T s, E s per item)",
        line,
    )
    return re.sub(r"127\.0\.0\.1:[0-9]+|localhost:[0-9]+", "HOST:PORT", line)


@pytest.mark.slow
def test_the_summary_sample_is_a_real_runs_output(tmp_path: Path) -> None:
    out = _pytest(tmp_path, SUMMARY_RULES, "-m", "smoke", *GATES)  # the pass-rate gate fails
    lines = [_masked(ln) for ln in out.splitlines()]
    block = [_masked(ln) for ln in _summary_block()]
    assert block[0] in lines, out
    start = lines.index(block[0])
    assert lines[start : start + len(block)] == block, out
