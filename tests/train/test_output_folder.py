"""``pau train --output`` goes through the one output guard before a policy is loaded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from tests.plugin.toy import write_toy

TRAIN = ["train", "--policy", "tiny-random", "--critic", "oracle", "--steps", "1"]


@pytest.mark.parametrize("kind", ["file", "fifo"])
def test_pau_train_checks_its_output_folder_before_loading_a_policy(
    pytester: pytest.Pytester, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write_toy(pytester.path)
    out = pytester.path / "run"
    if kind == "file":
        out.write_text("my notes")
        what = "cannot write files there (it is a file, and a folder is needed)"
    else:
        os.mkfifo(out)
        what = f"{str(out)!r} is a named pipe (FIFO), and a folder is needed"
    code = main([*TRAIN, "--output", "run", "--", "--pau-dataset=toy.jsonl", "-m", "smoke"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"--output='run': {what}" in err
    assert "Checked before any model call, so nothing was paid for" in err
    assert out.read_text() == "my notes" if kind == "file" else Path(out).is_fifo()
