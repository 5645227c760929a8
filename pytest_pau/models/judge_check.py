"""The judge check's data: whether the judge tells a right description from a wrong one.

Beside a run's checked items the judge also rates, against the item's gold description,
the gold description itself and a *decoy* (the gold description of another, similar
instance: :mod:`pytest_pau.scoring.decoy`). :class:`JudgeCheckItem` is one item's two
ratings (on :attr:`InstanceResult.judge_check`); :class:`JudgeCheck` is the run's
figures (on :attr:`Summary.judge_check`, built by :func:`pytest_pau.stats.judge_check.summarize_check`),
and what ``pau judge-check`` writes.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

#: A rating on the judge's scale (``outcome.JudgeScore``'s rule; that module imports this one).
JudgeScore = Annotated[float, Field(ge=1.0, le=5.0, allow_inf_nan=False)]


class JudgeCheckItem(BaseModel):
    """One checked item: the judge's ratings of the gold and of a decoy, against the gold."""

    model_config = ConfigDict(extra="ignore")

    decoy_id: str | None
    """The instance whose gold description is the decoy (None: the item has none, no other
    instance of the dataset has a different description; :attr:`error` says so)."""
    gold: JudgeScore | None = None
    """The rating of the gold description against itself (None: no rating)."""
    decoy: JudgeScore | None = None
    """The rating of the decoy against the gold description (None: no rating)."""
    content_free: JudgeScore | None = None
    """``pau judge-check``: the rating of a content-free sentence (not rated in a run)."""
    error: str | None = None
    """Why a rating is missing (the judge's call failed, no decoy), when it is."""
    decoy_code_match: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """In a run: the code match of the code the coder wrote from the decoy (the floor of code
    match, as the gold control is its ceiling; None: not run or its call failed)."""
    decoy_code_failed: bool = False
    """In a run: the coder's call for the decoy's code failed (:attr:`error` says why)."""
    known_wrong: list[JudgeScore | None] = Field(default_factory=list)
    """``pau judge-check``: the ratings of the instance's known-wrong descriptions
    (``Instance.wrong_descriptions``, in their order; None: no rating), against the gold;
    empty when it has none (and in a run, which does not rate them)."""


class JudgeCheck(BaseModel):
    """How well the judge told gold from decoy on the checked items."""

    model_config = ConfigDict(extra="ignore")

    sampled: int = 0
    """Items the check was run on."""
    checked: int = 0
    """Of those, items with both ratings (what the figures are about)."""
    gold_mean: float | None = None
    decoy_mean: float | None = None
    content_free_mean: float | None = None
    """``pau judge-check`` only: the mean rating of the content-free sentence."""
    told_apart: int = 0
    """Checked items whose gold the judge rated strictly above their decoy."""
    no_decoy: int = 0
    """Sampled items without a decoy (no other instance has a different description)."""
    auc: float | None = None
    """Probability that a gold rating exceeds a decoy rating (ties count half), over all
    gold/decoy pairs of the checked items."""
    auc_low: float | None = None
    auc_high: float | None = None
    """The AUC's interval at :attr:`confidence` (:func:`pytest_pau.stats.judge_check.auc_interval`)."""
    confidence: float = 0.95
    min_share: float = 0.75
    """The share of checked items the judge must tell apart to count as discriminating."""
    discriminates: bool = False
    """``told_apart / checked >= min_share`` (with at least one checked item)."""
    decoy_code_match_mean: float | None = None
    """In a run: the mean code match of the code written from the decoys (low: code match
    tells a wrong description from the right one)."""
    decoy_coded: int = 0
    """Items whose decoy the coder wrote code from (the mean's ``n``)."""
    confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    """``"gold"`` / ``"decoy"`` / ``"content_free"`` -> rating (``"1"``..``"5"``, ``"none"``)
    -> items: the confusion table by rating."""
    known_wrong_mean: float | None = None
    """``pau judge-check`` only: the mean rating of the known-wrong descriptions (every
    rating of every item; None when the sample has none). The table's ``"known_wrong"``
    row counts ratings, not items, and is there only when some were rated."""
    known_wrong_items: int = 0
    """Items with a gold rating and at least one rated known-wrong description."""
    known_wrong_told_apart: int = 0
    """Of those, items whose gold the judge rated strictly above every one of its rated
    known-wrong descriptions."""
    decoy_code_failed: int = 0
    """In a run: items whose decoy the coder failed to write code from (not in the mean)."""
