"""The one way in for results: how an item's result enters the run (the controller, or the
single process), and what the early stop hears of it.

Every result enters through :func:`take` (a scored or skipped item's, an episode's that
finished ahead of pytest, a crashed worker's), which feeds the early stop once per item.
Results travel from workers as the ``pau_result`` attribute of a ``TestReport`` (a JSON
string, which pytest's report serialization carries; :func:`record` reads it), so
gathering is the same with or without ``-n``. :func:`ended` sees every report (what fails a
gated run, items without a result); :func:`count_selected` fixes the selection and starts
the early stop. These functions read and write a :class:`~pytest_pau.plugin.state.PauRun`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from pytest_pau.models import InstanceResult, Skip, SkipCause

if TYPE_CHECKING:
    import pytest

    from pytest_pau.plugin.state import PauRun


def record(run: PauRun, data: str) -> None:
    """Take one item's result from its report (:func:`take`).

    A result whose score is none (NaN, out of its scale: a hook or a test changed it
    after scoring) is refused: the item counts as errored, saying which field.
    """
    try:
        result = InstanceResult.model_validate_json(data)
    except ValidationError as exc:
        result = refused_result(data, exc)
    take(run, result)


def take(run: PauRun, result: InstanceResult) -> None:
    """The one way a result enters the run (the controller, or the single process).

    In one process an episode's result arrives twice: from its thread when it is made
    (so the early stop hears of it before pytest reaches the item), then from the
    item's report, whose result (a hook may have changed it) replaces the first. The
    early stop is fed the first only. Called from pytest's thread and the episode
    threads; once the run has ended (:func:`stop_taking`), a result an episode's thread
    makes later is left out, as the summary is being made of what came before.
    """
    with run.intake.lock:
        if run.intake.taken_all:
            return
        run.intake.results[result.id] = result
    _feed_once(run, result.id, result)


def stop_taking(run: PauRun) -> None:
    """The run has ended: no further result enters it."""
    with run.intake.lock:
        run.intake.taken_all = True


def no_result(run: PauRun, instance_id: str) -> None:
    """An item ended without a result (skipped by a mark, errored before evaluation):
    the early stop counts it as unknown, unless its result came first."""
    _feed_once(run, instance_id, None)


def ended(run: PauRun, report: pytest.TestReport | pytest.CollectReport) -> None:
    """Every report on the controller: what fails a gated run; items without a result."""
    from pytest_pau.plugin.blocking import blocks

    if blocks(report):
        run.intake.blocking.append(report.nodeid)
    elif getattr(report, "pau_below_threshold", False):
        run.intake.below_threshold.append(report.nodeid)
    if report.skipped and getattr(report, "when", None) == "setup":
        instance_id = run.instance_id(report.nodeid)
        if instance_id is not None and instance_id not in run.intake.results:
            run.intake.user_skipped.add(instance_id)
    if getattr(report, "when", None) == "teardown":
        instance_id = run.instance_id(report.nodeid)
        if instance_id is not None and instance_id not in run.intake.results:
            no_result(run, instance_id)  # skipped by a mark, or errored before


def _feed_once(run: PauRun, instance_id: str, result: InstanceResult | None) -> None:
    """The early stop hears of each item once: its first result, or that it had none."""
    if run.intake.early is None:
        return
    with run.intake.lock:
        if instance_id in run.intake.fed:
            return
        run.intake.fed.add(instance_id)
        decided = run.intake.early.add(instance_id, result)
    if decided:
        n, total = run.intake.early.decided_after, len(run.intake.early.order)
        run.stop.request(
            Skip(
                SkipCause.EARLY_STOP,
                f"--pau-early-stop: every gate was decided after {n} of {total} items",
            )
        )
    else:
        look_ahead(run)


def look_ahead(run: PauRun) -> None:
    """Let items start only as far into the seeded order as the next decision could
    need: the fed prefix plus the fewest further items that could decide every gate
    (at most what the run keeps in flight)."""
    if run.intake.early is None:
        return
    try:
        workers = max(1, int(getattr(run.config.option, "numprocesses", 0) or 1))
    except (TypeError, ValueError):  # "auto" before xdist resolved it
        workers = 1
    limit = max(1, run.settings.episodes_in_flight() * workers)
    with run.intake.lock:
        allowed = run.intake.early.fed + run.intake.early.window(limit)
    run.stop.allow(allowed)


def count_selected(run: PauRun, ids: list[str]) -> None:
    """The distinct instances among the selected item ids, in the order they run."""
    found = [i for nodeid in ids if (i := run.instance_id(nodeid)) is not None]
    run.selected_ids = list(dict.fromkeys(found))
    run.position = {i: k for k, i in enumerate(run.selected_ids)}
    run.selected = len(run.selected_ids)
    s = run.settings
    if s.early_stop and run.intake.early is None and not run.is_worker:
        from pytest_pau.stats.early_stop import EarlyStopTracker

        run.intake.early = EarlyStopTracker(
            run.selected_ids,
            levels=s.level_gates(),
            margins=s.regression_margins(),
            baseline={r.id: r for r in run.baseline.instances} if run.baseline else None,
            confidence=s.gate_confidence,
            on_ci=s.gate_on_ci,
            protocol=s.protocol,
        )
        look_ahead(run)


def refused_result(data: str, exc: ValidationError) -> InstanceResult:
    """An errored result in place of one whose scores do not validate (named, with values)."""
    import json

    raw = json.loads(data)  # Python's reader takes NaN, which the report carries as such
    problems = "; ".join(
        f"{'.'.join(str(x) for x in e.get('loc', ()))} {e.get('input')!r}: {e.get('msg')}"
        for e in exc.errors()
    )
    return InstanceResult(
        id=str(raw.get("id", "?")),
        source=str(raw.get("source", "?")),
        arity=int(raw.get("arity", 0) or 0),
        tags=[str(t) for t in raw.get("tags", [])],
        error=f"ScoreError: the item's result was refused: {problems}",
        cost_usd=float(raw.get("cost_usd", 0.0) or 0.0),
    )
