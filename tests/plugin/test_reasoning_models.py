"""`pytest --pau-model=openai/gpt-5-mini` against a stand-in that reasons before it writes.

Every role (the model under test, the judge and the coder) is the scripted reasoning model,
reached over real HTTP through litellm: it spends 1,500 hidden tokens per answer, more than
any of our visible caps, so each call only works if the cap means visible output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import MARKERS, ScriptedLLM

from .toy import SCORING_RULES

THINKS = 1500


def _act(messages: list[dict[str, Any]]) -> str:
    header = re.search(r"def test_func\((.*?)\)", messages[-1]["content"])
    arity = len([a for a in (header.group(1) if header else "").split(",") if a.strip()])
    return "INPUT: (" + ", ".join(["3"] * arity) + ("," if arity == 1 else "") + ")"


AGENT_RULES: list[tuple[str, Any]] = [
    (MARKERS["reason"], "Try a small positive number; expect a small number back."),
    (MARKERS["act"], _act),
    (MARKERS["reflect"], "CONCLUDE: YES\nSUMMARY: Returns a number computed from the input."),
]


@pytest.fixture
def reasoner() -> Iterator[ScriptedLLM]:
    with ScriptedLLM(
        AGENT_RULES + SCORING_RULES, model="openai/gpt-5-mini", reasoning_tokens=THINKS
    ) as llm:
        yield llm


def _args(llm: ScriptedLLM, *extra: str) -> list[str]:
    return [
        f"--pau-model={llm.model}",
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
        "--pau-dataset=toy.jsonl",
        "-k",
        "not boom",
        "--pau-no-cache",
        *extra,
    ]


def test_default_settings_get_an_answer_on_every_step_and_a_judge_score_on_every_item(
    pau_pytester: pytest.Pytester, reasoner: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(*_args(reasoner, "--pau-report=r.json"))
    result.assert_outcomes(failed=4)  # content-free answers fail; nothing errors
    report = read_report(pau_pytester.path / "r.json")
    for item in report.instances:
        assert item.judge_score is not None, item.id
        assert all(step.response.strip() for step in item.trajectory), item.id
        assert item.tokens["reasoning"] >= THINKS * len(item.trajectory)
        assert item.failure_mode != "format_following"
    assert report.summary.tokens.reasoning > 0
    assert report.summary.cost_usd > 0  # gpt-5-mini is priced; reasoning tokens are billed
    result.stdout.fnmatch_lines(["tokens * prompt + * completion + * reasoning (of every answer*"])
    assert all(e.status == 200 for e in reasoner.exchanges)


def test_a_budget_too_small_is_an_error_naming_the_option_never_a_failure(
    pau_pytester: pytest.Pytester, reasoner: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(*_args(reasoner, "--pau-reasoning-budget=100", "-x"))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*spent its whole token cap on hidden reasoning*"])
    result.stdout.fnmatch_lines(["*--pau-reasoning-budget*"])


def test_the_effort_option_reaches_the_request_bodies_per_role(
    pau_pytester: pytest.Pytester, reasoner: ScriptedLLM
) -> None:
    effort = "--pau-reasoning-effort=model:high,judge:low,coder:minimal"
    pau_pytester.runpytest(*_args(reasoner, effort, "-k", "double"))
    sent = {(_role(body), body.get("reasoning_effort")) for body in reasoner.log}
    assert sent == {("model", "high"), ("judge", "low"), ("coder", "minimal")}


def _role(body: dict[str, Any]) -> str:
    last = body["messages"][-1]["content"]
    if re.search(MARKERS["judge"], last) or re.search(MARKERS["classify"], last):
        return "judge"
    if re.search(MARKERS["coder"], last):
        return "coder"
    return "model"
