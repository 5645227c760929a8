"""Release gates inside a pytest run: the verdict, the exit status, the baseline, the early stop.

* **The verdict.** :func:`settle` builds the run's one :class:`~pytest_pau.models.Verdict`
  with :func:`pytest_pau.stats.verdict.release_verdict` (the rules are there) and puts it
  in the summary before any report is written; the exit status is its ``exit_status``,
  and the JSON report, the HTML report, the closing line and ``pau show`` read it.
* **The selection.** The gates are about the selected items, minus those a skip mark (or
  a skip in the user's own fixture) took out: :func:`selection`.
* **Which failures count.** The plugin's item raises :class:`BelowThreshold` when a model
  misses a threshold; the report of that call carries ``pau_below_threshold`` (pytest
  serializes the attribute to the xdist controller). Every other failed report blocks.
* **A shard decides no gate** (``--pau-shard=K/N``): its verdict is ``not decided`` with
  rule ``shard``, and its exit status fails only for what fails any gated run (an errored
  item, another test's failure, a missing output); ``pau merge --gate`` decides the gates
  over all shards. ``pau merge`` runs :func:`decide` and :func:`settle` on the merged run.
* **Stopping every process** is :mod:`pytest_pau.plugin.stop`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_pau.models import InstanceResult, Verdict
    from pytest_pau.plugin.state import RunView


class BelowThreshold(pytest.fail.Exception):  # type: ignore[misc,name-defined]
    """A PAU item's model missed a threshold: data for the gates, not a run failure."""


# Shown as pytest shows its own outcome, so that the short summary reads
# "FAILED ... - Failed: toy/tricky: judge score 2 < 3" exactly as for any failed item.
BelowThreshold.__module__ = "builtins"
BelowThreshold.__qualname__ = BelowThreshold.__name__ = "Failed"


def blocks(report: pytest.TestReport | pytest.CollectReport) -> bool:
    """Whether a failed report fails a gated run (everything but a model below threshold)."""
    return bool(report.failed) and not getattr(report, "pau_below_threshold", False)


def selection(state: RunView, results: list[InstanceResult]) -> list[str]:
    """The selected instances the gates are about, in run order: an item skipped by a mark
    (the user's choice) is not part of it; one that has a result always is."""
    done = {r.id for r in results}
    return [i for i in state.selected_ids if i in done or i not in state.user_skipped]


def settle(state: RunView, pytest_status: int, *, empty_part: bool = False) -> Verdict:
    """Decide the run's verdict (and exit status) and put it into ``state.summary``.

    ``empty_part``: a shard that none of the selected instances fell in (pytest's "no tests
    ran" is then no failure: the merge still needs its report).
    """
    from pytest_pau.models import Verdict
    from pytest_pau.stats.verdict import FAILED, NO_TESTS, OK, release_verdict

    s = state.settings
    summary = state.summary
    assert summary is not None
    problems = [*([state.report_error] if state.report_error else []), *state.output_errors]
    if empty_part and pytest_status == NO_TESTS:
        pytest_status = OK
    verdict = release_verdict(
        summary,
        gated=s.gated,
        pytest_status=pytest_status,
        exit_on=s.exit,
        blocking=[_named(nodeid, state.selected_ids) for nodeid in state.blocking],
        problems=problems,
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
    retried = getattr(state, "retry_selection", None)  # a merged run is never a retry
    if retried and s.gated and verdict.rule == "gates":
        # A retry narrowed by pytest's cache decides no gate: never "passed" on the items
        # that failed last time alone (plugin/retry.py).
        failed = verdict.status == "failed"
        verdict = Verdict(
            status="failed" if failed else "not decided",
            exit_status=FAILED,
            rule="gates",
            reasons=[retried if failed else f"not decided: {retried}", *verdict.reasons],
        )
    summary.verdict = verdict
    # Never "passed" beside a non-zero exit status (True without a gate, as ever).
    summary.gates_passed = verdict.status == "passed" if s.gated else True
    return verdict


def _named(nodeid: str, selected: list[str]) -> str:
    """A PAU item's node id as its instance id (``toy/boom``), the way ``pau merge`` names
    it too; any other test's node id as it is."""
    if nodeid.endswith("]") and "[" in nodeid:
        param = nodeid[nodeid.index("[") + 1 : -1]
        if param in selected:
            return param
    return nodeid


def decide(state: RunView, results: list[InstanceResult]) -> None:
    """Put the early-stop and baseline verdicts into ``state.summary`` (controller, at the end)."""
    from pytest_pau.models import EarlyStop, SkipCause
    from pytest_pau.stats.gates import baseline_gate

    s = state.settings
    summary = state.summary
    assert summary is not None
    assert state.run_info is not None
    early = state.early
    if early is not None:
        early.finish()
        summary.gates = early.level_verdicts()
    if state.baseline is not None and s.baseline is not None and s.shard is None:
        summary.baseline = baseline_gate(
            state.baseline,
            state.run_info,
            results,
            path=str(s.baseline),
            margins=s.regression_margins(),
            confidence=s.gate_confidence,
            selected_ids=selection(state, results),
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
