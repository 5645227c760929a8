"""The pure parts of ``benchmarks/reference_conformance.py``: row mapping and agreement.

The benchmark itself needs the PAU reference and a model server (not CI); what it computes
from their files is checked here: an instance written in the reference's layout reads back
to the same values the reference's own code reads, our format loads to the same examples,
one of our results becomes a predictions line the importer reads back, and each
disagreement is classified and explained.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.models import CallResult, Example, Instance, InstanceResult, Step
from pytest_pau.report.reference_rows import trajectory

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import conformance_rows as rows


@pytest.fixture(scope="module")
def builtin() -> dict[str, Instance]:
    return {i.local_id: i for i in load_dataset("builtin")}


def test_every_default_instance_writes_both_layouts(builtin: dict[str, Instance]) -> None:
    assert len(rows.BENCH_IDS) >= 10
    for name in rows.BENCH_IDS:
        inst = builtin[name]
        row = rows.reference_row(inst)
        assert set(row) == {
            "test_func_validated",
            "description",
            "train_examples",
            "test_examples",
            "all_examples",
            "direct_prompt",
            "interactive_starting_prompt",
            "header",
        }
        train, test = json.loads(row["train_examples"]), json.loads(row["test_examples"])
        # Read as the reference reads them: position 1 a value, position 2 repr text.
        assert train[0][1] == ast.literal_eval(inst.train_examples[0].output)
        assert train[1][1] == inst.train_examples[1].output
        assert isinstance(train[1][1], str)
        held_back = [*inst.train_examples[2:], *inst.test_examples]
        assert [t[0] for t in test] == [e.input for e in held_back]
        assert [t[1] for t in test] == [ast.literal_eval(e.output) for e in held_back]
        assert json.loads(row["all_examples"]) == [[*train[0], "None"], [*train[1], "None"]]


def test_our_rows_load_to_the_same_examples(builtin: dict[str, Instance], tmp_path: Path) -> None:
    path = tmp_path / "conformance.jsonl"
    chosen = [builtin[n] for n in rows.BENCH_IDS]
    path.write_text("".join(json.dumps(rows.our_row(i)) + "\n" for i in chosen))
    loaded = load_dataset(str(path), outputs="repr")
    assert [i.id for i in loaded] == [f"conformance/{n}" for n in rows.BENCH_IDS]
    for mine, orig in zip(loaded, chosen, strict=True):
        assert mine.code == orig.code
        assert mine.description == orig.description
        assert mine.train_examples == orig.train_examples[:2]
        assert mine.test_examples == [*orig.train_examples[2:], *orig.test_examples]


def test_values_json_cannot_hold_are_refused() -> None:
    assert rows.json_clean([1, "a", {"k": None}, True, 2.5])
    for value in [(1, 2), {1: "a"}, {1, 2}, b"x", float("nan"), [(1,)]]:
        assert not rows.json_clean(value), value
    tuple_out = Instance(
        id="t/pair",
        source="t",
        code="def test_func(arg0):\n    return (arg0, arg0)\n",
        header="def test_func(arg0):",
        description="d",
        arity=1,
        train_examples=[
            Example(input="(1,)", output="(1, 1)"),
            Example(input="(2,)", output="(2, 2)"),
        ],
    )
    with pytest.raises(ValueError, match=r"t/pair train 1: output \(1, 1\) is not a plain JSON"):
        rows.reference_row(tuple_out)
    raising = tuple_out.model_copy(
        update={"test_examples": [Example(input="('a',)", output="bad", raises="TypeError")]}
    )
    with pytest.raises(ValueError, match="raises TypeError"):
        rows.reference_row(raising)


def _result() -> InstanceResult:
    ok = CallResult(ok=True, value="-6", literal=True)
    err = CallResult(ok=False, error_type="TypeError", message="arg0 must be a str")
    steps = []
    for it, (literal, result, reflect) in enumerate(
        [
            ("('rhythm',)", ok, "NO\nSummary: counts"),
            ("(3,)", err, "YES\nSummary: vowels minus consonants"),
        ],
        start=1,
    ):
        steps += [
            Step(kind="reason", iteration=it, prompt="p", response="plan"),
            Step(
                kind="act",
                iteration=it,
                prompt="p",
                response=f"Input: {literal}",
                parsed_input=literal,
                result=result,
            ),
            Step(kind="reflect", iteration=it, prompt="p", response=reflect, concluded=it == 2),
        ]
    return InstanceResult(
        id="conformance/vowels_minus_consonants",
        source="conformance",
        arity=1,
        trajectory=steps,
        n_queries=2,
        concluded=True,
        prediction="vowels minus consonants",
        code="def test_func(arg0): ...",
    )


def test_our_result_reads_back_through_the_importer(builtin: dict[str, Instance]) -> None:
    ref_row = rows.reference_row(builtin["vowels_minus_consonants"])
    line = json.loads(json.dumps(rows.predictions_row(ref_row, _result())))
    assert line["predicted_description"] == "vowels minus consonants"
    assert line["steps"][1]["output"] == "Input: ('rhythm',)\n[STOP]"
    triples = json.loads(line["all_examples"])
    assert triples[:2] == [["\"('banana',)\"", "0", "None"], ["\"('Queue',)\"", "'3'", "None"]]
    assert triples[2:] == [
        ["\"('rhythm',)\"", "-6", "None"],
        ["'(3,)'", "None", "'TypeError: arg0 must be a str'"],
    ]
    steps, queries, concluded = trajectory(line, n_train=2)
    assert (queries, concluded) == (2, True)
    assert [s.parsed_input for s in steps if s.kind == "act"] == ["('rhythm',)", "(3,)"]
    assert steps[4].result is not None
    assert steps[4].result.message == "TypeError: arg0 must be a str"
    code = rows.code_row(ref_row, "def test_func(arg0):\n    return 0", "pytest-pau")
    assert code["predicted_code"].startswith("def test_func")
    assert code["test_examples"] == ref_row["test_examples"]
    assert rows.code_row(ref_row, "", "x")["predicted_code"] is None


@pytest.mark.parametrize(
    ("a", "b", "verdict"),
    [
        (4.0, 4.0, "identical"),
        (4.0, 3.0, "within 1"),
        (5.0, 4.0, "within 1"),
        (1.0, 5.0, "differs"),
        (2.0, 4.0, "differs"),
        (None, 3.0, "missing"),
        (3.0, None, "missing"),
    ],
)
def test_judge_agreement(a: float | None, b: float | None, verdict: str) -> None:
    assert rows.judge_agreement(a, b) == verdict


def test_code_agreement_and_counts() -> None:
    assert rows.code_agreement(0.25, 0.25) == "identical"
    assert rows.code_agreement(1 / 3, 0.3333333333) == "identical"
    assert rows.code_agreement(0.25, 0.5) == "differs"
    assert rows.code_agreement(None, 0.5) == "missing"
    table = rows.agreement_table(["differs", "identical", "identical", "odd"])
    assert list(table.items()) == [("identical", 2), ("differs", 1), ("odd", 1)]


def test_each_code_difference_is_explained() -> None:
    ours: list[tuple[bool, str, bool]] = [
        (True, "3", True),  # both match: left out
        (True, "9", True),  # the reference timed out
        (False, "SandboxLimitation: no module 'ctypes'", False),
        (True, "[1, 2]", False),  # different values, both scorers agree it fails: left out
        (True, "(4, 3)", True),  # a tuple: ours matches the repr, the reference's JSON list not
        (False, "ValueError: boom", False),  # expected None, the reference's error is None
    ]
    got = rows.explain_code_difference(
        ["(1,)", "(2,)", "(3,)", "(4,)", "(5,)", "(6,)"],
        [3, 9, 5, [2, 1], [4, 3], None],
        ["3", "None", "5", "[1, 2]", "(4, 3)", "None"],
        ours,
    )
    reasons: dict[str, Any] = {v.input: v.reason for v in got}
    assert list(reasons) == ["(2,)", "(3,)", "(5,)", "(6,)"]
    assert "0.5 s per-call timeout" in reasons["(2,)"]
    assert "lacks a module" in reasons["(3,)"]
    assert reasons["(5,)"] == "same value, compared differently (the reference: JSON-decoded ==)"
    assert "stores an error as None" in reasons["(6,)"]
    unloaded = rows.explain_code_difference(
        ["(1,)", "(2,)"],
        [3, 4],
        ["None", "None"],
        [(True, "3", True), (True, "5", False)],
        reference_loaded=False,
    )
    assert [(v.input, "ran none of the code" in v.reason) for v in unloaded] == [("(1,)", True)]


def test_the_reference_is_configured_by_its_config_lines_only(tmp_path: Path) -> None:
    import conformance_stages as stages

    configs = tmp_path / "configs"
    configs.mkdir()
    # The reference's own files end without a newline and carry comments after values.
    (configs / "project_vars.yaml").write_text(
        'debug: False # comment\nrandom_seed: 42\nevaluation_model_name: "meta-llama/X" # judge\n'
        'code_generation_model_name: "Qwen/Y" # coder'
    )
    stages._set_keys(
        configs / "project_vars.yaml",
        {"evaluation_model_name": '"gpt-4o"', "code_generation_model_name": '"gpt-4-coder"'},
    )
    assert (configs / "project_vars.yaml").read_text() == (
        'debug: False # comment\nrandom_seed: 42\nevaluation_model_name: "gpt-4o"\n'
        'code_generation_model_name: "gpt-4-coder"\n'
    )
    with pytest.raises(SystemExit, match=r"expected one line 'storage_dir: \.\.\.', found 0"):
        stages._set_keys(configs / "project_vars.yaml", {"storage_dir": "x"})


def test_the_proxy_flattens_text_parts_and_nothing_else() -> None:
    import conformance_stages as stages

    parts = {
        "role": "user",
        "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
    }
    assert stages.flat_message(parts) == {"role": "user", "content": "ab"}
    image = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}
    assert stages.flat_message(image) is image
    plain = {"role": "user", "content": "hi"}
    assert stages.flat_message(plain) is plain
    assert stages.SAMPLING["temperature"] == 0.0


def test_the_documented_benchmark_command_parses() -> None:
    """The command docs/paper.md shows needs the reference and a model (not CI): its
    arguments, at least, are the script's."""
    import reference_conformance

    text = (Path(__file__).resolve().parents[2] / "docs" / "paper.md").read_text()
    block = text.split("## The conformance benchmark", 1)[1].split("```bash\n", 1)[1]
    lines = block.split("```", 1)[0].replace("\\\n", " ").splitlines()
    command = next(line.split() for line in lines if "reference_conformance.py" in line)
    assert command[:2] == ["python", "benchmarks/reference_conformance.py"]
    args = reference_conformance.parse_args(command[2:])
    assert (args.reference, args.workdir, args.max_iterations) == (
        Path("pau-reference"),
        Path("conformance"),
        2,
    )
    assert (args.instances, args.model, args.threads) == (10, "local-small", 1)
    # Checked, not run (network and an hour of CPU): the lines that set the reference up
    # clone its public repository and install what its code imports, torch pinned to the
    # CPU wheel (another version pulls a CUDA build of several GB).
    clone = next(line for line in lines if line.startswith("git clone "))
    assert clone.split()[2] == "https://github.com/DhananjayAshok/PAU-Benchmark"
    assert clone.split()[3] == str(args.reference)
    venv = next(line for line in lines if line.startswith("python -m venv "))
    assert "torch==2.13.0" in venv.split()
    assert venv.split()[3] == "ref-env"
    assert command[command.index("--reference-python") + 1] == "ref-env/bin/python"
