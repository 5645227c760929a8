"""``--pau-coder=self``: the model under test writes code too, reported beside the fixed coder.

The model under test (its own scripted server) explores once and concludes with a vague
description; the fixed coder writes ``return None`` for it (code match 0 everywhere),
while the model, as its own coder, writes ``return arg0 * 2`` whatever it is asked: right
on ``double``, on one input of three of ``add`` and on two of three of ``boom``.
"""

from __future__ import annotations

import json

import pytest

from pytest_pau.cli.main import main
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.firstrun.scripted import VAGUE, act_reply

from .toy import scoring_args

MODEL_RULES = [
    (MARKERS["coder"], "```python\ndef test_func(*args):\n    return args[0] * 2\n```"),
    (MARKERS["reason"], "I will call it with the first example's input."),
    (MARKERS["act"], act_reply),
    (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {VAGUE}"),
]


@pytest.fixture
def model_llm() -> ScriptedLLM:
    with ScriptedLLM(MODEL_RULES) as llm:
        yield llm  # type: ignore[misc]


def test_one_run_gives_the_fixed_and_the_self_coder_match(
    pau_pytester: pytest.Pytester,
    scoring_llm: ScriptedLLM,
    model_llm: ScriptedLLM,
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = pau_pytester.runpytest(
        f"--pau-model={model_llm.model}",
        f"--pau-api-base={model_llm.api_base}",
        "--pau-dataset=toy.jsonl",
        *scoring_args(scoring_llm),
        "--pau-coder=self",
        "--pau-report=r.json",
    )
    report = json.loads((pau_pytester.path / "r.json").read_text())
    assert report["run"]["coder"] == "self"
    by_id = {r["id"]: r for r in report["instances"]}
    fixed = {i: r["code_match"] for i, r in by_id.items()}
    own = {i: r["self_code_match"] for i, r in by_id.items()}
    assert fixed == dict.fromkeys(by_id, 0.0)
    assert own == pytest.approx(
        {"toy/double": 1.0, "toy/add": 1 / 3, "toy/clamp": 0.0, "toy/tricky": 0.0,
         "toy/boom": 2 / 3}
    )  # fmt: skip
    assert "return args[0] * 2" in by_id["toy/double"]["self_code"]
    # The summary: the mean over the scored items (boom errored: its judge gave no rating).
    assert report["summary"]["self_code_match"] == {"mean": pytest.approx(1 / 3), "n": 4}
    result.stdout.fnmatch_lines(
        ["self coder *code match 0.33 of the model's own code beside 0.00 of the fixed coder*n=4*"]
    )
    capsys.readouterr()
    assert main(["show", str(pau_pytester.path / "r.json"), "toy/add"]) == 0
    shown = capsys.readouterr().out
    assert "code match 0.00, gold control 1.00, self coder 0.33 (the model's own code)" in shown
    assert "code written by the model under test (--pau-coder=self):" in shown


def test_a_pseudo_model_cannot_be_its_own_coder(pau_pytester: pytest.Pytester) -> None:
    result = pau_pytester.runpytest(
        "--pau-model=oracle", "--pau-dataset=toy.jsonl", "--pau-coder=self"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--pau-coder=self: the pseudo-model 'oracle' writes no code*"])


def _refuse_code(messages: object) -> str:
    from pytest_pau.llm.scripted.reply import Refused

    raise Refused("max_tokens", "this model refuses to write code (scripted HTTP 400)")


def test_a_self_coder_that_fails_every_call_is_said_in_the_terminal_and_by_pau_paper(
    pau_pytester: pytest.Pytester,
    scoring_llm: ScriptedLLM,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Every call of the model as coder got an HTTP 400: the terminal said nothing, and
    # `pau paper` left out the self-coder figure without a word.
    with ScriptedLLM([(MARKERS["coder"], _refuse_code), *MODEL_RULES[1:]]) as model:
        result = pau_pytester.runpytest(
            f"--pau-model={model.model}", f"--pau-api-base={model.api_base}",
            "--pau-dataset=toy.jsonl", *scoring_args(scoring_llm), "--pau-coder=self",
            "--pau-report=r.json",
        )  # fmt: skip
    result.stdout.fnmatch_lines(["self coder   no code match: none of the model's own code ran*"])
    capsys.readouterr()
    out = pau_pytester.path / "paper"
    assert main(["paper", str(pau_pytester.path / "r.json"), "-o", str(out), "--no-figures"]) == 0
    printed = capsys.readouterr().out
    assert "ran with --pau-coder=self, but none of the model's own code ran" in printed
