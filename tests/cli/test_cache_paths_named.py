"""``pau cache`` names what a path is when it is no cache: a symbolic-link loop given to
``import`` (was: "no such file"), a ``--cache-dir`` that is a file or a device (was: "its
folder was removed ... fix the permissions")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pau.cli.main import main

from .test_cache_cli import filled


def test_an_import_source_that_is_a_symlink_loop_is_called_a_loop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.sqlite").symlink_to(tmp_path / "b.sqlite")
    (tmp_path / "b.sqlite").symlink_to(tmp_path / "a.sqlite")
    target = tmp_path / "target"
    assert main(["cache", "import", str(tmp_path / "a.sqlite"), "--cache-dir", str(target)]) == 2
    err = capsys.readouterr().err
    assert "cannot be resolved: it is a symbolic-link loop" in err
    assert "no such file" not in err
    assert not target.exists()  # before the cache is created


@pytest.mark.parametrize("folder", ["a-file", "/dev/null"])
def test_a_cache_dir_that_is_a_file_is_called_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    source = filled(tmp_path / "source")
    not_a_folder = tmp_path / folder if folder == "a-file" else Path(folder)
    if folder == "a-file":
        not_a_folder.write_text("notes\n")
    assert main(["cache", "import", str(source), "--cache-dir", str(not_a_folder)]) == 2
    err = capsys.readouterr().err
    assert "(the path given as its folder is a file, not a folder; " in err
    assert "name a folder (or a path that does not exist yet) with --cache-dir=DIR" in err
    assert "was removed" not in err
    assert "permissions" not in err
