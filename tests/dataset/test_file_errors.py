"""Bad dataset files (issues 15 and 18): each one a clear DatasetError naming the file."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.errors import DatasetError

Row = Callable[..., dict[str, Any]]
Writer = Callable[..., Path]


def error_of(path: Path | str) -> str:
    with pytest.raises(DatasetError) as info:
        load_dataset(str(path))
    return str(info.value)


def test_latin1_text_names_the_line_and_byte_offset(row: Row, tmp_path: Path) -> None:
    first = json.dumps(row(id="a")) + "\n"
    second = json.dumps(row(id="b", description="Café au lait."), ensure_ascii=False) + "\n"
    path = tmp_path / "latin.jsonl"
    path.write_bytes(first.encode() + second.encode("latin-1"))
    offset = len(first.encode()) + second.encode("latin-1").index(b"\xe9")
    column = second.index("é") + 1
    message = error_of(path)
    assert message.startswith(
        f"{path} line 2: not UTF-8 text: byte 0xe9 at byte offset {offset} (column {column})"
    )
    assert "iconv -f latin1 -t utf-8" in message


def test_binary_junk_is_not_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    assert error_of(path).startswith(
        f"{path}: not a text file: byte 0x00 at byte offset 8 (line 3); a .jsonl dataset is "
        "UTF-8 text"
    )
    path.write_bytes(b'{"a": 1}\n\xff\xfe\xfd\n')  # no NUL byte: found by the decoder
    assert error_of(path).startswith(f"{path} line 2: not UTF-8 text: byte 0xff at byte offset 9")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        ('{"a": 1}\n'.encode("utf-16"), "UTF-16 byte-order mark"),
        (b"\x1f\x8b\x08\x00rest", "gzip-compressed"),
        (b"PAR1\x15\x04", "it is a parquet file; name it .parquet"),
    ],
    ids=["utf-16", "gzip", "parquet"],
)
def test_other_formats_are_named(tmp_path: Path, data: bytes, what: str) -> None:
    path = tmp_path / "other.jsonl"
    path.write_bytes(data)
    message = error_of(path)
    assert message.startswith(f"{path}: not UTF-8 text: ")
    assert what in message


def test_not_utf8_is_a_usage_error_not_an_internal_error(
    pytester: pytest.Pytester, row: Row
) -> None:
    data = json.dumps(row(description="Crème brûlée."), ensure_ascii=False).encode("latin-1")
    (pytester.path / "latin.jsonl").write_bytes(data + b"\n")
    result = pytester.runpytest("--pau-model=local", "--pau-dataset=latin.jsonl", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*latin.jsonl line 1: not UTF-8 text: byte 0xe8 at byte offset*"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_broken_json_shows_the_real_column_once(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"a": 1, "b": \n{"id": "x", "header": "abc\n', encoding="utf-8")
    message = error_of(path)
    assert "at at" not in message
    assert (
        f"{path} line 1: not valid JSON (Expecting value at column 15, near "
        '\'{"a": 1, "b": \'; the line ends there, and a row is one whole JSON object on one '
        "line)"
    ) in message
    assert f"{path} line 2: not valid JSON (Unterminated string starting at column 23" in message


def test_broken_json_inside_a_field(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(train_examples='[["(1, 2)", "3"], ["(1,')])
    message = error_of(path)
    assert "at at" not in message
    assert (
        "field 'train_examples': not valid JSON (Unterminated string starting at character 20"
        in (message)
    )


def test_a_non_literal_input_shows_its_source(row: Row, write_jsonl: Writer) -> None:
    path = write_jsonl([row(train_examples=json.dumps([["(os.getcwd(), 2)", "3"]]))])
    message = error_of(path)
    assert "<ast." not in message
    assert (
        "input '(os.getcwd(), 2)' is not a Python literal ('os.getcwd()' is a call, not a value"
    ) in message
    path = write_jsonl([row(train_examples=json.dumps([["({**d}, 2)", "3"]]))])
    assert "('**d' is an unpacking, not a value)" in error_of(path)
    path = write_jsonl([row(train_examples=json.dumps([["(1, 2", "3"]]))])
    assert "input '(1, 2' is not a Python literal (not valid Python: '(' was never closed" in (
        error_of(path)
    )


def test_empty_and_blank_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert error_of(empty) == (
        f"{empty}: no rows (the file is empty); a dataset needs at least one instance"
    )
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n   \n\r\n\t\n", encoding="utf-8")
    assert error_of(blank) == (
        f"{blank}: no rows (the file has only blank lines); a dataset needs at least one instance"
    )


def test_a_utf8_byte_order_mark_is_accepted(row: Row, tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_text(json.dumps(row()) + "\n", encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    (instance,) = load_dataset(str(path))
    assert instance.local_id == "floor_div"


def test_crlf_line_ends(row: Row, tmp_path: Path) -> None:
    path = tmp_path / "crlf.jsonl"
    lines = [json.dumps(row(id="a")), "", json.dumps(row(id="b")), json.dumps(row(id="c"))[:-1]]
    path.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    message = error_of(path)
    assert message.startswith(f"{path} line 4: not valid JSON (Expecting ',' delimiter")
    path.write_bytes("\r\n".join(lines[:3]).encode() + b"\r\n")
    assert [i.local_id for i in load_dataset(str(path))] == ["a", "b"]


def test_a_huge_single_line_does_not_hang(row: Row, tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    big = "x" * 20_000_000
    path.write_text(json.dumps(row(description=big)), encoding="utf-8")  # no newline at all
    start = time.perf_counter()
    (instance,) = load_dataset(str(path))
    assert len(instance.description) == len(big)
    path.write_text("[" * 5_000_000, encoding="utf-8")
    message = error_of(path)
    assert message == f"{path} line 1: not valid JSON (nested too deeply to read)"
    path.write_text('{"id": "' + "y" * 5_000_000, encoding="utf-8")
    message = error_of(path)
    assert len(message) < 500
    assert "Unterminated string starting at column 8" in message
    assert time.perf_counter() - start < 60


def test_directories_and_missing_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "set.jsonl"
    folder.mkdir()
    (folder / "part-0.jsonl").write_text("{}\n", encoding="utf-8")
    assert error_of(folder) == (
        f"{folder}: is a directory; pass a .jsonl or .parquet file in PAU's column format "
        f"(it holds part-0.jsonl), or hf:{folder} to read the folder with the datasets library"
    )
    (tmp_path / "set.parquet").mkdir()
    assert error_of(tmp_path / "set.parquet").startswith(
        f"{tmp_path / 'set.parquet'}: is a directory"
    )
    monkeypatch.chdir(tmp_path)
    assert error_of("nope.jsonl") == (
        f"nope.jsonl: no such file (looked for {tmp_path / 'nope.jsonl'}); check the path given "
        "to --pau-dataset"
    )
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert error_of("file/under.jsonl").startswith("file/under.jsonl: no such file")
