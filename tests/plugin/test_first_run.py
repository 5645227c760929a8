"""What a first run says when it selects nothing, runs without a model, or shows a long reply."""

from __future__ import annotations

import pytest

from pytest_pau.cli.show import show_instance
from pytest_pau.report.json_report import read_report


def test_a_keyword_that_matches_nothing_gets_a_pau_hint(run_pau) -> None:
    result = run_pau("-k", "no_such_method")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        [
            "*no PAU instance matched -k 'no_such_method' (of 5 in toy.jsonl/test); "
            "`pytest --pau-model=oracle --pau-dataset=toy.jsonl --collect-only -q` lists them "
            "with their ids and markers*"
        ]
    )


def test_a_marker_that_matches_nothing_names_the_expression(run_pau) -> None:
    result = run_pau("-m", "arity4 and smoke")
    result.stdout.fnmatch_lines(["*no PAU instance matched -m 'arity4 and smoke' (of 5 in *"])


def test_a_selection_that_keeps_items_gets_no_hint(run_pau) -> None:
    result = run_pau("-k", "double")
    assert result.ret == pytest.ExitCode.OK
    assert "no PAU instance" not in result.stdout.str()


def test_ini_gates_without_a_model_are_named_as_not_evaluated(
    pau_pytester: pytest.Pytester,
) -> None:
    pau_pytester.makeini("[pytest]\npau_min_pass_rate = 0.7\npau_min_mean_judge = 3\n")
    pau_pytester.makepyfile("def test_ordinary():\n    pass\n")
    result = pau_pytester.runpytest("--pau-min-mean-match=0.5")
    assert result.ret == pytest.ExitCode.OK  # the plugin is inactive: ordinary tests run
    result.stdout.fnmatch_lines(
        [
            "*pau_min_mean_judge = 3, pau_min_pass_rate = 0.7 (tox.ini) and --pau-min-mean-match=0.5 were not evaluated: no model under test*--pau-model=MODEL*"
        ]
    )
    assert result.stdout.str().count("were not evaluated") == 1


def test_no_gates_and_no_model_say_nothing(pau_pytester: pytest.Pytester) -> None:
    pau_pytester.makepyfile("def test_ordinary():\n    pass\n")
    result = pau_pytester.runpytest()
    assert result.ret == pytest.ExitCode.OK
    assert "pytest-pau" not in result.stdout.str()


def test_show_keeps_wrapped_replies_under_their_label(run_pau, pau_pytester) -> None:
    run_pau("--pau-report=r.json")
    report = read_report(pau_pytester.path / "r.json")
    (r,) = [i for i in report.instances if i.id == "toy/tricky"]
    step = r.trajectory[-1]  # the oracle's answer: a reply, shown under "reply:"
    assert step.kind == "oracle"
    step.response = " ".join(["word"] * 60)
    lines = show_instance(report, r).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("    reply:      word"))
    text_column = lines[first].index("word")
    assert lines[first + 1].startswith(" " * text_column + "word"), lines[first : first + 2]
    assert lines[first + 1][text_column - 1] == " "
