"""``pau call`` on targets it cannot run: a clear message naming the path, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.cli.main import main


def _fails_clearly(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return captured.err


def test_a_file_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.py"
    path.write_bytes("def test_func():\n    return 'caf\xe9'\n".encode("latin-1"))
    err = _fails_clearly(["call", str(path), "()"], capsys)
    assert str(path) in err
    assert "not UTF-8" in err
    assert "0xe9" in err


def test_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for target in (str(tmp_path), str(tmp_path) + "/"):
        err = _fails_clearly(["call", target, "()"], capsys)
        assert f"{target!r} is a directory" in err
        assert "unknown dataset" not in err


def test_a_path_that_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for target in (str(tmp_path / "nope.py"), str(tmp_path / "nope") + "/", "./nope"):
        err = _fails_clearly(["call", target, "()"], capsys)
        assert f"file {target!r} does not exist" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "secret.py"
    path.write_text("def test_func():\n    return 1\n")
    path.chmod(0)
    try:
        err = _fails_clearly(["call", str(path), "()"], capsys)
    finally:
        path.chmod(0o600)
    assert f"cannot read {str(path)!r}" in err


def test_the_console_script_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "binary.py"
    path.write_bytes(b"\xff\xfe\x00garbage")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest_pau.cli.main", "call", str(path), "()"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        f"pau call: error: {path} line 1: not UTF-8 text: byte 0xff at byte offset 0 (column 1)"
    ) in proc.stderr
