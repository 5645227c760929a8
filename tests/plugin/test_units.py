"""Pure helpers: options, summary, gates, rendering, failure messages, collection helpers."""

from __future__ import annotations

import argparse

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.models import Instance, InstanceResult, Mismatch
from pytest_pau.plugin.markers import instance_markers, marker_name
from pytest_pau.report.messages import failure_message
from pytest_pau.report.render import TextWriter, bar, render
from pytest_pau.report.summary import (
    Gates,
    build_summary,
    evaluate_gates,
    judge_bucket,
    match_bucket,
)
from pytest_pau.settings import PauSettings, help_text, resolve
from pytest_pau.settings.options import ALL_OPTIONS
from pytest_pau.settings.values import parse_fraction, parse_positive_int


def result(
    i: int,
    *,
    judge: float | None = 4.0,
    match: float | None = 1.0,
    passed: bool = True,
    mode: str = "none",
    arity: int = 1,
    error: str | None = None,
    skipped: str | None = None,
    tags: tuple[str, ...] = (),
) -> InstanceResult:
    return InstanceResult(
        id=f"t/{i}",
        source="t",
        arity=arity,
        tags=list(tags),
        passed=passed,
        judge_score=judge,
        code_match=match,
        failure_mode=mode,
        error=error,
        skipped=skipped,
        tokens={"prompt": 10, "completion": 2},
        cost_usd=0.5,
        model_calls=3,
        cache_hits=1,
    )


# ------------------------------------------------------------------------------ options


def test_help_lists_every_option_with_its_default_and_ini_twin(pytester: pytest.Pytester) -> None:
    out = pytester.runpytest("--help").stdout.str()
    for spec in ALL_OPTIONS:
        assert f"--pau-{spec.name}" in out, spec.name
        assert f"pau_{spec.field} " in out, spec.field
        text = help_text(spec)
        assert "Default: " in text, spec.name
        assert text[0].isupper() or text[0].isdigit() or text.startswith("interactive"), spec.name
    assert "PAU benchmark (pytest-pau)" in out


def test_resolve_prefers_command_line_then_ini_then_default() -> None:
    ini = {"pau_model": "oracle", "pau_limit": "3", "pau_gate_on_ci": True, "pau_seed": ""}
    cli = {"limit": 5}
    s = resolve(lambda f: cli.get(f), lambda k: ini.get(k, ""))
    assert (s.model, s.limit, s.gate_on_ci, s.seed, s.judge_model) == (
        "oracle",
        5,
        True,
        0,
        "local",
    )


def test_resolve_names_ini_key_and_file_on_bad_values() -> None:
    with pytest.raises(
        ConfigError, match=r"pytest\.ini: pau_limit = '0': expected a whole number >= 1"
    ):
        resolve(lambda f: None, lambda k: "0" if k == "pau_limit" else "", ini_source="pytest.ini")


@pytest.mark.parametrize("bad", ["1.5", "-0.1", "nan", "x", ""])
def test_parse_fraction_rejects(bad: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="between 0 and 1"):
        parse_fraction(bad)


def test_parse_positive_int() -> None:
    assert parse_positive_int(" 7 ") == 7
    with pytest.raises(argparse.ArgumentTypeError, match="got '0'"):
        parse_positive_int("0")


def test_low_fidelity_roles() -> None:
    assert PauSettings(model="x").low_fidelity_roles() == [
        ("judge", "local", "--pau-judge-model"),
        ("coder", "local", "--pau-coder-model"),
    ]
    assert PauSettings(
        model="x", judge_model="gpt-5", coder_model="local-small"
    ).low_fidelity_roles() == [("coder", "local-small", "--pau-coder-model")]


# ------------------------------------------------------------------------------ collection


def test_marker_names_are_safe() -> None:
    assert marker_name("my-data.v2") == "my_data_v2"
    assert marker_name("2024") == "_2024"
    inst = Instance(
        id="my-data/x",
        source="my-data",
        code="",
        header="def test_func(arg0):",
        description="",
        arity=1,
        tags=["easy", "smoke"],
    )
    assert instance_markers(inst) == ["pau", "arity1", "my_data", "easy", "smoke"]


# ------------------------------------------------------------------------------ summary


@pytest.mark.parametrize(
    ("score", "bucket"), [(1.0, "1"), (2.49, "2"), (2.5, "3"), (4.6, "5"), (5.0, "5")]
)
def test_judge_bucket(score: float, bucket: str) -> None:
    assert judge_bucket(score) == bucket


@pytest.mark.parametrize(
    ("score", "bucket"),
    [
        (0.0, "0.0"),
        (0.0999, "0.0"),
        (0.1, "0.1"),
        (0.3, "0.3"),
        (0.95, "0.9"),
        (0.9999, "0.9"),
        (1.0, "1.0"),
    ],
)
def test_match_bucket(score: float, bucket: str) -> None:
    assert match_bucket(score) == bucket


def test_build_summary_counts_only_scored_items() -> None:
    results = [
        result(1, judge=5, match=1.0, tags=("easy",)),
        result(2, judge=2, match=0.35, passed=False, mode="reasoning_error", arity=2),
        result(3, judge=None, match=None, passed=False, mode="infrastructure", error="boom"),
        result(4, judge=None, match=None, passed=False, skipped="budget spent"),
        result(5, judge=1, match=0.0, passed=False, mode="none"),
    ]
    summary = build_summary(results, selected=6)
    assert summary.counts.scored == 3
    s = summary.model_dump()  # the report's JSON shape, key by key
    assert s["counts"] == {
        "selected": 6,
        "items": 5,
        "scored": 3,
        "counted": 3,
        "passed": 1,
        "failed": 2,
        "errors": 1,
        "skipped": 1,
    }
    assert s["pass_rate"] == pytest.approx(1 / 3)
    assert s["judge"]["mean"] == pytest.approx(8 / 3)
    assert s["judge"]["histogram"] == {"1": 1, "2": 1, "3": 0, "4": 0, "5": 1}
    assert s["code_match"]["histogram"]["0.3"] == 1
    assert s["code_match"]["histogram"]["1.0"] == 1
    assert s["failure_modes"]["reasoning_error"] == 1
    assert s["failure_modes"]["unclassified"] == 1
    assert s["infrastructure_errors"] == 1
    assert s["errors"] == [{"id": "t/3", "error": "boom"}]
    assert s["skipped_reasons"] == {"budget spent": 1}
    assert s["by_arity"]["2"]["pass_rate"] == 0.0
    assert s["by_tag"]["easy"]["passed"] == 1
    assert (s["tokens"], s["cost_usd"], s["model_calls"], s["cache_hits"]) == (
        {"prompt": 50, "completion": 10, "reasoning": 0},
        2.5,
        15,
        5,
    )
    low, high = s["judge"]["ci"]
    assert 1 <= low <= s["judge"]["mean"] <= high <= 5


def test_gates_use_mean_or_ci_low_and_fail_without_data() -> None:
    results = [result(i, judge=j) for i, j in enumerate([5, 5, 5, 1])]
    [g] = evaluate_gates(Gates(levels={"min_mean_judge": 3.5}), results)
    assert (g.passed, g.status, g.value, g.statistic) == (True, "passed", 4.0, "mean")
    [g] = evaluate_gates(Gates(levels={"min_mean_judge": 3.5}, on_ci=True), results)
    assert g.statistic == "ci_low"
    assert g.value is not None
    assert g.value < 3.5
    assert (g.passed, g.status) == (False, "failed")
    verdicts = evaluate_gates(Gates(levels={"min_pass_rate": 0.1, "min_mean_match": 0.1}), [])
    assert [v.status for v in verdicts] == ["failed", "failed"]
    assert [v.value for v in verdicts] == [None, None]
    # A selected item without a result is unknown: 5, 5, 5 and one at 1-5 is 4.0 to 5.0.
    ids = [r.id for r in results[:3]] + ["gone"]
    [g] = evaluate_gates(Gates(levels={"min_mean_judge": 4.5}), results[:3], ids)
    assert (g.status, g.value, g.best, g.detail) == (
        "not decided",
        4.0,
        5.0,
        "1 of 4 items no result",
    )


# ------------------------------------------------------------------------------ rendering


def test_bar() -> None:
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 3) == "█▌"
    assert bar(0.0, 4) == ""
    assert bar(0.5, 4, unicode=False) == "##"


def test_render_text_with_notes_extra_lines_and_gates() -> None:
    summary = build_summary(
        [result(1), result(2, judge=1, match=0.0, passed=False, mode="hallucination")],
        gates=Gates(levels={"min_pass_rate": 0.9}),
        wall_s=1.5,
    )
    w = TextWriter(width=60)
    render(summary, w, notes=["the judge is weak"], extra_lines=["extra: hello"], unicode=False)
    text = w.getvalue()
    assert text.startswith("=" * 23 + " PAU summary " + "=" * 23)
    for line in (
        "items 2: 1 passed, 1 failed",
        "  hallucination                 1  100.0%",
        "note: the judge is weak",
        "extra: hello",
        "wall 1.5 s",
        "  FAIL pass rate >= 90.0%: 50.0%, short by 40.0 points  (--pau-min-pass-rate)",
    ):
        assert line in text, line
    assert "█" not in text
    assert "#" in text


# ------------------------------------------------------------------------------ messages


def test_failure_message_names_thresholds_and_mismatch() -> None:
    r = result(1, judge=2, match=0.5, passed=False, mode="self_contradiction")
    r.gold, r.prediction, r.judge_explanation = "Adds one.", "Adds two.", "Off by one."
    r.mismatches = [
        Mismatch(input="(1,)", expected="2", got="3"),
        Mismatch(input="(2,)", expected="3", got="4"),
    ]
    text = failure_message(r, judge_threshold=3, match_threshold=0.8)
    assert text.splitlines()[:2] == [
        "t/1: judge score 2 < 3 and code match 0.50 < 0.8",
        "failure mode: self_contradiction",
    ]
    assert (
        "code:        code match 0.50; first mismatch: test_func(1,) expected 2, got 3 (+1 more)"
        in text
    )
    assert "judge 2/5:   Off by one." in text
    assert "gold:        Adds one." in text


def test_written_report_gets_the_mode_of_an_ordinary_file(tmp_path) -> None:
    import os

    from pytest_pau.models import Report, RunInfo
    from pytest_pau.report.json_report import read_report, write_report

    run = RunInfo(
        plugin_version="0",
        model="m",
        judge_model="j",
        coder_model="c",
        dataset="d",
        split="test",
        mode="interactive",
        seed=0,
        max_iterations=1,
    )
    old = os.umask(0o022)
    try:
        path = write_report(tmp_path / "r.json", Report(run=run))
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600: CI uploads it
    assert read_report(path).run.model == "m"
    assert not list(tmp_path.glob(".r.json.*"))  # no temporary file left behind
