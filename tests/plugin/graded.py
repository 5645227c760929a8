"""A dataset whose scripted judge grades every instance differently (the verdict tests).

Each instance's gold description carries its grade, ``GRADE k`` (k = 1..5): the scripted
judge rates the item ``k`` whatever the model said. So a selection's true mean judge score
is known in advance, and which items a run scores decides what it sees. (The coder gets
the model's description, which never says what the method adds: code match is 0 and every
item fails its thresholds, which a gated run counts in the gates, not as failures.) The model under test is scripted too
(one query, then a conclusion); every role is the one server, so with
``model="openai/gpt-4o-mini"`` litellm prices every call and a budget bites.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_pau.testing import MARKERS, ScriptedLLM

from .toy import adder_row, write_rows

GRADE = re.compile(r"GRADE (\d)")


def write_graded(folder: Path, grades: Sequence[int], name: str = "graded.jsonl") -> Path:
    """One instance per grade, ``g000``, ``g001``... in the order given (dataset order)."""
    rows = [
        adder_row(k, id=f"g{k:03d}", description=f"Returns the argument plus {k}. GRADE {grade}")
        for k, grade in enumerate(grades)
    ]
    return write_rows(folder, name, rows)


def _grade(messages: list[dict[str, Any]]) -> int:
    found = GRADE.search("\n".join(str(m.get("content")) for m in messages))
    return int(found.group(1)) if found else 1


def judge_reply(messages: list[dict[str, Any]]) -> str:
    """``Rating: k``; never a rating for a gold description that says NORATING (an error)."""
    if "NORATING" in "\n".join(str(m.get("content")) for m in messages):
        return "These are hard to compare."
    return f"Graded by the instance.\nRating: {_grade(messages)}"


def coder_reply(messages: list[dict[str, Any]]) -> str:
    text = "\n".join(str(m.get("content")) for m in messages)
    k = re.search(r"plus (\d+)\.", text)  # only the gold description says it
    body = f"return arg0 + {k.group(1)}" if k else "return None"
    return f"```python\ndef test_func(arg0):\n    {body}\n```"


RULES: list[tuple[str, Any]] = [
    (MARKERS["reason"], "Try the starting input again."),
    (MARKERS["act"], "INPUT: (7,)"),
    (MARKERS["reflect"], "CONCLUDE: YES\nSUMMARY: Returns a number."),
    (MARKERS["judge_retry"], judge_reply),
    (MARKERS["judge"], judge_reply),
    (MARKERS["coder"], coder_reply),
    (MARKERS["classify"], "It never looked.\nLabel: insufficient_exploration"),
]


def args(llm: ScriptedLLM, dataset: str = "graded.jsonl", *extra: str) -> list[str]:
    """Every role on the scripted server, the graded dataset, no model cache, no judge
    check."""
    return [
        f"--pau-model={llm.model}",
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
        f"--pau-dataset={dataset}",
        "--pau-no-cache",
        # The graded judge rates the instance's grade whatever it reads: blind by design,
        # so the judge check would withhold every judge gate these tests count.
        "--pau-judge-check=off",
        *extra,
    ]


def grades(counts: Sequence[int], first: Sequence[int] = ()) -> list[int]:
    """``first`` in front, then ``counts[k]`` items of grade ``k + 1`` in a fixed shuffle."""
    pool = [g for g, n in enumerate(counts, start=1) for _ in range(n)]
    random.Random(len(pool)).shuffle(pool)
    return [*first, *pool]
