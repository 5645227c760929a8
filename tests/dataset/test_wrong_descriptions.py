"""The optional ``wrong_descriptions`` column: known-wrong near misses for ``pau judge-check``."""

from __future__ import annotations

import json
import unicodedata
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
        ("GOLD", "item 0: is the gold description (whitespace, case and Unicode form aside)"),
        # The gold in full-width letters, with zero-width spaces, decomposed accents: the
        # same text once Unicode-normalised, so no wrong description (sweep of issue 40).
        ("GOLD-FULLWIDTH", "item 0: is the gold description"),
        ("GOLD-ZWSP", "item 0: is the gold description"),
        ("GOLD-NFD", "item 0: is the gold description"),
        (
            ["Adds them.", " adds  THEM. "],
            "item 1: repeats item 0 (whitespace, case and Unicode form aside); drop it",
        ),
    ],
)
def test_a_bad_column_names_the_file_line_id_and_field(
    row: Row, write_jsonl: Writer, value: Any, problem: str
) -> None:
    good = row(id="fine")
    gold = good["description"]
    if value == "GOLD":
        value = ["  " + gold.upper().replace(" ", "   ") + " "]
    elif value == "GOLD-FULLWIDTH":
        value = ["".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in gold)]
    elif value == "GOLD-ZWSP":
        value = [gold.replace(" ", " \u200b")]
    elif value == "GOLD-NFD":
        good["description"] = gold = "Returns the café's rôle."
        value = [unicodedata.normalize("NFD", gold)]
    bad = row(id="bad_one", wrong_descriptions=value, description=gold)
    path = write_jsonl([good, bad])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    message = str(info.value)
    assert f"{path} line 2: field 'wrong_descriptions': instance 'bad_one': " in message
    assert problem in message


def test_too_many_known_wrong_descriptions_are_refused_before_any_call(
    row: Row, write_jsonl: Writer
) -> None:
    # pau judge-check rates every one of them: 100,000 in one cell were 100,000 judge calls
    # for one instance (sweep of issue 40); the most is MAX_WRONG_DESCRIPTIONS.
    from pytest_pau.dataset.pau_format import MAX_WRONG_DESCRIPTIONS

    most = [f"Wrong description {k}." for k in range(MAX_WRONG_DESCRIPTIONS)]
    fine = load_dataset(str(write_jsonl([row(id="a", wrong_descriptions=most)], "fine.jsonl")))
    assert len(fine[0].wrong_descriptions) == MAX_WRONG_DESCRIPTIONS
    many = [f"Wrong description {k}." for k in range(100_000)]
    path = write_jsonl([row(id="many", wrong_descriptions=many)])
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    assert (
        f"{path} line 1: field 'wrong_descriptions': instance 'many': 100000 known-wrong "
        f"descriptions, at most {MAX_WRONG_DESCRIPTIONS}"
    ) in str(info.value)


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
