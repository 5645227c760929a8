"""Finer judge scores from logprobs: the probability-weighted mean of the rating tokens.

A small judge (the embedded 1.5B) tends to put most of its mass on one or two ratings;
the parsed rating throws that spread away. Where the provider returns top logprobs at
the rating token, ``sum(r * p(r)) / sum(p(r))`` over r in 1..5 keeps it.
"""

from __future__ import annotations

import math
import re

from pytest_pau.models import Completion

_RATING_LABEL = re.compile(r"rating\s*[:=]?\s*\**\s*$", re.IGNORECASE)


def weighted_rating(
    completion: Completion, *, scale: tuple[int, ...] = (1, 2, 3, 4, 5)
) -> float | None:
    """Probability-weighted rating at the token after the last ``Rating:`` label.

    Args:
        completion: A judge answer requested with ``logprobs=k`` (k >= 5 is best).
        scale: The valid ratings.

    Returns:
        The weighted mean, or None when there are no logprobs, no ``Rating:`` label
        followed by a digit token, or no probability mass on the valid ratings.
    """
    if not completion.logprobs:
        return None
    valid = {str(r): r for r in scale}
    text = ""
    position = None
    for index, entry in enumerate(completion.logprobs):
        token = str(entry.get("token") or "")
        if token.strip() in valid and _RATING_LABEL.search(text):
            position = index  # keep going: the last rating in the answer is the verdict
        text += token
    if position is None:
        return None
    entry = completion.logprobs[position]
    top = dict(entry.get("top") or {})
    top.setdefault(str(entry["token"]), float(entry["logprob"]))
    mass: dict[int, float] = {}
    for token, logprob in top.items():
        rating = valid.get(str(token).strip())
        if rating is not None:
            # " 4" and "4" are different tokens for the same rating: add them up.
            mass[rating] = mass.get(rating, 0.0) + math.exp(float(logprob))
    total = sum(mass.values())
    if total <= 0:
        return None
    return sum(r * p for r, p in mass.items()) / total
