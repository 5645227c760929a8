"""A verdict that holds on both sides (the baseline's and the candidate's), through real pytest and ``pau compare``.

Every run speaks HTTP to a scripted server whose judge grades each instance by its own
rule (:mod:`tests.plugin.graded`; here the rule reads the instance's ``plus k`` from the
gold description), so what the baseline, the candidate and each judge sample said is
known, and a verdict that rests on the items one side dropped is caught.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.cli.main import main
from pytest_pau.testing import MARKERS, ScriptedLLM

from .graded import RULES, args, write_graded
from .toy import adder_row, write_rows

PLUS = re.compile(r"plus (\d+)\.")
NO_RATING = "These are hard to compare."


def _k(messages: list[dict[str, Any]]) -> int:
    found = PLUS.search("\n".join(str(m.get("content")) for m in messages))
    assert found is not None, "a judge prompt always carries the gold description"
    return int(found.group(1))


def judged(rating: Callable[[int], int | None]) -> list[tuple[str, Any]]:
    """The graded rules with a judge that rates instance ``k`` ``rating(k)`` (None: no
    rating line, also on the retry)."""

    def reply(messages: list[dict[str, Any]]) -> str:
        r = rating(_k(messages))
        return NO_RATING if r is None else f"Judged.\nRating: {r}"

    judge = [(MARKERS["judge_retry"], reply), (MARKERS["judge"], reply)]
    return [
        *judge,
        *[(m, r) for m, r in RULES if m not in (MARKERS["judge"], MARKERS["judge_retry"])],
    ]


def report(folder: Path, name: str) -> dict[str, Any]:
    return json.loads((folder / name).read_text())


def compare(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["compare", *argv])
    return code, capsys.readouterr().out


# --- 1. pau compare --fail-if-worse counts both runs' unscored items ---------------------


def test_fail_if_worse_does_not_drop_what_the_candidate_left_unscored(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    write_graded(pytester.path, [5] * 20)
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=base.json"))
    # The candidate: 5 on 12 items, 1 on the other 8 (true change -1.6) ...
    with ScriptedLLM(judged(lambda k: 1 if k % 5 in (0, 1) else 5)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=rated.json"))
    # ... and the same candidate whose judge gave no rating on those 8.
    with ScriptedLLM(judged(lambda k: None if k % 5 in (0, 1) else 5)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=unrated.json"))
    assert (
        sum(r["judge_score"] is None for r in report(pytester.path, "unrated.json")["instances"])
        == 8
    )
    base, rated, unrated = (
        str(pytester.path / f) for f in ("base.json", "rated.json", "unrated.json")
    )

    code, out = compare(capsys, base, rated, "--fail-if-worse", "judge:1")
    assert code == 1
    assert "gate --fail-if-worse judge:1: FAILED" in out

    # Before: "passed", exit 0: compared on the 12 items both scored, all 5 against 5.
    code, out = compare(capsys, base, unrated, "--fail-if-worse", "judge:1")
    assert code == 1
    assert re.search(
        r"B vs A not worse by 1: NOT DECIDED \(95% lower bound between -\d\.\d{3} and "
        r"[-+]\d\.\d{3}, A scored 20, B 12, of 20; B: 8 of 20 items errored\)",
        out,
    ), out
    assert "gate --fail-if-worse judge:1: not decided" in out
    assert "regression: B vs A on judge score: not decided: B: 8 of 20 items errored " in out


# --- 2. the baseline gate counts the baseline's unscored items as unknown ----------------


def test_the_baseline_gate_does_not_shrink_to_what_the_baseline_scored(
    pytester: pytest.Pytester,
) -> None:
    write_graded(pytester.path, [3] * 24)
    # The baseline's report scored 8 of 24 (no rating on the rest): 3 on each.
    with ScriptedLLM(judged(lambda k: 3 if k % 3 == 0 else None)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=base.json"))
    # This run: 3 on those 8, 1 on the other 16 (mean 1.67).
    with ScriptedLLM(judged(lambda k: 3 if k % 3 == 0 else 1)) as llm:
        result = pytester.runpytest(
            *args(llm, "graded.jsonl", "--pau-baseline=base.json", "--pau-max-regression=judge:1"),
            "--pau-report=r.json",
        )
    # Before: "PASS judge score not worse by more than 1: +0.000 over 8", exit 0.
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*NOT DECIDED judge score not worse by more than 1: +0.000 over 8 of 24 paired items "
            "(this run scored 24, the baseline 8, of 24); 95% exact lower bound between * and * "
            "(the baseline: 16 of 24 items errored)*",
        ]
    )
    verdict = report(pytester.path, "r.json")["summary"]["verdict"]
    assert verdict["status"] == "not decided"
    gate = report(pytester.path, "r.json")["summary"]["baseline"]["regressions"][0]
    assert (gate["population"], gate["scored_here"], gate["scored_baseline"]) == (24, 24, 8)


# --- 3. an unrated judge sample is missing, not absent ----------------------------------


def sampled_judge(hard: set[int]) -> list[tuple[str, Any]]:
    """Rates easy items 4; a hard item's samples are (none, none, 4): its 1s lack a rating."""
    lock = threading.Lock()
    calls: Counter[int] = Counter()

    def first(messages: list[dict[str, Any]]) -> str:
        k = _k(messages)
        with lock:
            sample = calls[k]
            calls[k] += 1
        if k in hard and sample % 3 != 2:
            return "The prediction misses the point entirely; " * 40  # cut before its rating
        return "Judged.\nRating: 4"

    def retry(messages: list[dict[str, Any]]) -> str:
        return NO_RATING if _k(messages) in hard else "Rating: 4"

    judge = [(MARKERS["judge_retry"], retry), (MARKERS["judge"], first)]
    return [
        *judge,
        *[(m, r) for m, r in RULES if m not in (MARKERS["judge"], MARKERS["judge_retry"])],
    ]


@pytest.mark.parametrize(
    "extra",
    [(), ("--pau-gate-on-ci",), ("--pau-protocol=paper",)],
    ids=["mean", "gate-on-ci", "paper"],
)
def test_judge_samples_without_a_rating_leave_the_item_unscored(
    pytester: pytest.Pytester, extra: tuple[str, ...]
) -> None:
    write_graded(pytester.path, [4] * 10)
    gate = (
        "--pau-min-mean-judge=2.5" if extra == ("--pau-gate-on-ci",) else "--pau-min-mean-judge=3.5"
    )
    with ScriptedLLM(sampled_judge({0, 1, 2, 3})) as llm:
        result = pytester.runpytest(
            *args(llm, "graded.jsonl", "--pau-judge-samples=3", gate, "--pau-concurrency=1"),
            "--pau-report=r.json",
            *extra,
        )
    # Before: the hard items scored 4.0 (the one sample that parsed), mean 4.0: PASS, exit 0.
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    summary = report(pytester.path, "r.json")["summary"]
    hard = [
        r
        for r in report(pytester.path, "r.json")["instances"]
        if r["id"] in {"g000", "g001", "g002", "g003"}
    ]
    assert all(r["judge_score"] is None and r["judge_ratings"] == [None, None, 4] for r in hard)
    assert summary["judge"]["unparseable_answers"] == 8
    assert summary["verdict"]["status"] in ("not decided", "failed")
    assert (
        "8 judge answers without a rating (after the retry); an item with any such sample has "
        "no judge score" in summary["verdict"]["reasons"]
    )


# --- 4. the baseline must be the same tasks ----------------------------------------------


def test_a_baseline_of_another_version_of_the_dataset_is_refused_before_any_call(
    pytester: pytest.Pytester,
) -> None:
    write_graded(pytester.path, [5] * 6)
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=base.json"))
    # The same ids, every one of them another function (the dataset's next version).
    rows = [
        adder_row(
            k + 10, id=f"g{k:03d}", description=f"Returns the argument plus {k + 10}. GRADE 5"
        )
        for k in range(6)
    ]
    write_rows(pytester.path, "graded.jsonl", rows)
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        result = pytester.runpytest(
            *args(llm, "graded.jsonl", "--pau-baseline=base.json", "--pau-max-regression=judge:1")
        )
        assert llm.requests == 0
    # Before: paired across different tasks, exit 0.
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--pau-baseline=base.json: 6 of the 6 instances both runs list are different tasks "
            "(another gold code, description or examples under the same id: graded/g000, "
            "graded/g001, graded/g002, graded/g003, graded/g004 and 1 more) in the baseline; "
            "make the baseline on this version of the dataset",
        ]
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda data: data["instances"].append(dict(data["instances"][1])),
            "*--pau-baseline='base.json': *base.json': line *: instances[[]3[]] repeats id "
            "'graded/g001' (first at instances[[]1[]]); a report lists each instance once: keep "
            "the result you mean and remove the other",
        ),
        (
            lambda data: data["instances"][2].update(judge_score="5"),
            "*--pau-baseline='base.json': *base.json': line *: instances[[]2[]].judge_score is "
            "'5', not a number; a pytest-pau report writes it unquoted (fix or remove the edit)",
        ),
    ],
    ids=["duplicate id", "string score"],
)
def test_a_baseline_with_a_repeated_id_or_a_string_score_is_refused(
    pytester: pytest.Pytester, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    write_graded(pytester.path, [5] * 3)
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        pytester.runpytest(*args(llm, "graded.jsonl", "--pau-report=base.json"))
        path = pytester.path / "base.json"
        data = json.loads(path.read_text())
        edit(data)
        path.write_text(json.dumps(data, indent=1))
        before = llm.requests
        result = pytester.runpytest(*args(llm, "graded.jsonl", "--pau-baseline=base.json"))
        assert llm.requests == before
    # Before: accepted; the last copy won, and "5" counted as 5.0.
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


# --- 6. a retry narrowed by pytest's cache decides no gate -------------------------------


def test_a_last_failed_retry_does_not_pass_a_failing_model(pytester: pytest.Pytester) -> None:
    # 16 items rated 5, 4 rated 2: mean 4.4 against a gate of 4.7 (code match not required).
    write_graded(pytester.path, [5] * 16 + [2] * 4)
    gate = ("--pau-min-mean-judge=4.7", "--pau-match-threshold=0", "-p", "cacheprovider")
    with ScriptedLLM(RULES) as llm:
        first = pytester.runpytest(*args(llm, "graded.jsonl", *gate))
    assert first.ret == pytest.ExitCode.TESTS_FAILED
    # The retry: the judge now rates the 4 re-run items 5.
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        retry = pytester.runpytest(*args(llm, "graded.jsonl", *gate, "--lf", "--pau-report=r.json"))
    # Before: PASS mean judge score >= 4.70: 5.00 over the 4 re-run items, exit 0.
    assert retry.ret == pytest.ExitCode.TESTS_FAILED
    retry.stdout.fnmatch_lines(
        [
            "PAU release gates not decided (not decided: the selection came from --lf (pytest's "
            "cache of the last run's failures): 4 items re-run, 16 deselected; gates decided on "
            "the re-run items alone would not be about the selection: run the whole selection "
            "again (without --lf/--sw, or with --cache-clear) to decide them): exit status 1",
        ]
    )
    verdict = report(pytester.path, "r.json")["summary"]["verdict"]
    assert verdict["status"] == "not decided"
    # -k narrows the selection on purpose: the gates decide on it as ever.
    with ScriptedLLM(judged(lambda k: 5)) as llm:
        picked = pytester.runpytest(*args(llm, "graded.jsonl", *gate, "-k", "g000 or g001 or g002"))
    assert picked.ret == pytest.ExitCode.OK


# --- 7. xfail(run=False) is a skip, before any episode starts ----------------------------

NOT_RUN = """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if item.name[-4:-1] in ("000", "001", "002", "003"):
            item.add_marker({mark})
"""


def test_xfail_run_false_items_start_no_episode_and_leave_the_selection(
    pytester: pytest.Pytester,
) -> None:
    write_graded(pytester.path, [5] * 4 + [3] * 8)
    seen = {}
    for mark in ("pytest.mark.skip(reason='flaky')", "pytest.mark.xfail(run=False, reason='x')"):
        pytester.makeconftest(NOT_RUN.format(mark=mark))
        with ScriptedLLM(RULES) as llm:
            result = pytester.runpytest(
                *args(llm, "graded.jsonl", "--pau-min-mean-judge=3", "--pau-concurrency=8"),
                "--pau-report=r.json",
            )
            requests = llm.requests
        gate = report(pytester.path, "r.json")["summary"]["gates"][0]
        seen[mark.split("(")[0]] = (requests, gate["population"], gate["scored"], result.ret)
    # Before: xfail(run=False) started the 4 items' episodes anyway (their requests made),
    # and those that finished in time counted in the gate.
    assert seen["pytest.mark.xfail"] == seen["pytest.mark.skip"]
    assert seen["pytest.mark.skip"][1:] == (8, 8, pytest.ExitCode.OK)
