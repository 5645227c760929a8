"""The judge check beside a run (issue 40): a judge that cannot tell the gold from a decoy
leaves judge-based gates not decided; one that can changes no verdict; its calls are
cached and counted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES, coder_reply, judge_reply, scoring_args, toy_rows, write_rows

GATES = ("--pau-min-mean-judge=3", "--pau-min-mean-match=0.5")
NOT_MEDIUM = ("-m", "not medium")  # double, add, tricky: none errors


def rates_everything_5(messages: list[dict[str, str]]) -> str:
    return "Looks right to me.\nRating: 5"


@pytest.fixture
def blind_llm() -> Iterator[ScriptedLLM]:
    """A judge that rates every description 5 (and the toy's faithful coder)."""
    rules: list[tuple[str, Any]] = [
        (MARKERS["judge_retry"], rates_everything_5),
        (MARKERS["judge"], rates_everything_5),
        (MARKERS["coder"], coder_reply),
        (MARKERS["classify"], "Label: insufficient_exploration"),
    ]
    with ScriptedLLM(rules) as llm:
        yield llm


def report(pytester: pytest.Pytester, name: str = "r.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / name).read_text())
    return data


def gate_status(data: dict[str, Any]) -> dict[str, str]:
    return {g["name"]: g["status"] for g in data["summary"]["gates"]}


def test_a_judge_that_rates_everything_5_leaves_judge_gates_not_decided(
    pau_pytester: pytest.Pytester, blind_llm: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(
        "--pau-model=oracle",
        "--pau-dataset=toy.jsonl",
        *scoring_args(blind_llm),
        *NOT_MEDIUM,
        *GATES,
        "--pau-report=r.json",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "judge check: gold 5.0, decoy 5.0, tells them apart on 0/3 (AUC 0.50 *); "
            "below 75%: cannot tell them apart; code from the decoys matches *%",
            "*NOT DECIDED mean judge score >= 3*",
            "*PASS mean code match >= 0.5*",
            "PAU release gates not decided (--pau-min-mean-judge=3 not decided: the judge "
            "rates a wrong description as high as the right one here*",
        ]
    )
    data = report(pau_pytester)
    assert gate_status(data) == {"min_mean_judge": "not decided", "min_mean_match": "passed"}
    check = data["summary"]["judge_check"]
    assert (check["checked"], check["told_apart"], check["discriminates"]) == (3, 0, False)
    assert data["summary"]["verdict"]["exit_status"] == 1
    # The code side of the check: the toy's faithful coder writes the decoy's method, which
    # matches the item's held-back outputs only where the two methods agree.
    assert check["decoy_coded"] == 3
    assert check["decoy_code_match_mean"] < 0.5
    per_item = [i["judge_check"]["decoy_code_match"] for i in data["instances"]]
    assert check["decoy_code_match_mean"] == pytest.approx(sum(per_item) / 3)


def test_code_match_gates_still_decide_beside_a_blind_judge(
    pau_pytester: pytest.Pytester, blind_llm: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(
        "--pau-model=oracle",
        "--pau-dataset=toy.jsonl",
        *scoring_args(blind_llm),
        *NOT_MEDIUM,
        "--pau-min-mean-match=0.5",
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        ["*judge check: *cannot tell them apart*", "*PASS mean code match*"]
    )


def test_the_check_off_decides_judge_gates_as_before(
    pau_pytester: pytest.Pytester, blind_llm: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(
        "--pau-model=oracle",
        "--pau-dataset=toy.jsonl",
        *scoring_args(blind_llm),
        *NOT_MEDIUM,
        *GATES,
        "--pau-judge-check=off",
        "--pau-report=r.json",
    )
    assert result.ret == pytest.ExitCode.OK
    assert "judge check:" not in result.stdout.str()
    data = report(pau_pytester)
    assert data["summary"]["judge_check"] is None
    assert gate_status(data) == {"min_mean_judge": "passed", "min_mean_match": "passed"}


def test_under_the_paper_protocol_the_line_is_shown_and_the_papers_counting_decides(
    pau_pytester: pytest.Pytester, blind_llm: ScriptedLLM
) -> None:
    result = pau_pytester.runpytest(
        "--pau-model=oracle",
        "--pau-dataset=toy.jsonl",
        "--pau-protocol=paper",
        *scoring_args(blind_llm),
        *NOT_MEDIUM,
        "--pau-min-mean-judge=3",
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["judge check: *cannot tell them apart*", "*PASS mean judge*"])


def test_a_judge_that_rates_by_correctness_passes_the_check_and_changes_no_verdict(
    run_pau: Any, pau_pytester: pytest.Pytester
) -> None:
    verdicts = {}
    for check in ("20", "off"):
        result = run_pau(*NOT_MEDIUM, *GATES, f"--pau-judge-check={check}", "--pau-report=r.json")
        data = report(pau_pytester)
        verdicts[check] = (result.ret, gate_status(data), data["summary"]["verdict"]["status"])
        if check == "20":
            # tricky's gold is rated 2 (the toy judge), its decoy 1: all three told apart.
            result.stdout.fnmatch_lines(
                ["judge check: gold 4.0, decoy 1.0, tells them apart on 3/3 (AUC *)*"]
            )
            assert data["summary"]["judge_check"]["discriminates"] is True
    assert verdicts["20"] == verdicts["off"]
    assert verdicts["20"][1] == {"min_mean_judge": "passed", "min_mean_match": "passed"}


def test_the_checks_calls_are_counted_and_cached(pau_pytester: pytest.Pytester) -> None:
    # A model litellm has a price for: every request costs money.
    with ScriptedLLM(SCORING_RULES, model="openai/gpt-4o-mini") as llm:

        def run(*args: str) -> dict[str, Any]:
            before = llm.requests
            pau_pytester.runpytest(
                "--pau-model=null",
                "--pau-dataset=toy.jsonl",
                *scoring_args(llm),
                "-m",
                "smoke",
                "--pau-report=r.json",
                *args,
            )
            data = report(pau_pytester)
            assert data["summary"]["requests"] == llm.requests - before
            return data

        off = run("--pau-judge-check=off", "--pau-cache-dir=off-cache")
        on = run("--pau-cache-dir=on-cache")
        again = run("--pau-cache-dir=on-cache")
    # null's prediction is not the gold: each of the two items costs a gold and a decoy
    # rating and the coder's code from the decoy more, paid and counted per item and in
    # the summary.
    assert on["summary"]["requests"] == off["summary"]["requests"] + 6
    assert on["summary"]["cost_usd"] > off["summary"]["cost_usd"] > 0
    assert on["summary"]["cost_usd"] == pytest.approx(sum(i["cost_usd"] for i in on["instances"]))
    assert [i["judge_check"] is not None for i in on["instances"]] == [True, True]
    # Cached: the same run again asks nothing and finds the same check.
    assert again["summary"]["requests"] == 0
    assert again["summary"]["cost_usd"] == 0
    assert again["summary"]["cache_hits"] == on["summary"]["requests"]
    assert again["summary"]["judge_check"] == on["summary"]["judge_check"]


def test_a_sample_without_a_decoy_decides_no_judge_gate(
    run_pau: Any, pau_pytester: pytest.Pytester
) -> None:
    # One instance: no other description to be its decoy, so nothing shows the judge can
    # tell a right description from a wrong one.
    write_rows(pau_pytester.path, "one.jsonl", toy_rows()[:1])
    result = run_pau(*GATES, "--pau-report=r.json", dataset="one.jsonl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "judge check: no gold/decoy pair rated on the 1 sampled item(s), 1 of them without "
            "a decoy (no other instance of the dataset has a different description): whether "
            "the judge tells a right description from a wrong one is unknown",
            "*NOT DECIDED mean judge score >= 3*",
            "*PASS mean code match >= 0.5*",
        ]
    )
    data = report(pau_pytester)
    check = data["summary"]["judge_check"]
    assert (check["sampled"], check["checked"], check["no_decoy"]) == (1, 0, 1)
    assert check["confusion"] == {"gold": {}, "decoy": {}}
    assert gate_status(data) == {"min_mean_judge": "not decided", "min_mean_match": "passed"}
    gate = next(g for g in data["summary"]["gates"] if g["name"] == "min_mean_judge")
    assert (
        "whether the judge tells a right description from a wrong one is unknown"
        in (gate["detail"])
    )
    assert data["instances"][0]["judge_check"]["decoy_id"] is None


def test_a_sample_that_reached_no_rating_decides_no_judge_gate(
    run_pau: Any, pau_pytester: pytest.Pytester
) -> None:
    # At seed 1 the one sampled item is boom, which the judge never rates: the other two
    # decide the mean judge gate whatever it is (5, 5 and anything >= 3), but nothing
    # checked the judge.
    select = ("-k", "double or add or boom", "--pau-seed=1", "--pau-min-mean-judge=3")
    select += ("--pau-report=r.json",)
    statuses = {}
    for check in ("1", "off"):
        result = run_pau(*select, f"--pau-judge-check={check}")
        statuses[check] = gate_status(report(pau_pytester))
        if check == "1":
            result.stdout.fnmatch_lines(
                [
                    "judge check: no gold/decoy pair rated on the 1 sampled item(s), none "
                    "reached it with both ratings (an error, a skip or no rating): *unknown"
                ]
            )
    assert statuses == {"1": {"min_mean_judge": "not decided"}, "off": {"min_mean_judge": "passed"}}


def test_a_coder_that_fails_on_the_decoys_is_said_in_the_line(
    pau_pytester: pytest.Pytester,
) -> None:
    # The coder refuses (HTTP 400) to write code from every decoy (sweep of issue 40): the
    # items and their own code match are unaffected, and the line says the decoys' code is
    # missing and why (was: the line silent about it, as if the check wrote none).
    from pytest_pau.llm.scripted.reply import Refused

    from .toy import TOY, _section

    def coder(messages: list[dict[str, str]]) -> str:
        last = messages[-1]["content"]
        described = _section(last, "Description of the function:", "Write the complete")
        item = next(
            t for t in TOY if any(f"test_func{i.replace(',)', ')')}" in last for i in t["train"])
        )
        if described != item["description"]:
            raise Refused(None, "no code from this description")
        return coder_reply(messages)

    rules: list[tuple[str, Any]] = [
        (MARKERS["judge_retry"], judge_reply),
        (MARKERS["judge"], judge_reply),
        (MARKERS["coder"], coder),
        (MARKERS["classify"], "Label: insufficient_exploration"),
    ]
    with ScriptedLLM(rules) as llm:
        result = pau_pytester.runpytest(
            "--pau-model=oracle",
            "--pau-dataset=toy.jsonl",
            *scoring_args(llm),
            *NOT_MEDIUM,
            "--pau-min-mean-match=0.5",
            "--pau-report=r.json",
        )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "judge check: gold 4.0, decoy 1.0, tells them apart on 3/3 (AUC *); code from "
            "the decoys: none, the coder failed on all 3"
        ]
    )
    check = report(pau_pytester)["summary"]["judge_check"]
    assert (check["decoy_coded"], check["decoy_code_failed"]) == (0, 3)
