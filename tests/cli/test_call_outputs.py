"""``pau call`` and ``pau sandbox``: the sandbox's command-line face."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_pau.cli.main import main


@pytest.fixture
def method_file(tmp_path: Path) -> Path:
    path = tmp_path / "method.py"
    path.write_text("def test_func(s, n=1):\n    return s.upper() * n\n")
    return path


def test_call_prints_value(method_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", str(method_file), "('ab', 2)"]) == 0
    out = capsys.readouterr().out
    assert "value:  'ABAB'" in out
    assert "fuel" in out


def test_call_json_and_errors(method_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", str(method_file), "(1,)", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["error_type"] == "AttributeError"
    assert lines[0]["input"] == "(1,)"


def test_an_input_that_is_no_literal_is_refused_before_any_call(
    method_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It exited 0 with an InputError line among the results: a typo passed a script.
    assert main(["call", str(method_file), "('a',)", "banana", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before the sandbox ran anything
    assert "pau call: error: ARGS 2: 'banana' is not a Python literal" in captured.err
    assert "Traceback" not in captured.err


def test_call_process_backend(method_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", str(method_file), "('x',)", "--sandbox", "process"]) == 0
    assert "value:  'X'" in capsys.readouterr().out


def test_call_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["call", str(tmp_path / "nope.py"), "(1,)"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_sandbox_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sandbox", "info"]) == 0
    out = capsys.readouterr().out
    assert "guest sources:" in out
    assert "cache folder:" in out


def test_sandbox_info_on_a_fresh_cache_says_not_compiled_and_compiles_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It timed the compile as the "first call" (15 s) and left a compiled file behind.
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "fresh"))
    assert main(["sandbox", "info"]) == 0
    out = capsys.readouterr().out
    assert "compiled:      not yet for this CPU: a first run compiles it" in out
    assert "first call" not in out
    assert not list((tmp_path / "fresh").rglob("*.cwasm"))


def test_sandbox_clean_removes_other_builds_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_pau.sandbox import build

    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path))
    current = build.cache_dir()
    (current / "sandbox.wasm").write_bytes(b"x" * 10)
    stale = [tmp_path / "sandbox" / "0.0.1" / "aaaa", current.parent / "bbbb"]
    for folder in stale:
        folder.mkdir(parents=True)
        (folder / "sandbox.wasm").write_bytes(b"x" * 2**20)
    assert main(["sandbox", "clean"]) == 0
    out = capsys.readouterr().out
    assert "2 stale build(s) removed, 2 MiB freed" in out
    assert not any(folder.exists() for folder in stale)
    assert not (tmp_path / "sandbox" / "0.0.1").exists()
    assert (current / "sandbox.wasm").is_file()
