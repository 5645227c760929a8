"""The run summary: a pure function from item results to a JSON-ready dict.

:func:`build_summary` computes everything the terminal block and the JSON report's
``summary`` show; :func:`evaluate_gates` turns the release-gate thresholds into
verdicts; drawing lives in :mod:`pytest_pau.report.render` (re-exported here as
:func:`render`). Nothing here touches pytest, so ``pau compare`` and tests can call it.

Conventions:
    * An item that errored (infrastructure) or was skipped is counted but never scored:
      pass rate, means and histograms use the *scored* items only.
    * A judge score that could not be parsed is a missing value (counted under
      ``judge.unparseable``), never a number.
    * With ``--pau-judge-samples`` > 1 the judge score is a mean; the 1-5 histogram puts
      it in the bucket of the nearest integer (halves round up).
    * Code match is bucketed in tenths, ``"0.0"`` = [0, 0.1) ... ``"0.9"`` = [0.9, 1),
      plus ``"1.0"`` for perfect matches, which are usually the largest group.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_pau.models import FAILURE_MODES, InstanceResult
from pytest_pau.report.stats import bootstrap_ci, mean

JUDGE_BUCKETS = ("1", "2", "3", "4", "5")
MATCH_BUCKETS = tuple(f"{i / 10:.1f}" for i in range(11))
MODEL_FAILURE_MODES = tuple(m for m in FAILURE_MODES if m not in ("none", "infrastructure"))


@dataclass(frozen=True)
class Gates:
    """Release-gate thresholds; None disables a gate."""

    min_mean_judge: float | None = None
    min_pass_rate: float | None = None
    min_mean_match: float | None = None
    on_ci: bool = False
    """Compare the lower 95% bootstrap bound instead of the mean."""

    @property
    def any(self) -> bool:
        return any(
            v is not None for v in (self.min_mean_judge, self.min_pass_rate, self.min_mean_match)
        )


def _status(r: InstanceResult) -> str:
    if r.error is not None:
        return "error"
    if r.skipped is not None:
        return "skipped"
    return "passed" if r.passed else "failed"


def judge_bucket(score: float) -> str:
    """The 1-5 histogram bucket of a (possibly averaged) judge score."""
    return str(min(5, max(1, math.floor(score + 0.5))))


def match_bucket(score: float) -> str:
    """The tenths bucket of a code-match score (``"1.0"`` only for a perfect match)."""
    if score >= 1.0:
        return "1.0"
    return f"{min(9, max(0, math.floor(score * 10 + 1e-9))) / 10:.1f}"


def _ci(values: Sequence[float | None], resamples: int) -> list[float] | None:
    ci = bootstrap_ci(values, resamples=resamples)
    return None if ci is None else [ci[0], ci[1]]


def _group(results: Sequence[InstanceResult]) -> dict[str, Any]:
    scored = [r for r in results if _status(r) in ("passed", "failed")]
    passed = sum(r.passed for r in scored)
    return {
        "items": len(results),
        "scored": len(scored),
        "passed": passed,
        "pass_rate": passed / len(scored) if scored else None,
        "judge_mean": mean([r.judge_score for r in scored]),
        "match_mean": mean([r.code_match for r in scored]),
    }


def _breakdown(results: Sequence[InstanceResult], keys_of: Any) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[InstanceResult]] = {}
    for r in results:
        for key in keys_of(r):
            groups.setdefault(str(key), []).append(r)
    return {k: _group(v) for k, v in sorted(groups.items())}


def build_summary(
    results: Iterable[InstanceResult],
    *,
    gates: Gates | None = None,
    wall_s: float | None = None,
    selected: int | None = None,
    resamples: int = 10_000,
) -> dict[str, Any]:
    """Aggregate item results into the summary dict (the JSON report's ``summary``).

    Args:
        results: One result per instance, in report order.
        gates: Release-gate thresholds to evaluate; None for no gates.
        wall_s: Wall time of the whole run, when known.
        selected: How many items were selected to run (more than ``len(results)`` when
            the run was interrupted, or when some selected items produced no result, e.g.
            skipped by a ``skip`` mark or errored in another fixture before evaluation).
        resamples: Bootstrap resamples for the 95% intervals.

    Returns:
        A dict of plain JSON types; see the module docstring for the conventions.
    """
    results = list(results)
    statuses = Counter(_status(r) for r in results)
    scored = [r for r in results if _status(r) in ("passed", "failed")]
    failed = [r for r in scored if not r.passed]

    judge_values = [r.judge_score for r in scored]
    match_values = [r.code_match for r in scored]
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
        # A failed item left at "none" (e.g. a user test with its own assertion) still
        # failed: count it visibly rather than dropping it.
        mode = "unclassified" if r.failure_mode == "none" else r.failure_mode
        modes[mode] = modes.get(mode, 0) + 1

    gold = [r.gold_code_match for r in scored if r.gold_code_match is not None]
    skip_reasons = Counter(r.skipped for r in results if r.skipped is not None)

    summary: dict[str, Any] = {
        "counts": {
            "selected": selected if selected is not None else len(results),
            "items": len(results),
            "scored": len(scored),
            "passed": statuses["passed"],
            "failed": statuses["failed"],
            "errors": statuses["error"],
            "skipped": statuses["skipped"],
        },
        "pass_rate": (statuses["passed"] / len(scored)) if scored else None,
        "pass_rate_ci": _ci([float(r.passed) for r in scored], resamples),
        "judge": {
            "mean": mean(judge_values),
            "ci": _ci(judge_values, resamples),
            "n": sum(v is not None for v in judge_values),
            "unparseable": sum(v is None for v in judge_values),
            "unparseable_answers": sum(r.judge_unparseable for r in results),
            "histogram": judge_hist,
        },
        "code_match": {
            "mean": mean(match_values),
            "ci": _ci(match_values, resamples),
            "n": sum(v is not None for v in match_values),
            "missing": sum(v is None for v in match_values),
            "histogram": match_hist,
        },
        "gold_code_match": {"mean": mean(gold), "n": len(gold)} if gold else None,
        "failure_modes": modes,
        "infrastructure_errors": statuses["error"],
        "errors": [{"id": r.id, "error": r.error} for r in results if r.error is not None],
        "skipped_reasons": dict(skip_reasons),
        "concluded": sum(r.concluded for r in scored),
        "overconfident": sum(r.overconfident for r in scored),
        "n_queries_mean": mean([float(r.n_queries) for r in scored]),
        "tokens": {
            "prompt": sum(r.tokens.get("prompt", 0) for r in results),
            "completion": sum(r.tokens.get("completion", 0) for r in results),
        },
        "cost_usd": sum(r.cost_usd for r in results),
        "model_calls": sum(r.model_calls for r in results),
        "cache_hits": sum(r.cache_hits for r in results),
        "item_time_s": sum(r.duration_s for r in results),
        "wall_s": wall_s,
        "by_arity": _breakdown(results, lambda r: [r.arity]),
        "by_source": _breakdown(results, lambda r: [r.source]),
        "by_tag": _breakdown(results, lambda r: r.tags),
    }
    verdicts = evaluate_gates(summary, gates or Gates())
    summary["gates"] = verdicts
    summary["gates_passed"] = all(g["passed"] for g in verdicts)
    return summary


#: gate key -> (summary path, human name, option)
GATE_TABLE: dict[str, tuple[tuple[str, ...], str, str]] = {
    "min_mean_judge": (("judge",), "mean judge score", "--pau-min-mean-judge"),
    "min_pass_rate": (("pass_rate",), "pass rate", "--pau-min-pass-rate"),
    "min_mean_match": (("code_match",), "mean code match", "--pau-min-mean-match"),
}


def evaluate_gates(summary: dict[str, Any], gates: Gates) -> list[dict[str, Any]]:
    """Verdicts of the configured release gates on a summary.

    A gate compares the mean (or, with ``gates.on_ci``, the lower bound of its 95%
    interval) with its threshold; it fails when the value is below the threshold or
    cannot be computed (no scored item), since a release is then unverified.

    Returns:
        One dict per configured gate: ``name``, ``label``, ``option``, ``threshold``,
        ``statistic`` (``mean`` or ``ci_low``), ``value``, ``margin`` and ``passed``.
    """
    verdicts = []
    for name, (path, label, option) in GATE_TABLE.items():
        threshold = getattr(gates, name)
        if threshold is None:
            continue
        if name == "min_pass_rate":
            mean_value, ci = summary["pass_rate"], summary["pass_rate_ci"]
        else:
            block = summary[path[0]]
            mean_value, ci = block["mean"], block["ci"]
        value = (ci[0] if ci else None) if gates.on_ci else mean_value
        passed = value is not None and value >= threshold - 1e-12
        verdicts.append(
            {
                "name": name,
                "label": label,
                "option": option,
                "threshold": threshold,
                "statistic": "ci_low" if gates.on_ci else "mean",
                "value": value,
                "margin": None if value is None else value - threshold,
                "passed": passed,
            }
        )
    return verdicts


def render(summary: dict[str, Any], writer: Any, **kwargs: Any) -> None:
    """Draw ``summary`` with ``writer`` (see :func:`pytest_pau.report.render.render`)."""
    from pytest_pau.report.render import render as _render

    _render(summary, writer, **kwargs)
