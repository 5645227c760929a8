"""``pau import-reference``: the PAU reference's result files as a report ``pau show`` and
``pau compare`` read, every mapped number checked; bad files named by file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.models import ItemStatus
from pytest_pau.report.json_report import read_report

from . import reference_files as ref


@pytest.fixture
def run_files(tmp_path: Path) -> dict[str, Path]:
    return ref.write_run(tmp_path / "results")


def _import(
    files: dict[str, Path],
    out: Path,
    *extra: str,
    kinds: tuple[str, ...] = ("predictions", "description", "code", "self_code", "gold_code"),
) -> int:
    argv = ["import-reference", *(str(files[k]) for k in kinds), "-o", str(out)]
    return main([*argv, "--dataset", str(files["dataset"]), *extra])


def test_every_field_is_mapped(
    run_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ref.json"
    assert _import(run_files, out) == 0
    printed = capsys.readouterr().out
    assert "imported 4 instances of gpt-5.4-mini (2 judged, 2 with code match" in printed
    report = read_report(out)
    run = report.run
    assert (run.model, run.judge_model, run.coder_model) == ("gpt-5.4-mini", ref.JUDGE, ref.CODER)
    assert (run.protocol, run.mode, run.max_iterations) == ("paper", "interactive", 2)
    assert run.dataset == str(run_files["dataset"])
    items = {r.id: r for r in report.instances}
    assert list(items) == ["dataset/square", "dataset/swap", "dataset/shout", "dataset/broken"]

    square = items["dataset/square"]
    assert square.status == ItemStatus.PASSED
    assert (square.judge_score, square.judge_ratings, square.code_match) == (4.0, [4], 1.0)
    assert (square.self_code_match, square.gold_code_match) == (0.5, 1.0)
    assert (square.n_queries, square.concluded, square.overconfident) == (2, True, False)
    assert square.prediction == "it squares the input"
    assert square.gold == "Returns the square of arg0."
    assert square.judge_explanation == "Mostly right. Rating: 4"
    assert square.code == "def test_func(arg0):\n    return arg0 * arg0"
    assert square.mismatches == []
    assert [(s.kind, s.iteration) for s in square.trajectory] == [
        ("reason", 1),
        ("act", 1),
        ("reflect", 1),
        ("reason", 2),
        ("act", 2),
        ("reflect", 2),
    ]
    act1, act2 = square.trajectory[1], square.trajectory[4]
    assert act1.response == "Suggested Input:\n(3,)"  # the reference's "\n[STOP]" taken off
    assert act1.parsed_input == "(3,)"
    assert act1.result is not None
    assert (act1.result.ok, act1.result.value, act1.result.literal) == (True, "9", True)
    # A list is splatted into two arguments, as the reference calls the method.
    assert act2.parsed_input == "(2, 1)"
    assert act2.result is not None
    assert (act2.result.ok, act2.result.error_type) == (False, "Exception")
    assert act2.result.message == "test_func() takes 1 positional argument but 2 were given"
    assert [s.concluded for s in square.trajectory if s.kind == "reflect"] == [False, True]
    assert square.trajectory[0].prompt == "iteration 1 ... Reasoning:"

    swap = items["dataset/swap"]
    assert swap.status == ItemStatus.ERROR
    assert swap.failure_mode == "infrastructure"
    assert (swap.judge_score, swap.judge_ratings, swap.judge_unparseable) == (None, [None], 1)
    assert "gave no 'Rating: N'" in (swap.error or "")
    assert "counts it as 1" in (swap.error or "")
    assert (swap.code_match, swap.self_code_match, swap.gold_code_match) == (0.0, 0.0, 0.0)
    assert (swap.n_queries, swap.concluded) == (1, False)
    no_input, call = swap.trajectory[1], swap.trajectory[4]
    assert no_input.parsed_input is None
    assert no_input.result is None
    assert "no input found" in (no_input.format_error or "")
    assert call.result is not None
    assert call.result.value == "(2, 1)"
    unreadable = swap.trajectory[5]
    assert unreadable.concluded is False
    assert "no single 'Summary:'" in (unreadable.format_error or "")
    # Tuples against JSON lists: the reference's own comparison, shown input by input.
    assert [(m.input, m.expected, m.got) for m in swap.mismatches] == [
        ("(3, 4)", "[4, 3]", "(4, 3)"),
        ("(1, 1)", "[1, 1]", "(1, 1)"),
        ("('a', 2)", "[2, 'a']", "(2, 'a')"),
        ("(0, 7)", "[7, 0]", "(7, 0)"),
    ]

    shout = items["dataset/shout"]
    assert shout.status == ItemStatus.FAILED
    assert shout.failure_mode == "none"
    assert (shout.judge_score, shout.code_match, shout.self_code_match) == (5.0, 0.0, 1.0)
    assert (shout.n_queries, shout.concluded, shout.overconfident) == (0, True, True)
    assert shout.code == ""
    assert "no code block" in shout.failure_detail
    assert "not classified" in shout.failure_detail
    assert "not a Python literal: 'nope('" in (shout.trajectory[1].format_error or "")

    broken = items["dataset/broken"]
    assert broken.status == ItemStatus.ERROR
    assert "could not load" in (broken.error or "")
    assert (broken.prediction, broken.trajectory, broken.judge_score) == ("", [], 1.0)

    s = report.summary
    assert (s.counts.items, s.counts.scored, s.counts.passed, s.counts.errors) == (4, 2, 1, 2)
    # Counted as the reference counts (--pau-protocol=paper): the two errored rows are in
    # the means, a missing rating as 1 and a missing match as 0: (5 + 4 + 1 + 1) / 4.
    assert (s.judge.mean, s.code_match.mean, s.pass_rate) == (2.75, 0.25, 0.25)
    assert s.failure_modes["unclassified"] == 1
    assert s.judge.unparseable_answers == 1
    assert any("protocol paper" in n for n in report.notes)
    assert any("matched by code, header and description" in n for n in report.notes)


def test_show_and_compare_read_the_imported_report(
    run_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert _import(run_files, first) == 0
    assert _import(run_files, second, "--model", "other", kinds=("description", "code")) == 0
    capsys.readouterr()
    assert main(["show", str(first)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"gpt-5.4-mini on {run_files['dataset']}/test: 4 instances")
    assert lines[2].split() == ["PASSED", "4", "1.00", "dataset/square"]
    assert lines[3].split() == ["ERROR", "-", "0.00", "infrastructure", "dataset/swap"]
    assert lines[4].split() == ["FAILED", "5", "0.00", "dataset/shout"]
    assert main(["show", str(first), "square"]) == 0
    shown = capsys.readouterr().out
    for expected in (
        "dataset/square  PASSED  judge 4/5  code match 1.00",
        "2 queries, concluded YES",
        "    call:       test_func(3,) -> 9",
        "    call:       test_func(2, 1) -> Exception: test_func() takes 1 positional",
        "  predicted:  it squares the input",
    ):
        assert expected in shown, expected
    assert main(["compare", str(first), str(second), "--resamples", "1000"]) == 0
    compared = capsys.readouterr().out
    assert "2 runs, 4 shared instances" in compared
    assert "A  gpt-5.4-mini  (4 instances)" in compared
    assert "B  other  (4 instances)" in compared


def test_without_dataset_ids_follow_the_published_split_only_for_all_its_rows(
    run_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    assert main(["import-reference", str(run_files["predictions"]), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{run_files['predictions']}: 4 rows, so they cannot be named by position" in err
    assert "--dataset hf:DJ-Research/PAU-Benchmark" in err
    row = ref.predictions()[0]
    full = ref.write_jsonl(tmp_path / "interactive_m.jsonl", [row] * 741)
    assert main(["import-reference", str(full), "-o", str(out)]) == 0
    report = read_report(out)
    assert [r.id for r in report.instances[:2]] == [
        "pau_benchmark/test_0000",
        "pau_benchmark/test_0001",
    ]
    assert report.instances[740].id == "pau_benchmark/test_0740"
    assert all(r.status == ItemStatus.SKIPPED for r in report.instances)  # no judge file
    assert any("no judge eval file" in n for n in report.notes)


def test_an_existing_report_is_kept_without_force(
    run_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    out.write_text("keep me")
    assert _import(run_files, out) == 2
    assert "exists; pass --force to overwrite it" in capsys.readouterr().err
    assert out.read_text() == "keep me"
    assert _import(run_files, out, "--force") == 0
    assert read_report(out).run.protocol == "paper"
    argv = ["import-reference", str(run_files["predictions"]), "-o", str(run_files["predictions"])]
    assert main([*argv, "--force"]) == 2
    assert "writing -o would overwrite a result file read" in capsys.readouterr().err


def _broken(files: dict[str, Path], kind: str, line: int, change: dict[str, object]) -> None:
    path = files[kind]
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    rows[line - 1].update(change)
    ref.write_jsonl(path, rows)


@pytest.mark.parametrize(
    ("kind", "line", "change", "message"),
    [
        ("predictions", 1, {"steps": None}, "line 1: field 'steps': expected reason, act, reflect"),
        (
            "predictions",
            2,
            {"n_queries": 5},
            "line 2: field 'n_queries': is 5.0 but the act steps ran 1",
        ),
        (
            "predictions",
            3,
            {"concluded": False},
            "line 3: field 'concluded': is False but the last",
        ),
        ("predictions", 1, {"all_examples": "[]"}, "line 1: field 'all_examples': holds 0 calls"),
        (
            "description",
            3,
            {"score": 7},
            "line 3: field 'score': expected a whole number from 1 to 5",
        ),
        (
            "code",
            1,
            {"predicted_test_outputs": ["16"]},
            "line 1: field 'predicted_test_outputs': 1 outputs for 4",
        ),
        (
            "code",
            2,
            {"predicted_description": "other"},
            "line 2: field 'predicted_description': differs from",
        ),
        (
            "self_code",
            4,
            {"test_func_validated": "def test_func(arg0):\n    return 0\n"},
            "line 4: field 'test_func_validated': differs from",
        ),
    ],
)
def test_bad_fields_name_file_line_and_field(
    run_files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    line: int,
    change: dict[str, object],
    message: str,
) -> None:
    _broken(run_files, kind, line, change)
    assert _import(run_files, tmp_path / "r.json") == 2
    err = capsys.readouterr().err
    assert f"{run_files[kind]} {message}" in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "r.json").exists()


def test_bad_files_are_named(
    run_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "r.json")
    text = run_files["predictions"].read_text().splitlines()
    run_files["predictions"].write_text(text[0] + "\n{not json\n")
    assert main(["import-reference", str(run_files["predictions"]), "-o", out]) == 2
    assert f"{run_files['predictions']} line 2: not valid JSON" in capsys.readouterr().err
    ref.write_run(tmp_path / "results")  # fresh files
    short = ref.write_jsonl(tmp_path / "evals" / "x_judge-J.jsonl", ref.description_eval()[:3])
    assert main(["import-reference", str(run_files["predictions"]), str(short), "-o", out]) == 2
    assert f"{short}: 3 rows, but {run_files['predictions']} has 4" in capsys.readouterr().err
    stray = ref.write_jsonl(tmp_path / "other.jsonl", [{"a": 1}])
    assert main(["import-reference", str(stray), "-o", out]) == 2
    assert "line 1: not a PAU reference result file" in capsys.readouterr().err
    code_preds = ref.write_jsonl(
        tmp_path / "code.jsonl",
        [
            {k: v for k, v in r.items() if k != "predicted_outputs_exact_match"}
            for r in ref.code_eval([1.0, 0.0, 0.0, 0.0])
        ],
    )
    assert (
        main(["import-reference", str(run_files["predictions"]), str(code_preds), "-o", out]) == 2
    )
    assert "a code predictions file" in capsys.readouterr().err
    unknown = ref.write_jsonl(tmp_path / "mine.jsonl", ref.predictions())
    argv = ["import-reference", str(unknown), "-o", out, "--dataset", str(run_files["dataset"])]
    assert main(argv) == 2
    assert "cannot read the model from the file name" in capsys.readouterr().err
    other = tmp_path / "other_set.jsonl"
    other.write_text(run_files["dataset"].read_text().splitlines()[0] + "\n")
    argv = ["import-reference", str(run_files["predictions"]), "-o", out, "--dataset", str(other)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{run_files['predictions']} line 2: field 'test_func_validated': no instance" in err


def _documented_commands() -> list[list[str]]:
    """The ``pau`` commands of docs/paper.md's import section, continuation lines joined."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "paper.md").read_text()
    section = text.split("## Importing the reference's results", 1)[1]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line.split()[1:] for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_documented_commands_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = ref.write_run(tmp_path / "results")
    files["dataset"].rename(tmp_path / "pau_test.jsonl")
    monkeypatch.chdir(tmp_path)
    commands = _documented_commands()
    assert [c[0] for c in commands] == ["import-reference", "show", "show", "compare"]
    first = commands[0]
    assert (
        main([*first[: first.index("-o")], "-o", "ours.json", "--dataset", "pau_test.jsonl"]) == 0
    )
    for argv in commands:
        assert main(argv) == 0, argv
    out = capsys.readouterr().out
    assert "pau_test/square  PASSED  judge 4/5  code match 1.00" in out
    assert "2 runs, 4 shared instances" in out


def test_an_incontext_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = list(ref.METHODS)[:3]
    preds = [ref.dataset_columns(n) | {"predicted_description": f"Guess {n}."} for n in names]
    evals = [
        p
        | {
            "score_prompt": "...",
            "score_output": "Rating: 2",
            "score": 2.0,
            "n_queries": 0,
            "concluded": False,
        }
        for p in preds
    ]
    files = {
        "predictions": ref.write_jsonl(tmp_path / "incontext_gpt-4o.jsonl", preds),
        "description": ref.write_jsonl(
            tmp_path / "incontext_gpt-4o_description_prediction_judge-J.jsonl", evals
        ),
    }
    dataset = ref.write_jsonl(tmp_path / "set.jsonl", [ref.our_dataset_row(n) for n in names])
    argv = [str(files["predictions"]), str(files["description"]), "-o", str(tmp_path / "r.json")]
    assert main(["import-reference", *argv, "--dataset", str(dataset)]) == 0
    report = read_report(tmp_path / "r.json")
    assert (report.run.mode, report.run.model, report.run.judge_model) == (
        "incontext",
        "gpt-4o",
        "J",
    )
    assert report.run.coder_model == "(none)"
    first = report.instances[0]
    assert (first.prediction, first.judge_score, first.n_queries, first.code_match) == (
        "Guess square.",
        2.0,
        0,
        None,
    )
    assert [(s.kind, s.prompt, s.response) for s in first.trajectory] == [
        ("incontext", "Describe it.", "Guess square.")
    ]
    assert any("no fixed-coder eval file" in n for n in report.notes)
    missing = tmp_path / "nope.jsonl"
    assert main(["import-reference", str(missing), "-o", str(tmp_path / "x.json")]) == 2
    assert f"{missing}: no such file" in capsys.readouterr().err


def test_a_call_whose_output_is_no_literal_is_kept_as_the_reference_wrote_it() -> None:
    from pytest_pau.report.reference_rows import trajectory

    row = ref.predictions()[0]
    calls = json.loads(row["all_examples"])
    calls[2][1] = "<object object at 0x7f00>"
    steps, queries, concluded = trajectory(row | {"all_examples": json.dumps(calls)}, n_train=2)
    assert (queries, concluded) == (2, True)
    result = steps[1].result
    assert result is not None
    assert (result.ok, result.value, result.literal) == (True, "<object object at 0x7f00>", False)
