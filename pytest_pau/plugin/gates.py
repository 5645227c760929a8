"""Release gates inside a pytest run: the exit status, the baseline, the early stop.

* **Exit status.** With a gate set (``--pau-min-*`` or ``--pau-baseline``) and
  ``--pau-exit=gates`` (the default), the gates decide: 0 when all pass, 1 when one fails
  or cannot be measured. PAU items below their thresholds still show as failed (F), as the
  data they are, but do not fail the run; errors (E), failures of the project's other
  tests and collection errors still do. pytest's own statuses 2-4 (interrupted, internal
  error, usage error) are kept. Without a gate, pytest's status stands.
* **Which failures count.** The plugin's item raises :class:`BelowThreshold` when a model
  misses a threshold; the report of that call carries ``pau_below_threshold`` (pytest
  serializes the attribute to the xdist controller). Every other failed report blocks.
* **Stopping every process** is :mod:`pytest_pau.plugin.stop`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_pau.models import InstanceResult
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


def exit_status(state: RunView, exitstatus: int) -> int:
    """The exit status of a run once its summary is built (see the module docstring)."""
    s = state.settings
    summary = state.summary
    kept = (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.NO_TESTS_COLLECTED)
    if exitstatus not in kept or summary is None:
        return exitstatus
    if not s.gated:
        return exitstatus
    if not summary.gates_passed or state.report_error is not None or state.output_errors:
        # A requested output that is missing fails the run whatever the gates say.
        return int(pytest.ExitCode.TESTS_FAILED)
    if s.exit == "items":
        failed = exitstatus == pytest.ExitCode.TESTS_FAILED
        return int(pytest.ExitCode.TESTS_FAILED if failed else pytest.ExitCode.OK)
    return int(pytest.ExitCode.TESTS_FAILED if state.blocking else pytest.ExitCode.OK)


def closing_line(state: RunView, status: int) -> str | None:
    """The last line of a gated run whose gates passed: why the exit status is what it is.

    A shard's gates are not decided (``pau merge --gate`` decides them over all shards):
    its line says so instead of "passed".
    """
    s = state.settings
    summary = state.summary
    if not s.gated or summary is None or not summary.gates_passed:
        return None
    done = (
        "PAU release gates passed"
        if s.shard is None
        else f"PAU shard {s.shard}: release gates left to `pau merge --gate` over all shards"
    )
    below = summary.counts.failed
    if status == 0:
        if not below:
            return f"{done}: exit status 0"
        items = f"{below} item{'s' if below != 1 else ''}"
        return (
            f"{done}: exit status 0 ({items} below their thresholds "
            "count in the gates, not as run failures; --pau-exit=items makes them fail it)"
        )
    if state.report_error is not None or state.output_errors:
        return f"{done}, but a requested output is missing: exit status 1"
    if state.blocking:
        first = state.blocking[0]
        more = f" and {len(state.blocking) - 1} more" if len(state.blocking) > 1 else ""
        return (
            f"{done}, but the run failed: {first}{more} "
            "(an error or another test's failure): exit status 1"
        )
    return None


def decide(state: RunView, results: list[InstanceResult]) -> None:
    """Put the early-stop and baseline verdicts into ``state.summary`` (controller, at the end).

    A shard (``--pau-shard``) decides no gate: its items are a part of the selection, and
    ``pau merge`` decides the gates over all parts through this same function.
    """
    from pytest_pau.models import EarlyStop
    from pytest_pau.stats.gates import baseline_gate

    s = state.settings
    summary = state.summary
    assert summary is not None
    assert state.run_info is not None
    finished = not state.interrupted
    early = state.early
    if early is not None:
        early.finish(complete=finished)
        summary.gates = early.level_verdicts(finished=finished)
    if state.baseline is not None and s.baseline is not None and s.shard is None:
        summary.baseline = baseline_gate(
            state.baseline,
            state.run_info,
            results,
            path=str(s.baseline),
            margins=s.regression_margins(),
            confidence=s.gate_confidence,
            selected_ids=state.selected_ids,
            seed=s.seed,
        )
        if early is not None:
            sequential = early.regression_verdicts(finished=finished)
            summary.baseline.regressions = [
                sequential[r.metric].model_copy(update={"p_difference": r.p_difference})
                for r in summary.baseline.regressions
            ]
    if early is not None:
        reason = state.stop.reason() or ""
        not_run = sum(1 for r in results if r.skipped is not None and r.skipped.endswith(reason))
        ran = [r for r in results if r.skipped is None]
        population = len(early.order)
        summary.early_stop = EarlyStop(
            confidence=s.gate_confidence,
            population=population,
            decided_after=early.decided_after if early.decided_after != population else None,
            not_run=not_run if reason.startswith("--pau-early-stop") else 0,
            cost_usd=summary.cost_usd,
            full_cost_usd=summary.cost_usd / len(ran) * population if ran else None,
        )
    summary.gates_passed = all(g.passed for g in summary.gates) and (
        summary.baseline is None or summary.baseline.passed
    )
