"""Every reward component of both AAC schedules (``aac``, ``paper``) against hand-computed values."""

from __future__ import annotations

import pytest

from pytest_pau.train.rewards import (
    COMPONENTS,
    RewardConfig,
    act_reward,
    final_reward,
    length_penalty,
    normalised_rating,
    reason_reward,
    reflect_reward,
    termination_bonus,
)

CFG = RewardConfig()


def words(n: int) -> str:
    return " ".join(["w"] * n)


def test_defaults_are_the_protocol_table() -> None:
    assert (CFG.lambda_h, CFG.t_max) == (2.0, 40)
    assert CFG.clean_execution == pytest.approx(2 / 80)  # lambda_H / (2 T_max) = 0.025
    assert (CFG.parse_penalty, CFG.runtime_penalty, CFG.turn_limit_penalty) == (-0.5, -0.5, -1.0)
    assert (CFG.reason_words, CFG.reason_rate, CFG.act_words, CFG.act_rate) == (100, 0.05, 30, 0.5)


@pytest.mark.parametrize(
    ("n_words", "threshold", "rate", "expected"),
    [
        (100, 100, 0.05, 0.0),  # at the threshold: no penalty
        (101, 100, 0.05, -0.05),
        (110, 100, 0.05, -0.5),
        (120, 100, 0.05, -1.0),  # exactly the floor
        (500, 100, 0.05, -1.0),  # -20 before the clip
        (31, 30, 0.5, -0.5),
        (33, 30, 0.5, -1.0),  # -1.5 clipped to -1
        (0, 30, 0.5, 0.0),
    ],
)
def test_length_penalty_is_clipped_to_minus_one_zero(
    n_words: int, threshold: int, rate: float, expected: float
) -> None:
    assert length_penalty(words(n_words), threshold, rate) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("rating", "expected"), [(0, 0.0), (9, 1.0), (6, 6 / 9), (None, 0.0), (12, 1.0)]
)
def test_ratings_are_normalised_by_nine(rating: int | None, expected: float) -> None:
    assert normalised_rating(rating) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("concluded", "score", "expected"),
    [
        (True, 0.8, 1.0),  # stop, good hypothesis
        (True, 0.7, -1.0),  # stop at the line: not above it
        (True, 0.2, -1.0),  # stop, poor hypothesis
        (False, 0.2, 1.0),  # go on while poor
        (None, 0.2, 1.0),  # no CONCLUDE line: read as going on, the bonus paid
        (False, 0.5, 0.0),  # go on in the middle: no bonus
        (False, 0.9, 0.0),  # go on while good: no bonus (the paper gives none)
    ],
)
def test_paper_termination_bonus(concluded: bool | None, score: float, expected: float) -> None:
    assert termination_bonus(concluded, score, CFG, "paper") == expected


@pytest.mark.parametrize(
    ("concluded", "score", "expected"),
    [
        (True, 0.8, 1.0),
        (True, 0.7, 1.0),  # at the line counts: ">= 0.7"
        (True, 0.69, -1.0),
        (False, 0.2, 0.0),  # going on is never paid
        (False, 0.9, 0.0),
        (None, 0.1, 0.0),  # a missing line is a format failure, never a bonus
    ],
)
def test_aac_termination_bonus(concluded: bool | None, score: float, expected: float) -> None:
    assert termination_bonus(concluded, score, CFG) == expected


def test_paper_reason_reward_critic_plus_length() -> None:
    r = reason_reward(words(110), 6, CFG, "paper")
    assert r.components["critic"] == pytest.approx(6 / 9)
    assert r.components["length"] == pytest.approx(-0.5)
    assert r.total == pytest.approx(6 / 9 - 0.5)
    assert set(r.components) == set(COMPONENTS)


@pytest.mark.parametrize(
    ("rating", "expected"), [(9, 0.0), (6, -1 / 60), (0, -1 / 20), (None, -1 / 20)]
)
def test_aac_reason_reward_is_a_cost_spread_over_the_episode(
    rating: int | None, expected: float
) -> None:
    """(rating / 9 - 1) / N: twenty plans rated 0 cost 1 in all."""
    assert reason_reward("plan", rating, CFG, iterations=20).total == pytest.approx(expected)


def test_act_rewards() -> None:
    clean = act_reward("INPUT: (3,)", parsed=True, ran_ok=True, config=CFG)
    assert clean.total == pytest.approx(0.025)
    assert clean.components["clean_execution"] == pytest.approx(0.025)
    crashed = act_reward("INPUT: ('a',)", parsed=True, ran_ok=False, config=CFG)
    assert crashed.components["runtime_error"] == -0.5
    assert crashed.components["clean_execution"] == 0.0
    unparsed = act_reward(words(32), parsed=False, ran_ok=True, config=CFG)
    # -0.5 for the parse failure, 2 words over 30 at 0.5 each = -1.0
    assert unparsed.components == {
        **dict.fromkeys(COMPONENTS, 0.0),
        "parse_failure": -0.5,
        "length": -1.0,
    }
    assert unparsed.total == pytest.approx(-1.5)


def test_paper_reflect_reward_stop_with_good_hypothesis() -> None:
    r = reflect_reward(
        "CONCLUDE: YES", concluded=True, score=8 / 9, rating=8, config=CFG, schedule="paper"
    )
    assert r.components["critic"] == pytest.approx(8 / 9)
    assert r.components["termination"] == pytest.approx(2.0)  # +1 scaled by lambda_H = 2
    assert r.total == pytest.approx(8 / 9 + 2)


def test_paper_reflect_reward_premature_stop_and_unparseable() -> None:
    early = reflect_reward(
        "CONCLUDE: YES", concluded=True, score=1 / 9, rating=1, config=CFG, schedule="paper"
    )
    assert early.components["termination"] == pytest.approx(-2.0)
    unparsed = reflect_reward(
        words(5), concluded=None, score=1 / 9, rating=1, config=CFG, schedule="paper"
    )
    # no YES/NO: -0.5, and it counts as going on while below 0.3: +1 * 2
    assert unparsed.components["parse_failure"] == -0.5
    assert unparsed.components["termination"] == pytest.approx(2.0)
    # an unrated hypothesis earns nothing, bonus included (the reference returns 0)
    unrated = reflect_reward(
        "CONCLUDE: NO", concluded=False, score=0.0, rating=None, config=CFG, schedule="paper",
        unrated=True,
    )  # fmt: skip
    assert unrated.total == 0.0


def test_aac_reflect_reward_pays_the_change_of_the_score() -> None:
    r = reflect_reward(
        "CONCLUDE: YES", concluded=True, score=8 / 9, rating=8, config=CFG, previous=2 / 9
    )
    assert r.components["critic"] == pytest.approx(2 * 6 / 9)  # lambda_H x (8/9 - 2/9)
    assert r.components["termination"] == pytest.approx(2.0)
    worse = reflect_reward(
        "CONCLUDE: NO", concluded=False, score=1 / 9, rating=1, config=CFG, previous=5 / 9
    )
    assert worse.total == pytest.approx(2 * (1 / 9 - 5 / 9))
    missing = reflect_reward(
        words(5), concluded=None, score=1 / 9, rating=1, config=CFG, previous=1 / 9
    )
    assert missing.components["termination"] == 0.0
    assert missing.total == pytest.approx(-0.5)  # the format failure alone


@pytest.mark.parametrize("concluded", [True, False, None])
@pytest.mark.parametrize("previous", [0.0, 4 / 9, 1.0])
def test_aac_reflect_reward_is_monotonic_in_the_rating(
    concluded: bool | None, previous: float
) -> None:
    totals = [
        reflect_reward(
            "x", concluded=concluded, score=r / 9, rating=r, config=CFG, previous=previous
        ).total
        for r in range(10)
    ]
    assert totals == sorted(totals)


def test_stall_margin_of_the_table_constants() -> None:
    assert CFG.stall_margin(20) == pytest.approx(2 * 0.7 + 1 - 19 * 0.025)
    assert CFG.stall_margin(96) > 0 >= CFG.stall_margin(97)


def test_reflect_length_penalty_uses_its_own_constants() -> None:
    cfg = RewardConfig(reflect_words=10, reflect_rate=0.25)
    r = reflect_reward(words(12), concluded=False, score=0.5, rating=None, config=cfg)
    assert r.components["length"] == pytest.approx(-0.5)


def test_final_reward_only_end_components() -> None:
    r = final_reward("reflect", 0.75, turn_limit=False, config=CFG)
    assert r.total == pytest.approx(0.75)
    assert r.components["final"] == 0.75
    limited = final_reward("act", 0.0, turn_limit=True, config=CFG)
    assert limited.components["turn_limit"] == -1.0


def test_unknown_component_is_refused() -> None:
    r = reason_reward("x", 1, CFG)
    with pytest.raises(KeyError, match="unknown reward component 'bonus'"):
        r.add("bonus", 1.0)
