"""What a user reads says what happened, in one rule with the summary (overconfident, the
ceiling line, a baseline gate on few items, a lower-bound gate, a baseline of another mode),
and model text cannot drive the terminal (control characters are shown escaped)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pytest_pau.prompting import MARKERS
from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES

ESC = "\x1b"
WRONG_CODE = "```python\ndef test_func(*args):\n    return None\n```"


def test_overconfident_is_one_rule_for_the_item_and_the_summary(run_pau) -> None:
    # The coder misses the gold description too: a coder limitation, not overconfidence.
    with ScriptedLLM([(MARKERS["coder"], WRONG_CODE), *SCORING_RULES]) as coder:
        result = run_pau("-k", "double", f"--pau-coder-api-base={coder.api_base}")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(["*failure mode: coder_error*", "*agent: concluded YES after *"])
    assert "(overconfident)" not in out
    result.stdout.fnmatch_lines(["concluded 1/1  overconfident 0 (concluded YES and failed)*"])
    # The model's own failure: both say so.
    result = run_pau("-k", "tricky")
    result.stdout.fnmatch_lines(["*agent: concluded YES after * (overconfident)"])
    result.stdout.fnmatch_lines(["concluded 1/1  overconfident 1 (concluded YES and failed)*"])


def test_the_ceiling_line_never_calls_a_lower_gold_control_the_most_the_coder_allows(
    run_pau,
) -> None:
    said = "Doubles the argument it is given."
    right = "```python\ndef test_func(arg0):\n    return arg0 * 2\n```"
    rules = [
        (MARKERS["reason"], "Try the starting input."),
        (MARKERS["act"], "INPUT: (7,)"),
        (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {said}"),
        (MARKERS["judge"], "Close enough.\nRating: 4"),
        (MARKERS["coder"], lambda m: right if said in m[-1]["content"] else WRONG_CODE),
    ]
    with ScriptedLLM(rules) as llm:
        result = run_pau(
            "-k",
            "double",
            "--pau-gold-control",
            f"--pau-api-base={llm.api_base}",
            f"--pau-coder-api-base={llm.api_base}",
            f"--pau-judge-api-base={llm.api_base}",
            model=llm.model,
        )
    result.stdout.fnmatch_lines(
        [
            "ceiling *code match 1.00 of the model beside 0.00 of the coder*(gold control, n=1)*the model is above it*no ceiling*"
        ]
    )
    assert "the most this coder" not in result.stdout.str()


def test_a_baseline_gate_on_too_few_shared_items_says_so_and_names_its_option(
    run_pau,
) -> None:
    run_pau("-m", "smoke", "--pau-report=base.json").assert_outcomes(passed=2)
    result = run_pau("-m", "smoke", "--pau-baseline=base.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "  FAIL judge score not worse by more than 0.2: +0.000 over 2 (this run scored 2, "
            "the baseline 2, of 2), 95% lower bound -3.166 (p=*); too few to decide: 2 "
            "instances in both runs, and at 95% even two runs that agree exactly need 67  "
            "(--pau-max-regression)",
        ]
    )
    result.stdout.fnmatch_lines(
        ["PAU release gate failed (--pau-max-regression=judge:0.2)*exit status 1"]
    )
    assert "--pau-baseline judge" not in result.stdout.str()


def test_a_lower_bound_gate_on_few_items_says_what_it_is(run_pau) -> None:
    # The exact bound holds from one item (issue 26): two 5s give 1.85, named once (the
    # issue's "95% lower confidence bound n/a, 95% lower confidence bound" is gone).
    result = run_pau("-m", "smoke", "--pau-min-mean-judge=3", "--pau-gate-on-ci")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*FAIL mean judge score >= 3.00: 95% lower confidence bound (exact) 1.85, short by 1.15*"]
    )
    assert result.stdout.str().count("lower confidence bound") == 1


def test_a_baseline_from_another_mode_is_a_note_not_a_raw_warning(run_pau) -> None:
    run_pau("-m", "smoke", "--pau-mode=incontext", "--pau-report=base.json")
    result = run_pau(
        "-m", "smoke", "--pau-baseline=base.json", "--pau-max-regression=judge:3.9", subprocess=True
    )
    out = result.stdout.str() + result.stderr.str()
    assert "UserWarning" not in out
    assert "warn(note)" not in out
    result.stdout.fnmatch_lines(
        [
            "*note: --pau-baseline: runs differ in mode (baseline 'incontext', this run 'interactive')*"
        ]
    )


def test_control_characters_of_model_text_are_escaped_in_the_terminal(
    pau_pytester, run_pau
) -> None:
    # The oracle agent answers with the gold text: here it clears the screen and sets the
    # window title. The scripted judge rates tricky's answer 2, so it is in the failure text.
    rows = [json.loads(line) for line in (pau_pytester.path / "toy.jsonl").read_text().splitlines()]
    hostile = f"Counts things.{ESC}[2J{ESC}]0;pwned\x07 Hidden\rshown"
    for row in rows:
        if row["id"] == "tricky":
            row["description"] = row["description"] + hostile
    (pau_pytester.path / "toy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_pau("-k", "tricky", "--pau-report=r.json", subprocess=True)
    out = result.stdout.str() + result.stderr.str()
    assert "toy/tricky" in out
    assert ESC not in out
    assert "\x07" not in out
    assert "\\x1b[2J" in out
    report = read_report(pau_pytester.path / "r.json")
    assert hostile in (report.instances[0].prediction or ""), "the report keeps the raw text"
    for args in ([], ["--full"]):
        show = subprocess.run(
            [sys.executable, "-m", "pytest_pau", "show", "r.json", "toy/tricky", *args],
            cwd=pau_pytester.path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert show.returncode == 0, show.stderr
        for raw in (ESC, "\x07", "\r"):
            assert raw not in show.stdout
        assert "\\x1b]0;pwned\\x07" in show.stdout
