"""The optional ``wrong_descriptions`` column: known-wrong near misses for ``pau judge-check``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.errors import DatasetError
from pytest_pau.scoring.decoy import check_sample

Row = Callable[..., dict[str, Any]]
Writer = Callable[..., Path]


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def test_the_column_is_read_as_a_list_or_json_text(row: Row, write_jsonl: Writer) -> None:
    wrong = ["Returns arg0 // arg1 rounded up.", "Returns arg1 // arg0."]
    path = write_jsonl(
        [
            row(id="a", wrong_descriptions=wrong),
            row(id="b", wrong_descriptions=json.dumps(wrong[:1])),
            row(id="c"),
            row(id="d", wrong_descriptions=[]),
        ]
    )
    a, b, c, d = load_dataset(str(path))
    assert a.wrong_descriptions == tuple(wrong)
    assert b.wrong_descriptions == tuple(wrong[:1])
    assert c.wrong_descriptions == d.wrong_descriptions == ()


def test_the_column_is_not_part_of_the_task_digest(row: Row, write_jsonl: Writer) -> None:
    plain, wrong = load_dataset(
        str(write_jsonl([row(id="a"), row(id="a2", wrong_descriptions=["Adds them."])]))
    )
    assert plain.model_copy(update={"id": wrong.id}).task_digest() == wrong.task_digest()


def test_parquet_reads_the_column(row: Row, write_parquet: Writer) -> None:
    path = write_parquet([row(id="a", wrong_descriptions=["Adds them."]), row(id="b")])
    a, b = load_dataset(str(path))
    assert a.wrong_descriptions == ("Adds them.",)
    assert b.wrong_descriptions == ()


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("Adds them.", "expected a JSON list of strings, got text that is not valid JSON"),
        ('"Adds them."', "expected a list of strings, got str 'Adds them.'"),
        ({"a": "b"}, "expected a list of strings, got dict"),
        (["Adds them.", 3], "item 1: expected a string, got int 3"),
        (["Adds them.", "   "], "item 1: is empty"),
        (["Adds them.", None], "item 1: expected a string, got NoneType None"),
        ("GOLD", "item 0: is the gold description (whitespace and case aside)"),
    ],
)
def test_a_bad_column_names_the_file_line_id_and_field(
    row: Row, write_jsonl: Writer, value: Any, problem: str
) -> None:
    good = row(id="fine")
    if value == "GOLD":
        value = ["  " + good["description"].upper().replace(" ", "   ") + " "]
    path = write_jsonl([good, row(id="bad_one", wrong_descriptions=value)])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    message = str(info.value)
    assert f"{path} line 2: field 'wrong_descriptions': instance 'bad_one': " in message
    assert problem in message


def test_the_builtin_sample_has_a_near_miss_for_every_instance() -> None:
    """The default ``pau judge-check`` sample (40 instances, seed 0) rates a known-wrong
    description on each: every one carries one, and none is its gold description."""
    builtin = load_dataset("builtin")
    by_id = {i.id: i for i in builtin}
    sample = check_sample([i.id for i in builtin], 40, seed=0)
    assert len(sample) == 40
    for item_id in sample:
        instance = by_id[item_id]
        assert instance.wrong_descriptions, item_id
        for text in instance.wrong_descriptions:
            assert text.strip(), item_id
            assert not _same_text(text, instance.description), item_id
            # A near miss of its own gold, not another instance's description.
            assert not any(_same_text(text, other.description) for other in builtin), item_id
