"""Dataset rows checked at load: a row the sandbox cannot run as written (a held-back input
over its limits, code that does not compile, no held-back example) is a usage error at load
naming the row and the field, before any model call; never an item that fails or scores
for reasons that are not the model's."""

from __future__ import annotations

import json

import pytest

from pytest_pau.models import Example, Instance
from pytest_pau.sandbox.literals import MAX_INPUT_DEPTH, MAX_INPUT_INT_DIGITS

from .toy import toy_rows


def _write(pytester: pytest.Pytester, change) -> None:
    rows = toy_rows()
    for row in rows:
        if row["id"] == "double":
            change(row)
    (pytester.path / "toy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _refused(result: pytest.RunResult, scoring_llm, served: int) -> str:
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    assert "Traceback" not in text
    assert scoring_llm.requests == served, "no model was called"
    return result.stderr.str()


def test_a_held_back_input_nested_past_the_sandbox_limit_is_refused_at_load(
    pau_pytester, run_pau, scoring_llm
) -> None:
    deep = "(" + "[" * (MAX_INPUT_DEPTH + 1) + "]" * (MAX_INPUT_DEPTH + 1) + ",)"

    def add_deep(row: dict) -> None:
        pairs = json.loads(row["test_examples"])
        row["test_examples"] = json.dumps([*pairs, [deep, "0"]])

    _write(pau_pytester, add_deep)
    served = scoring_llm.requests
    err = _refused(run_pau("-k", "double"), scoring_llm, served)
    assert (
        "instance 'toy/double': field 'test_examples': item 3: the sandbox refuses this "
        f"input: {deep[:100]!r} is nested deeper than {MAX_INPUT_DEPTH} levels"
    ) in err


def test_code_that_does_not_compile_is_refused_at_load(pau_pytester, run_pau, scoring_llm) -> None:
    def break_code(row: dict) -> None:
        row["test_func_validated"] = "def test_func(arg0):\n    return arg0 *\n"

    _write(pau_pytester, break_code)
    served = scoring_llm.requests
    err = _refused(run_pau("-k", "double"), scoring_llm, served)
    assert (
        "instance 'toy/double': field 'test_func_validated': the code does not compile "
        "(SyntaxError: invalid syntax (line 2))"
    ) in err


def test_code_only_the_guests_newer_python_compiles_is_accepted(pau_pytester, run_pau) -> None:
    # f-strings with nested quotes (Python 3.12+): the Wasm guest (3.14) runs them.
    code = 'def test_func(arg0):\n    d = {"k": arg0 * 2}\n    return int(f"{d["k"]}")\n'

    def newer(row: dict) -> None:
        row["test_func_validated"] = code

    _write(pau_pytester, newer)
    run_pau("-k", "double").assert_outcomes(passed=1)


def test_a_row_without_held_back_examples_is_refused_naming_its_line(
    pau_pytester, run_pau, scoring_llm
) -> None:
    def empty(row: dict) -> None:
        row["test_examples"] = "[]"

    _write(pau_pytester, empty)
    served = scoring_llm.requests
    err = _refused(run_pau("-k", "double"), scoring_llm, served)
    assert (
        "toy.jsonl line 1: field 'test_examples': is empty; code match needs held-back examples"
    ) in err


def test_instances_from_a_conftest_hook_are_checked_too(pau_pytester, run_pau, scoring_llm) -> None:
    pau_pytester.makeconftest(
        f"""
        from pytest_pau.models import Example, Instance

        def pytest_pau_load_dataset(config, spec, split):
            big = "(" + "7" * {MAX_INPUT_INT_DIGITS + 1} + ",)"
            return [
                Instance(
                    id="mine/big", source="mine", code="def test_func(arg0):\\n    return 1\\n",
                    header="def test_func(arg0):", description="Returns 1.", arity=1,
                    test_examples=[Example(input="(1,)", output="1"), Example(input=big, output="1")],
                )
            ]
        """
    )
    served = scoring_llm.requests
    err = _refused(run_pau(), scoring_llm, served)
    assert (
        "instance 'mine/big': field 'test_examples': item 1: the sandbox refuses this input" in err
    )
    assert f"holds an integer of more than {MAX_INPUT_INT_DIGITS} digits" in err


def test_the_builtin_set_passes_the_same_check() -> None:
    from pytest_pau import load_dataset
    from pytest_pau.sandbox.runnable import check_instances

    instances = load_dataset("builtin")
    assert instances.info.checked  # so a run does not check it again
    check_instances(instances, what="builtin")


def test_the_python_api_refuses_such_a_set(tmp_path) -> None:
    from pytest_pau import load_dataset
    from pytest_pau.errors import DatasetError

    rows = toy_rows()
    rows[0]["test_func_validated"] = "def test_func(arg0):\n    return (\n"
    (tmp_path / "set.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(DatasetError, match=r"instance 'set/double': field 'test_func_validated'"):
        load_dataset(str(tmp_path / "set.jsonl"))


def test_instance_problems_lists_each_problem() -> None:
    from pytest_pau.sandbox.runnable import instance_problems

    inst = Instance(
        id="s/x",
        source="s",
        code="def test_func(arg0):\n    return arg0\n",
        header="def test_func(arg0):",
        description="Returns it.",
        arity=1,
        train_examples=[Example(input="(" + "-" * (MAX_INPUT_DEPTH + 1) + "1,)", output="1")],
    )
    problems = instance_problems(inst)
    assert problems[0].startswith("field 'test_examples': is empty")
    assert problems[1].startswith("field 'train_examples': item 0: the sandbox refuses")
