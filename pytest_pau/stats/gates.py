"""Release gates: level gates (``--pau-min-*``) and the baseline gate (``--pau-baseline``).

A *level gate* asks whether a metric's mean over the scored items reaches a threshold:
the plain mean, or with ``--pau-gate-on-ci`` its one-sided lower confidence bound at
``--pau-gate-confidence`` (:func:`~pytest_pau.stats.inference.mean_interval` at
``2 c - 1``, so that only the lower tail counts), which passes only when the threshold is
met beyond noise. A gate that cannot be measured (no scored item) fails: the release is
then unverified.

The *baseline gate* compares this run with a released model's JSON report, paired on the
instances both scored, by the non-inferiority test of
:func:`~pytest_pau.stats.inference.non_inferiority` per metric: it passes when this run
is *shown*, at the chosen confidence, to be worse than the baseline by less than the
margin. :func:`check_baseline` decides up front whether the two runs can be compared at
all. ``--pau-early-stop`` replaces both tests by anytime-valid ones
(:mod:`pytest_pau.stats.early_stop`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_pau.models import (
    AnyReport,
    BaselineSummary,
    GateVerdict,
    InstanceResult,
    RegressionVerdict,
    RunInfo,
    ScoresOnly,
    ScoresReport,
    Summary,
)
from pytest_pau.models.paper import DEFAULT_PROTOCOL
from pytest_pau.stats.compare import compare_reports, mismatches
from pytest_pau.stats.inference import mean_interval
from pytest_pau.stats.metrics import BOUNDS, METRICS, counts, value_getter

#: gate key -> (human name, option, metric)
GATE_TABLE: dict[str, tuple[str, str, str]] = {
    "min_mean_judge": ("mean judge score", "--pau-min-mean-judge", "judge"),
    "min_pass_rate": ("pass rate", "--pau-min-pass-rate", "pass"),
    "min_mean_match": ("mean code match", "--pau-min-mean-match", "match"),
}
#: RunInfo fields a baseline must share with the run: scores are not comparable otherwise.
REFUSED_MISMATCHES = (
    "dataset",
    "split",
    "judge_model",
    "coder_model",
    "prompts_version",
    "protocol",
)


@dataclass(frozen=True)
class Gates:
    """Release-gate thresholds; None disables a gate."""

    min_mean_judge: float | None = None
    min_pass_rate: float | None = None
    min_mean_match: float | None = None
    on_ci: bool = False
    """Compare the one-sided lower confidence bound instead of the mean."""
    confidence: float = 0.95
    """Of that bound (``--pau-gate-confidence``)."""
    protocol: str = DEFAULT_PROTOCOL
    """How items count (``--pau-protocol``; :func:`~pytest_pau.stats.metrics.counted`)."""

    @property
    def any(self) -> bool:
        return bool(self.levels())

    def levels(self) -> dict[str, float]:
        """``{gate key: threshold}`` of the gates that are set."""
        return {k: v for k in GATE_TABLE if (v := getattr(self, k)) is not None}


def metric_values(
    results: Iterable[InstanceResult], metric: str, protocol: str = DEFAULT_PROTOCOL
) -> list[float | None]:
    """Each result's value of ``metric`` as ``protocol`` counts it (None: no value)."""
    getter = value_getter(metric, protocol)
    return [getter(r) for r in results]


def evaluate_gates(
    summary: Summary, gates: Gates, results: Sequence[InstanceResult] = ()
) -> list[GateVerdict]:
    """Verdicts of the configured level gates.

    Args:
        summary: The run's summary (means).
        gates: The thresholds.
        results: The items (for ``on_ci``'s one-sided bound).
    """
    verdicts = []
    for name, threshold in gates.levels().items():
        label, option, metric = GATE_TABLE[name]
        if gates.on_ci:
            interval = mean_interval(
                metric_values(results, metric, gates.protocol),
                bounds=BOUNDS[metric],
                confidence=2.0 * gates.confidence - 1.0,
            )
            value = None if interval is None else interval.low
        else:
            value = _mean_of(summary, metric)
        verdicts.append(
            GateVerdict(
                name=name,
                label=label,
                option=option,
                threshold=threshold,
                statistic="ci_low" if gates.on_ci else "mean",
                value=value,
                margin=None if value is None else value - threshold,
                passed=value is not None and value >= threshold - 1e-12,
                detail=f"{gates.confidence:.0%} lower confidence bound" if gates.on_ci else None,
            )
        )
    return verdicts


def _mean_of(summary: Summary, metric: str) -> float | None:
    if metric == "pass":
        return summary.pass_rate
    return summary.judge.mean if metric == "judge" else summary.code_match.mean


def check_baseline(baseline: AnyReport, run: RunInfo, path: str) -> tuple[list[str], list[str]]:
    """``(refusals, warnings)`` of comparing this run with ``baseline``.

    Refused: another dataset, split, judge, coder, prompts version or protocol (their
    scores mean something else, or count otherwise). Warned: other settings that change scores (mode, iterations,
    thresholds).
    """
    current = ScoresReport(run=run, instances=[])
    found = mismatches([baseline, current], ["baseline", "this run"])
    refusals, warnings = [], []
    for field, text in found.items():
        if field in REFUSED_MISMATCHES:
            refusals.append(f"--pau-baseline={path}: {text}")
        else:
            warnings.append(f"--pau-baseline: {text}; the comparison may reflect that")
    return refusals, warnings


def baseline_gate(
    baseline: AnyReport,
    run: RunInfo,
    results: Sequence[InstanceResult],
    *,
    path: str,
    margins: dict[str, float],
    confidence: float,
    selected_ids: Iterable[str] = (),
    seed: int = 0,
) -> BaselineSummary:
    """Compare this run with ``baseline``, paired, and decide each margin's gate.

    Args:
        baseline: The released model's report.
        run: This run's ``run`` block.
        results: This run's item results.
        path: Where the baseline came from (for messages).
        margins: ``{metric: allowed regression}``.
        confidence: Of the one-sided test.
        selected_ids: The instances this run selected (to list the baseline's instances
            that got no score here).
        seed: Of the paired sign-flip test's randomisation.
    """
    current = ScoresReport(
        run=run,
        instances=[ScoresOnly.model_validate(r, from_attributes=True) for r in results],
    )
    out = BaselineSummary(path=path, model=baseline.run.model, confidence=confidence)
    out.warnings = check_baseline(baseline, run, path)[1]
    base_ids = {r.id: r for r in baseline.instances}
    protocol = run.protocol
    here = {r.id for r in results if counts(r, protocol)}
    out.only_here = [r.id for r in results if counts(r, protocol) and r.id not in base_ids]
    out.only_baseline = [
        i
        for i in dict.fromkeys(selected_ids)
        if i in base_ids and counts(base_ids[i], protocol) and i not in here
    ]
    if not current.instances or not any(r.id in base_ids for r in current.instances):
        out.regressions = [
            RegressionVerdict(
                metric=m,
                label=METRICS[m][0],
                margin=margin,
                detail="no instance of this run is in the baseline",
            )
            for m, margin in margins.items()
        ]
        return out
    comp = compare_reports([baseline, current], margins=margins, confidence=confidence, seed=seed)
    out.shared = comp.shared
    out.pass_to_fail = comp.flips[0].pass_to_fail
    out.fail_to_pass = comp.flips[0].fail_to_pass
    for block in comp.metrics:
        for reg in block.regressions:
            pair = block.pairs[0]
            out.regressions.append(
                RegressionVerdict(
                    metric=block.metric,
                    label=block.name,
                    margin=reg.margin,
                    n=reg.n,
                    mean_diff=reg.mean_diff,
                    low=reg.lower_bound,
                    high=reg.upper_bound,
                    p_value=reg.p_value,
                    p_difference=pair.p_value,
                    passed=reg.passed,
                    detail=None if reg.n else "no instance scored in both runs",
                )
            )
    return out
