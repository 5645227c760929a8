"""Why an item was not run is data (:class:`~pytest_pau.models.SkipCause`), not words.

The verdicts, the early stop's count and the summary's unknown causes read the cause set
where the skip was decided; the words of the message are for people and may change.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_pau.models import InstanceResult, ScoresOnly, Skip, SkipCause
from pytest_pau.stats import missing
from pytest_pau.stats.early_stop import EarlyStopTracker


def _item(i: int, **kw: Any) -> InstanceResult:
    return InstanceResult(id=f"s/{i}", source="s", arity=1, **kw)


def test_every_cause_has_its_name_in_a_verdict() -> None:
    assert set(missing.NOT_RUN) == set(SkipCause)
    assert len(set(missing.NOT_RUN.values())) == len(SkipCause)


@pytest.mark.parametrize("words", ["budget spent", "--pau-early-stop decided it", "", "ünïcode"])
def test_the_cause_decides_whatever_the_words(words: str) -> None:
    budget = _item(0, skipped=words, skip_cause=SkipCause.BUDGET)
    assert missing.cause(budget, None) == "not run (budget spent)"
    early = _item(1, skipped=words, skip_cause=SkipCause.EARLY_STOP)
    assert missing.cause(early, None) == missing.EARLY_STOP
    counted = missing.count([(budget, None), (early, None), (_item(2, judge_score=3.0), 3.0)])
    assert counted == {"not run (budget spent)": 1, missing.EARLY_STOP: 1}


def test_a_result_keeps_its_cause_through_json() -> None:
    skip = Skip(SkipCause.STREAK, "words that name no cause")
    result = InstanceResult.model_validate_json(
        InstanceResult.not_run(
            SimpleNamespace(id="s/1", source="s", arity=1, tags=[], description="d"),  # type: ignore[arg-type]
            skip,
        ).model_dump_json()
    )
    assert (result.skipped, result.skip_cause) == (skip.reason, SkipCause.STREAK)
    assert missing.cause(result, None) == "not run (failure streak)"


@pytest.mark.parametrize(
    ("words", "cause"),
    [
        ("not run: --pau-early-stop: every gate was decided after 3 of 9 items", "early_stop"),
        ("budget --pau-max-cost-usd spent: x", "budget"),
        ("not started: 3 items in a row failed with the same error, which ...", "streak"),
        ("not run: interrupted: Ctrl-C on the controller", "interrupted"),
        ("not run: pytest stopped the run (exiting after 1 failure)", "pytest_stopped"),
        ("not judged: no judge eval file", "not_run"),
    ],
)
def test_an_older_report_is_read_with_the_cause_its_words_name(words: str, cause: str) -> None:
    old = {"id": "s/1", "source": "s", "arity": 1, "skipped": words}  # no skip_cause field
    assert InstanceResult.model_validate_json(json.dumps(old)).skip_cause == cause
    assert ScoresOnly.model_validate(old).skip_cause == cause
    # A report that has the field is read as it says, whatever the words.
    new = {**old, "skip_cause": "budget"}
    assert InstanceResult.model_validate(new).skip_cause == SkipCause.BUDGET


def test_the_early_stop_counts_items_by_cause_not_words() -> None:
    from pytest_pau.run.end import _decide  # the early stop's part of the one settle

    order = [f"s/{i}" for i in range(6)]
    tracker = EarlyStopTracker(order, levels={"min_mean_judge": 3.0})
    results = [_item(i, judge_score=5.0, code_match=1.0) for i in range(2)]
    # Stopped ahead, in words that say something else entirely.
    results += [
        _item(i, skipped="budget --pau-max-cost-usd spent", skip_cause=SkipCause.EARLY_STOP)
        for i in (2, 3)
    ]
    # Not run for another cause, in words that name the early stop.
    results += [_item(4, skipped="--pau-early-stop", skip_cause=SkipCause.BUDGET)]
    for r in results:
        tracker.add(r.id, r)
    summary = SimpleNamespace(cost_usd=1.0, gates=[], baseline=None, early_stop=None)
    end = SimpleNamespace(
        settings=SimpleNamespace(gate_confidence=0.95, baseline=None, shard=None),
        run_info=object(),
        baseline=None,
        early=tracker,
    )
    _decide(end, summary, results)  # type: ignore[arg-type]
    assert (summary.early_stop.not_run, summary.early_stop.ran) == (2, 2)
    (gate,) = summary.gates
    assert "1 of 6 items not run (budget spent)" in (gate.detail or "")


def test_a_stop_request_reaches_a_worker_with_its_cause(tmp_path: Any) -> None:
    from pytest_pau.plugin.stop import RunStop

    controller, worker = RunStop(tmp_path / "stop"), RunStop(tmp_path / "stop")
    controller.request(Skip(SkipCause.EARLY_STOP, "words\nover two lines"))
    assert worker.reason() == Skip(SkipCause.EARLY_STOP, "words\nover two lines")
    (tmp_path / "other").write_text("a stop file of another version", encoding="utf-8")
    assert RunStop(tmp_path / "other").reason() == Skip(
        SkipCause.NOT_RUN, "a stop file of another version"
    )
