"""Synthetic result files of the PAU reference, in the layout its code writes (our own lines).

The layout is what ``baselines.py`` and ``eval.py`` of github.com/DhananjayAshok/PAU-Benchmark
save with pandas (``/work/notes/pau_reference.md`` section 8): the dataset's eight columns
(example columns as JSON *text*: train position 1 a JSON value, position 2 ``repr`` text,
test outputs JSON values), then ``n_queries``, ``concluded``, ``predicted_description``,
``steps`` (``{prompt, output, is_good}``, the reply plus ``"\\n[STOP]"``) and, as
``all_examples``, the trajectory (``repr`` of input text, output and error, train first).

Four rows, each with a case the importer must read right:

- ``square``: two iterations; a call that returns, then a list input the reference splats
  into two arguments (an error); concludes YES; judge 4; code match 1.0: passes.
- ``swap``: two iterations without concluding (so the run's limit reads 2); an act reply
  with no input (not run, not counted), a tuple result; a reflection without ``Summary:``;
  the judge's reply has no rating (``score`` null); its code returns tuples, which the
  reference compares with JSON lists: code match 0.0, four mismatches.
- ``shout``: an input that is no literal (not run); concludes YES; judge 5; the coder wrote
  no code (0.0): fails, overconfident.
- ``broken``: a row the reference skipped (its code did not load: it imports a module that
  does not exist): no prediction, steps or queries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JUDGE = "Llama-3.1-70B-Instruct"
CODER = "Qwen3-Coder-30B-A3B-Instruct"
RUN = "interactive_gpt-5.4-mini"

GUARD = "def validate_input_args(*args) -> None:\n    return None\n\n\n"
METHODS: dict[str, dict[str, Any]] = {
    "square": {
        "code": GUARD
        + "def test_func(arg0):\n    validate_input_args(arg0)\n    return arg0 * arg0\n",
        "header": "def test_func(arg0):",
        "description": "Returns the square of arg0.",
        "train": [["(7,)", 49], ["(5,)", 25]],
        "test": [["(4,)", 16], ["(-2,)", 4], ["(3,)", 9], ["(0,)", 0]],
    },
    "swap": {
        "code": GUARD + "def test_func(arg0, arg1):\n    return (arg1, arg0)\n",
        "header": "def test_func(arg0, arg1):",
        "description": "Returns the two arguments swapped, as a tuple.",
        "train": [["(9, 1)", (1, 9)], ["(5, 6)", (6, 5)]],
        "test": [
            ["(3, 4)", (4, 3)],
            ["(1, 1)", (1, 1)],
            ["('a', 2)", (2, "a")],
            ["(0, 7)", (7, 0)],
        ],
    },
    "shout": {
        "code": GUARD + "def test_func(arg0):\n    return arg0.upper() + '!'\n",
        "header": "def test_func(arg0):",
        "description": "Upper-cases a string and appends an exclamation mark.",
        "train": [["('f',)", "F!"], ["('c',)", "C!"]],
        "test": [
            ["('say \"b\"',)", 'SAY "B"!'],
            ["('q',)", "Q!"],
            ['("it\'s",)', "IT'S!"],
            ["('',)", "!"],
        ],
    },
    "broken": {
        "code": "import not_a_module_pau\n\n\n"
        + GUARD
        + "def test_func(arg0):\n    return arg0 + 1\n",
        "header": "def test_func(arg0):",
        "description": "Adds one, but imports a module that does not exist.",
        "train": [["(1,)", 2], ["(2,)", 3]],
        "test": [["(3,)", 4], ["(4,)", 5], ["(5,)", 6], ["(6,)", 7]],
    },
}


def our_dataset_row(name: str) -> dict[str, Any]:
    """The same method in our format (``repr`` outputs), as ``--dataset`` reads it."""
    m = METHODS[name]
    return {
        "id": name,
        "test_func_validated": m["code"],
        "description": m["description"],
        "header": m["header"],
        "train_examples": [[i, repr(o)] for i, o in m["train"]],
        "test_examples": [[i, repr(o)] for i, o in m["test"]],
    }


def dataset_columns(name: str) -> dict[str, Any]:
    """The eight columns of a reference row (``creation.py`` layout)."""
    m = METHODS[name]
    (in1, out1), (in2, out2) = m["train"]
    train = [[in1, out1], [in2, repr(out2)]]
    return {
        "test_func_validated": m["code"],
        "description": m["description"],
        "train_examples": json.dumps(train),
        "test_examples": json.dumps(m["test"]),
        "all_examples": json.dumps([[*t, "None"] for t in train]),
        "direct_prompt": "Describe it.",
        "interactive_starting_prompt": "Reasoning:",
        "header": m["header"],
    }


def _steps(*iterations: tuple[str, str, str]) -> list[dict[str, Any]]:
    out = []
    for i, (reason, act, reflect) in enumerate(iterations, start=1):
        for kind, reply in (
            ("Reasoning:", reason),
            ("Suggested Input:", act),
            ("Hypothesis Conclusion: ", reflect),
        ):
            out.append(
                {
                    "prompt": f"iteration {i} ... {kind}",
                    "output": reply + "\n[STOP]",
                    "is_good": True,
                }
            )
    return out


def _trajectory(name: str, calls: list[tuple[str, str, str]]) -> str:
    (in1, out1), (in2, out2) = METHODS[name]["train"]
    # The reference shows the JSON-decoded value (a tuple came back a list), then repr text.
    first = json.loads(json.dumps(out1))
    train = [[repr(in1), repr(first), "None"], [repr(in2), repr(repr(out2)), "None"]]
    return json.dumps([*train, *[list(c) for c in calls]])


def predictions() -> list[dict[str, Any]]:
    rows = []
    square = dataset_columns("square") | {
        "n_queries": 2,
        "concluded": True,
        "predicted_description": "it squares the input",
        "steps": _steps(
            ("Try 3.", "Suggested Input:\n(3,)", "NO\nSummary: maybe it squares"),
            (
                "Try two numbers.",
                "Input: [2, 1]",
                "Hypothesis Conclusion: YES\nSummary: It squares the input",
            ),
        ),
        "all_examples": _trajectory(
            "square",
            [
                ("'(3,)'", "9", "None"),
                (
                    "'[2, 1]'",
                    "None",
                    repr("test_func() takes 1 positional argument but 2 were given"),
                ),
            ],
        ),
    }
    swap = dataset_columns("swap") | {
        "n_queries": 1,
        "concluded": False,
        "predicted_description": "no. i think it swaps its arguments",
        "steps": _steps(
            ("Two ints.", "I am not sure what to try", "NO\nSummary: unclear"),
            ("Try 1, 2.", "Suggested Input: (1, 2)", "No. I think it swaps its arguments"),
        ),
        "all_examples": _trajectory(
            "swap",
            [
                ("None", "None", repr("Invalid input args, is not valid python syntax")),
                ("'(1, 2)'", "(2, 1)", "None"),
            ],
        ),
    }
    shout = dataset_columns("shout") | {
        "n_queries": 0,
        "concluded": True,
        "predicted_description": "upper-cases and adds !",
        "steps": _steps(("A word.", "Input: nope(", "YES\nSummary: Upper-cases and adds !")),
        "all_examples": _trajectory(
            "shout",
            [
                ("'nope('", "None", repr("Invalid input args, is not valid python syntax")),
            ],
        ),
    }
    broken = dataset_columns("broken") | {
        "n_queries": None,
        "concluded": False,
        "predicted_description": None,
        "steps": None,
        "all_examples": "null",
    }
    rows += [square, swap, shout, broken]
    return rows


def description_eval() -> list[dict[str, Any]]:
    replies = [
        "Mostly right. Rating: 4",
        "I cannot tell.",
        "Exactly that. Rating: 5 [STOP]",
        "Nothing was said. Rating: 1",
    ]
    scores = [4.0, None, 5.0, 1.0]
    return [
        row | {"score_prompt": "...", "score_output": reply, "score": score}
        for row, reply, score in zip(predictions(), replies, scores, strict=True)
    ]


def code_eval(matches: list[float], *, gold: bool = False) -> list[dict[str, Any]]:
    codes = [
        ("def test_func(arg0):\n    return arg0 * arg0", ["16", "4", "9", "0"]),
        (
            "def test_func(arg0, arg1):\n    return (arg1, arg0)",
            ["(4, 3)", "(1, 1)", "(2, 'a')", "(7, 0)"],
        ),
        (None, []),
        (None, []),
    ]
    base = [dataset_columns(n) for n in METHODS] if gold else predictions()
    out = []
    for row, (code, outputs), match in zip(base, codes, matches, strict=True):
        out.append(
            row
            | {
                "code_prediction_prompt": "...",
                "predicted_code_output": code or "no code",
                "predicted_code": code,
                "true_test_outputs": None,
                "predicted_test_outputs": outputs,
                "predicted_outputs_exact_match": match,
                "can_exec_pred_code": False,
            }
        )
    return out


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # pandas' to_json escapes '/' as '\/': json.loads reads it back the same.
    text = "".join(json.dumps(r).replace("/", "\\/") + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    return path


def write_run(folder: Path) -> dict[str, Path]:
    """Every file of one run, and ``dataset.jsonl`` in our format; returns them by role."""
    return {
        "predictions": write_jsonl(folder / "predictions" / f"{RUN}.jsonl", predictions()),
        "description": write_jsonl(
            folder / "evals" / f"{RUN}_description_prediction_judge-{JUDGE}.jsonl",
            description_eval(),
        ),
        "code": write_jsonl(
            folder / "evals" / f"{RUN}_code_prediction_judge-{CODER}.jsonl",
            code_eval([1.0, 0.0, 0.0, 0.0]),
        ),
        "self_code": write_jsonl(
            folder / "evals" / f"{RUN}_code_prediction_judge-self.jsonl",
            code_eval([0.5, 0.0, 1.0, 0.0]),
        ),
        "gold_code": write_jsonl(
            folder / "evals" / f"gold_code_prediction_judge-{CODER}.jsonl",
            code_eval([1.0, 0.0, 1.0, 0.0], gold=True),
        ),
        "dataset": write_jsonl(folder / "dataset.jsonl", [our_dataset_row(n) for n in METHODS]),
    }
