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


def judge_args(
    llm: ScriptedLLM, folder: Path, *more: str, dataset: Path | None = None
) -> list[str]:
    return [
        "judge-check",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-dataset={dataset or write_toy(folder)}",
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


def _with_near_misses(folder: Path) -> Path:
    """The toy dataset with one known-wrong description on every instance (two on the
    first), and one written as JSON text."""
    path = write_toy(folder)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for k, row in enumerate(rows):
        wrong = [f"Near miss {k}: {row['description']} except that it is off by one."]
        if k == 0:
            wrong.append("Returns the integer argument tripled.")
        row["wrong_descriptions"] = wrong if k else json.dumps(wrong)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_known_wrong_descriptions_are_rated_as_a_fourth_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _with_near_misses(tmp_path)
    with ScriptedLLM(
        [(MARKERS["judge_retry"], judge_reply), (MARKERS["judge"], judge_reply)]
    ) as llm:
        status = main(judge_args(llm, tmp_path, "-n", "all", dataset=dataset))
        requests = llm.requests
        again_args = judge_args(llm, tmp_path, "-n", "all", "--overwrite", dataset=dataset)
    captured = capsys.readouterr()
    out = captured.out
    assert status == 0, out
    data: dict[str, Any] = json.loads((tmp_path / "check.json").read_text())
    items = data["items"]
    n = len(items)
    assert all(len(i["known_wrong"]) == (2 if i["id"] == "toy/double" else 1) for i in items)
    # gold, decoy, content-free and each known-wrong description, one call each; two for
    # each rating of toy/boom, whose NORATING gold the toy judge never rates (no rating).
    calls = sum((3 + len(i["known_wrong"])) * (2 if i["id"] == "toy/boom" else 1) for i in items)
    assert requests == data["requests"] == calls
    check = data["check"]
    # The toy judge rates a text that is neither the gold nor a decoy 1 (2 on a TRICKY gold).
    ratings = [r for i in items for r in i["known_wrong"] if r is not None]
    assert len(ratings) == n  # six known-wrong descriptions, toy/boom's not rated
    assert check["confusion"]["known_wrong"] == {
        **{f"{v:g}": ratings.count(v) for v in sorted(set(ratings))},
        "none": 1,
    }
    assert check["known_wrong_mean"] == pytest.approx(sum(ratings) / len(ratings))
    rated = [i for i in items if i["gold"] is not None and i["known_wrong"][0] is not None]
    assert check["known_wrong_items"] == len(rated) == n - 1
    told = sum(1 for i in rated if i["gold"] > max(i["known_wrong"]))
    assert check["known_wrong_told_apart"] == told == n - 2  # the TRICKY one ties at 2
    lines = out.splitlines()
    row = next(x for x in lines if x.startswith("known wrong "))
    assert row.split()[2:8] == [str(ratings.count(v)) for v in (1.0, 2.0, 3.0, 4.0, 5.0)] + ["1"]
    assert (
        f"known wrong: mean {check['known_wrong_mean']:.1f} ({len(ratings)} ratings); gold "
        f"rated above all its item's known-wrong descriptions on {told}/{n - 1} items" in out
    )
    assert "known wrong 1" in captured.err  # the progress line of each item

    # Cached like the other ratings.
    assert main(again_args) == 0
    again = json.loads((tmp_path / "check.json").read_text())
    assert again["requests"] == 0
    assert again["check"] == check


def test_a_dataset_without_known_wrong_descriptions_prints_no_such_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ScriptedLLM([(MARKERS["judge"], judge_reply)]) as llm:
        assert main(judge_args(llm, tmp_path, "-n", "all")) == 0
    out = capsys.readouterr().out
    assert "known wrong" not in out
    data = json.loads((tmp_path / "check.json").read_text())
    assert "known_wrong" not in data["check"]["confusion"]
    assert data["check"]["known_wrong_mean"] is None
    assert data["check"]["known_wrong_items"] == 0
    assert all(i["known_wrong"] == [] for i in data["items"])


def test_the_tables_rows_agree_with_their_counts_when_only_the_gold_is_rated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A judge that rates the gold and nothing else (sweep of issue 40): no pair, so the
    # line says the check is unknown; each row of the table still shows its own ratings,
    # and its mean is theirs (was: a gold row of four ratings with mean n/a, and no
    # content-free row although every item's content-free sentence was asked).
    def gold_only(messages: list[dict[str, str]]) -> str:
        reply = judge_reply(messages)
        return reply if "same behaviour" in reply else "Unsure."

    rules = [(MARKERS["judge_retry"], "Still unsure."), (MARKERS["judge"], gold_only)]
    with ScriptedLLM(rules) as llm:
        assert main(judge_args(llm, tmp_path, "-n", "all")) == 1
    out = capsys.readouterr().out
    assert "judge check: no gold/decoy pair rated on the 5 sampled item(s)" in out
    rows = {line[:13].strip(): line[13:].split() for line in out.splitlines()[1:6]}
    # double, add and clamp's gold rated 5; tricky's and boom's never.
    assert rows["gold"] == ["0", "0", "0", "0", "3", "2", "5.00"]
    assert rows["decoy"] == ["0", "0", "0", "0", "0", "5", "n/a"]
    assert rows["content-free"] == ["0", "0", "0", "0", "0", "5", "n/a"]


def test_a_rating_the_judge_did_not_give_is_said_item_by_item(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A judge answering without 'Rating: N' on the decoy, even after the retry: the item's
    # error says which rating is missing and why, as it does for a call that failed (was:
    # "decoy none" and error null, as if nothing had been asked).
    def no_decoy_rating(messages: list[dict[str, str]]) -> str:
        reply = judge_reply(messages)
        return "It describes something." if "another method" in reply else reply

    rules = [(MARKERS["judge_retry"], "Still no rating."), (MARKERS["judge"], no_decoy_rating)]
    with ScriptedLLM(rules) as llm:
        main(judge_args(llm, tmp_path, "-n", "2"))
    err = capsys.readouterr().err
    items = json.loads((tmp_path / "check.json").read_text())["items"]
    unrated = [i for i in items if i["decoy"] is None]
    assert unrated
    for item in unrated:
        assert "decoy: no rating (1 of 1 answers without 'Rating: N', after a retry)" in (
            item["error"] or ""
        )
    assert "; decoy: no rating" in err
