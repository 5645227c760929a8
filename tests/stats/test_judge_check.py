"""The judge check's statistics: AUC and its interval (coverage by seeded simulation), the
told-apart rule (its error rates by exact enumeration), and the judge gates it withholds."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from pytest_pau.models import GateVerdict, Summary
from pytest_pau.models.judge_check import JudgeCheckItem
from pytest_pau.stats.judge_check import (
    BLIND,
    MIN_SHARE,
    UNCHECKED,
    auc,
    auc_interval,
    check_line,
    discriminates,
    pass_probability,
    summarize_check,
    withhold_judge_gates,
)


def test_auc_counts_ties_half() -> None:
    assert auc([5, 5], [1, 1]) == 1.0
    assert auc([5, 5], [5, 5]) == 0.5
    assert auc([1, 1], [5, 5]) == 0.0
    assert auc([5, 3], [4, 3]) == pytest.approx((1 + 1 + 0 + 0.5) / 4)


def test_a_perfect_separation_still_has_a_lower_end_below_one() -> None:
    interval = auc_interval([5.0] * 20, [1.0] * 20)
    assert interval is not None
    assert interval.estimate == 1.0
    assert interval.high == 1.0
    assert 0.85 < interval.low < 1.0


def test_a_judge_that_rates_everything_the_same_gets_half() -> None:
    interval = auc_interval([5.0] * 20, [5.0] * 20)
    assert interval is not None
    assert interval.estimate == 0.5
    assert interval.low < 0.5 < interval.high


# -- coverage of the AUC's interval, by seeded simulation -------------------------------------

#: (mean gold rating, mean decoy rating, spread): blind, weak, fair, good, near perfect.
JUDGES = [(4.7, 4.6, 0.6), (4.0, 3.5, 1.0), (4.2, 2.8, 1.0), (4.6, 1.8, 0.9), (4.9, 1.2, 0.5)]


def _ratings(rng: np.random.Generator, mu: float, item: np.ndarray, spread: float) -> np.ndarray:
    return np.clip(np.rint(mu + item + rng.normal(0, spread, item.shape)), 1, 5)


def _true_auc(mu_g: float, mu_d: float, spread: float) -> float:
    rng = np.random.default_rng(99)
    size = 400_000
    g = _ratings(rng, mu_g, rng.normal(0, 0.5, size), spread)
    d = _ratings(rng, mu_d, rng.normal(0, 0.5, size), spread)  # other items: independent
    return float(np.mean(g > d) + 0.5 * np.mean(g == d))


@pytest.mark.slow
@pytest.mark.parametrize("n", [20, 40])
@pytest.mark.parametrize(("mu_g", "mu_d", "spread"), JUDGES)
def test_the_auc_interval_covers_at_least_95_percent(
    n: int, mu_g: float, mu_d: float, spread: float
) -> None:
    """95% nominal; measured 96.2-99.6% (the docstring's figures), 2,000 runs each.
    Ratings of one item share an item effect (a pair is correlated, as in a real check)."""
    truth = _true_auc(mu_g, mu_d, spread)
    rng = np.random.default_rng(int(mu_g * 100 + mu_d * 10 + n))
    runs, covered = 2000, 0
    for _ in range(runs):
        item = rng.normal(0, 0.5, n)
        g = _ratings(rng, mu_g, item, spread).tolist()
        d = _ratings(rng, mu_d, item, spread).tolist()
        interval = auc_interval(g, d)
        assert interval is not None
        covered += interval.low - 1e-9 <= truth <= interval.high + 1e-9
    assert covered / runs >= 0.95, (truth, covered / runs)


# -- the told-apart rule: exact error rates --------------------------------------------------


def _enumerated(share: float, n: int) -> float:
    """P(pass) by enumerating every outcome of n items (n small)."""
    total = 0.0
    for outcome in itertools.product((0, 1), repeat=n):
        k = sum(outcome)
        if discriminates(k, n):
            total += share**k * (1 - share) ** (n - k)
    return total


@pytest.mark.parametrize("n", [1, 3, 4, 8, 12])
@pytest.mark.parametrize("share", [0.3, 0.5, 0.75, 0.9])
def test_pass_probability_is_exact(n: int, share: float) -> None:
    assert pass_probability(share, n) == pytest.approx(_enumerated(share, n), abs=1e-12)


def test_the_documented_error_rates_at_20_items() -> None:
    assert math.ceil(MIN_SHARE * 20) == 15
    assert pass_probability(0.5, 20) == pytest.approx(0.0207, abs=5e-4)
    assert pass_probability(0.6, 20) == pytest.approx(0.126, abs=5e-4)
    assert 1 - pass_probability(0.9, 20) == pytest.approx(0.0113, abs=5e-4)
    assert 1 - pass_probability(0.8, 20) == pytest.approx(0.196, abs=5e-4)


def test_no_checked_item_shows_nothing() -> None:
    assert not discriminates(0, 0)


# -- the summary and the gates it withholds --------------------------------------------------


def items(pairs: list[tuple[float | None, float | None]]) -> list[JudgeCheckItem]:
    return [JudgeCheckItem(decoy_id=f"t/{i}", gold=g, decoy=d) for i, (g, d) in enumerate(pairs)]


def test_a_judge_that_rates_everything_5_cannot_tell_them_apart() -> None:
    check = summarize_check(items([(5, 5)] * 20))
    assert check is not None
    assert (check.gold_mean, check.decoy_mean, check.told_apart, check.auc) == (5, 5, 0, 0.5)
    assert not check.discriminates
    assert check.confusion == {"gold": {"5": 20}, "decoy": {"5": 20}}
    assert "tells them apart on 0/20" in check_line(check)
    assert "cannot tell them apart" in check_line(check)


def test_a_judge_that_rates_by_correctness_passes() -> None:
    check = summarize_check(items([(5, 1)] * 19 + [(4, 4), (None, 2)]))
    assert check is not None
    assert (check.sampled, check.checked, check.told_apart) == (21, 20, 19)
    assert check.discriminates
    assert check_line(check) == (
        "judge check: gold 5.0, decoy 1.1, tells them apart on 19/20 (AUC 1.00 [0.91, 1.00])"
    )


def test_items_without_a_decoy_are_sampled_not_checked_and_the_line_says_why() -> None:
    none = JudgeCheckItem(decoy_id=None, error="no decoy: ...")
    check = summarize_check([none, none])
    assert check is not None
    assert (check.sampled, check.checked, check.no_decoy, check.discriminates) == (2, 0, 2, False)
    assert check.confusion == {"gold": {}, "decoy": {}}  # nothing was rated
    assert check_line(check) == (
        "judge check: no gold/decoy pair rated on the 2 sampled item(s), 2 of them without a "
        "decoy (no other instance of the dataset has a different description): whether the "
        "judge tells a right description from a wrong one is unknown"
    )
    summary = Summary(
        gates=[
            GateVerdict(
                name="min_mean_judge",
                label="j",
                option="--pau-min-mean-judge",
                threshold=3.0,
                status="passed",
                passed=True,
            )
        ],
        judge_check=check,
    )
    assert withhold_judge_gates(summary)
    assert summary.gates[0].status == "not decided"
    assert UNCHECKED in (summary.gates[0].detail or "")
    assert BLIND not in (summary.gates[0].detail or "")


def test_the_decoys_code_match_is_averaged_where_it_ran() -> None:
    rated = [
        JudgeCheckItem(decoy_id="t/a", gold=5, decoy=1, decoy_code_match=0.0),
        JudgeCheckItem(decoy_id="t/b", gold=5, decoy=1, decoy_code_match=0.5),
        JudgeCheckItem(decoy_id="t/c", gold=5, decoy=1),  # the coder's call failed
    ]
    check = summarize_check(rated)
    assert check is not None
    assert (check.decoy_code_match_mean, check.decoy_coded) == (0.25, 2)
    assert check_line(check).endswith("; code from the decoys matches 25%")
    # The third's call failed, as the evaluator records it: said beside the mean.
    rated[2] = rated[2].model_copy(update={"decoy_code_failed": True})
    check = summarize_check(rated)
    assert check is not None
    assert (check.decoy_coded, check.decoy_code_failed) == (2, 1)
    assert check_line(check).endswith(
        "; code from the decoys matches 25% (the coder failed on 1 more)"
    )


def _summary(check_pairs: list[tuple[float | None, float | None]]) -> Summary:
    gates = [
        GateVerdict(name=n, label=n, option=o, threshold=t, status="passed", passed=True)
        for n, o, t in (
            ("min_mean_judge", "--pau-min-mean-judge", 3.0),
            ("min_pass_rate", "--pau-min-pass-rate", 0.5),
            ("min_mean_match", "--pau-min-mean-match", 0.5),
        )
    ]
    return Summary(gates=gates, judge_check=summarize_check(items(check_pairs)))


def test_a_blind_judge_leaves_judge_gates_not_decided_and_match_gates_alone() -> None:
    summary = _summary([(5, 5)] * 20)
    assert withhold_judge_gates(summary)
    status = {g.name: (g.status, g.passed) for g in summary.gates}
    assert status == {
        "min_mean_judge": ("not decided", False),
        "min_pass_rate": ("not decided", False),
        "min_mean_match": ("passed", True),
    }
    assert BLIND in (summary.gates[0].detail or "")


def test_a_seeing_judge_or_no_check_leaves_the_gates_as_they_were() -> None:
    seeing = _summary([(5, 1)] * 20)
    assert not withhold_judge_gates(seeing)
    off = _summary([])
    assert off.judge_check is None
    assert not withhold_judge_gates(off)
    assert all(g.status == "passed" for g in (*seeing.gates, *off.gates))
