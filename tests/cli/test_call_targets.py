"""``pau call`` on targets that are not a method (issue 15): a message saying what the target
is and what to pass instead, exit status 2, no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.dataset.builtin import EXAMPLE_ID, load_builtin


def _fails_clearly(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert captured.out == ""
    return captured.err


def test_the_example_instance_of_the_messages_exists() -> None:
    assert EXAMPLE_ID in {inst.id for inst in load_builtin()}


def test_a_latin1_method_file_names_the_line_column_and_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.py"
    path.write_bytes("def test_func():\n    return 'caf\xe9'\n".encode("latin-1"))
    err = _fails_clearly(["call", str(path), "()"], capsys)
    assert err.startswith(
        f"pau call: error: {path} line 2: not UTF-8 text: byte 0xe9 at byte offset 32 "
        "(column 16), near "
    )
    assert err.rstrip().endswith("pass Python source saved as UTF-8")


def test_a_dataset_file_is_not_run_as_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("my-set.jsonl").write_text('{"id": "x"}\n')
    err = _fails_clearly(["call", "my-set.jsonl", "(1,)"], capsys)
    assert err == (
        "pau call: error: 'my-set.jsonl' is a dataset file, not a method; run one of its "
        "instances with `pau call --dataset my-set.jsonl my_set/ID`, or pass a .py file\n"
    )


def test_a_missing_file_under_an_existing_folder_is_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("methods").mkdir()
    err = _fails_clearly(["call", "methods/nope", "(1,)"], capsys)
    assert err.startswith("pau call: error: file 'methods/nope' does not exist; pass a .py file")
    assert "unknown dataset" not in err


def test_a_folder_as_dataset_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("data").mkdir()
    err = _fails_clearly(["call", "--dataset", "data", "data/x"], capsys)
    assert err.startswith("pau call: error: data: is a directory; pass a .jsonl or .parquet")
    assert "unknown dataset" not in err


def test_an_empty_target(capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails_clearly(["call", "", "(1,)"], capsys)
    assert err == (
        f"pau call: error: '': pass a .py file defining test_func, or an instance id such as "
        f"{EXAMPLE_ID}\n"
    )


def test_help_texts_name_instances_that_exist(capsys: pytest.CaptureFixture[str]) -> None:
    ids = {inst.id for inst in load_builtin()}
    for command in ("call", "show"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        named = set(re.findall(r"builtin/[a-z0-9_]+", text))
        assert named, f"pau {command} --help names no example instance"
        assert named <= ids, f"pau {command} --help names {sorted(named - ids)}"


ROOT = Path(__file__).resolve().parents[2]
TEXTS = (
    "pytest_pau",
    "benchmarks",
    "conftest_templates",
    "scripts",
    "ARCHITECTURE.md",
    "README.md",
    "docs",
    "demo",
)


def test_instance_ids_named_in_code_comments_and_docs_exist() -> None:
    ids = {inst.id for inst in load_builtin()}
    missing = []
    for name in TEXTS:
        top = ROOT / name
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for file in files:
            if file.suffix not in (".py", ".md", ".txt", ".toml"):
                continue
            text = file.read_text(encoding="utf-8", errors="replace")
            for found in re.findall(r"\bbuiltin/([a-z0-9_]+)", text):
                if f"builtin/{found}" not in ids and found not in ("test", "data"):
                    missing.append(f"{file.relative_to(ROOT)}: builtin/{found}")
    assert not missing
