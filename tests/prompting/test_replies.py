"""Reading model replies: thinking blocks and the one rating parser of judges and critics."""

from __future__ import annotations

import pytest

from pytest_pau.prompting import explanation_of, parse_rating
from pytest_pau.train.critic import parse_critic_rating


@pytest.mark.parametrize(
    ("reply", "rating"),
    [
        ("Same behaviour.\nRating: 5", 5),
        ("close. rating:3", 3),
        ("**Rating:** 4", 4),
        ("Rating: **2**", 2),
        ("RATING : 1", 1),
        ("Rating: 2 at first... on reflection, Rating: 4", 4),
        ("<think>Rating: 1</think>Fine. Rating: 5", 5),
        ("I would give it a 4/5.", None),
        ("Rating: 7", None),
        ("Rating: 3.5", None),
        ("Rating: 4.", 4),
        ("**Rating:** 4.", 4),
        ("Rating: 5.0", 5),
        ("My rating: 2. Final Rating: 4.", 4),
        ("Rating: 45", None),
        ("", None),
    ],
)
def test_parse_rating(reply: str, rating: int | None) -> None:
    assert parse_rating(reply) == rating


def test_explanation_drops_the_rating_line() -> None:
    assert explanation_of("Both sum the list.\n**Rating: 5**") == "Both sum the list."


@pytest.mark.parametrize(
    ("reply", "rating"),
    [
        ("Rating: 0", 0),
        ("Rating = 9", 9),
        ("rating: 7.", 7),
        ("Rating: 10", None),
        ("**Rating:** 3", 3),
    ],
)
def test_the_critic_uses_the_same_parser_on_0_to_9(reply: str, rating: int | None) -> None:
    assert parse_critic_rating(reply) == rating
    assert parse_rating(reply, low=0, high=9) == rating


def test_equals_sign_is_a_rating_for_the_judge_too() -> None:
    # The judge's and the critic's parsers had drifted apart: only the critic took "=".
    assert parse_rating("Rating = 4") == 4
