"""The summary says whose fault a failure is, the coder's ceiling, and real requests apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pau.models import FailureMode, InstanceResult
from pytest_pau.report.render import TextWriter, render
from pytest_pau.report.summary import build_summary


def item(
    i: int,
    *,
    passed: bool,
    mode: FailureMode,
    match: float,
    gold: float | None,
    calls: int = 3,
    hits: int = 0,
    cost: float = 0.0,
) -> InstanceResult:
    return InstanceResult(
        id=f"t/item{i}",
        source="t",
        arity=1,
        passed=passed,
        judge_score=5.0 if passed else 2.0,
        code_match=match,
        gold_code_match=gold,
        failure_mode=mode,
        model_calls=calls,
        cache_hits=hits,
        cost_usd=cost,
    )


def results() -> list[InstanceResult]:
    return [
        item(0, passed=True, mode=FailureMode.NONE, match=1.0, gold=1.0, calls=2, hits=2),
        item(1, passed=False, mode=FailureMode.CODER_ERROR, match=0.2, gold=0.4, cost=0.01),
        item(2, passed=False, mode=FailureMode.HALLUCINATION, match=0.5, gold=1.0, hits=1),
    ]


def text() -> str:
    out = TextWriter()
    render(build_summary(results()), out)
    return out.getvalue()


def test_coder_errors_are_counted_apart_from_the_models_failure_modes() -> None:
    summary = build_summary(results())
    assert summary.coder_errors == 1
    assert "coder_error" not in summary.failure_modes
    assert summary.failure_modes["hallucination"] == 1
    shown = text()
    assert "failure modes (1 failed by the model)" in shown
    assert "  hallucination                 1  100.0%" in shown
    assert "coder limitations 1 (coder_error" in shown


def test_the_ceiling_is_shown_beside_the_models_code_match() -> None:
    shown = text()
    assert (
        "ceiling      code match 0.57 of the model beside 0.80 of the coder on the gold "
        "descriptions (gold control, n=3)"
    ) in shown


def test_requests_made_and_cache_hits_are_counted_apart() -> None:
    summary = build_summary(results())
    assert (summary.model_calls, summary.cache_hits, summary.requests) == (8, 3, 5)
    shown = text()
    assert "model requests 5 made, cost $0.0100; cache hits 3 (37.5% of answers), free" in shown
    assert "model calls" not in shown  # answers from the cache are no calls made


def test_a_fully_cached_run_says_no_request_was_made() -> None:
    cached = [
        item(i, passed=True, mode=FailureMode.NONE, match=1.0, gold=None, calls=2, hits=2)
        for i in range(3)
    ]
    out = TextWriter()
    render(build_summary(cached), out)
    assert "model requests 0 made, cost $0.0000; cache hits 6 (100.0% of answers), free" in (
        out.getvalue()
    )


def test_the_html_report_leads_with_the_verdict_and_the_terminals_numbers() -> None:
    from pytest_pau.report.html import render_html
    from pytest_pau.report.summary import Gates

    from .conftest import make_report

    report = make_report(results())
    report.summary = build_summary(report.instances, gates=Gates(levels={"min_mean_match": 0.9}))
    page = render_html(report, plots=False)
    verdict = page.index("Release gates NOT MET: --pau-min-mean-match=0.9")
    assert verdict < page.index('<div class="cards">')
    assert "Ceiling: code match 0.57 of the model beside 0.80 of the coder" in page
    assert "Coder limitations: 1 failed items" in page
    assert "5 requests made, 3 cache hits (free)" in page
    # Code match on one scale everywhere: the card and each row as 0.57, never 57.0%.
    for shown in (">0.57<", ">0.20<", ">0.50<"):
        assert shown in page
    for hidden in ("20.0%", "50.0%"):
        assert hidden not in page


def test_the_json_summary_counts_requests_cache_hits_and_cost_apart() -> None:
    import json

    data = json.loads(build_summary(results()).model_dump_json())
    assert (data["model_calls"], data["requests"], data["cache_hits"]) == (8, 5, 3)
    assert data["cost_usd"] == pytest.approx(0.01)


def test_a_report_of_an_older_version_still_reads_shows_and_compares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``notes``, ``summary.requests`` or ``summary.calibration``: as written before."""
    import json

    from pytest_pau.cli.main import main
    from pytest_pau.models import Report
    from pytest_pau.report.html import render_html
    from pytest_pau.report.json_report import read_report

    from .conftest import make_report

    report = make_report(results())
    report.summary = build_summary(report.instances)
    data = json.loads(report.model_dump_json())
    for key in ("requests", "calibration"):
        del data["summary"][key]
    del data["notes"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))

    read = read_report(old)
    assert read.notes == []
    assert read.summary.calibration is None
    assert read.summary.requests == 5  # computed from the stored counts
    assert "5 requests made, 3 cache hits (free)" in render_html(read, plots=False)
    assert main(["show", str(old)]) == 0
    assert main(["compare", str(old), str(old)]) == 0
    capsys.readouterr()
    # And a newer report's unknown keys are ignored by this reader.
    data["summary"]["from_the_future"] = 1
    data["from_the_future"] = {"x": 1}
    old.write_text(json.dumps(data))
    assert isinstance(read_report(old), Report)


def test_notes_of_the_report_are_in_the_html_in_the_terminals_words() -> None:
    from pytest_pau.report.html import render_html

    from .conftest import make_report

    report = make_report(results())
    report.summary = build_summary(report.instances)
    report.notes = ["the judge is the embedded 'local' model, so these scores are <low>"]
    page = render_html(report, plots=False)
    assert (
        '<li class="note">note: the judge is the embedded &#x27;local&#x27; model, so these '
        "scores are &lt;low&gt;</li>"
    ) in page
    assert page.index('id="pau-notes"') < page.index("<h3>Run</h3>")
    report.notes = []
    assert 'id="pau-notes"' not in render_html(report, plots=False)


def test_a_failed_baseline_gate_is_the_htmls_verdict_with_the_terminals_figures() -> None:
    import re

    from pytest_pau.models import BaselineSummary, EarlyStop, RegressionVerdict
    from pytest_pau.report.html import render_html

    from .conftest import make_report

    report = make_report(results())
    report.summary = build_summary(report.instances)  # no level gate at all
    report.summary.baseline = BaselineSummary(
        path="released.json",
        model="gpt-5-mini",
        shared=3,
        regressions=[
            RegressionVerdict(
                metric="judge",
                label="judge score",
                margin=0.2,
                n=3,
                mean_diff=-0.41666,
                low=-0.9321,
                p_value=0.8125,
                passed=False,
            )
        ],
        pass_to_fail=["t/item2"],
    )
    report.summary.gates_passed = False
    report.summary.early_stop = EarlyStop(
        population=3, decided_after=2, not_run=1, cost_usd=0.02, full_cost_usd=0.03
    )
    page = render_html(report, plots=False)
    line = (
        "early stop: every verdict known at 95% after 2 of 3 items; 1 item not run; spent "
        "$0.0200, the full run would have cost ~$0.0300"
    )
    assert line in page
    assert "Release gates NOT MET: --pau-max-regression=judge:0.2." in page
    assert "No release gate set" not in page
    out = TextWriter()
    render(report.summary, out)
    terminal = out.getvalue()
    assert "-0.417 over 3, 95% lower bound -0.932 (p=0.812 decides)" in terminal
    assert line in terminal
    section = page[page.index("<h2>Summary</h2>") : page.index("<h3>Run</h3>")]
    figures = re.findall(r">([+-]?\d+\.\d+)<", section)
    assert {"-0.417", "-0.932", "0.812"} <= set(figures)
    for figure in figures:
        assert figure in terminal, figure
