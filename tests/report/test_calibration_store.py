"""The calibration store and line: per-item oracle/null scores, only ever of the same scorers.

The plugin's side (recording real runs, the measuring commands) is in
``tests/plugin/test_calibration.py``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pytest_pau.models import Example, Instance, InstanceResult
from pytest_pau.report.calibration import (
    CalibrationStore,
    calibrate,
    calibration_line,
    fingerprint,
    item_keys,
    reference_rows,
    scorer_identity,
)
from pytest_pau.settings import PauSettings


def instance(name: str, *, gold: str = "Doubles its argument.") -> Instance:
    return Instance(
        id=f"t/{name}",
        source="t",
        code="def test_func(arg0):\n    return 2 * arg0\n",
        header="def test_func(arg0):",
        description=gold,
        test_examples=[Example(input="(3,)", output="6")],
        arity=1,
    )


def scored(name: str, judge: float | None, match: float | None) -> InstanceResult:
    return InstanceResult(id=f"t/{name}", source="t", arity=1, judge_score=judge, code_match=match)


IDENTITY = scorer_identity(
    PauSettings(judge_model="local", coder_model="local"), prompts_version="1"
)
NAMES = ("a", "b", "c")


def stored(
    tmp_path: Path, **models: list[tuple[str, float | None, float | None]]
) -> CalibrationStore:
    store = CalibrationStore(tmp_path)
    keys = item_keys([instance(n) for n in NAMES], dataset="toy.jsonl", split="test")
    for model, rows in models.items():
        store.record(IDENTITY, model, reference_rows([scored(*r) for r in rows], keys))
    return store


def test_known_items_give_the_gap_and_this_runs_means_on_them(tmp_path: Path) -> None:
    store = stored(
        tmp_path,
        oracle=[("a", 5, 1.0), ("b", 4, 0.5), ("c", 5, 1.0)],
        null=[("a", 1, 0.0), ("b", 2, 0.25)],
    )
    keys = list(item_keys([instance(n) for n in NAMES], dataset="toy.jsonl", split="test").values())
    found = store.lookup(IDENTITY, keys)
    mine = {f"t/{n}": scored(n, 3, 0.5) for n in NAMES}
    c = calibrate(found, keys, mine, scorers="judge local", commands={"oracle": "O", "null": "N"})
    assert (c.selected, c.known) == (3, 2)
    assert (c.oracle_judge, c.null_judge, c.judge_gap) == (4.5, 1.5, 3.0)
    assert (c.oracle_match, c.null_match, c.match_gap) == (0.75, 0.125, 0.625)
    assert (c.run_judge, c.run_match) == (3, 0.5)
    assert c.commands == ["N"]  # only null lacks an item (c)
    assert calibration_line(c) == (
        "calibration (judge local): on 2 of 3 items oracle vs null: judge 4.50 vs 1.50 "
        "(+3.00), code match 0.75 vs 0.12 (+0.62); this run on them: judge 3.00, "
        "code match 0.50; the other 1: `N`"
    )


def test_nothing_known_says_so_with_both_commands(tmp_path: Path) -> None:
    keys = list(item_keys([instance("a")], dataset="toy.jsonl", split="test").values())
    c = calibrate(
        CalibrationStore(tmp_path).lookup(IDENTITY, keys),
        keys,
        {},
        scorers="judge local",
        commands={"oracle": "O", "null": "N"},
    )
    assert c.known == 0
    assert c.oracle_judge is None
    assert calibration_line(c) == (
        "calibration: oracle and null are not both measured on the 1 selected item with "
        "judge local; measure how far apart they are: `O` then `N`"
    )


@pytest.mark.parametrize(
    "other",
    [
        {"judge_model": "local-small", "coder_model": "local"},
        {"judge_model": "local", "coder_model": "local", "judge_samples": 3},
        {"judge_model": "local", "coder_model": "gpt-5-mini"},
        {"judge_model": "local", "coder_model": "local", "seed": 1},
    ],
)
def test_scores_of_other_scorers_are_never_read(tmp_path: Path, other: dict) -> None:
    store = stored(tmp_path, oracle=[("a", 5, 1.0)], null=[("a", 1, 0.0)])
    keys = list(item_keys([instance("a")], dataset="toy.jsonl", split="test").values())
    assert store.lookup(IDENTITY, keys)  # its own scorers find them
    identity = scorer_identity(PauSettings(**other), prompts_version="1")
    assert identity != IDENTITY
    assert store.lookup(identity, keys) == {}
    newer = scorer_identity(
        PauSettings(judge_model="local", coder_model="local"), prompts_version="2"
    )
    assert store.lookup(newer, keys) == {}


def test_an_edited_instance_under_the_same_id_is_unknown(tmp_path: Path) -> None:
    store = stored(tmp_path, oracle=[("a", 5, 1.0)], null=[("a", 1, 0.0)])
    edited = instance("a", gold="Returns twice the argument.")
    assert fingerprint(edited) != fingerprint(instance("a"))
    keys = list(item_keys([edited], dataset="toy.jsonl", split="test").values())
    assert store.lookup(IDENTITY, keys) == {}
    other_split = list(item_keys([instance("a")], dataset="toy.jsonl", split="train").values())
    assert store.lookup(IDENTITY, other_split) == {}


def test_only_scored_items_of_oracle_and_null_are_recorded(tmp_path: Path) -> None:
    keys = item_keys([instance(n) for n in NAMES], dataset="toy.jsonl", split="test")
    error = scored("b", None, None).model_copy(update={"error": "judge down"})
    rows = reference_rows([scored("a", 5, 1.0), error], keys)
    assert [k.instance for k, _, _ in rows] == ["t/a"]
    with pytest.raises(ValueError, match=r"only .* calibrate, got model 'gpt-5-mini'"):
        CalibrationStore(tmp_path).record(IDENTITY, "gpt-5-mini", rows)


def test_a_damaged_store_raises_sqlite_errors_for_the_caller_to_report(tmp_path: Path) -> None:
    (tmp_path / "calibration.sqlite3").write_bytes(b"not a database at all" * 10)
    keys = list(item_keys([instance("a")], dataset="toy.jsonl", split="test").values())
    with pytest.raises(sqlite3.DatabaseError):
        CalibrationStore(tmp_path).lookup(IDENTITY, keys)
