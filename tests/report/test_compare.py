"""``compare_reports``: run means, the Max row, pairs, flips, warnings."""

from __future__ import annotations

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.stats.compare import (
    compare_reports,
    parse_fail_if_worse,
    parse_metric,
    regressions,
)

from .conftest import make_report, random_report, result


def test_means_max_row_and_pair_on_hand_computed_data() -> None:
    a = make_report(
        [result("x", 2, 0.5), result("y", 4, 1.0), result("z", 1, 0.0), result("w", 5, 0.9)]
    )
    b = make_report(
        [result("x", 3, 0.9), result("y", 2, 1.0), result("z", 1, 0.2), result("w", 5, 1.0)],
        model="b",
    )
    comp = compare_reports([a, b])
    judge = comp.metric("judge")
    assert [r.label for r in judge.runs] == ["A", "B"]
    assert judge.runs[0].mean == pytest.approx(3.0)
    assert judge.runs[1].mean == pytest.approx(2.75)
    # Max: per instance the best of the runs: 3, 4, 1, 5.
    assert judge.max.label == "Max"
    assert judge.max.mean == pytest.approx(13 / 4)
    assert judge.max.n == 4
    match = comp.metric("code_match")
    assert match.max.mean == pytest.approx((0.9 + 1.0 + 0.2 + 1.0) / 4)
    (pair,) = judge.pairs
    assert (pair.a, pair.b, pair.n) == ("A", "B", 4)
    assert pair.mean_diff == pytest.approx(-0.25)
    assert pair.ci is not None
    assert pair.ci[0] <= -0.25 <= pair.ci[1]
    # pass (judge >= 3 and match >= 0.8): A passes y, w; B passes x, w.
    passes = comp.metric("pass")
    assert [r.mean for r in passes.runs] == pytest.approx([0.5, 0.5])
    assert passes.max.mean == pytest.approx(0.75)
    assert comp.flips[0].pass_to_fail == ["builtin/y"]
    assert comp.flips[0].fail_to_pass == ["builtin/x"]
    for block in comp.metrics:
        for stat in [*block.runs, block.max]:
            assert stat.ci is not None
            assert stat.mean is not None
            assert stat.ci[0] <= stat.mean <= stat.ci[1]


def test_max_row_skips_missing_values_of_one_run() -> None:
    a = make_report([result("x", None, 0.2), result("y", 2, None)])
    b = make_report([result("x", 3, 0.1), result("y", None, None)])
    comp = compare_reports([a, b])
    assert comp.metric("judge").max.mean == pytest.approx((3 + 2) / 2)
    assert comp.metric("match").max.mean == pytest.approx(0.2)
    assert comp.metric("match").max.n == 1
    assert comp.metric("judge").pairs[0].n == 0
    assert comp.metric("judge").pairs[0].mean_diff is None


def test_flips_list_both_directions_and_ignore_errors() -> None:
    a = make_report(
        [
            result("keeps", 5, 1.0),
            result("breaks", 5, 1.0),
            result("fixed", 1, 0.0),
            result("stays_bad", 1, 0.0),
            result("errs", 5, 1.0),
        ]
    )
    b = make_report(
        [
            result("keeps", 5, 1.0),
            result("breaks", 2, 1.0),
            result("fixed", 4, 0.9),
            result("stays_bad", 2, 0.0),
            result("errs", None, None, error="provider outage"),
        ]
    )
    comp = compare_reports([a, b])
    (flips,) = comp.flips
    assert flips.pass_to_fail == ["builtin/breaks"]
    assert flips.fail_to_pass == ["builtin/fixed"]
    # The errored item has no value in B, so it is left out of B's mean and the pair.
    assert comp.metric("pass").runs[1].n == 4
    assert comp.metric("pass").pairs[0].n == 4


def test_only_shared_instances_are_compared_and_the_rest_is_warned() -> None:
    a = make_report([result("x", 3), result("y", 4), result("only_a", 5)])
    b = make_report([result("y", 2), result("x", 5)])
    comp = compare_reports([a, b], sources=["a.json", "b.json"])
    assert comp.shared == 2
    assert comp.metric("judge").runs[0].mean == pytest.approx(3.5)
    assert comp.metric("judge").pairs[0].mean_diff == pytest.approx(0.0)  # (5-3 + 2-4) / 2
    assert any("A (a.json) has 1 instances the other runs lack" in w for w in comp.warnings)


@pytest.mark.parametrize(
    ("field", "value", "name"),
    [
        ("dataset", "humaneval", "dataset"),
        ("prompts_version", "2.0", "prompts version"),
        ("judge_model", "gpt-4o", "judge model"),
        ("coder_model", "qwen", "coder model"),
    ],
)
def test_run_mismatch_warnings(field: str, value: str, name: str) -> None:
    rows = [result("x", 3), result("y", 4)]
    comp = compare_reports([make_report(rows), make_report(rows, **{field: value})])
    assert len(comp.warnings) == 1
    assert comp.warnings[0].startswith(f"runs differ in {name} (")
    assert repr(value) in comp.warnings[0]


def test_matching_runs_give_no_warning() -> None:
    rows = [result("x", 3), result("y", 4)]
    assert compare_reports([make_report(rows), make_report(rows, model="other")]).warnings == []


def test_threshold_mismatch_is_warned() -> None:
    rows = [result("x", 3)]
    b = make_report(rows, thresholds={"judge_threshold": 4.0, "match_threshold": 0.8})
    comp = compare_reports([make_report(rows), b])
    assert any("judge_threshold" in w for w in comp.warnings)


def test_three_runs_give_every_pair_and_the_max_over_all() -> None:
    a = make_report([result("x", 1), result("y", 2)])
    b = make_report([result("x", 2), result("y", 5)])
    c = make_report([result("x", 4), result("y", 1)])
    comp = compare_reports([a, b, c])
    judge = comp.metric("judge")
    assert [(p.a, p.b) for p in judge.pairs] == [("A", "B"), ("A", "C"), ("B", "C")]
    assert [p.mean_diff for p in judge.pairs] == pytest.approx([2.0, 1.0, -1.0])
    assert judge.max.mean == pytest.approx((4 + 5) / 2)
    assert len(comp.flips) == 3


def test_spearman_per_pair_on_related_runs() -> None:
    a = random_report(400, seed=0)
    b = random_report(400, seed=1)
    comp = compare_reports([a, b])
    rho = comp.metric("judge").pairs[0].spearman
    # Both runs share the instances' difficulty: clearly positive, far from perfect.
    assert rho is not None
    assert 0.3 < rho < 0.95


def test_no_shared_instance_or_single_report_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="share no instance id"):
        compare_reports([make_report([result("x")]), make_report([result("y")])])
    with pytest.raises(ConfigError, match="at least two reports, got 1"):
        compare_reports([make_report([result("x")])])


def test_non_inferiority_fails_a_clear_regression_and_an_unshown_one() -> None:
    a = random_report(1500, seed=0, skill=0.3)
    b = random_report(1500, seed=0, skill=0.0)  # same noise, lower skill: clearly worse
    comp = compare_reports([a, b], margins={"judge": 0.1})
    diff = comp.metric("judge").pairs[0].mean_diff
    assert diff is not None
    assert diff < -0.2
    (msg,) = regressions(comp, "judge")
    assert msg.startswith("B vs A on judge score: -")
    assert "not shown to be within the allowed regression" in msg
    # A margin well beyond the loss and its noise passes.
    wide = compare_reports([a, b], margins={"judge": abs(diff) + 0.2})
    assert regressions(wide, "judge") == []
    # The other direction is an improvement: shown not to be worse.
    assert regressions(compare_reports([b, a], margins={"judge": 0.05}), "judge") == []
    # Two instances show nothing, whichever way they lean: the gate fails.
    small = compare_reports(
        [
            make_report([result("x", 3), result("y", 4)]),
            make_report([result("x", 3.5), result("y", 4.5)]),
        ],
        margins={"judge": 0.5},
    )
    assert small.metric("judge").pairs[0].mean_diff == pytest.approx(0.5)
    (msg,) = regressions(small, "judge")
    assert "over 2 paired instances" in msg


def test_parse_fail_if_worse() -> None:
    assert parse_fail_if_worse("judge:0.1") == ("judge", 0.1)
    assert parse_fail_if_worse("code_match:0") == ("match", 0.0)
    assert parse_metric("PASS_RATE") == "pass"
    with pytest.raises(ConfigError, match="expected METRIC:DELTA"):
        parse_fail_if_worse("judge")
    with pytest.raises(ConfigError, match="unknown metric 'bleu'"):
        parse_fail_if_worse("bleu:0.1")
    with pytest.raises(ConfigError, match="DELTA must be a number"):
        parse_fail_if_worse("judge:lots")
    with pytest.raises(ConfigError, match="DELTA must be >= 0"):
        parse_fail_if_worse("judge:-1")
