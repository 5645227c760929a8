"""The end of a run: its results and settings in, the settled summary and verdict out.

:func:`settle` is the one place a run's figures, gate verdicts and exit status are decided,
in one pass, without pytest: the plugin (:func:`pytest_pau.plugin.finish.finish`) and
``pau merge`` (over the shards' items) both call it, and nothing changes the summary it
returns. What it reads is :class:`RunEnd`, everything the run already knows: the results,
the selection, the baseline's report, the early stop's tracker, the calibration line,
pytest's own status, the failed reports and the problems (a requested output that could
not be written).

In order: the summary (:func:`pytest_pau.report.summary.build_summary`, the level gates
about the selection), the early stop's verdicts in place of the level gates', the baseline
gate, the early stop's block, the judge check (judge-based gates not decided when it shows
the judge blind), the calibration line, and last the verdict
(:func:`pytest_pau.stats.verdict.release_verdict`), which a shard (its gates are left to
``pau merge --gate``) and a narrowed retry (``--lf``/``--sw``: never ``passed``) qualify.

A shard decides no gate: its items are a part of the selection, and ``pau merge`` decides
the gates over all of them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pau.models import (
        Calibration,
        InstanceResult,
        RunInfo,
        ScoresReport,
        Summary,
        Verdict,
    )
    from pytest_pau.settings import PauSettings
    from pytest_pau.stats.early_stop import EarlyStopTracker


@dataclass(frozen=True, kw_only=True)
class RunEnd:
    """What the end of a run decides from: all of it known, nothing read from elsewhere."""

    settings: PauSettings
    results: Sequence[InstanceResult]
    """The items' results, in run order."""
    run_info: RunInfo
    """The report's ``run`` block (the baseline gate checks it against the baseline's)."""
    selected_ids: Sequence[str] = ()
    """The selected instances, in run order (empty: the results' ids)."""
    selected: int = 0
    """How many were selected (at least the results)."""
    user_skipped: Collection[str] = frozenset()
    """Instances a skip mark took out of the selection (the user's choice)."""
    wall_s: float | None = None
    baseline: ScoresReport | None = None
    """``--pau-baseline``'s report, read and checked before any item."""
    early: EarlyStopTracker | None = None
    """``--pau-early-stop``'s tracker (finished here)."""
    calibration: Calibration | None = None
    """The calibration line (an embedded judge or coder), worked out from the store."""
    pytest_status: int = 0
    """The exit status pytest would give the run on its own."""
    blocking: Sequence[str] = ()
    """Node ids (or instance ids) of failed reports that fail a gated run."""
    problems: Sequence[str] = ()
    """Other reasons the run fails whatever the gates say (a requested output missing)."""
    empty_part: bool = False
    """A shard that no selected instance fell in (pytest's "no tests ran" is no failure)."""
    retry_selection: str | None = None
    """Why a narrowed retry decides no gate (:mod:`pytest_pau.plugin.narrowed_retry`), or None."""


def selection(end: RunEnd) -> list[str]:
    """The selected instances the gates are about, in run order: an item skipped by a mark
    (the user's choice) is not part of it; one that has a result always is."""
    done = {r.id for r in end.results}
    return [i for i in end.selected_ids if i in done or i not in end.user_skipped]


def settle(end: RunEnd) -> Summary:
    """The run's summary with every gate verdict and the verdict decided (see the module)."""
    # Imported here: numpy is not worth loading in runs that never get this far.
    from pytest_pau.models.paper import PAPER
    from pytest_pau.report.summary import build_summary
    from pytest_pau.stats.gates import Gates
    from pytest_pau.stats.judge_check import withhold_judge_gates

    s = end.settings
    results = list(end.results)
    gates = (
        Gates(
            levels=s.level_gates(),
            on_ci=s.gate_on_ci,
            confidence=s.gate_confidence,
            protocol=s.protocol,
        )
        if s.shard is None
        else Gates(protocol=s.protocol)
    )
    summary = build_summary(
        results,
        gates=gates,
        wall_s=end.wall_s,
        selected=max(end.selected, len(results)),
        max_cost_usd=s.budget_share(),
        selection=selection(end) if end.selected_ids else None,
        protocol=s.protocol,
    )
    _decide(end, summary, results)
    _unchecked(end, summary)
    if s.protocol != PAPER:
        # The judge check: judge-based gates are not decided when it shows the judge blind
        # (under the paper's protocol its line is shown and the paper's counting decides).
        withhold_judge_gates(summary)
    summary.calibration = end.calibration
    verdict = _verdict(end, summary)
    summary.verdict = verdict
    # Never "passed" beside a non-zero exit status (True without a gate, as ever).
    summary.gates_passed = verdict.status == "passed" if s.gated else True
    return summary


def _unchecked(end: RunEnd, summary: Summary) -> None:
    """A run with the judge check on whose sampled items reached none of it (each errored,
    was skipped or got no rating) says so: its judge check rated nothing, rather than no
    line and judge gates decided by a judge nothing checked. Not in a shard (the merged run
    decides; a shard may hold none of the sample)."""
    from pytest_pau.models.judge_check import JudgeCheck
    from pytest_pau.scoring.decoy import check_sample

    s = end.settings
    size = s.judge_check_size()
    if summary.judge_check is not None or size == 0 or s.shard is not None or not end.results:
        return
    ids = selection(end) if end.selected_ids else [r.id for r in end.results]
    summary.judge_check = JudgeCheck(sampled=len(check_sample(ids, size, seed=s.seed)))


def _decide(end: RunEnd, summary: Summary, results: list[InstanceResult]) -> None:
    """The early stop's verdicts and the baseline gate, into the summary being built."""
    from pytest_pau.models import EarlyStop, SkipCause
    from pytest_pau.stats.gates import baseline_gate

    s = end.settings
    early = end.early
    if early is not None:
        early.finish()
        summary.gates = early.level_verdicts()
    if end.baseline is not None and s.baseline is not None and s.shard is None:
        summary.baseline = baseline_gate(
            end.baseline,
            end.run_info,
            results,
            path=str(s.baseline),
            margins=s.regression_margins(),
            confidence=s.gate_confidence,
            selected_ids=selection(end),
        )
        if early is not None:
            sequential = early.regression_verdicts()
            summary.baseline.regressions = [
                sequential[r.metric].model_copy(update={"p_difference": r.p_difference})
                for r in summary.baseline.regressions
            ]
    if early is not None:
        not_run = [r for r in results if r.skip_cause == SkipCause.EARLY_STOP]
        ran = [r for r in results if r.skipped is None]
        population = len(early.order)
        summary.early_stop = EarlyStop(
            confidence=s.gate_confidence,
            population=population,
            decided_after=early.decided_after if early.decided_after != population else None,
            not_run=len(not_run),
            ran=len(ran),
            cost_usd=summary.cost_usd,
            full_cost_usd=summary.cost_usd / len(ran) * population if ran else None,
        )


def _verdict(end: RunEnd, summary: Summary) -> Verdict:
    """The run's verdict and exit status (the rules: :mod:`pytest_pau.stats.verdict`)."""
    from pytest_pau.models import Verdict
    from pytest_pau.stats.verdict import FAILED, NO_TESTS, OK, release_verdict

    s = end.settings
    pytest_status = end.pytest_status
    if end.empty_part and pytest_status == NO_TESTS:
        pytest_status = OK
    verdict = release_verdict(
        summary,
        gated=s.gated,
        pytest_status=pytest_status,
        exit_on=s.exit,
        blocking=[_named(nodeid, end.selected_ids) for nodeid in end.blocking],
        problems=list(end.problems),
    )
    if s.shard is not None and s.gated and verdict.rule == "gates":
        # No gate was computed on a part: say who decides, and fail only for what fails
        # any gated run (the reasons release_verdict gave besides the gates).
        left = f"shard {s.shard}: release gates left to `pau merge --gate` over all shards"
        failing = verdict.status == "failed"
        verdict = Verdict(
            status="failed" if failing else "not decided",
            exit_status=verdict.exit_status,
            rule="shard",
            reasons=[left, *(r for r in verdict.reasons if r != "every release gate passed")],
        )
    retried = end.retry_selection
    if retried and s.gated and verdict.rule == "gates":
        # A retry narrowed by pytest's cache decides no gate: never "passed" on the items
        # that failed last time alone (plugin/narrowed_retry.py).
        failed = verdict.status == "failed"
        verdict = Verdict(
            status="failed" if failed else "not decided",
            exit_status=FAILED,
            rule="gates",
            reasons=[retried if failed else f"not decided: {retried}", *verdict.reasons],
        )
    return verdict


def _named(nodeid: str, selected: Sequence[str]) -> str:
    """A PAU item's node id as its instance id (``toy/boom``), the way ``pau merge`` names
    it too; any other test's node id as it is."""
    if nodeid.endswith("]") and "[" in nodeid:
        param = nodeid[nodeid.index("[") + 1 : -1]
        if param in selected:
            return param
    return nodeid
