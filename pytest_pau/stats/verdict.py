"""The run's release verdict: one function from the summary to the exit status and why.

:func:`release_verdict` is the one rule: the end of a run
(:func:`pytest_pau.run.end.settle`, for the plugin and ``pau merge`` alike) calls it last and
puts the result in ``summary.verdict`` (what the JSON report, the terminal's closing line,
the HTML report and ``pau show`` read); the run exits with its ``exit_status``. So the report can never say "passed" beside a non-zero exit.

With a release gate set (``--pau-min-*``, ``--pau-baseline``) and ``--pau-exit=gates``:

* a gate that failed fails the run (exit 1); a gate that is not decided on the selection
  (items not run or errored could change it) fails it closed (exit 1, ``not decided``);
* with every gate passed, the run still fails on an errored item, another test's failure,
  a collection error, or a requested output that could not be written;
* ``--pau-exit=items``: every failed item fails the run too.

Without a gate, pytest's own status stands (0 passed; 1 failed; 5 nothing collected: not
decided). pytest's statuses 2-4 (interrupted, internal error, usage error) are kept: the
verdict is then ``not decided``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_pau.models import GateVerdict, RegressionVerdict, Summary, Verdict
from pytest_pau.models.summary import Decision
from pytest_pau.stats import missing

OK, FAILED, INTERRUPTED, INTERNAL_ERROR, USAGE_ERROR, NO_TESTS = 0, 1, 2, 3, 4, 5
_PYTEST_OWN = {
    INTERRUPTED: "the run was interrupted (Ctrl-C or a stop signal): re-run it; finished "
    "items come from the model cache",
    INTERNAL_ERROR: "pytest reported an internal error",
    USAGE_ERROR: "pytest reported a usage error",
}
_LISTED = 3


def _gate_name(g: GateVerdict) -> str:
    return f"{g.option}={g.threshold:g}"


def _regression_name(r: RegressionVerdict) -> str:
    return f"--pau-max-regression {r.metric}:{r.margin:g}"


def gate_reasons(summary: Summary) -> tuple[Decision, list[str]]:
    """The gates' joint status and one reason per gate that did not pass."""
    statuses: list[Decision] = []
    reasons: list[str] = []
    for g in summary.gates:
        statuses.append(g.status)
        if g.status != "passed":
            why = f": {g.detail}" if g.detail else ""
            reasons.append(f"{_gate_name(g)} {g.status}{why}")
    if summary.baseline is not None:
        for r in summary.baseline.regressions:
            statuses.append(r.status)
            if r.status != "passed":
                why = f": {r.detail}" if r.detail else ""
                reasons.append(f"--pau-baseline {_regression_name(r)} {r.status}{why}")
    if "failed" in statuses:
        return "failed", reasons
    return ("not decided" if "not decided" in statuses else "passed"), reasons


def _listed(ids: Sequence[str]) -> str:
    more = f" and {len(ids) - _LISTED} more" if len(ids) > _LISTED else ""
    return ", ".join(ids[:_LISTED]) + more


def item_reasons(summary: Summary) -> list[str]:
    """Errored items, and selected items not run (other than the early stop's skips)."""
    out = []
    errors = [e.id for e in summary.errors]
    if errors:
        out.append(
            f"{len(errors)} item{'s' if len(errors) != 1 else ''} errored ({_listed(errors)})"
        )
    skipped = {k: v for k, v in summary.unknown.items() if k not in ("errored", missing.EARLY_STOP)}
    out.extend(missing.describe(skipped, summary.counts.selected))
    answers = summary.judge.unparseable_answers
    if answers:
        out.append(
            f"{answers} judge answer{'s' if answers != 1 else ''} without a rating (after the "
            "retry); an item with any such sample has no judge score"
        )
    return out


def release_verdict(
    summary: Summary,
    *,
    gated: bool,
    pytest_status: int,
    exit_on: str = "gates",
    blocking: Sequence[str] = (),
    problems: Sequence[str] = (),
) -> Verdict:
    """The run's verdict and exit status (see the module docstring for the rules).

    Args:
        summary: The run's summary, with its gate verdicts decided.
        gated: A release gate is set.
        pytest_status: The exit status pytest would give the run on its own.
        exit_on: ``--pau-exit`` (``gates`` or ``items``).
        blocking: Node ids of failed reports that fail a gated run (errors, other tests'
            failures, collection errors; not a model below its thresholds).
        problems: Other reasons the run fails whatever the gates say (a requested output
            that could not be written).
    """
    gates_status, reasons = gate_reasons(summary)
    items = item_reasons(summary)
    if blocking:
        reasons_blocking = [
            f"{_listed(list(blocking))} failed (an error or another test's failure)"
        ]
    else:
        reasons_blocking = []
    if pytest_status in _PYTEST_OWN:
        every = [_PYTEST_OWN[pytest_status], *reasons, *items, *problems]
        return Verdict(
            status="not decided", exit_status=pytest_status, rule="pytest", reasons=every
        )
    if not gated:
        status = FAILED if problems and pytest_status == OK else pytest_status
        decision: Decision = (
            "passed" if status == OK else ("not decided" if status == NO_TESTS else "failed")
        )
        head = ["no release gate set: pytest's outcomes decide the exit status"]
        if status == NO_TESTS:
            head.append("no test was collected")
        return Verdict(
            status=decision,
            exit_status=status,
            rule="pytest",
            reasons=[*head, *items, *reasons_blocking, *problems],
        )
    if gates_status != "passed":
        return Verdict(
            status=gates_status,
            exit_status=FAILED,
            rule="gates",
            reasons=[*reasons, *items, *reasons_blocking, *problems],
        )
    # Errored items fail a gated run; their reports say so (``blocking``), and a summary
    # without reports (``pau merge``) says it from the counts.
    errored = items[:1] if summary.counts.errors and not blocking else []
    failing = [*reasons_blocking, *errored, *problems]
    if failing:
        return Verdict(
            status="failed",
            exit_status=FAILED,
            rule="gates",
            reasons=[
                "every release gate passed, but the run failed",
                *failing,
                *items[len(errored) :],
            ],
        )
    if exit_on == "items" and pytest_status == FAILED:
        return Verdict(
            status="failed",
            exit_status=FAILED,
            rule="items",
            reasons=["every release gate passed; --pau-exit=items: failed items fail the run"],
        )
    return Verdict(
        status="passed",
        exit_status=OK,
        rule="gates",
        reasons=["every release gate passed", *items],
    )
