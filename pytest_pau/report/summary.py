"""The run summary: a pure function from item results to a :class:`~pytest_pau.models.Summary`.

:func:`build_summary` computes everything the terminal block and the JSON report's
``summary`` show, with the level gates of :mod:`pytest_pau.stats.gates` as
verdicts; drawing lives in :mod:`pytest_pau.report.render`. Nothing here touches pytest,
so ``pau compare``, ``pau train`` and tests can call it. The conventions (what counts as
scored, how histograms bucket) are documented on :mod:`pytest_pau.models.summary`.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from pytest_pau.models import (
    Counts,
    FailureMode,
    FlaggedItem,
    GoldStats,
    GroupStats,
    InstanceResult,
    ItemError,
    ItemStatus,
    JudgeStats,
    MatchStats,
    Summary,
    TokenCounts,
)
from pytest_pau.models.paper import DEFAULT_PROTOCOL, PAPER
from pytest_pau.stats import missing
from pytest_pau.stats.describe import mean
from pytest_pau.stats.gates import Gates, evaluate_gates, selection_values
from pytest_pau.stats.inference import mean_interval
from pytest_pau.stats.judge_check import summarize_check
from pytest_pau.stats.metrics import BOUNDS, counted, counts

JUDGE_BUCKETS = ("1", "2", "3", "4", "5")
MATCH_BUCKETS = tuple(f"{i / 10:.1f}" for i in range(11))
MODEL_FAILURE_MODES: tuple[str, ...] = tuple(FailureMode.of_the_model())


def judge_bucket(score: float) -> str:
    """The 1-5 histogram bucket of a (possibly averaged) judge score."""
    return str(min(5, max(1, math.floor(score + 0.5))))


def match_bucket(score: float) -> str:
    """The tenths bucket of a code-match score (``"1.0"`` only for a perfect match)."""
    if score >= 1.0:
        return "1.0"
    return f"{min(9, max(0, math.floor(score * 10 + 1e-9))) / 10:.1f}"


def _ci(
    values: Sequence[float | None], bounds: tuple[float, float], confidence: float
) -> list[float] | None:
    """95% interval of the mean (tilted score; Wilson's on 0/1), None below MIN_N values.

    See :func:`pytest_pau.stats.inference.mean_interval` for why and its measured coverage.
    """
    interval = mean_interval(values, bounds=bounds, confidence=confidence)
    return None if interval is None else [interval.low, interval.high]


def _self_values(within: Sequence[InstanceResult], protocol: str) -> list[float]:
    """The model's own code matches (``--pau-coder=self``) as the means count them."""
    if not any(r.self_code_match is not None for r in within):
        return []
    if protocol == PAPER:
        return [0.0 if r.self_code_match is None else r.self_code_match for r in within]
    return [r.self_code_match for r in within if r.self_code_match is not None and r.scored]


def _last_caps(results: Sequence[InstanceResult]) -> dict[str, float]:
    """The endpoints' adaptive caps when the last item (by end time) ended."""
    timed = [r for r in results if r.ended_at is not None and r.connection_caps]
    return dict(max(timed, key=lambda r: r.ended_at or 0.0).connection_caps) if timed else {}


def _lowest_caps(results: Sequence[InstanceResult]) -> dict[str, float]:
    lowest: dict[str, float] = {}
    for r in results:
        for endpoint, cap in r.connection_caps_lowest.items():
            lowest[endpoint] = min(cap, lowest.get(endpoint, cap))
    return lowest


def _summed(dicts: Iterable[Mapping[str, float]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for d in dicts:
        for key, value in d.items():
            total[key] = total.get(key, 0) + value
    return total


def _last_quotas(results: Sequence[InstanceResult]) -> dict[str, str]:
    """Every quota paced at, as the last item (by end time) that saw it reported it."""
    quotas: dict[str, str] = {}
    for r in sorted(results, key=lambda r: r.ended_at or 0.0):
        quotas.update(r.quotas)
    return quotas


def _group(results: Sequence[InstanceResult], protocol: str) -> GroupStats:
    scored = [r for r in results if r.scored]
    within = [r for r in results if counts(r, protocol)]
    passed = sum(r.passed for r in scored)
    return GroupStats(
        items=len(results),
        scored=len(scored),
        passed=passed,
        pass_rate=passed / len(within) if within else None,
        judge_mean=mean([counted(r, "judge", protocol) for r in within]),
        match_mean=mean([counted(r, "match", protocol) for r in within]),
    )


def _breakdown(
    results: Sequence[InstanceResult],
    keys_of: Callable[[InstanceResult], Iterable[object]],
    protocol: str,
) -> dict[str, GroupStats]:
    groups: dict[str, list[InstanceResult]] = {}
    for r in results:
        for key in keys_of(r):
            groups.setdefault(str(key), []).append(r)
    return {k: _group(v, protocol) for k, v in sorted(groups.items())}


def build_summary(
    results: Iterable[InstanceResult],
    *,
    gates: Gates | None = None,
    wall_s: float | None = None,
    selected: int | None = None,
    confidence: float = 0.95,
    max_cost_usd: float | None = None,
    protocol: str = DEFAULT_PROTOCOL,
    selection: Sequence[str] | None = None,
) -> Summary:
    """Aggregate item results into the :class:`~pytest_pau.models.Summary`.

    Args:
        results: One result per instance, in report order.
        gates: Release-gate thresholds to evaluate; None for no gates.
        wall_s: Wall time of the whole run, when known.
        selected: How many items were selected to run (more than ``len(results)`` when
            the run was interrupted, or when some selected items produced no result, e.g.
            skipped by a ``skip`` mark or errored in another fixture before evaluation).
        confidence: Coverage of the intervals (0.95); none is given below
            :data:`~pytest_pau.stats.inference.MIN_N` values (too few for an honest one).
        max_cost_usd: The run's budget, to say how far the spend went past it.
        protocol: How items count (``--pau-protocol``, :func:`~pytest_pau.stats.metrics.counted`):
            under ``paper`` every item that ran is in the means, the intervals and the
            gates (a missing judge rating as 1, a missing code match as 0), and the summary
            carries the paper's statistics block.
        selection: The selected instance ids: the gates are about them, and an id without
            a result (or whose result has no score) is unknown (``Summary.unknown``).
            Default: the ids of ``results``.
    """
    results = list(results)
    statuses = Counter(r.status for r in results)
    scored = [r for r in results if r.scored]
    failed = [r for r in scored if not r.passed]
    # The items the means count: the scored ones, or every item that ran (paper).
    within = [r for r in results if counts(r, protocol)]

    judge_values = [counted(r, "judge", protocol) for r in within]
    match_values = [counted(r, "match", protocol) for r in within]
    pass_values = [counted(r, "pass", protocol) for r in within]
    judge_hist = dict.fromkeys(JUDGE_BUCKETS, 0)
    for v in judge_values:
        if v is not None:
            judge_hist[judge_bucket(v)] += 1
    match_hist = dict.fromkeys(MATCH_BUCKETS, 0)
    for v in match_values:
        if v is not None:
            match_hist[match_bucket(v)] += 1

    modes = dict.fromkeys(MODEL_FAILURE_MODES, 0)
    for r in failed:
        if r.failure_mode == FailureMode.CODER_ERROR:
            continue  # the coder's limitation: counted apart (coder_errors)
        # A failed item left at "none" (e.g. a user test with its own assertion) still
        # failed: count it visibly rather than dropping it.
        mode = "unclassified" if r.failure_mode == FailureMode.NONE else str(r.failure_mode)
        modes[mode] = modes.get(mode, 0) + 1

    gold = [r.gold_code_match for r in scored if r.gold_code_match is not None]
    own = _self_values(within, protocol)
    skip_reasons = Counter(r.skipped for r in results if r.skipped is not None)

    summary = Summary(
        counts=Counts(
            selected=selected if selected is not None else len(results),
            items=len(results),
            scored=len(scored),
            counted=len(within),
            passed=statuses[ItemStatus.PASSED],
            failed=statuses[ItemStatus.FAILED],
            errors=statuses[ItemStatus.ERROR],
            skipped=statuses[ItemStatus.SKIPPED],
        ),
        pass_rate=mean(pass_values),
        pass_rate_ci=_ci(pass_values, BOUNDS["match"], confidence),
        judge=JudgeStats(
            mean=mean(judge_values),
            ci=_ci(judge_values, BOUNDS["judge"], confidence),
            n=sum(v is not None for v in judge_values),
            unparseable=sum(r.judge_score is None for r in within),
            unparseable_answers=sum(r.judge_unparseable for r in results),
            histogram=judge_hist,
        ),
        code_match=MatchStats(
            mean=mean(match_values),
            ci=_ci(match_values, BOUNDS["match"], confidence),
            n=sum(v is not None for v in match_values),
            missing=sum(r.code_match is None for r in within),
            histogram=match_hist,
        ),
        gold_code_match=GoldStats(mean=mean(gold), n=len(gold)) if gold else None,
        self_code_match=GoldStats(mean=mean(own), n=len(own)) if own else None,
        protocol=protocol,
        failure_modes=modes,
        coder_errors=sum(r.failure_mode == FailureMode.CODER_ERROR for r in failed),
        infrastructure_errors=statuses[ItemStatus.ERROR],
        errors=[ItemError(id=r.id, error=r.error) for r in results if r.error is not None],
        flagged=[
            FlaggedItem(
                id=r.id,
                judge_raw=r.judge_raw_score,
                judge_defended=r.judge_defended_score,
                judge_score=r.judge_score,
                code_match=r.code_match,
                passed=r.passed,
            )
            for r in scored
            if r.judge_manipulation
        ],
        skipped_reasons={str(k): v for k, v in skip_reasons.items()},
        concluded=sum(r.concluded for r in scored),
        overconfident=sum(r.overconfident for r in scored),
        n_queries_mean=mean([float(r.n_queries) for r in scored]),
        tokens=TokenCounts(
            prompt=sum(r.tokens.get("prompt", 0) for r in results),
            completion=sum(r.tokens.get("completion", 0) for r in results),
            reasoning=sum(r.tokens.get("reasoning", 0) for r in results),
        ),
        cost_usd=sum(r.cost_usd for r in results),
        max_cost_usd=max_cost_usd,
        rate_limited=sum(r.rate_limited for r in results),
        connection_caps=_last_caps(results),
        connection_caps_lowest=_lowest_caps(results),
        waits={k: int(v) for k, v in _summed(r.waits for r in results).items()},
        wait_s=_summed(r.wait_s for r in results),
        quotas=_last_quotas(results),
        local_prompt={k: int(v) for k, v in _summed(r.local_prompt for r in results).items()},
        flex=_summed(r.flex for r in results),
        model_calls=sum(r.model_calls for r in results),
        cache_hits=sum(r.cache_hits for r in results),
        item_time_s=sum(r.duration_s for r in results),
        wall_s=wall_s,
        by_arity=_breakdown(results, lambda r: [r.arity], protocol),
        by_source=_breakdown(results, lambda r: [r.source], protocol),
        by_tag=_breakdown(results, lambda r: r.tags, protocol),
        judge_check=summarize_check(
            [r.judge_check for r in results if r.judge_check is not None], confidence=confidence
        ),
    )
    if protocol == PAPER:
        from pytest_pau.stats.paper_stats import paper_statistics

        summary.paper = paper_statistics(results)
    ids = list(dict.fromkeys(selection)) if selection is not None else [r.id for r in results]
    if selection is not None:
        summary.counts.selected = max(summary.counts.selected, len(ids))
    values, found = selection_values(ids, {r.id: r for r in results}, "pass", protocol)
    summary.unknown = dict(missing.count(zip(found, values, strict=True)))
    gates = dataclasses.replace(gates or Gates(), protocol=protocol)
    summary.gates = evaluate_gates(gates, results, ids)
    summary.gates_passed = all(g.passed for g in summary.gates)
    return summary
