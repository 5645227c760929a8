"""Release gates, decided on the selection: level gates and the baseline gate.

A gate is about the N items the user selected. An item of the selection without a score
(not run: budget spent, failure streak, interruption; errored; no result) is *unknown*:
each verdict is computed with every unknown item at the bottom and at the top of its
scale (:mod:`pytest_pau.stats.selection`) and is ``passed`` (whatever they would have
scored), ``failed`` (likewise) or ``not decided`` (the run fails closed and says why).
No combination of missing items can turn a failing selection into a PASS.

A *level gate* (``--pau-min-*``) compares the mean over the selection with a threshold;
with ``--pau-gate-on-ci``, its exact one-sided lower confidence bound at
``--pau-gate-confidence`` (:mod:`pytest_pau.stats.exact`: the betting bound for judge
and code match, Clopper-Pearson for the pass rate), valid from n = 1, which passes only
when the threshold is met beyond noise. An empty selection fails (nothing to show).

The *baseline gate* compares this run with a released model's JSON report, paired on the
selected instances the baseline's report lists: one that either report has no score for
is unknown at both ends of its scale, whichever side lacks it
(:func:`~pytest_pau.stats.selection.paired_verdict`: the exact betting test of
non-inferiority, valid at every n). It passes when this run is *shown*, at the chosen
confidence, to be worse than the baseline by less than the margin, whatever the unknown
scores are. :func:`check_baseline` decides up front whether the two runs can be compared at all. ``--pau-early-stop`` runs the anytime-valid versions of the same
questions instead (:mod:`pytest_pau.stats.early_stop`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pytest_pau.models import (
    AnyReport,
    BaselineSummary,
    GateVerdict,
    InstanceResult,
    RegressionVerdict,
    RunInfo,
    Scored,
    ScoresOnly,
    ScoresReport,
)
from pytest_pau.models.metrics import LEVEL_GATES
from pytest_pau.models.paper import DEFAULT_PROTOCOL
from pytest_pau.stats import missing
from pytest_pau.stats.compare import compare_reports, mismatches, other_tasks, other_tasks_text
from pytest_pau.stats.describe import mean
from pytest_pau.stats.metrics import BOUNDS, METRICS, counts, value_getter
from pytest_pau.stats.selection import (
    SelectionVerdict,
    bound_verdict,
    level_verdict,
    paired_verdict,
)

#: RunInfo fields a baseline must share with the run: scores are not comparable otherwise.
REFUSED_MISMATCHES = (
    "dataset",
    "split",
    "judge_model",
    "coder_model",
    "prompts_version",
    "protocol",
)


@dataclass(frozen=True, kw_only=True)
class Gates:
    """The level gates to decide and how (keywords only)."""

    levels: Mapping[str, float] = dataclasses.field(default_factory=dict)
    """``{gate key: threshold}`` of the gates set (keys of
    :data:`~pytest_pau.models.metrics.LEVEL_GATES`; ``PauSettings.level_gates()``)."""
    on_ci: bool = False
    """Compare the exact one-sided lower confidence bound instead of the mean."""
    confidence: float = 0.95
    """Of that bound (``--pau-gate-confidence``)."""
    protocol: str = DEFAULT_PROTOCOL
    """How items count (``--pau-protocol``; :func:`~pytest_pau.stats.metrics.counted`)."""

    def __post_init__(self) -> None:
        unknown = [k for k in self.levels if k not in LEVEL_GATES]
        if unknown:
            raise ValueError(f"no level gate named {unknown}; gates: {list(LEVEL_GATES)}")

    @property
    def any(self) -> bool:
        return bool(self.levels)


def metric_values(
    results: Iterable[InstanceResult], metric: str, protocol: str = DEFAULT_PROTOCOL
) -> list[float | None]:
    """Each result's value of ``metric`` as ``protocol`` counts it (None: no value)."""
    getter = value_getter(metric, protocol)
    return [getter(r) for r in results]


def selection_values(
    selection: Sequence[str],
    by_id: dict[str, Scored],
    metric: str,
    protocol: str = DEFAULT_PROTOCOL,
) -> tuple[list[float | None], list[Scored | None]]:
    """One value per selected item as ``protocol`` counts it (None: unknown), and the
    items' results (None: none)."""
    getter = value_getter(metric, protocol)
    found = [by_id.get(i) for i in selection]
    return [None if r is None else getter(r) for r in found], found


def unknown_text(values: Sequence[float | None], found: Sequence[Scored | None]) -> str | None:
    """``92 of 96 items not run (budget spent); 2 of 96 items errored`` (None: none)."""
    causes = missing.count(zip(found, values, strict=True))
    return "; ".join(missing.describe(causes, len(values))) or None


def level_gate(
    name: str,
    threshold: float,
    values: Sequence[float | None],
    found: Sequence[Scored | None],
    *,
    on_ci: bool,
    confidence: float,
) -> GateVerdict:
    """One level gate over the selection (``values``: one per selected item, None unknown)."""
    gate = LEVEL_GATES[name]
    metric = gate.metric
    statistic = "ci_low" if on_ci else "mean"
    scored = [v for v in values if v is not None]
    head = GateVerdict(
        name=name,
        label=gate.label,
        option=gate.option,
        threshold=threshold,
        statistic=statistic,
        observed=mean(scored),
        scored=len(scored),
        population=len(values),
        confidence=confidence if on_ci else None,
    )
    if not values:
        return head.model_copy(update={"detail": "no item selected: nothing to measure"})
    verdict: SelectionVerdict
    if on_ci:
        verdict = bound_verdict(
            values,
            threshold=threshold,
            bounds=BOUNDS[metric],
            confidence=confidence,
            binary=metric == "pass",
        )
    else:
        verdict = level_verdict(values, threshold=threshold, bounds=BOUNDS[metric])
    return head.model_copy(
        update={
            "status": verdict.verdict,
            "value": verdict.worst,
            "best": verdict.best if verdict.missing else None,
            "margin": verdict.worst - threshold,
            "passed": verdict.verdict == "passed",
            "detail": unknown_text(values, found),
        }
    )


def evaluate_gates(
    gates: Gates, results: Sequence[InstanceResult], selection: Sequence[str] | None = None
) -> list[GateVerdict]:
    """Verdicts of the configured level gates, about the selection.

    Args:
        gates: The thresholds.
        results: The items' results (any order; one per instance).
        selection: The selected instance ids (the gates are about them); an id without a
            result is unknown. Default: the ids of ``results``.
    """
    by_id: dict[str, Scored] = {r.id: r for r in results}
    ids = list(selection) if selection is not None else list(by_id)
    out = []
    for name, threshold in gates.levels.items():
        values, found = selection_values(ids, by_id, LEVEL_GATES[name].metric, gates.protocol)
        out.append(
            level_gate(
                name, threshold, values, found, on_ci=gates.on_ci, confidence=gates.confidence
            )
        )
    return out


def check_baseline(baseline: AnyReport, run: RunInfo, path: str) -> tuple[list[str], list[str]]:
    """``(refusals, warnings)`` of comparing this run with ``baseline``.

    Refused: another dataset, split, judge, coder, prompts version or protocol (their
    scores mean something else, or count otherwise), or another task under an id both
    runs list (the task digests differ: another version of the dataset). Warned: other settings that change scores (mode, iterations,
    thresholds).
    """
    current = ScoresReport(run=run, instances=[])
    found = mismatches([baseline, current], ["baseline", "this run"])
    refusals, warnings = [], []
    differ, common = other_tasks(baseline, current)
    if differ:
        refusals.append(
            f"--pau-baseline={path}: {other_tasks_text(differ, common)} in the baseline; make "
            "the baseline on this version of the dataset"
        )
    elif not baseline.run.instance_digests:
        warnings.append(
            "--pau-baseline: the baseline report keeps no task digests (written by an older "
            "pytest-pau): that its instances are the same tasks as this run's was not checked"
        )
    for field, text in found.items():
        if field in REFUSED_MISMATCHES:
            refusals.append(f"--pau-baseline={path}: {text}")
        else:
            warnings.append(f"--pau-baseline: {text}; the comparison may reflect that")
    return refusals, warnings


def side_text(
    label: str, values: Sequence[float | None], found: Sequence[Scored | None]
) -> str | None:
    """``this run: 40 of 100 items errored`` (None: every item of that side has a value)."""
    text = unknown_text(values, found)
    return None if text is None else f"{label}: {text}"


def regression_gate(
    metric: str,
    margin: float,
    pairs: Sequence[tuple[Scored | None, Scored]],
    *,
    confidence: float,
    protocol: str = DEFAULT_PROTOCOL,
) -> RegressionVerdict:
    """One metric's baseline gate over the paired population.

    The population is every selected item the baseline's report lists. An item either
    side has no score for (not run, errored, no rating) is unknown at both ends of its
    scale, whichever side lacks it: the gate is ``passed`` only if it passes whatever
    those scores are, ``failed`` if it fails whatever they are, else ``not decided``.

    Args:
        metric: ``judge``, ``match`` or ``pass``.
        margin: The allowed regression.
        pairs: ``(this run's result or None, the baseline's result)`` per selected item
            the baseline lists.
        confidence: Of the one-sided test.
        protocol: How items count (the baseline's is the same: mixing is refused).
    """
    getter = value_getter(metric, protocol)
    head = RegressionVerdict(
        metric=metric, label=METRICS[metric][0], margin=margin, population=len(pairs)
    )
    if not pairs:
        return head.model_copy(update={"detail": "no instance of this run is in the baseline"})
    new_found = [r for r, _ in pairs]
    base_found: list[Scored | None] = [b for _, b in pairs]
    new = [None if r is None else getter(r) for r in new_found]
    base = [getter(b) for _, b in pairs]
    found = paired_verdict(new, base, margin=margin, bounds=BOUNDS[metric], confidence=confidence)
    fields: dict[str, object] = {
        **dataclasses.asdict(found),
        "method": "exact non-inferiority",
        "passed": found.status == "passed",
    }
    why = [
        t
        for t in (
            side_text("this run", new, new_found),
            side_text("the baseline", base, base_found),
        )
        if t is not None
    ]
    fields["detail"] = "; ".join(why) or None
    return head.model_copy(update=fields)


def baseline_gate(
    baseline: AnyReport,
    run: RunInfo,
    results: Sequence[InstanceResult],
    *,
    path: str,
    margins: dict[str, float],
    confidence: float,
    selected_ids: Iterable[str] = (),
) -> BaselineSummary:
    """Compare this run with ``baseline``, paired, and decide each margin's gate.

    Args:
        baseline: The released model's report.
        run: This run's ``run`` block.
        results: This run's item results.
        path: Where the baseline came from (for messages).
        margins: ``{metric: allowed regression}``.
        confidence: Of the one-sided test.
        selected_ids: The instances this run selected: the gate is about those the
            baseline scored (default: the ids of ``results``).
    """
    current = ScoresReport(
        run=run,
        instances=[ScoresOnly.model_validate(r, from_attributes=True) for r in results],
    )
    out = BaselineSummary(path=path, model=baseline.run.model, confidence=confidence)
    out.warnings = check_baseline(baseline, run, path)[1]
    base_ids: dict[str, Scored] = {r.id: r for r in baseline.instances}
    by_id: dict[str, Scored] = {r.id: r for r in results}
    selection = list(dict.fromkeys(selected_ids)) or list(by_id)
    protocol = run.protocol
    here = {i for i, r in by_id.items() if counts(r, protocol)}
    out.only_here = [r.id for r in results if r.id in here and r.id not in base_ids]
    out.only_baseline = [
        i for i in selection if i in base_ids and counts(base_ids[i], protocol) and i not in here
    ]
    population = [i for i in selection if i in base_ids]
    for metric, margin in margins.items():
        pairs = [(by_id.get(i), base_ids[i]) for i in population]
        out.regressions.append(
            regression_gate(metric, margin, pairs, confidence=confidence, protocol=protocol)
        )
    if current.instances and any(r.id in base_ids for r in current.instances):
        comp = compare_reports([baseline, current], confidence=confidence)
        out.shared = comp.shared
        out.pass_to_fail = comp.flips[0].pass_to_fail
        out.fail_to_pass = comp.flips[0].fail_to_pass
        flips = {block.metric: block.pairs[0].p_sign_flip for block in comp.metrics}
        for reg in out.regressions:
            reg.p_difference = flips.get(reg.metric)
    return out
