"""How a file writes example outputs (issue 14): repr text or plain JSON values, per file."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.dataset import DatasetInfo, load_dataset, register_loader, unregister_loader
from pytest_pau.dataset.builtin import DATA_FILE
from pytest_pau.dataset.files import load_file
from pytest_pau.dataset.output_format import classify
from pytest_pau.errors import DatasetError
from pytest_pau.models import Example, Instance
from pytest_pau.scoring import run_code
from tests.docs.pages import fenced, section

Row = Callable[..., dict[str, Any]]
Writer = Callable[..., Path]

# Methods whose outputs cover what the two conventions write differently: strings (one a
# palindrome, one empty, one that looks like a number), lists, dicts, None, bools, floats,
# and an exception.
METHODS: dict[str, tuple[str, list[str]]] = {
    "reverse": (
        "def test_func(arg0):\n    return arg0[::-1]\n",
        ["('racecar',)", "('abc',)", "('',)", "('a b',)", "('12',)"],
    ),
    "digits": (
        "def test_func(arg0):\n    return str(arg0)\n",
        ["(1,)", "(42,)", "(-7,)"],
    ),
    "sorted_words": (
        "def test_func(arg0):\n    return sorted(arg0.split())\n",
        ["('b a c',)", "('',)", "('one',)"],
    ),
    "counts": (
        "def test_func(arg0):\n"
        "    out = {}\n"
        "    for ch in arg0:\n"
        "        out[ch] = out.get(ch, 0) + 1\n"
        "    return out\n",
        ["('aab',)", "('',)"],
    ),
    "first_even": (
        "def test_func(arg0):\n"
        "    for x in arg0:\n"
        "        if x % 2 == 0:\n"
        "            return x\n"
        "    return None\n",
        ["([1, 3, 4],)", "([1, 3],)", "([],)"],
    ),
    "is_upper": (
        "def test_func(arg0):\n    return arg0.isupper()\n",
        ["('ABC',)", "('aBC',)"],
    ),
    "halve": (
        "def test_func(arg0, arg1):\n"
        "    if arg1 == 0:\n"
        "        raise ZeroDivisionError('arg1 is zero')\n"
        "    return arg0 / arg1\n",
        ["(1, 2)", "(3, 4)", "(1, 0)"],
    ),
}


def run(code: str, text: str) -> tuple[bool, Any]:
    """Run trusted test code in-process: ``(True, value)`` or ``(False, exception)``."""
    env: dict[str, Any] = {}
    exec(code, env)
    try:
        return True, env["test_func"](*ast.literal_eval(text))
    except Exception as exc:
        return False, exc


def pau_rows(convention: str) -> list[dict[str, Any]]:
    """:data:`METHODS` as PAU rows, outputs written as ``repr`` text or plain ``json``."""
    rows = []
    for name, (code, inputs) in METHODS.items():
        pairs: list[list[Any]] = []
        for text in inputs:
            ok, value = run(code, text)
            if not ok:
                pairs.append([text, str(value), type(value).__name__])
            else:
                pairs.append([text, repr(value) if convention == "repr" else value])
        header = code.splitlines()[0].rstrip(":") + ":"
        rows.append(
            {
                "id": name,
                "test_func_validated": code,
                "description": f"The {name} method.",
                "header": header,
                "train_examples": json.dumps(pairs[:1]),
                "test_examples": json.dumps(pairs[1:]),
                "all_examples": json.dumps(pairs),
            }
        )
    return rows


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def examples_row(row: Row, pairs: list[list[Any]], **changes: Any) -> dict[str, Any]:
    """The fixture row (floor division, two arguments) with these test examples."""
    return row(test_examples=json.dumps(pairs), all_examples=None, **changes)


def outputs(instance: Instance) -> list[str]:
    return [e.output for e in instance.test_examples]


def test_a_json_file_and_a_repr_file_give_the_same_instances(tmp_path: Path) -> None:
    from_repr = load_dataset(str(write(tmp_path / "repr" / "pau.jsonl", pau_rows("repr"))))
    from_json = load_dataset(str(write(tmp_path / "json" / "pau.jsonl", pau_rows("json"))))
    assert from_repr.info == DatasetInfo("repr", "detected", from_repr.info.evidence)
    assert from_json.info.outputs == "json"
    assert from_json.info.outputs_by == "detected"
    assert from_json == from_repr
    by_id = {i.local_id: i for i in from_json}
    assert outputs(by_id["reverse"]) == ["'cba'", "''", "'b a'", "'21'"]
    assert outputs(by_id["digits"]) == ["'42'", "'-7'"]  # the JSON string "42" is a str
    assert outputs(by_id["first_even"]) == ["None", "None"]
    assert by_id["halve"].test_examples[-1] == Example(
        input="(1, 0)", output="arg1 is zero", raises="ZeroDivisionError"
    )


def test_the_gold_code_scores_1_on_both_conventions(tmp_path: Path) -> None:
    # The issue: the gold code scored 0.795 on a JSON-values file read as repr text.
    for convention in ("repr", "json"):
        path = write(tmp_path / convention / "pau.jsonl", pau_rows(convention))
        for instance in load_dataset(str(path)):
            result = run_code(instance.code, instance.test_examples)
            assert result.score == 1.0, (convention, instance.id, result.mismatches)


def test_reading_a_json_file_as_repr_is_the_old_bug(tmp_path: Path) -> None:
    path = write(tmp_path / "pau.jsonl", pau_rows("json"))
    forced = {i.local_id: i for i in load_dataset(str(path), outputs="repr")}
    assert forced["reverse"].test_examples[0].output == "cba"  # not a literal: never matches
    assert run_code(forced["reverse"].code, forced["reverse"].test_examples).score == 0.0
    assert forced["digits"].test_examples[0].output == "42"  # the int 42, not the str
    assert run_code(forced["digits"].code, forced["digits"].test_examples).score == 0.0


@pytest.mark.parametrize(
    ("output", "vote"),
    [
        ("'racecar'", "repr"),
        ('"it\'s"', "repr"),
        ("(1, 2)", "repr"),
        ("None", "repr"),
        ("True", "repr"),
        ("['a', 'b']", "repr"),
        ("{1, 2}", "repr"),
        ("b'x'", "repr"),
        ("racecar", "plain"),
        ("hello world", "plain"),
        ("", "plain"),
        (" 1", "plain"),
        ("1 + 2", "plain"),
        ("f(x)", "plain"),
        ("(5)", "plain"),  # literals, but not as repr writes them
        ("1.00", "plain"),
        ('"abc"', "plain"),
        ("[1,2]", "plain"),
        ('{"a": 1}', "plain"),
        ("{'b', 'a', 'c'}", "repr"),  # a set's order is the writer's: not compared
        ("1", "either"),
        ("-3.5", "either"),
        ("[1, 2]", "either"),
        ("{'a': 1}", "repr"),
        ("[1, [2" + ", 3" * 2000 + "]]", "either"),
        ("[" + "9" * 5000 + "]", "either"),
        ("9" * 5000, "either"),  # over CPython's int parse limit
        ("nan", "either"),
        ("[nan, -inf]", "either"),
        ("(nan+1j)", "either"),
        ("Point(x=1, y=2)", "either"),
        ("datetime.date(2020, 1, 1)", "either"),
        ("<object object at 0x7f3a>", "either"),
        ("defaultdict(<class 'int'>, {})", "either"),
        (3, "value"),
        (None, "value"),
        (True, "value"),
        ([1, "a"], "value"),
    ],
)
def test_what_one_output_says(output: object, vote: str) -> None:
    assert classify(output) == vote


def test_strings_that_look_like_literals_in_a_json_file(row: Row, write_jsonl: Writer) -> None:
    # "3" next to JSON numbers is the str '3'; the same text in a repr file is the int 3.
    pairs: list[list[Any]] = [["(7, 2)", 3], ["(9, 3)", "3"], ["(1, 1)", "[1]"], ["(1, 2)", None]]
    (instance,) = load_dataset(str(write_jsonl([examples_row(row, pairs)])))
    assert instance.train_examples[0].output == "'3'"  # the fixture row's train "3"
    assert outputs(instance) == ["3", "'3'", "'[1]'", "None"]


def test_a_repr_file_of_only_numbers_is_repr(row: Row, write_jsonl: Writer) -> None:
    pairs = [["(7, 2)", "3"], ["(9, 3)", "-3"], ["(1, 1)", "1.5"], ["(1, 2)", "[1, 2]"]]
    loaded = load_dataset(str(write_jsonl([examples_row(row, pairs)])))
    assert loaded.info.outputs == "repr"
    assert outputs(loaded[0]) == ["3", "-3", "1.5", "[1, 2]"]


def test_empty_and_null_outputs(row: Row, write_jsonl: Writer) -> None:
    as_json: list[list[Any]] = [["(7, 2)", ""], ["(9, 3)", None], ["(1, 1)", "x"]]
    loaded = load_dataset(str(write_jsonl([examples_row(row, as_json)], name="j.jsonl")))
    assert loaded.info.outputs == "json"
    assert outputs(loaded[0]) == ["''", "None", "'x'"]
    as_repr = [["(7, 2)", "''"], ["(9, 3)", "None"], ["(1, 1)", "'x'"]]
    loaded = load_dataset(str(write_jsonl([examples_row(row, as_repr)], name="r.jsonl")))
    assert loaded.info.outputs == "repr"
    assert outputs(loaded[0]) == ["''", "None", "'x'"]


def test_a_file_of_only_exceptions_is_repr(row: Row, write_jsonl: Writer) -> None:
    raising = [["(1, 0)", "arg1 is zero", "ZeroDivisionError"]]
    path = write_jsonl([row(train_examples=json.dumps(raising), test_examples=json.dumps(raising))])
    loaded = load_dataset(str(path))
    assert loaded.info.outputs == "repr"
    assert loaded.info.evidence == "no outputs of a value"


def test_mostly_plain_strings_are_json(row: Row, write_jsonl: Writer) -> None:
    pairs = [["(7, 2)", "abc"], ["(9, 3)", "hello world"], ["(1, 1)", "12"], ["(2, 1)", "x"]]
    loaded = load_dataset(str(write_jsonl([examples_row(row, pairs)])))
    assert loaded.info.outputs == "json"
    assert outputs(loaded[0]) == ["'abc'", "'hello world'", "'12'", "'x'"]


def test_object_reprs_do_not_make_a_repr_file_json(row: Row, write_jsonl: Writer) -> None:
    pairs = [["(7, 2)", "'abc'"], ["(9, 3)", "nan"], ["(1, 1)", "Fraction(1, 3)"]]
    loaded = load_dataset(str(write_jsonl([examples_row(row, pairs)])))
    assert loaded.info.outputs == "repr"
    assert outputs(loaded[0]) == ["'abc'", "nan", "Fraction(1, 3)"]


def test_the_decision_is_per_file_not_per_row(row: Row, write_jsonl: Writer) -> None:
    # One odd row among many: a json file's method that returns quoted text stays json.
    rows = [examples_row(row, [["(7, 2)", 3], ["(1, 1)", 1]], id=f"n{i}") for i in range(20)]
    rows.append(examples_row(row, [["(7, 2)", "'quoted'"]], id="quoted"))
    loaded = load_dataset(str(write_jsonl(rows)))
    assert loaded.info.outputs == "json"
    assert outputs(loaded[-1]) == ["\"'quoted'\""]


def test_undecidable_outputs_name_the_file_rows_and_the_override(
    row: Row, write_jsonl: Writer
) -> None:
    # Strings as repr text, numbers as JSON values: half of it would be read wrong.
    pairs: list[list[Any]] = [["(7, 2)", "'abc'"], ["(9, 3)", 3], ["(1, 1)", "'x'"], ["(2, 1)", 2]]
    path = write_jsonl([examples_row(row, pairs, id="a"), examples_row(row, pairs, id="b")])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: cannot tell how the example outputs are written")
    assert "4 repr text, 4 JSON values" in message
    assert f"{path} line 1 test_examples[0]: \"'abc'\"" in message
    assert f"{path} line 1 test_examples[1]: 3" in message
    assert "--pau-dataset-outputs=repr or --pau-dataset-outputs=json" in message
    forced = load_dataset(str(path), outputs="repr")
    assert forced.info == DatasetInfo("repr", "given")
    assert outputs(forced[0]) == ["'abc'", "3", "'x'", "2"]


def test_the_override_reads_a_repr_file_as_json(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([examples_row(row, [["(7, 2)", "'abc'"], ["(9, 3)", "3"]])])
    loaded = load_dataset(str(path), outputs="json")
    assert loaded.info.describe() == "outputs: json (as given)"
    assert outputs(loaded[0]) == ["\"'abc'\"", "'3'"]
    with pytest.raises(
        DatasetError,
        match=r"outputs must be one of auto, repr, json, reference, recompute, got 'yaml'",
    ):
        load_dataset(str(path), outputs="yaml")  # type: ignore[arg-type]


def test_parquet_is_detected_the_same(tmp_path: Path, write_parquet: Writer) -> None:
    jsonl = load_dataset(str(write(tmp_path / "pau.jsonl", pau_rows("json"))))
    parquet = load_dataset(str(write_parquet(pau_rows("json"), tmp_path / "pau.parquet")))
    assert parquet.info.outputs == "json"
    assert parquet == jsonl


def test_builtin_and_loaders_say_where_outputs_come_from() -> None:
    builtin = load_dataset("builtin")
    assert builtin.info.describe() == "outputs: repr (written by pytest-pau)"
    assert load_dataset("builtin", outputs="json") == builtin  # our own set: always repr
    detected = load_file(DATA_FILE, source="builtin")
    assert detected.info.outputs == "repr"
    assert detected == builtin
    instance = builtin[0]

    def toy(spec: str, split: str, cache_dir: Path) -> list[Instance]:
        return [instance]

    register_loader("toy:", toy)
    try:
        loaded = load_dataset("toy:x")
    finally:
        unregister_loader(toy)
    assert loaded == [instance]
    assert loaded.info.outputs is None
    assert loaded.info.as_dict() == {
        "outputs": None,
        "outputs_by": "loader",
        "evidence": "",
        "stored": None,
    }


def test_the_dataset_format_examples_load_the_same(tmp_path: Path) -> None:
    blocks = fenced(section("datasets.md", "## Dataset format"), "jsonl")
    assert len(blocks) == 2
    loaded = []
    for name, block in zip(("repr", "json"), blocks, strict=True):
        path = tmp_path / name / "rev.jsonl"
        path.parent.mkdir()
        path.write_text(block, encoding="utf-8")
        loaded.append(load_dataset(str(path)))
    assert [d.info.outputs for d in loaded] == ["repr", "json"]
    assert loaded[0] == loaded[1]
    assert [i.id for i in loaded[0]] == ["rev/rev", "rev/scale"]
    for instance in loaded[0]:
        assert run_code(instance.code, instance.test_examples).score == 1.0
