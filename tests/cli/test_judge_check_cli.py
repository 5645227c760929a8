"""``pau judge-check`` through the real command against scripted judges (issue 40)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.cli.main import main
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM
from tests.plugin.toy import judge_reply, write_toy


def judge_args(llm: ScriptedLLM, folder: Path, *more: str) -> list[str]:
    return [
        "judge-check",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-dataset={write_toy(folder)}",
        f"--pau-cache-dir={folder / 'cache'}",
        "-o",
        str(folder / "check.json"),
        *more,
    ]


def test_a_judge_that_reads_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedLLM(
        [(MARKERS["judge_retry"], judge_reply), (MARKERS["judge"], judge_reply)]
    ) as llm:
        status = main(judge_args(llm, tmp_path, "-n", "3"))
        requests = llm.requests
        again_args = judge_args(llm, tmp_path, "-n", "3", "--overwrite")
    out = capsys.readouterr().out
    assert status == 0, out
    assert "judge check: gold " in out
    assert "tells them apart on " in out
    assert "cannot tell them apart" not in out
    assert "content-free" in out
    data: dict[str, Any] = json.loads((tmp_path / "check.json").read_text())
    check = data["check"]
    assert check["sampled"] == 3
    assert check["discriminates"] is True
    assert all(i["decoy_id"] != i["id"] for i in data["items"])
    # Counted: three ratings per item.
    assert data["requests"] == requests == 9
    assert f"requests {requests} (cache hits 0)" in out

    # Cached: the same check again asks nothing (the server is closed: a call would fail).
    assert main(again_args) == 0
    again = json.loads((tmp_path / "check.json").read_text())
    assert again["requests"] == 0
    assert again["cache_hits"] == requests
    assert again["check"] == check


def test_a_judge_that_rates_everything_5_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ScriptedLLM([(MARKERS["judge"], lambda messages: "Fine.\nRating: 5")]) as llm:
        status = main(judge_args(llm, tmp_path, "-n", "all"))
    out = capsys.readouterr().out
    assert status == 1
    assert "judge check: gold 5.0, decoy 5.0, content-free 5.0, tells them apart on 0/5" in out
    assert "cannot tell them apart" in out
    lines = out.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("rating"))) :][:4]
    assert table[1].split() == ["gold", "0", "0", "0", "0", "5", "0", "5.00"]
    assert table[3].split()[0] == "content-free"


def test_an_existing_output_is_refused_before_any_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "check.json").write_text("{}")
    with ScriptedLLM([(MARKERS["judge"], "Rating: 5")]) as llm:
        assert main(judge_args(llm, tmp_path)) == 2
        assert llm.requests == 0
    err = capsys.readouterr().err
    assert "check.json" in err
    assert "--overwrite" in err
    assert (tmp_path / "check.json").read_text() == "{}"
