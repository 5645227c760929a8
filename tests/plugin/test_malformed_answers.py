"""Malformed answers and text: a server answer that is no answer (no choices, a
lone surrogate) is a named ``LLMResponseError`` at the client's boundary, and a method whose
``__repr__`` or exception message holds a lone surrogate is scored like any other: every
selected item reaches the report."""

from __future__ import annotations

import json

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES, toy_rows


def _errors(pau_pytester: pytest.Pytester) -> dict[str, str]:
    report = read_report(pau_pytester.path / "r.json")
    return {i.id: i.error or "" for i in report.instances}


def test_a_judge_answering_no_choices_is_a_named_error(pau_pytester, run_pau) -> None:
    with ScriptedLLM(SCORING_RULES) as judge:
        judge.fail("no-choices", times=100)
        base = judge.api_base
        result = run_pau("-k", "double", f"--pau-judge-api-base={base}", "--pau-report=r.json")
    result.assert_outcomes(errors=1)
    assert _errors(pau_pytester)["toy/double"] == (
        f"LLMResponseError in the judge stage: Model 'openai/scripted' at {base}: the "
        "server answered with no choices (`choices: []`), so there is no text to read; its "
        "model failed on this request: check the server's log"
    )
    assert "IndexError" not in result.stdout.str()


@pytest.mark.parametrize(("stage", "at"), [("agent", 12), ("judge", 10)])
def test_a_lone_surrogate_in_a_models_text_is_a_named_error(
    pau_pytester, run_pau, stage, at
) -> None:
    def reply(messages):
        return "Rating: 5 \ud800" if stage == "judge" else "INPUT: (1,) \ud800"

    with ScriptedLLM(reply) as broken:
        args = (
            [f"--pau-judge-api-base={broken.api_base}"]
            if stage == "judge"
            else [f"--pau-api-base={broken.api_base}"]
        )
        model = "oracle" if stage == "judge" else "openai/scripted"
        result = run_pau("-k", "double", "--pau-report=r.json", *args, model=model)
    result.assert_outcomes(errors=1)
    error = _errors(pau_pytester)["toy/double"]
    assert error.startswith(f"LLMResponseError in the {stage} stage: Model 'openai/scripted'")
    assert error.endswith(
        f"the answer's text holds a lone surrogate (\\ud800 at character {at}), which is no "
        "character and can be neither stored nor shown; the server's model or its JSON "
        "encoder is broken"
    )
    assert "UnicodeEncodeError" not in result.stdout.str()


#: Methods whose output holds a lone surrogate: an exception message and a ``__repr__``.
RAISES = (
    "def test_func(arg0):\n    if arg0 == 7:\n        raise ValueError('bad \\ud800 value')\n"
    "    return arg0 * 2\n"
)
REPR = (
    "class R:\n    def __init__(self, n):\n        self.n = n\n\n    def __repr__(self):\n"
    "        return f'R\\ud800{self.n}'\n\n\ndef test_func(arg0, arg1):\n"
    "    return R(arg0 + arg1)\n"
)


def test_a_method_whose_output_holds_a_lone_surrogate_is_scored(pau_pytester, run_pau) -> None:
    rows = toy_rows()
    for row in rows:
        if row["id"] == "double":
            row["test_func_validated"] = RAISES
            row["test_examples"] = json.dumps(
                [["(0,)", "0"], ["(7,)", "bad \ud800 value", "ValueError"]]
            )
        if row["id"] == "add":
            row["test_func_validated"] = REPR
            row["test_examples"] = json.dumps([["(1, 2)", "R\ud8003"], ["(0, 0)", "R\ud8000"]])
    (pau_pytester.path / "toy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    # The coder writes the gold code: the sandbox's output must equal the stored one.
    gold = {row["description"]: row["test_func_validated"] for row in rows}

    def coder(messages):
        for description, code in gold.items():
            if description in messages[-1]["content"]:
                return f"```python\n{code}```"
        return None

    with ScriptedLLM(coder) as coding:
        result = run_pau(
            "-k",
            "double or add",
            "--pau-dataset-outputs=repr",
            f"--pau-coder-api-base={coding.api_base}",
            "--pau-report=r.json",
        )
    result.assert_outcomes(passed=2)
    report = read_report(pau_pytester.path / "r.json")
    assert {i.id: i.code_match for i in report.instances} == {"toy/double": 1.0, "toy/add": 1.0}
    (pau_pytester.path / "r.json").read_bytes().decode("utf-8")  # valid UTF-8 throughout
