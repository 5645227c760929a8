"""The toy dataset and the scripted judge/coder of the plugin tests (see conftest.py)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM


def adder_row(k: int, *, id: str, description: str) -> dict[str, Any]:
    """A PAU-format row of the one-argument method ``arg0 + k``, with inputs only it uses
    (1000 + k to explore, 2000 + k held back), so every request traces back to it."""
    return {
        "id": id,
        "header": "def test_func(arg0):",
        "description": description,
        "test_func_validated": f"def test_func(arg0):\n    return arg0 + {k}\n",
        "train_examples": json.dumps([[f"({1000 + k},)", repr(1000 + 2 * k)]]),
        "test_examples": json.dumps([[f"({2000 + k},)", repr(2000 + 2 * k)]]),
    }


def write_rows(folder: Path, name: str, rows: list[dict[str, Any]]) -> Path:
    """``rows`` as the JSONL file ``folder / name``."""
    path = folder / name
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


TOY = [
    {
        "id": "double",
        "tags": ["easy", "smoke"],
        "header": "def test_func(arg0):",
        "description": "Returns the integer argument doubled.",
        "code": "def test_func(arg0):\n    return arg0 * 2\n",
        "train": ["(2,)", "(5,)"],
        "test": ["(0,)", "(-4,)", "(7,)"],
    },
    {
        "id": "add",
        "tags": ["easy", "smoke", "numbers"],
        "header": "def test_func(arg0, arg1):",
        "description": "Returns the sum of its two arguments.",
        "code": "def test_func(arg0, arg1):\n    return arg0 + arg1\n",
        "train": ["(1, 2)", "(3, 4)"],
        "test": ["(0, 0)", "(-1, 5)", "(10, 20)"],
    },
    {
        "id": "clamp",
        "tags": ["medium"],
        "header": "def test_func(arg0, arg1, arg2):",
        "description": "Clamps the first argument into the range from the second to the third.",
        "code": "def test_func(arg0, arg1, arg2):\n    return max(arg1, min(arg0, arg2))\n",
        "train": ["(5, 0, 10)", "(-3, 0, 10)"],
        "test": ["(15, 0, 10)", "(4, 1, 3)", "(2, 2, 2)"],
    },
    {
        "id": "tricky",
        "tags": ["hard"],
        "header": "def test_func(arg0):",
        "description": "TRICKY: returns the argument minus one.",
        "code": "def test_func(arg0):\n    return arg0 - 1\n",
        "train": ["(3,)", "(8,)"],
        "test": ["(0,)", "(1,)", "(100,)"],
    },
    {
        "id": "boom",
        "tags": ["medium"],
        "header": "def test_func(arg0):",
        "description": "NORATING: returns the argument squared.",
        "code": "def test_func(arg0):\n    return arg0 * arg0\n",
        "train": ["(3,)", "(4,)"],
        "test": ["(0,)", "(2,)", "(-5,)"],
    },
]
TOY_IDS = [f"toy/{t['id']}" for t in TOY]
CODE_BY_DESCRIPTION = {t["description"]: t["code"] for t in TOY}


def _pairs(code: str, inputs: list[str]) -> str:
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # our own toy code, to compute the stored outputs
    return json.dumps([[i, repr(namespace["test_func"](*ast.literal_eval(i)))] for i in inputs])


def toy_rows() -> list[dict[str, Any]]:
    """The toy instances in PAU's column format."""
    return [
        {
            "id": t["id"],
            "tags": t["tags"],
            "header": t["header"],
            "description": t["description"],
            "test_func_validated": t["code"],
            "train_examples": _pairs(t["code"], t["train"]),
            "test_examples": _pairs(t["code"], t["test"]),
        }
        for t in TOY
    ]


def write_toy(folder: Path, name: str = "toy.jsonl") -> Path:
    path = folder / name
    path.write_text("\n".join(json.dumps(r) for r in toy_rows()) + "\n")
    return path


def _section(text: str, start: str, end: str) -> str:
    m = re.search(re.escape(start) + r"\s*\n(.*?)\n\s*" + re.escape(end), text, re.S)
    section = m.group(1).strip() if m else ""
    # The untrusted text is fenced: <<<LABEL nonce>>> ... <<<END LABEL nonce>>>.
    fenced = re.search(r"<<<([A-Z ]+) [0-9a-f]+>>>\n(.*?)\n<<<END \1 [0-9a-f]+>>>", section, re.S)
    return fenced.group(2).strip() if fenced else section


def judge_reply(messages: list[dict[str, str]]) -> str:
    last = messages[-1]["content"]
    if re.search(MARKERS["judge_retry"], last):
        text = "\n".join(m["content"] for m in messages)
        return "I still cannot rate it." if "NORATING" in text else "Rating: 3"
    gold = _section(last, "Reference description:", "Candidate description:")
    pred = _section(last, "Candidate description:", "Explain")
    if "NORATING" in gold:
        return "These descriptions are hard to compare."
    if pred != gold and pred in CODE_BY_DESCRIPTION:
        # Another instance's gold (the judge check's decoy): a judge that reads sees it.
        return "The candidate describes another method.\nRating: 1"
    if "TRICKY" in gold:
        return "The candidate misses the special case.\nRating: 2"
    if pred == gold:
        return "They describe the same behaviour.\nRating: 5"
    return "The candidate says nothing specific.\nRating: 1"


def coder_reply(messages: list[dict[str, str]]) -> str:
    desc = _section(messages[-1]["content"], "Description of the function:", "Write the complete")
    code = CODE_BY_DESCRIPTION.get(desc, "def test_func(*args):\n    return None\n")
    return f"```python\n{code}```"


SCORING_RULES: list[tuple[str, Any]] = [
    (MARKERS["judge_retry"], judge_reply),
    (MARKERS["judge"], judge_reply),
    (MARKERS["coder"], coder_reply),
    (
        MARKERS["classify"],
        "Its calls never reached the special case.\nLabel: insufficient_exploration",
    ),
]


def scoring_args(llm: ScriptedLLM) -> list[str]:
    """Command-line options pointing judge and coder at the scripted server."""
    return [
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
    ]
