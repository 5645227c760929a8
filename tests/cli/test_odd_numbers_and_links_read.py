"""Inputs the ``pau`` commands read that hold odd numbers or loop: named, never a traceback.

A score of 401 digits or 5,001 in a reference result file, a cache row whose ``created`` is
no time, a report path that is a symlink loop.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.llm import ResponseCache

from . import reference_files as ref

LONG = "7" * 5001
"""More digits than Python reads from text (4,300): ``json.loads`` refuses it."""


def _with_score(path: Path, line: int, digits: str) -> None:
    rows = path.read_text().splitlines()
    row = json.loads(rows[line - 1])
    row["score"] = "@SCORE@"
    rows[line - 1] = json.dumps(row).replace('"@SCORE@"', digits)
    path.write_text("\n".join(rows) + "\n")


@pytest.mark.parametrize(
    ("digits", "said"),
    [
        # Was: OverflowError from math.isnan (int too large to convert to float).
        ("1" + "0" * 400, "expected a whole number from 1 to 5, got 1000000000000000000"),
        # Was: a raw ValueError from json.loads (Exceeds the limit for integer conversion).
        (LONG, "expected a whole number from 1 to 5, got an integer of 5,001 digits"),
    ],
)
def test_a_huge_score_in_a_reference_file_names_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digits: str, said: str
) -> None:
    files = ref.write_run(tmp_path / "results")
    _with_score(files["description"], 2, digits)
    argv = [str(files[k]) for k in ("predictions", "description")]
    argv += ["-o", str(tmp_path / "r.json"), "--dataset", str(files["dataset"])]
    code = main(["import-reference", *argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{files['description']} line 2: field 'score': {said}" in err
    assert "Traceback" not in err
    assert len(err) < 2000, "the message quotes the number whole"
    assert not (tmp_path / "r.json").exists()


def test_cache_info_counts_a_row_whose_created_is_no_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ResponseCache(tmp_path)
    assert cache.put("k1", "openai/m", {"text": "x"})
    assert cache.put("k2", "openai/m", {"text": "y"})
    cache.close()
    conn = sqlite3.connect(tmp_path / "llm-cache.sqlite3")
    with conn:  # what another tool, or an import from one, may leave
        conn.execute("UPDATE responses SET created = 'yesterday' WHERE key = 'k2'")
    conn.close()
    # Was: ValueError: could not convert string to float: 'yesterday'.
    assert main(["cache", "info", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    today = time.strftime("%Y-%m-%d")
    assert "entries:          2 (" in out
    assert f"oldest {today} " in out
    assert "; 1 without a valid time)" in out
    assert main(["cache", "info", "--cache-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["undated"] == 1
    assert data["models"][0]["undated"] == 1


@pytest.mark.parametrize(
    "command", [["show", "loop.json", "x"], ["compare", "loop.json", "b.json"]]
)
def test_a_report_that_is_a_symlink_loop_is_named(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("loop.json").symlink_to("b.json")
    Path("b.json").symlink_to("loop.json")
    assert main(command) == 2
    err = capsys.readouterr().err
    # Named as the one input check names every loop (files/guard.check_input_file).
    assert "cannot read report: 'loop.json' cannot be resolved: it is a symbolic-link loop" in err
    assert "Traceback" not in err
