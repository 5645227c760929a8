"""``pau import-reference`` reads and writes through the one guard (:mod:`pytest_pau.files.guard`).

A result file that is a symbolic-link loop or a FIFO, and an ``-o`` that is a loop, the
``--dataset`` file, a device or a folder: each a usage error naming the path, before
anything is read or written (was: a raw ``RuntimeError`` for a loop, the dataset replaced by
the report under ``--force``, a FIFO called "no such file", a raw ``FileExistsError`` for
``/dev/null``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_pau.cli.main import main

from . import reference_files as ref


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return ref.write_run(tmp_path / "results")


def _import(files: dict[str, Path], predictions: Path, out: Path, *extra: str) -> int:
    argv = ["import-reference", str(predictions), str(files["description"]), "-o", str(out)]
    return main([*argv, "--dataset", str(files["dataset"]), *extra])


def _loop(tmp_path: Path) -> Path:
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    return tmp_path / "a.jsonl"


def test_a_result_file_that_is_a_symlink_loop_is_named(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = _loop(tmp_path)
    assert _import(files, loop, tmp_path / "r.json") == 2
    err = capsys.readouterr().err
    assert (
        f"FILE {str(loop)!r}: {str(loop)!r} cannot be resolved: it is a symbolic-link loop" in err
    )
    assert "Traceback" not in err
    assert not (tmp_path / "r.json").exists()


def test_an_output_that_is_a_symlink_loop_is_named(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = _loop(tmp_path)
    assert _import(files, files["predictions"], loop) == 2
    err = capsys.readouterr().err
    assert f"-o={str(loop)!r}: {str(loop)!r} cannot be resolved: it is a symbolic-link loop" in err


def test_a_result_file_that_is_a_fifo_is_said_and_not_opened(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "predictions.jsonl"
    os.mkfifo(fifo)
    assert _import(files, fifo, tmp_path / "r.json") == 2  # returns: open() would block
    err = capsys.readouterr().err
    assert f"FILE: {str(fifo)!r} is a named pipe (FIFO), not a regular file" in err
    assert "no such file" not in err


def test_the_report_never_replaces_the_dataset_it_read(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = files["dataset"]
    before = dataset.read_bytes()
    assert _import(files, files["predictions"], dataset, "--force") == 2
    err = capsys.readouterr().err
    assert "writing -o would overwrite the dataset" in err
    assert "Checked before anything was written" in err
    assert dataset.read_bytes() == before


@pytest.mark.parametrize("target", ["/dev/null", "folder"])
def test_an_output_that_is_no_regular_file_is_refused(
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    out = tmp_path / target if target == "folder" else Path(target)
    out.mkdir(exist_ok=True) if target == "folder" else None
    assert _import(files, files["predictions"], out, "--force") == 2
    err = capsys.readouterr().err
    assert f"-o={str(out)!r}: " in err
    assert "Checked before anything was written" in err
    assert "Traceback" not in err
