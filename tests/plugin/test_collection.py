"""Collection: items per instance, ids, markers, selection, --pau-limit, user test files."""

from __future__ import annotations

import pytest

from .toy import TOY_IDS


def collected(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line and "[" in line]


def test_without_pau_model_nothing_is_collected_or_changed(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_one():\n    assert 1\n")
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=1)
    assert "PAU summary" not in result.stdout.str()
    assert not (pytester.path / ".pau_cache").exists()
    empty = pytester.mkdir("empty")
    assert pytester.runpytest(str(empty)).ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_builtin_dataset_collects_in_an_empty_folder(pytester: pytest.Pytester) -> None:
    from pytest_pau.dataset import load_dataset

    expected = [f"pau::test_pau[{inst.id}]" for inst in load_dataset("builtin")]
    result = pytester.runpytest("--pau-model=oracle", "--collect-only", "-q")
    assert result.ret == 0
    assert collected(result) == expected


def test_ids_and_counts_on_a_jsonl_dataset(run_pau) -> None:
    result = run_pau("--collect-only", "-q")
    assert result.ret == 0
    assert collected(result) == [f"pau::test_pau[{i}]" for i in TOY_IDS]
    result.stdout.fnmatch_lines(["5 tests collected*"])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-m", "arity1"], ["double", "tricky", "boom"]),
        (["-m", "arity2 or arity3"], ["add", "clamp"]),
        (["-k", "arity3"], ["clamp"]),
        (["-m", "toy and smoke"], ["double", "add"]),
        (["-k", "smoke and not numbers"], ["double"]),
        (["-m", "hard"], ["tricky"]),
        (["-k", "toy/clamp"], ["clamp"]),
        (["-m", "pau and medium"], ["clamp", "boom"]),
    ],
)
def test_k_and_m_select_by_arity_source_and_tag(
    run_pau, args: list[str], expected: list[str]
) -> None:
    result = run_pau("--collect-only", "-q", "--strict-markers", *args)
    assert result.ret == 0, result.stdout.str()
    assert collected(result) == [f"pau::test_pau[toy/{x}]" for x in expected]


def test_limit_applies_after_selection_in_dataset_order(run_pau) -> None:
    result = run_pau("--collect-only", "-q", "-m", "arity1", "--pau-limit=2")
    assert collected(result) == ["pau::test_pau[toy/double]", "pau::test_pau[toy/tricky]"]
    result.stdout.fnmatch_lines(["2/5 tests collected (3 deselected)*"])


def test_markers_are_registered(run_pau) -> None:
    result = run_pau("--markers")
    result.stdout.fnmatch_lines(
        [
            "@pytest.mark.pau:*",
            "@pytest.mark.arity4:*",
            "@pytest.mark.toy:*",
            "@pytest.mark.smoke:*",
        ]
    )


def test_user_test_file_takes_pau_result_and_replaces_the_builtin_item(
    pau_pytester, run_pau
) -> None:
    pau_pytester.makepyfile(
        test_mine="""
        def test_describes_well(pau_result):
            assert pau_result.judge_score >= 4

        def test_unrelated():
            pass
        """
    )
    result = run_pau("-m", "smoke or not pau", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "test_mine.py::test_describes_well[[]toy/double[]] *PASSED*",
            "test_mine.py::test_describes_well[[]toy/add[]] *PASSED*",
            "test_mine.py::test_unrelated PASSED*",
        ]
    )
    assert "pau::test_pau" not in result.stdout.str()


def test_user_test_without_pau_model_is_skipped_with_the_option_named(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_mine="def test_x(pau_result):\n    pass\n")
    result = pytester.runpytest("-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*pau_instance needs --pau-model=MODEL*"])


def test_last_failed_reruns_only_the_failed_and_errored_items(run_pau) -> None:
    first = run_pau()
    first.assert_outcomes(passed=3, failed=1, errors=1)
    again = run_pau("--lf")
    again.assert_outcomes(failed=1, errors=1)
    again.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures*"])


def test_exitfirst_stops_at_the_first_failure(run_pau) -> None:
    result = run_pau("-x", "-m", "not medium")
    result.assert_outcomes(passed=2, failed=1)


def test_unconfigure_removes_what_configure_registered(pau_pytester, scoring_llm) -> None:
    from pytest_pau.plugin.state import pau_run_key

    from .toy import scoring_args

    recorder = pau_pytester.inline_run(
        "--pau-model=oracle",
        "--pau-dataset=toy.jsonl",
        "--collect-only",
        *scoring_args(scoring_llm),
    )
    [call] = recorder.getcalls("pytest_unconfigure")
    assert call.config.pluginmanager.get_plugin("pau-session") is None
    assert pau_run_key not in call.config.stash


def test_the_output_convention_is_detected_shown_and_reported(run_pau, pau_pytester) -> None:
    import json

    from pytest_pau.report.json_report import read_report

    from .toy import toy_rows

    rows = []
    for row in toy_rows():  # the same toy set, outputs as plain JSON numbers
        for key in ("train_examples", "test_examples"):
            row[key] = json.dumps([[i, int(o)] for i, o in json.loads(row[key])])
        rows.append(row)
    (pau_pytester.path / "plain.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    shown = run_pau("--collect-only", "-v", dataset="plain.jsonl")
    shown.stdout.fnmatch_lines(["pau: dataset plain.jsonl [[]test[]]: outputs: json (detected*"])
    run_pau("-k", "double or add", "--pau-report=r.json", dataset="plain.jsonl").assert_outcomes(
        passed=2
    )
    run = read_report(pau_pytester.path / "r.json").run
    assert (run.dataset_outputs, run.dataset_outputs_by) == ("json", "detected")
    forced = run_pau("--collect-only", "-v", "--pau-dataset-outputs=repr", dataset="plain.jsonl")
    forced.stdout.fnmatch_lines(["*plain.jsonl*outputs: repr (as given)*"])


def test_limit_applies_after_last_failed(run_pau) -> None:
    first = run_pau()
    first.assert_outcomes(passed=3, failed=1, errors=1)
    # --lf keeps tricky (failed) and boom (error); the limit then takes the first of those.
    again = run_pau("--lf", "--pau-limit=1", "-v")
    again.stdout.fnmatch_lines(["*test_pau?toy/tricky?*FAILED*"])
    again.assert_outcomes(failed=1)
