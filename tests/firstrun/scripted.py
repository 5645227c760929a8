"""Scripted models for the first-run tests: a weak model under test, a fair judge and coder.

The model under test calls the method once with its first example's input and concludes
with a vague description; the judge rates an exact copy of the gold text 5 and anything
else 1; the coder writes the instance's true code for its gold description (so the
oracle's code matches) and ``return None`` for anything else. With these the quick start
shows a failing model next to a passing ceiling, in seconds.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pytest_pau import load_dataset
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.plugin.toy import judge_reply

VAGUE = "Returns something computed from its input."


@cache
def _code_by_description() -> dict[str, str]:
    return {inst.description: inst.code for inst in load_dataset("builtin")}


def _section(text: str, start: str, end: str) -> str:
    m = re.search(re.escape(start) + r"\s*\n(.*?)\n\s*" + re.escape(end), text, re.S)
    section = m.group(1).strip() if m else ""
    fenced = re.search(r"<<<([A-Z ]+) [0-9a-f]+>>>\n(.*?)\n<<<END \1 [0-9a-f]+>>>", section, re.S)
    return fenced.group(2).strip() if fenced else section


def coder_reply(messages: list[dict[str, str]]) -> str:
    desc = _section(messages[-1]["content"], "Description of the function:", "Write the complete")
    code = _code_by_description().get(desc, "def test_func(*args):\n    return None\n")
    return f"```python\n{code}```"


def act_reply(messages: list[dict[str, str]]) -> str:
    """The first example input shown in the prompt (a valid call of any arity)."""
    text = "\n".join(m["content"] for m in messages)
    m = re.search(r"^- input (\(.*\)) -> ", text, re.M)
    return f"INPUT: {m.group(1) if m else '(1,)'}"


RULES: list[tuple[str, Any]] = [
    (MARKERS["judge_retry"], judge_reply),
    (MARKERS["judge"], judge_reply),
    (MARKERS["coder"], coder_reply),
    (MARKERS["classify"], "It concluded after one call.\nLabel: insufficient_exploration"),
    (MARKERS["reason"], "I will call it with the first example's input."),
    (MARKERS["act"], act_reply),
    (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {VAGUE}"),
]


def model_args(llm: ScriptedLLM) -> list[str]:
    """Options that make ``llm`` the model under test, the judge and the coder."""
    return [
        f"--pau-model={llm.model}",
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
    ]
