"""The calibration hint: oracle and null on this selection, with these scorers, or how to know.

Real plugin runs on the toy dataset (``toy.py``), the real sandbox, a scripted judge and
coder over HTTP. No embedded model runs here (CI time): a test that needs an embedded
scorer declares the scripted judge one by patching ``PauSettings.low_fidelity_roles``,
which is the one place the plugin asks.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.settings import PauSettings

Run = Callable[..., pytest.RunResult]
SELECTION = ("-k", "double or add or tricky")


@pytest.fixture
def embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat the scripted judge as an embedded (low-fidelity) one."""
    monkeypatch.setattr(
        PauSettings,
        "low_fidelity_roles",
        lambda self: [("judge", self.judge_model, "--pau-judge-model")],
    )


def hint(result: pytest.RunResult) -> str:
    lines = [line for line in result.outlines if line.startswith("calibration")]
    assert len(lines) == 1, result.stdout.str()
    return lines[0]


def report(path: Path) -> dict:
    return json.loads(path.read_text())


def commands(line: str) -> list[list[str]]:
    """The backquoted commands of a hint, as argument lists without the leading ``pytest``."""
    quoted = line.split("`")[1::2]
    out = []
    for cmd in quoted:
        argv = shlex.split(cmd)
        assert argv[0] == "pytest", cmd
        out.append(argv[1:])
    return out


def test_remote_scorers_get_no_hint_but_the_run_is_recorded(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    result = run_pau("--pau-report=r.json")
    assert not [line for line in result.outlines if line.startswith("calibration")]
    assert report(pau_pytester.path / "r.json")["summary"]["calibration"] is None
    store = pau_pytester.path / ".pau_cache" / "calibration.sqlite3"
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT instance, model, judge, match FROM scores").fetchall()
    # Every scored item of the oracle run; boom errored (no score), so it is not stored.
    assert sorted((i.split("/")[-1], m) for i, m, _, _ in rows) == [
        ("add", "oracle"),
        ("clamp", "oracle"),
        ("double", "oracle"),
        ("tricky", "oracle"),
    ]


def test_the_hint_says_what_is_missing_and_the_command_that_measures_it(
    run_pau: Run, pau_pytester: pytest.Pytester, embedded: None
) -> None:
    first = run_pau(*SELECTION, "--pau-report=oracle.json", "--pau-html=o.html")
    line = hint(first)
    assert line.startswith(
        "calibration: oracle and null are not both measured on the 3 selected items"
    )
    # The oracle run recorded itself: only null is missing, and the command says so.
    (null_args,) = commands(line)
    assert null_args[-1] == "--pau-model=null"
    assert null_args[:2] == ["-k", "double or add or tricky"]
    assert "--pau-dataset=toy.jsonl" in null_args
    assert any(a.startswith("--pau-judge-model=") for a in null_args)
    assert not any(a.startswith(("--pau-report", "--pau-html")) for a in null_args)
    calibration = report(pau_pytester.path / "oracle.json")["summary"]["calibration"]
    assert (calibration["selected"], calibration["known"]) == (3, 0)
    assert calibration["commands"] == [line.split("`")[1]]

    # The printed command, as printed, measures null on the same three items.
    second = pau_pytester.runpytest(*null_args, "--pau-report=null.json")
    line = hint(second)
    oracle = {r["id"]: r for r in report(pau_pytester.path / "oracle.json")["instances"]}
    null = {r["id"]: r for r in report(pau_pytester.path / "null.json")["instances"]}
    assert sorted(oracle) == sorted(null)
    assert len(oracle) == 3

    def m(rows: dict, key: str) -> float:
        return sum(r[key] for r in rows.values()) / len(rows)

    expected = (
        f"on 3 of 3 items oracle vs null: judge {m(oracle, 'judge_score'):.2f} vs "
        f"{m(null, 'judge_score'):.2f} ({m(oracle, 'judge_score') - m(null, 'judge_score'):+.2f}), "
        f"code match {m(oracle, 'code_match'):.2f} vs {m(null, 'code_match'):.2f} "
        f"({m(oracle, 'code_match') - m(null, 'code_match'):+.2f}); "
        f"this run on them: judge {m(null, 'judge_score'):.2f}, "
        f"code match {m(null, 'code_match'):.2f}"
    )
    assert expected in line, line
    assert "`" not in line  # everything known: no command
    stored = report(pau_pytester.path / "null.json")["summary"]["calibration"]
    assert stored["known"] == 3
    assert stored["commands"] == []
    assert stored["oracle_judge"] == pytest.approx(m(oracle, "judge_score"))

    # A wider selection: figures over the three known items only, commands for the rest
    # (clamp never ran; boom errors, so it has no score to store).
    line = hint(run_pau(model="null"))
    assert "on 3 of 5 items oracle vs null" in line
    assert line.split("; the other 2: ", 1)[1].count("`pytest ") == 2
    oracle_args, null_args = commands(line)
    assert (oracle_args[-1], null_args[-1]) == ("--pau-model=oracle", "--pau-model=null")
    assert "-k" not in oracle_args  # this run selected no keyword


def test_no_figure_of_another_judge_configuration(
    run_pau: Run, pau_pytester: pytest.Pytester, embedded: None
) -> None:
    run_pau(*SELECTION)
    run_pau(*SELECTION, model="null")
    assert "on 3 of 3 items" in hint(run_pau(*SELECTION, model="null"))
    # Two judge samples are another judge: nothing known under it, though the ids match.
    other = hint(run_pau(*SELECTION, "--pau-judge-samples=2", model="null"))
    assert other.startswith("calibration: oracle and null are not both measured")
    (oracle_args,) = commands(other)
    assert "--pau-judge-samples=2" in oracle_args
    assert oracle_args[-1] == "--pau-model=oracle"


def test_a_damaged_store_is_said_and_never_fails_the_run(
    run_pau: Run, pau_pytester: pytest.Pytester, embedded: None
) -> None:
    cache = pau_pytester.path / ".pau_cache"
    cache.mkdir()
    (cache / "calibration.sqlite3").write_bytes(b"not a database at all" * 10)
    result = run_pau(*SELECTION, "--pau-report=r.json")
    result.assert_outcomes(passed=2, failed=1)
    line = hint(result)
    assert line.startswith("calibration: oracle and null are not both measured")
    assert "(calibration store: could not record this run in " in line
    assert "; could not read " in line
    stored = report(pau_pytester.path / "r.json")["summary"]["calibration"]
    assert "calibration.sqlite3" in stored["store_error"]


def test_the_command_keeps_what_decides_scores_and_drops_outputs_and_gates() -> None:
    from pytest_pau.plugin.calibration import _pau_tokens

    given = [
        "tests/test_pau.py",
        "--pau-model",
        "gpt-5-mini",
        "--pau-limit",
        "3",
        "--pau-report=r.json",
        "--pau-no-cache",
        "--pau-min-pass-rate",
        "0.9",
        "--pau-early-stop",
        "--pau-judge-model=local",
        "--pau-html",
        "r.html",
        "--pau-dataset=mine.jsonl",
    ]
    assert _pau_tokens(given) == [
        "--pau-limit",
        "3",
        "--pau-no-cache",
        "--pau-judge-model=local",
        "--pau-dataset=mine.jsonl",
    ]


@pytest.mark.slow
def test_an_xdist_run_is_recorded_once_by_the_controller(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    pytest.importorskip("xdist")
    run_pau("-n", "2", subprocess=True).assert_outcomes(passed=3, failed=1, errors=1)
    store = pau_pytester.path / ".pau_cache" / "calibration.sqlite3"
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT instance FROM scores WHERE model = 'oracle'").fetchall()
    assert sorted(i for (i,) in rows) == ["toy/add", "toy/clamp", "toy/double", "toy/tricky"]
