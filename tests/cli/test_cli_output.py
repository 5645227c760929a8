"""What every ``pau`` command's ``--help`` prints."""

from __future__ import annotations

import pytest

from pytest_pau.cli.main import COMMANDS, build_parser, main


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_shows_no_docstring_markup(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # `pau plot --help` showed ``scores.png``: reStructuredText, not what a terminal reads.
    if command not in build_parser()._subparsers._group_actions[0].choices:  # type: ignore[union-attr]
        pytest.skip(f"pau {command} is not built into this install")
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert f"usage: pau {command}" in out
    assert "``" not in out, out


def test_plot_help_quotes_its_files_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["plot", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Writes `scores.png`" in out
