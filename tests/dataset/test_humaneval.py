"""HumanEval converted to PAU instances: code, description, inputs, outputs, skips, cache."""

from __future__ import annotations

import ast
import gzip
import json
import time
from pathlib import Path

import pytest

from pytest_pau import load_dataset
from pytest_pau.dataset import humaneval
from pytest_pau.dataset.execute import run_subprocess
from pytest_pau.dataset.humaneval import (
    convert_code,
    convert_problems,
    describe,
    inputs_from_docstring,
    inputs_from_tests,
)
from pytest_pau.errors import DatasetError

PROMPT = '''from typing import List


def helper(x: int) -> int:
    """Doubles x."""
    return 2 * x


def scale_all(numbers: List[int], factor: int) -> List[int]:
    """ Multiply each number by twice the factor.
    Negative factors are treated as zero.
    >>> scale_all([1, 2], 3)
    [6, 12]
    For example:
        scale_all([], 1) ==> []
    """
'''
SOLUTION = """    if factor < 0:
        factor = 0  # clamp
    return [n * helper(factor) for n in numbers]
"""
TEST = """
def check(candidate):
    assert candidate([1], 1) == [2]
    assert candidate([1, 2, 3], -4) == [0, 0, 0]
    assert candidate(list(range(3)), 2) == [0, 4, 8]
    assert candidate([5], factor=2) == [20]
    assert candidate([1], 1) == [2]
"""


def problem(task: str = "HumanEval/7", **changes: str) -> dict[str, str]:
    base = {
        "task_id": task,
        "prompt": PROMPT,
        "canonical_solution": SOLUTION,
        "test": TEST,
        "entry_point": "scale_all",
    }
    return {**base, **changes}


def test_code_is_renamed_and_stripped() -> None:
    code, params, doc = convert_code(PROMPT, SOLUTION, "scale_all")
    assert params == ["numbers", "factor"]
    assert "Multiply each number" in doc
    tree = ast.parse(code)
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert names == ["helper", "test_func"]  # helper kept, entry renamed
    assert "def test_func(arg0, arg1):" in code
    for leaked in ("numbers", "factor", "Doubles", "Multiply", "clamp", "List[int]"):
        assert leaked not in code
    env: dict[str, object] = {}
    exec(code, env)  # trusted: our own fixture
    assert env["test_func"]([1, 2], 3) == [6, 12]  # type: ignore[operator]


def test_description_drops_examples_and_names_arguments() -> None:
    text = describe(
        convert_code(PROMPT, SOLUTION, "scale_all")[2], "scale_all", ["numbers", "factor"]
    )
    assert text == (
        "Multiply each number by twice the factor. Negative factors are treated as zero. "
        "(In the header, arg0 is 'numbers', arg1 is 'factor'.)"
    )


def test_inputs_come_from_literal_calls_only() -> None:
    assert inputs_from_tests(TEST, 2) == ["([1], 1)", "([1, 2, 3], -4)"]
    assert inputs_from_docstring(PROMPT, "scale_all", 2) == ["([1, 2], 3)", "([], 1)"]


def test_convert_computes_outputs_and_counts_skips() -> None:
    problems = [
        problem(),
        problem(
            "HumanEval/8",
            test="def check(candidate):\n    assert candidate(x, 1)\n",
            prompt=PROMPT.replace(">>> scale_all([1, 2], 3)", "").replace(
                "scale_all([], 1) ==> []", ""
            ),
        ),
        problem("HumanEval/9", canonical_solution="    return [\n"),
        problem("HumanEval/10", entry_point="missing"),
    ]
    rows, skipped = convert_problems(problems, runner=run_subprocess)
    assert skipped == {
        "HumanEval/8": "only 0 literal input(s) in the test code",
        "HumanEval/9": skipped["HumanEval/9"],
        "HumanEval/10": "code: no function named 'missing'",
    }
    assert skipped["HumanEval/9"].startswith("code: ")
    (row,) = rows
    assert row["id"] == "007_scale_all"
    assert row["header"] == "def test_func(arg0, arg1):"
    pairs = json.loads(row["all_examples"])
    assert pairs == [
        ["([1, 2], 3)", "[6, 12]"],
        ["([], 1)", "[]"],
        ["([1], 1)", "[2]"],
        ["([1, 2, 3], -4)", "[0, 0, 0]"],
    ]
    assert json.loads(row["train_examples"]) == pairs[:2]
    assert json.loads(row["test_examples"]) == pairs[2:]


def test_exceptions_are_recorded_as_expected_outputs() -> None:
    raising = problem(
        canonical_solution="    if factor < 0:\n        raise ValueError('negative')\n    return numbers\n"
    )
    rows, _ = convert_problems([raising], runner=run_subprocess)
    pairs = json.loads(rows[0]["all_examples"])
    assert ["([1, 2, 3], -4)", "negative", "ValueError"] in pairs


def write_problems(path: Path, problems: list[dict[str, str]]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(p) + "\n" for p in problems)
    return path


def test_derived_instances_are_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_problems(tmp_path / "he.jsonl.gz", [problem(), problem("HumanEval/11")])
    cache = tmp_path / "cache"
    first = humaneval.load_humaneval(cache_dir=cache, data=data, runner=run_subprocess)
    assert [i.id for i in first] == ["humaneval/007_scale_all", "humaneval/011_scale_all"]
    assert len(list(cache.glob("humaneval-*.jsonl"))) == 1

    def must_not_convert(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached load converted again")

    monkeypatch.setattr(humaneval, "convert_problems", must_not_convert)
    assert humaneval.load_humaneval(cache_dir=cache, data=data) == first


def test_only_the_test_split_exists(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"humaneval has one split, 'test'; got split 'train'"):
        load_dataset("humaneval", "train", cache_dir=tmp_path)


@pytest.mark.slow
def test_the_real_humaneval_converts_at_least_160(tmp_path: Path) -> None:
    start = time.perf_counter()
    instances = load_dataset("humaneval", cache_dir=tmp_path)
    cold = time.perf_counter() - start
    assert len(instances) >= 160
    assert len({i.id for i in instances}) == len(instances)
    by_id = {i.local_id: i for i in instances}
    close = by_id["000_has_close_elements"]
    assert close.arity == 2
    assert "numbers" not in close.code
    assert '"""' not in close.code
    # Outputs were computed by running the method, and agree with HumanEval's own asserts.
    assert {e.input: e.output for e in close.test_examples}[
        "([1.0, 2.0, 5.9, 4.0, 5.0], 0.8)"
    ] == "False"
    assert all(i.train_examples and i.test_examples for i in instances)
    start = time.perf_counter()
    again = load_dataset("humaneval", cache_dir=tmp_path)
    warm = time.perf_counter() - start
    assert again == instances
    assert warm < cold


def test_a_conversion_without_a_runner_says_how_to_load_it(tmp_path: Path) -> None:
    from pytest_pau.dataset import load_dataset as load_without_runner

    with pytest.raises(DatasetError, match=r"pytest_pau.load_dataset\('humaneval'\)"):
        load_without_runner("humaneval", cache_dir=tmp_path)
