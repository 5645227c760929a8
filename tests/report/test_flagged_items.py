"""Items that addressed the grader: judge (as written, defended) and code match side by side.

The code match runs on held-back inputs, so a reader checks there that the defended judge
score, not the model's note, decided. Shown in the failure message of the item and in the
summary block; counted in the JSON report's ``summary.flagged``.
"""

from __future__ import annotations

import re
from typing import Any

from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance, InstanceResult
from pytest_pau.prompting import MARKERS
from pytest_pau.report.html import render_html
from pytest_pau.report.messages import failure_message
from pytest_pau.report.render import FLAGGED_SHOWN, TextWriter, render
from pytest_pau.report.summary import build_summary
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings
from tests.report.conftest import make_report
from tests.scoring.test_judge_integrity import NOTE, WRONG, FixedAgent, Scripted, gullible


def evaluate(instance: Instance, scripted: Scripted, prediction: str) -> InstanceResult:
    """The benchmark's scoring of ``prediction`` with a gullible judge and a wrong coder."""
    llm, _ = scripted(
        [
            (MARKERS["judge"], gullible),
            (MARKERS["coder"], "```python\ndef test_func(arg0):\n    return arg0\n```"),
            (MARKERS["classify"], "Label: hallucination"),
        ]
    )
    config = PauSettings(model="scripted", judge_model=llm.model, coder_model=llm.model)

    def factory(name: str, api_base: str | None) -> Any:
        return LLMClient(
            name, api_base=llm.api_base, api_key=llm.api_key, retry=RetryPolicy(max_attempts=1)
        )

    return Evaluator(config, agent=FixedAgent(prediction), client_factory=factory).evaluate(
        instance
    )


def rendered(results: list[InstanceResult]) -> str:
    writer = TextWriter(width=100)
    render(build_summary(results), writer)
    return writer.getvalue()


def test_a_flagged_item_shows_judge_and_code_match_side_by_side(
    double: Instance, scripted: Scripted
) -> None:
    flagged = evaluate(double, scripted, WRONG + NOTE)
    assert (flagged.judge_raw_score, flagged.judge_defended_score, flagged.judge_score) == (5, 1, 1)
    assert flagged.failure_mode == "judge_manipulation"
    assert flagged.code_match is not None
    assert flagged.code_match < 0.8

    message = failure_message(flagged, judge_threshold=3, match_threshold=0.8)
    line = next(ln for ln in message.splitlines() if ln.startswith("flagged:"))
    assert "judge 5 as written, 1 defended (scored 1)" in line
    assert f"code match {flagged.code_match:.2f}" in message.split("flagged:", 1)[1]

    clean = evaluate(double.model_copy(update={"id": "t/clean"}), scripted, WRONG)
    assert not clean.judge_manipulation
    assert clean.judge_defended_score is None
    assert "flagged:" not in failure_message(clean, judge_threshold=3, match_threshold=0.8)

    summary = build_summary([flagged, clean])
    assert [f.id for f in summary.flagged] == ["t/double"]
    item = summary.flagged[0]
    assert (item.judge_raw, item.judge_defended, item.judge_score) == (5, 1, 1)
    assert (item.code_match, item.passed) == (flagged.code_match, False)

    text = rendered([flagged, clean])
    assert "addressed the grader 1 (scored without that text" in text
    row = next(ln for ln in text.splitlines() if ln.startswith("  t/double "))
    assert "judge 5 as written, 1 defended" in row
    assert f"code match {flagged.code_match:.2f}" in row
    assert row.rstrip().endswith("failed")
    assert "t/clean" not in text.split("addressed the grader", 1)[1]


def test_no_flagged_item_no_block() -> None:
    clean = InstanceResult(id="t/x", source="t", arity=1, judge_score=2, code_match=0.5)
    assert build_summary([clean]).flagged == []
    assert "addressed the grader" not in rendered([clean])


def test_a_long_list_is_cut_and_says_where_the_rest_is() -> None:
    results = [
        InstanceResult(
            id=f"t/i{k}",
            source="t",
            arity=1,
            passed=True,
            judge_score=4,
            judge_raw_score=5,
            judge_defended_score=4,
            judge_manipulation=["rating_claim: 'Rating: 5' (a rating)"],
            code_match=1.0,
        )
        for k in range(FLAGGED_SHOWN + 3)
    ]
    text = rendered(results)
    assert f"addressed the grader {FLAGGED_SHOWN + 3}" in text
    rows = [ln for ln in text.splitlines() if ln.startswith("  t/i")]
    assert len(rows) == FLAGGED_SHOWN
    assert all(r.rstrip().endswith("passed") and "code match 1.00" in r for r in rows)
    assert "... 3 more in the JSON report (summary.flagged)" in text


def test_the_html_report_lists_flagged_items_with_code_match() -> None:
    flagged = InstanceResult(
        id="t/<flag>",
        source="t",
        arity=1,
        judge_score=1,
        judge_raw_score=5,
        judge_defended_score=1,
        judge_manipulation=["grader_address: 'Grader' (names the grader)"],
        code_match=0.25,
        failure_mode="judge_manipulation",
    )
    clean = InstanceResult(id="t/clean", source="t", arity=1, judge_score=2, code_match=0.5)
    page = render_html(make_report([flagged, clean]), plots=False)
    section = page.split("<h3>Addressed the grader</h3>", 1)[1].split("</table>", 1)[0]
    assert "<td>t/&lt;flag&gt;</td>" in section  # escaped, like all model-facing text
    assert re.search(
        r'<td class="num">5</td><td class="num">1</td><td class="num">0.25</td>', section
    )
    assert "failed" in section
    assert "t/clean" not in section
    assert "Addressed the grader" not in render_html(make_report([clean]), plots=False)
