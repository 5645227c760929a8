"""The PAU reference's own files, read as its creation code writes them; recomputed outputs;
and the paper protocol's JSON-decoded expectations.

The fixture is in the reference's exact layout (``creation.py``'s ``train_test_split`` and
``robust_serialize``, as the reference memo's worked examples show them): the first train
output is the value, the second its repr text, test outputs are values (an identity output
its repr text), every list is ``json.dumps``-ed (a tuple becomes a list, int keys strings),
``all_examples`` repeats the train pairs with ``"None"``, and inputs are GPT-4o's texts
(``"(7)"``, a lone value).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_pau import load_dataset
from pytest_pau.dataset import LoadedDataset
from pytest_pau.dataset import load_dataset as load_raw
from pytest_pau.models import CallResult
from pytest_pau.sandbox.batch import output_runner
from pytest_pau.scoring import run_code

QUOTES = {"f": "f", "c": "c", "b": 'say "b"', "d": "Q", "a": "it's a", "e": "e'\""}


def _row(code: str, header: str, train: list[list[Any]], test: list[list[Any]]) -> dict[str, Any]:
    return {
        "test_func_validated": code,
        "description": "gold",
        "header": header,
        "train_examples": json.dumps(train, ensure_ascii=False),
        "test_examples": json.dumps(test, ensure_ascii=False),
        "all_examples": json.dumps([[i, o, "None"] for i, o in train], ensure_ascii=False),
        "direct_prompt": "...",
        "interactive_starting_prompt": "...",
    }


ROWS = [
    _row(  # square: pos 1 value, pos 2 repr text, "(7)" inputs
        "def test_func(arg0):\n    return arg0 * arg0\n",
        "def test_func(arg0):",
        [["(7)", 49], ["(5)", "25"]],
        [["(4)", 16], ["(-2)", 4], ["(3)", 9], ["(0)", 0]],
    ),
    _row(  # a tuple stored as a list (pos 2 and test hold the value, pos 2 its repr)
        "def test_func(arg0, arg1):\n    return (arg1, arg0)\n",
        "def test_func(arg0, arg1):",
        [["(9, 1)", [1, 9]], ["(5, 6)", "(6, 5)"]],
        [["(3, 4)", [4, 3]], ["(1, 2)", [2, 1]], ["(0, 0)", [0, 0]], ["(7, 8)", [8, 7]]],
    ),
    _row(  # strs holding quotes: values, the second train output its repr
        f"def test_func(arg0):\n    return {QUOTES!r}[arg0]\n",
        "def test_func(arg0):",
        [["('f',)", "f"], ["('c',)", "'c'"]],
        [["('b',)", 'say "b"'], ["('d',)", "Q"], ["('a',)", "it's a"], ["('e',)", "e'\""]],
    ),
    _row(  # int keys stored as strings
        "def test_func(arg0):\n    return {x: arg0.count(x) for x in arg0}\n",
        "def test_func(arg0):",
        [["([7],)", {"7": 1}], ["([4,5],)", "{4: 1, 5: 1}"]],
        [["([3],)", {"3": 1}], ["([],)", {}], ["([2, 2],)", {"2": 2}], ["([1],)", {"1": 1}]],
    ),
    _row(  # a bool whose repeated first output went to test
        "def test_func(arg0):\n    return arg0 % 2 == 1\n",
        "def test_func(arg0):",
        [["(7)", True], ["(4)", "False"]],
        [["(3)", True], ["(5)", True], ["(9)", True], ["(2)", False]],
    ),
    _row(  # identity outputs (equal to their input text) stored as repr text in test
        "def test_func(arg0):\n    return 'zz' if arg0 == 'z' else \"('\" + arg0 + \"')\"\n",
        "def test_func(arg0):",
        [["('f')", "('f')"], ["('z')", "'zz'"]],
        [
            ["('c')", "\"('c')\""],
            ["('d')", "\"('d')\""],
            ["('q')", "\"('q')\""],
            ["('r')", "\"('r')\""],
        ],
    ),
]

#: Every output as the cell was written (a list where the tuple was, str keys), by row.
READ = [
    (["49", "25"], ["16", "4", "9", "0"]),
    (["[1, 9]", "(6, 5)"], ["[4, 3]", "[2, 1]", "[0, 0]", "[8, 7]"]),
    (["'f'", "'c'"], [repr('say "b"'), "'Q'", repr("it's a"), repr("e'\"")]),
    (["{'7': 1}", "{4: 1, 5: 1}"], ["{'3': 1}", "{}", "{'2': 2}", "{'1': 1}"]),
    (["True", "False"], ["True", "True", "True", "False"]),
    ([repr("('f')"), "'zz'"], [repr("('c')"), repr("('d')"), repr("('q')"), repr("('r')")]),
]


@pytest.fixture
def reference_file(tmp_path: Path) -> Path:
    path = tmp_path / "pau_reference.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in ROWS) + "\n")
    return path


def test_the_layout_is_detected_and_every_output_read_as_written(reference_file: Path) -> None:
    loaded = load_dataset(str(reference_file))
    assert loaded.info.outputs == "reference"
    assert loaded.info.outputs_by == "detected"
    assert "all_examples entry ends in 'None'" in loaded.info.describe()
    assert [
        ([e.output for e in i.train_examples], [e.output for e in i.test_examples]) for i in loaded
    ] == READ
    # Quotes of both kinds come back as the very strs.
    assert [ast.literal_eval(e.output) for e in loaded[2].test_examples] == [
        'say "b"',
        "Q",
        "it's a",
        "e'\"",
    ]
    # GPT-4o's "(7)" is the call f(7): rewritten as its argument tuple.
    assert [e.input for e in loaded[0].train_examples] == ["(7,)", "(5,)"]
    given = load_dataset(str(reference_file), outputs="reference")
    assert given.info.outputs_by == "given"
    assert list(given) == list(loaded)


def test_recompute_gives_the_gold_code_match_1_on_every_row_and_says_what_disagreed(
    reference_file: Path, tmp_path: Path
) -> None:
    loaded = load_dataset(str(reference_file), outputs="recompute", cache_dir=tmp_path / "c")
    assert loaded.info.outputs == "recomputed"
    assert loaded.info.stored == "reference"
    for inst in loaded:
        assert run_code(inst.code, inst.test_examples).score == 1.0, inst.id
    reasons = {(d.id, d.field, d.index): d.reason for d in loaded.info.disagreements}
    tuple_row, dict_row = "pau_reference/0001", "pau_reference/0003"
    assert reasons[(tuple_row, "test_examples", 0)].startswith("tuple stored as a list")
    assert reasons[(tuple_row, "train_examples", 0)].startswith("tuple stored as a list")
    assert reasons[(dict_row, "test_examples", 2)].startswith("int keys stored as strings")
    # Only those two rows disagree (quotes, bools, identities were read right): 5 + 4 cells.
    assert {d.id for d in loaded.info.disagreements} == {tuple_row, dict_row}
    assert len(loaded.info.disagreements) == 5 + 4  # {} matches: the 2nd dict test agrees
    (note,) = loaded.info.notes
    assert "9 stored outputs in 2 instances disagree: 5 tuple stored as a list" in note


def test_recompute_runs_each_method_once_then_reads_the_cache(
    reference_file: Path, tmp_path: Path
) -> None:
    calls: list[int] = []
    real = output_runner()

    def counting(jobs: Any) -> list[list[CallResult]]:
        calls.append(len(jobs))
        return real(jobs)

    for _ in range(2):
        load_raw(str(reference_file), outputs="recompute", runner=counting, cache_dir=tmp_path)
    assert calls == [len(ROWS)]


def test_paper_protocol_compares_the_json_cells_and_says_how_many_items_that_changes(
    reference_file: Path, tmp_path: Path
) -> None:
    faithful = load_dataset(str(reference_file), outputs="recompute", cache_dir=tmp_path)
    paper = load_dataset(
        str(reference_file), outputs="recompute", cache_dir=tmp_path, protocol="paper"
    )
    scores = [run_code(i.code, i.test_examples).score for i in paper]
    # As the reference itself scores its gold code: tuples and int keys never match, the
    # identity row's repr-text cells neither; only {} of the dict row does.
    assert scores == [1.0, 0.0, 1.0, 0.25, 1.0, 0.0]
    assert [run_code(i.code, i.test_examples).score for i in faithful] == [1.0] * 6
    note = paper.info.notes[-1]
    assert "3 of 6 items' expectations differ from the gold code's outputs" in note
    read_only = load_dataset(str(reference_file), protocol="paper")
    assert "1 of 6 items' expectations differ from the outputs read" in read_only.info.notes[-1]
    assert "--pau-dataset-outputs=recompute also finds" in read_only.info.notes[-1]


def test_recompute_needs_a_runner() -> None:
    with pytest.raises(Exception, match="no runner was given"):
        load_raw("builtin", outputs="recompute")


def test_a_row_that_breaks_the_layout_is_named(tmp_path: Path) -> None:
    bad = dict(ROWS[0], train_examples=json.dumps([["(7)", 49], ["(5)", 25]]))
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(bad) + "\n")
    with pytest.raises(Exception, match=r"bad.jsonl line 1: field 'train_examples': item 1: "
                       r"expected repr text \(a str\) at train position 2"):  # fmt: skip
        load_dataset(str(path))


def test_the_run_header_says_what_the_loader_did(
    pytester: pytest.Pytester, reference_file: Path, tmp_path: Path
) -> None:
    result = pytester.runpytest(
        "--pau-model=oracle",
        f"--pau-dataset={reference_file}",
        "--pau-dataset-outputs=recompute",
        "--collect-only",
    )
    result.stdout.fnmatch_lines(
        ["pau: dataset: outputs recomputed by the gold code in the sandbox for 6 instances*"]
    )
    assert "input (3, 4): stored" not in result.stdout.str()  # the rows need -v
    verbose = pytester.runpytest(
        "--pau-model=oracle",
        f"--pau-dataset={reference_file}",
        "--pau-dataset-outputs=recompute",
        "--collect-only",
        "-v",
    )
    verbose.stdout.fnmatch_lines(
        [
            "*pau_reference/0001 test_examples[[]0] input (3, 4): stored [[]4, 3], gold code (4, 3)*tuple stored as a list*"
        ]
    )


def test_loaded_dataset_keeps_the_json_cells(reference_file: Path) -> None:
    loaded = load_dataset(str(reference_file))
    assert isinstance(loaded, LoadedDataset)
    assert loaded.json_tests["pau_reference/0001"] == ["[4, 3]", "[2, 1]", "[0, 0]", "[8, 7]"]
