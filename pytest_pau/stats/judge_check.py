"""The judge check's statistics: does the judge rate a right description above a wrong one?

On each checked item the judge rates the gold description (against itself) and a decoy
(the gold description of another, similar instance) against the gold. Two figures:

* **Told apart**: the items whose gold it rated strictly above their decoy (a tie is not
  telling them apart). The judge *discriminates* when it tells apart at least
  :data:`MIN_SHARE` (75%) of the checked items. Its uncertainty at the sample size is exact
  (:func:`pass_probability`, binomial): at the default 20 items a judge that tells apart
  only half the items in truth passes with probability 2.1% (15 of 20 needed: also the
  one-sided sign test's 95% level), one that tells apart 60% with 12.6%, and one that tells
  apart 90% fails with 1.1% (80%: 19.6%). A judge that rates everything 5 tells apart none.
* **AUC**: the probability that a gold rating exceeds a decoy rating, ties counted half,
  over all gold/decoy pairs (Mann-Whitney), with :func:`auc_interval`.

Nothing here calls a model or touches a file.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pytest_pau.models import Summary
from pytest_pau.models.judge_check import JudgeCheck, JudgeCheckItem
from pytest_pau.models.metrics import LEVEL_GATES
from pytest_pau.stats.describe import mean
from pytest_pau.stats.inference import z_value
from pytest_pau.stats.results import Interval

#: The share of checked items the judge must tell apart (gold rated above the decoy).
MIN_SHARE = 0.75
#: Gates and regression metrics that read the judge's ratings (``pass`` needs a judge score).
JUDGE_METRICS = ("judge", "pass")
JUDGE_GATES = tuple(key for key, gate in LEVEL_GATES.items() if gate.metric in JUDGE_METRICS)
#: What a judge-based gate says when the check shows the judge blind.
BLIND = "the judge rates a wrong description as high as the right one here"
#: ... and when the check rated no pair (no decoy, no rating): nothing shows it can see.
UNCHECKED = (
    "the judge check rated no right/wrong pair, so whether the judge tells a right "
    "description from a wrong one is unknown"
)


def _placements(gold: Sequence[float], decoy: Sequence[float]) -> tuple[float, list[float]]:
    """The AUC and each item's placement sum ``V10_i + V01_i`` (DeLong's components)."""
    n_g, n_d = len(gold), len(decoy)
    rows = [[1.0 if g > d else 0.5 if g == d else 0.0 for d in decoy] for g in gold]
    v10 = [sum(row) / n_d for row in rows]
    v01 = [sum(rows[i][j] for i in range(n_g)) / n_g for j in range(n_d)]
    auc = sum(v10) / n_g
    return auc, [a + b for a, b in zip(v10, v01, strict=True)]


def auc(gold: Sequence[float], decoy: Sequence[float]) -> float | None:
    """P(a gold rating > a decoy rating), ties half, over all pairs; None without ratings."""
    if not gold or not decoy:
        return None
    return _placements(gold, decoy)[0]


def auc_interval(
    gold: Sequence[float], decoy: Sequence[float], *, confidence: float = 0.95
) -> Interval | None:
    """Confidence interval of the AUC of paired ratings (one gold, one decoy per item).

    Method: Wilson's score interval around the AUC with an effective sample size
    ``A (1 - A) / Var``, where ``Var`` is DeLong's variance for paired ratings (the sample
    variance of the items' placement sums ``V10_i + V01_i`` over ``n``), capped at the
    number of ratings ``2 n`` (no more information than as many yes/no answers) and set to
    ``2 n`` when the variance is 0 (every pair tied, or perfect separation). Wilson's form
    keeps the ends inside [0, 1] and gives a perfect separation a lower end below 1.

    Coverage of the 95% interval, seeded simulation (``tests/stats/test_judge_check.py``,
    2,000 runs each, five judges from blind, AUC 0.53, to near perfect, 0.999, ratings 1-5,
    the two ratings of an item correlated): 96.2-99.6% at n = 20 and at n = 40, conservative
    where ratings tie a lot (a judge that rates nearly everything 5: 98%). With the pairs
    uncorrelated it measured 94.3-99.8% at n = 10-40. The check's pass rule does not rest
    on it (it reads the told-apart count, whose error rates are exact).

    Returns:
        The interval, or None with fewer than 2 items.
    """
    if len(gold) != len(decoy):
        raise ValueError(f"auc_interval: {len(gold)} gold ratings but {len(decoy)} decoy ratings")
    n = len(gold)
    if n < 2:
        return None
    z = z_value(confidence)
    a, sums = _placements(gold, decoy)
    centre = sum(sums) / n
    var = sum((s - centre) ** 2 for s in sums) / (n - 1) / n
    cap = 2.0 * n
    n_eff = min(a * (1 - a) / var, cap) if var > 0 and 0 < a < 1 else cap
    n_eff = max(n_eff, 1.0)
    c = z * z / n_eff
    mid = (a + c / 2) / (1 + c)
    half = z * math.sqrt(a * (1 - a) / n_eff + c / n_eff / 4) / (1 + c)
    low = 0.0 if a == 0.0 else min(a, max(0.0, mid - half))
    high = 1.0 if a == 1.0 else max(a, min(1.0, mid + half))
    return Interval(
        estimate=a,
        low=low,
        high=high,
        confidence=confidence,
        n=n,
        method="wilson (DeLong effective n)",
    )


def told_apart(gold: Sequence[float], decoy: Sequence[float]) -> int:
    """Items whose gold rating is strictly above their decoy's."""
    return sum(1 for g, d in zip(gold, decoy, strict=True) if g > d)


def discriminates(apart: int, checked: int, *, min_share: float = MIN_SHARE) -> bool:
    """Whether ``apart`` of ``checked`` items is at least ``min_share`` (none checked: no)."""
    return checked > 0 and apart >= min_share * checked - 1e-9


def pass_probability(share: float, n: int, *, min_share: float = MIN_SHARE) -> float:
    """P(the check passes) on ``n`` items for a judge that tells apart ``share`` of them.

    Exact (binomial): the probability of at least ``ceil(min_share * n)`` items told apart.
    """
    need = math.ceil(min_share * n - 1e-9)
    return sum(math.comb(n, k) * share**k * (1 - share) ** (n - k) for k in range(need, n + 1))


def _table(values: Iterable[float | None]) -> dict[str, int]:
    counts = Counter("none" if v is None else f"{v:g}" for v in values)
    return dict(sorted(counts.items()))


def summarize_check(
    items: Sequence[JudgeCheckItem], *, confidence: float = 0.95
) -> JudgeCheck | None:
    """The check's figures over ``items`` (None when no item was checked)."""
    if not items:
        return None
    pairs = [(i.gold, i.decoy) for i in items if i.gold is not None and i.decoy is not None]
    gold = [g for g, _ in pairs]
    decoy = [d for _, d in pairs]
    interval = auc_interval(gold, decoy, confidence=confidence)
    apart = told_apart(gold, decoy)
    free = [i.content_free for i in items if i.content_free is not None]
    rated = [i for i in items if i.decoy_id is not None]
    confusion = {"gold": _table(i.gold for i in rated), "decoy": _table(i.decoy for i in rated)}
    if free:
        confusion["content_free"] = _table(i.content_free for i in rated)
    coded = [i.decoy_code_match for i in items if i.decoy_code_match is not None]
    if any(i.known_wrong for i in items):
        confusion["known_wrong"] = _table(r for i in items for r in i.known_wrong)
    return JudgeCheck(
        sampled=len(items),
        checked=len(pairs),
        gold_mean=mean(gold),
        decoy_mean=mean(decoy),
        content_free_mean=mean(free),
        told_apart=apart,
        auc=auc(gold, decoy),
        auc_low=interval.low if interval else None,
        auc_high=interval.high if interval else None,
        confidence=confidence,
        min_share=MIN_SHARE,
        discriminates=discriminates(apart, len(pairs)),
        confusion=confusion,
        no_decoy=sum(1 for i in items if i.decoy_id is None),
        decoy_code_match_mean=mean(coded),
        decoy_coded=len(coded),
        **known_wrong_figures(items),
        decoy_code_failed=sum(1 for i in items if i.decoy_code_failed),
    )


def withhold_judge_gates(summary: Summary) -> bool:
    """Judge-based gates are ``not decided`` when the run's judge check shows it blind.

    The one addition the judge check makes to the verdict: with ``summary.judge_check``
    present and not discriminating, every gate and baseline regression that reads the
    judge (:data:`JUDGE_GATES`, :data:`JUDGE_METRICS`) becomes ``not decided`` (so a gated
    run exits 1, :func:`pytest_pau.stats.verdict.release_verdict`), saying why; code-match
    gates keep their verdicts. Callers skip it under ``--pau-protocol=paper`` (the paper's
    counting decides) and with ``--pau-judge-check=off`` (no check in the summary).

    Returns:
        Whether a gate was withheld.
    """
    check = summary.judge_check
    if check is None or check.discriminates:
        return False
    why = f"{BLIND if check.checked else UNCHECKED} ({check_line(check)})"
    changed = False
    for i, g in enumerate(summary.gates):
        if g.name in JUDGE_GATES:
            summary.gates[i] = g.model_copy(
                update={"status": "not decided", "passed": False, "detail": why}
            )
            changed = True
    if summary.baseline is not None:
        for i, r in enumerate(summary.baseline.regressions):
            if r.metric in JUDGE_METRICS:
                summary.baseline.regressions[i] = r.model_copy(
                    update={"status": "not decided", "detail": why}
                )
                changed = True
    return changed


def check_line(check: JudgeCheck) -> str:
    """``judge check: gold 4.7, decoy 1.6, tells them apart on 19/20 (AUC 0.95 [0.84, 0.99])``."""
    if check.checked == 0:
        why = (
            f"{check.no_decoy} of them without a decoy (no other instance of the dataset "
            "has a different description)"
            if check.no_decoy
            else "none reached it with both ratings (an error, a skip or no rating)"
        )
        return (
            f"judge check: no gold/decoy pair rated on the {check.sampled} sampled item(s), "
            f"{why}: whether the judge tells a right description from a wrong one is unknown"
        )
    auc_text = "" if check.auc is None else f"AUC {check.auc:.2f}"
    if check.auc_low is not None and check.auc_high is not None:
        auc_text += f" [{check.auc_low:.2f}, {check.auc_high:.2f}]"
    free = (
        "" if check.content_free_mean is None else f", content-free {check.content_free_mean:.1f}"
    )
    verdict = (
        "" if check.discriminates else f"; below {check.min_share:.0%}: cannot tell them apart"
    )
    failed = check.decoy_code_failed
    if check.decoy_code_match_mean is not None:
        verdict += f"; code from the decoys matches {check.decoy_code_match_mean:.0%}"
        verdict += f" (the coder failed on {failed} more)" if failed else ""
    elif failed:
        verdict += f"; code from the decoys: none, the coder failed on all {failed}"
    return (
        f"judge check: gold {check.gold_mean:.1f}, decoy {check.decoy_mean:.1f}{free}, "
        f"tells them apart on {check.told_apart}/{check.checked}"
        + (f" ({auc_text})" if auc_text else "")
        + verdict
    )


def known_wrong_figures(items: Sequence[JudgeCheckItem]) -> dict[str, Any]:
    """``pau judge-check``'s known-wrong figures over ``items`` (:class:`JudgeCheck`'s
    ``known_wrong_*`` fields): the mean of every rating, the items with a gold rating and at
    least one rated known-wrong description, and of those the items whose gold is rated
    strictly above every one of them (a tie is not telling them apart)."""
    ratings = [r for i in items for r in i.known_wrong if r is not None]
    compared = [
        (i.gold, [r for r in i.known_wrong if r is not None])
        for i in items
        if i.gold is not None and any(r is not None for r in i.known_wrong)
    ]
    return {
        "known_wrong_mean": mean(ratings),
        "known_wrong_items": len(compared),
        "known_wrong_told_apart": sum(1 for g, rs in compared if g > max(rs)),
    }


def known_wrong_line(check: JudgeCheck) -> str | None:
    """``known wrong: mean 1.4 (41 ratings); gold rated above all its item's known-wrong
    descriptions on 38/40 items``; None when no item had known-wrong descriptions."""
    row = check.confusion.get("known_wrong")
    if row is None:
        return None
    if check.known_wrong_mean is None:
        return "known wrong: no rating of the known-wrong descriptions"
    rated = sum(n for rating, n in row.items() if rating != "none")
    return (
        f"known wrong: mean {check.known_wrong_mean:.1f} ({rated} rating"
        f"{'' if rated == 1 else 's'}); gold rated above all its item's known-wrong "
        f"descriptions on {check.known_wrong_told_apart}/{check.known_wrong_items} items"
    )
