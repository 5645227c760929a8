"""PAU's column format from .jsonl and .parquet files: loading and every error path."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.dataset.pau_format import count_params
from pytest_pau.errors import DatasetError
from pytest_pau.models import Example

Row = Callable[..., dict[str, Any]]
Writer = Callable[..., Path]


def test_jsonl_loads_an_instance(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(), row(id="other", tags=["easy", "numbers"])])
    first, second = load_dataset(str(path))
    assert first.id == "data/floor_div"
    assert first.source == "data"
    assert first.arity == 2
    assert first.header == "def test_func(arg0, arg1):"
    assert first.train_examples == [
        Example(input="(7, 2)", output="3"),
        Example(input="(9, 3)", output="3"),
    ]
    assert first.test_examples[1] == Example(
        input="(1, 0)", output="arg1 is zero", raises="ZeroDivisionError"
    )
    assert first.tags == []
    assert second.id == "data/other"
    assert second.tags == ["easy", "numbers"]


def test_rows_without_id_get_their_index(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(id=None), "", row(id=None)], name="My-Set.jsonl")
    ids = [i.id for i in load_dataset(str(path))]
    assert ids == ["my_set/0000", "my_set/0001"]  # blank lines do not count


def test_non_string_outputs_become_their_repr(row: Row, write_jsonl: Writer) -> None:
    examples = json.dumps([["(1, 2)", 0], ["(2, 1)", True], ["(0, 1)", None], ["(3, 1)", [1, "a"]]])
    path = write_jsonl([row(train_examples=examples)])
    (instance,) = load_dataset(str(path))
    assert [e.output for e in instance.train_examples] == ["0", "True", "None", "[1, 'a']"]


def test_examples_may_be_lists_already(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(train_examples=[["(1, 2)", "0"]], tags='["x"]')])
    (instance,) = load_dataset(str(path))
    assert instance.train_examples == [Example(input="(1, 2)", output="0")]
    assert instance.tags == ["x"]


def test_parquet_loads_the_same_instances(
    row: Row, write_jsonl: Writer, write_parquet: Writer
) -> None:
    rows = [row(), row(id="b")]
    from_jsonl = load_dataset(str(write_jsonl(rows)))
    from_parquet = load_dataset(str(write_parquet(rows)))
    assert from_parquet == from_jsonl


def test_parquet_errors_name_the_row(row: Row, write_parquet: Writer) -> None:
    path = write_parquet([row(), row(id="b", header="def test_func(arg0):")])
    with pytest.raises(DatasetError, match=r"data\.parquet row 1: field 'header': declares 1"):
        load_dataset(str(path))


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"header": None}, "line 2: field 'header': required"),
        ({"description": None}, "line 2: field 'description': required"),
        ({"test_func_validated": None}, "line 2: field 'test_func_validated': required"),
        ({"train_examples": None}, "line 2: field 'train_examples': required"),
        ({"description": "   "}, "line 2: field 'description': must not be empty"),
        ({"header": 3}, "line 2: field 'header': expected a string, got int"),
        (
            {"header": "test_func(arg0, arg1)"},
            "field 'header': expected 'def test_func(arg0, ...):'",
        ),
        ({"header": "def test_func(*args):"}, "field 'header': variadic parameter '*args'"),
        (
            {"header": "def test_func(arg0):"},
            "field 'header': declares 1 argument(s) but test_func in 'test_func_validated' takes 2",
        ),
        (
            {"test_func_validated": "def other(a, b):\n    return a\n"},
            "field 'test_func_validated': no 'def test_func(' found",
        ),
        (
            {"train_examples": json.dumps([["[7, 2]", "3"]])},
            "field 'train_examples': item 0: input '[7, 2]' is not a tuple literal; "
            "write one argument as '([7, 2],)'",
        ),
        (
            {"test_examples": json.dumps([["(7, 2)", "3"], ["(7,)", "7"]])},
            "field 'test_examples': item 1: input '(7,)' has 1 argument(s) but the header declares 2",
        ),
        (
            {"train_examples": json.dumps([["(f(1), 2)", "3"]])},
            "field 'train_examples': item 0: input '(f(1), 2)' is not a Python literal",
        ),
        ({"train_examples": json.dumps([[7, "3"]])}, "item 0: input must be a str"),
        ({"train_examples": "[[oops"}, "field 'train_examples': not valid JSON"),
        ({"train_examples": json.dumps({"a": 1})}, "field 'train_examples': expected a list"),
        ({"train_examples": json.dumps([["(7, 2)"]])}, "item 0: expected [input, output]"),
        (
            {"test_examples": json.dumps([["(7, 2)", "x", "not a name"]])},
            "item 0: exception type must be a name, got 'not a name'",
        ),
        ({"all_examples": json.dumps([["(1, 2, 3)", "x"]])}, "field 'all_examples': item 0"),
        (
            {"tags": ["easy", "has space"]},
            "field 'tags': tag 'has space' is not a valid pytest marker",
        ),
        ({"tags": 5}, "field 'tags': expected a list of names"),
        ({"id": "a b"}, "field 'id': 'a b' has whitespace or brackets"),
        ({"id": 1.5}, "field 'id': expected a string or an integer"),
    ],
)
def test_bad_field_is_reported_with_file_line_and_field(
    row: Row, write_jsonl: Writer, changes: dict[str, Any], expected: str
) -> None:
    path = write_jsonl([row(id="good"), row(**changes)])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    message = str(info.value)
    assert message.startswith(f"{path} line 2: field ")
    assert expected in message


def test_the_issue_example_message(
    row: Row, write_jsonl: Writer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [row(id=f"m{i}") for i in range(6)] + [row(id="m6", header=None)]
    write_jsonl(rows)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatasetError, match=r"^data\.jsonl line 7: field 'header': required$"):
        load_dataset("data.jsonl")


def test_duplicate_ids_are_rejected(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(), row(id="x"), row()])
    with pytest.raises(
        DatasetError,
        match=r"line 3: field 'id': duplicate id 'floor_div' \(first seen at .*line 1\)",
    ):
        load_dataset(str(path))


def test_lines_that_are_not_objects(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(), "{not json", "[1, 2]"])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: 2 problems:")
    assert "line 2: not valid JSON" in message
    assert "line 3: expected a JSON object, got list" in message


def test_many_problems_are_capped(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(id=f"r{i}", header=None) for i in range(30)])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    lines = str(info.value).splitlines()
    assert len(re.findall("field 'header': required", str(info.value))) == 10
    assert lines[-1].strip().startswith("... (stopped after the first problems")


def test_file_level_errors(tmp_path: Path, write_jsonl: Writer) -> None:
    with pytest.raises(DatasetError, match=r"missing\.jsonl: no such file; check the path"):
        load_dataset(str(tmp_path / "missing.jsonl"))
    empty = write_jsonl([""], name="empty.jsonl")
    with pytest.raises(DatasetError, match=r"empty\.jsonl: no rows"):
        load_dataset(str(empty))
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match=r"broken\.parquet: not a readable parquet file"):
        load_dataset(str(broken))


@pytest.mark.parametrize(
    ("params", "count"),
    [
        ("", 0),
        ("arg0", 1),
        ("a, b=(1, 2), c='x,y'", 3),
        ("a, /, b, *, c", 3),
        ("a: dict[str, int], b", 2),
    ],
)
def test_count_params(params: str, count: int) -> None:
    assert count_params(params) == count
