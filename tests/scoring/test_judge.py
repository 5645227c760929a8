"""The judge through a scripted model: parsing, retry, null, samples, logprobs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.scoring import Judge


def sequence(*replies: str) -> Any:
    it: Iterator[str] = iter(replies)
    return lambda _messages: next(it)


def test_a_good_answer_is_parsed(double: Instance, scripted) -> None:
    llm, client = scripted([(MARKERS["judge"], "Both say it doubles.\nRating: 4")])
    result = Judge(client).score(double, "Doubles the number.")
    assert (result.score, result.ratings, result.unparseable) == (4, [4], 0)
    assert result.explanation == "Both say it doubles."
    assert result.spread is None
    assert llm.requests == 1
    sent = llm.log[0]["messages"][-1]["content"]
    assert double.description in sent
    assert "Doubles the number." in sent
    assert result.usage.calls == 1


def test_unparseable_then_fixed_by_the_reminder(double: Instance, scripted) -> None:
    llm, client = scripted(
        [(MARKERS["judge_retry"], "Rating: 2"), (MARKERS["judge"], "Quite close, 4 out of 5.")]
    )
    result = Judge(client).score(double, "x")
    assert (result.score, result.ratings, result.unparseable) == (2, [2], 0)
    assert llm.requests == 2
    retry = llm.log[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "Quite close, 4 out of 5."}
    assert result.explanation == "Quite close, 4 out of 5."
    assert result.usage.calls == 2


def test_unparseable_twice_is_null_never_a_score(double: Instance, scripted) -> None:
    llm, client = scripted(lambda _m: "I'd say it is fine.")
    result = Judge(client).score(double, "x")
    assert result.score is None
    assert result.ratings == [None]
    assert result.unparseable == 1
    assert llm.requests == 2  # one retry, no more


def test_samples_report_mean_and_spread(double: Instance, scripted) -> None:
    llm, client = scripted(
        sequence("Rating: 5", "Rating: 3", "nothing", "still nothing", "Rating: 4")
    )
    result = Judge(client, samples=4).score(double, "x")
    assert result.ratings == [5, 3, None, 4]
    # A sample without a rating is missing, not absent: the mean of the other three (4.0)
    # could be anything from 3.25 to 4.25, so the item has no score (issue 35).
    assert result.score is None
    assert result.spread == pytest.approx((2 / 3) ** 0.5)
    assert result.unparseable == 1
    assert [body["seed"] for body in llm.log] == [0, 1, 2, 2, 3]
    assert all(body["temperature"] > 0 for body in llm.log)


def test_logprob_weighted_rating(double: Instance, scripted) -> None:
    top = {"4": -0.2231, "5": -1.6094}  # p(4)=0.8, p(5)=0.2 -> 4.2
    reply = {
        "content": "Close. Rating: 4",
        "logprobs": [
            {"token": "Close.", "logprob": 0.0},
            {"token": " Rating", "logprob": 0.0},
            {"token": ":", "logprob": 0.0},
            {"token": " 4", "logprob": -0.2231, "top": top},
        ],
    }
    llm, client = scripted([(MARKERS["judge"], reply)])
    result = Judge(client, use_logprobs=True).score(double, "x")
    assert result.score == 4
    assert result.logprob_score is not None
    assert 4.0 < result.logprob_score < 4.5
    assert re.search("logprobs", str(llm.log[0]))


def test_samples_must_be_positive(scripted) -> None:
    _, client = scripted([])
    with pytest.raises(ValueError, match="at least 1"):
        Judge(client, samples=0)


def test_a_nan_logprob_gives_no_weighted_rating() -> None:
    # A provider's NaN logprob made the weighted rating NaN, which the result now refuses
    # (a score must be a finite number): no weighted rating, not an errored item.
    from pytest_pau.models import Completion
    from pytest_pau.scoring.judge import _weighted

    nan = float("nan")
    tokens = [{"token": " Rating", "logprob": 0.0}, {"token": ":", "logprob": 0.0}]
    completion = Completion(
        text="Rating: 4",
        model="m",
        logprobs=[*tokens, {"token": " 4", "logprob": nan, "top": {"4": nan, "5": -1.6}}],
    )
    assert _weighted(completion) is None
