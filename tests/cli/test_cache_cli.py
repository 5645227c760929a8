"""``pau cache info|clear|prune``: output, confirmation, which cache, and a writer beside it."""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pytest_pau.cli.cache import parse_days, parse_size, resolve_cache_dir
from pytest_pau.cli.main import main
from pytest_pau.llm import ResponseCache
from pytest_pau.plugin.config import settings_from_config
from pytest_pau.plugin.state import default_cache_dir


def filled(directory: Path, n: int = 30, model: str = "openai/m", days_old: float = 0) -> Path:
    """A cache with ``n`` answers of ``model`` stored through ``put``."""
    cache = ResponseCache(directory)
    for i in range(n):
        assert cache.put(f"{model}-{days_old}-{i}", model, {"text": "x" * 500})
    if days_old:
        cache.connection().execute(
            "UPDATE responses SET created = ? WHERE model = ?",
            (time.time() - days_old * 86400, model),
        )
    cache.close()
    return directory


def rows(directory: Path) -> dict[str, int]:
    conn = sqlite3.connect(directory / "llm-cache.sqlite3")
    try:
        return dict(conn.execute("SELECT model, COUNT(*) FROM responses GROUP BY model").fetchall())
    finally:
        conn.close()


def pau(*argv: str) -> int:
    return main(["cache", *argv])


# -- help and arguments ----------------------------------------------------------------------


def test_help_names_the_actions_and_the_default_folder(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["cache", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for text in ("info", "clear", "prune", "Which cache", "pau_cache_dir", "./.pau_cache"):
        assert text in out
    with pytest.raises(SystemExit):
        main(["cache", "prune", "--help"])
    out = capsys.readouterr().out
    assert "--older-than DAYS" in out
    assert "--max-size SIZE" in out
    assert "Folder of the model-call cache." in out, "the plugin's own help of the option"
    assert "1024-based" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Inspect, clear or prune the model-call cache." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500M", 500 * 2**20),
        ("2G", 2 * 2**30),
        ("1.5GiB", int(1.5 * 2**30)),
        ("800", 800),
        ("64kb", 64 * 1024),
        (" 3 m ", 3 * 2**20),
    ],
)
def test_sizes(text: str, expected: int) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "M", "-5M", "0", "5X", "1e3"])
def test_bad_sizes(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="expected a size"):
        parse_size(text)


def test_days() -> None:
    assert parse_days("0.5") == 0.5
    for bad in ("-1", "nan", "inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError, match="number of days"):
            parse_days(bad)


def test_prune_without_a_criterion_or_with_a_bad_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    filled(tmp_path)
    assert pau("prune", "--cache-dir", str(tmp_path)) == 2
    assert "--older-than DAYS, --max-size SIZE or both" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        pau("prune", "--cache-dir", str(tmp_path), "--max-size", "lots")
    assert exit_info.value.code == 2
    assert "expected a size such as 500M" in capsys.readouterr().err


# -- info --------------------------------------------------------------------------------------


def test_info_as_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    filled(tmp_path, 30, "openai/big")
    filled(tmp_path, 5, "openai/small", days_old=3)
    assert pau("info", "--cache-dir", str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert f"cache:            {tmp_path / 'llm-cache.sqlite3'}" in out
    assert "entries:          35 (" in out
    assert "integrity:        ok (quick_check" in out
    lines = [line.split() for line in out.splitlines() if line.startswith("openai/")]
    assert [(parts[0], parts[1]) for parts in lines] == [
        ("openai/big", "30"),
        ("openai/small", "5"),
    ]
    assert pau("info", "--cache-dir", str(tmp_path), "--json", "--no-check") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["entries"] == 35
    assert data["integrity"] is None
    assert {m["model"]: m["entries"] for m in data["models"]} == {
        "openai/big": 30,
        "openai/small": 5,
    }


def test_info_of_a_damaged_or_missing_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pau("info", "--cache-dir", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "no model cache in" in err
    assert "(from --cache-dir)" in err
    (tmp_path / "llm-cache.sqlite3").write_text("junk" * 100)
    assert pau("info", "--cache-dir", str(tmp_path)) == 2
    assert "is damaged (not an SQLite database" in capsys.readouterr().err


# -- which cache: the plugin's folder ----------------------------------------------------------

#: case -> (files, the cache folder, relative to the project)
INI_CASES: dict[str, tuple[dict[str, str], str]] = {
    "none": ({}, ".pau_cache"),
    "pytest.ini pau_cache_dir": ({"pytest.ini": "[pytest]\npau_cache_dir = answers\n"}, "answers"),
    "pyproject pau_cache_dir": (
        {"pyproject.toml": '[tool.pytest.ini_options]\npau_cache_dir = "py-answers"\n'},
        "py-answers",
    ),
    "tox.ini cache_dir": (
        {"tox.ini": "[pytest]\ncache_dir = build/.pytest_cache\n"},
        "build/.pau_cache",
    ),
    "setup.cfg pau_cache_dir": (
        {"setup.cfg": "[tool:pytest]\npau_cache_dir = cfg-answers\n"},
        "cfg-answers",
    ),
    "pytest.ini wins over pyproject": (
        {
            "pytest.ini": "[pytest]\naddopts = -q\n",
            "pyproject.toml": '[tool.pytest.ini_options]\npau_cache_dir = "ignored"\n',
        },
        ".pau_cache",
    ),
}


@pytest.mark.parametrize("case", list(INI_CASES))
def test_the_default_folder_is_the_plugins(
    case: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, expected = INI_CASES[case]
    for name, text in files.items():
        (pytester.path / name).write_text(text)
    monkeypatch.chdir(pytester.path)
    config = pytester.parseconfig()
    plugin = settings_from_config(config).cache_dir or default_cache_dir(config)
    cli, _source = resolve_cache_dir(None)
    assert cli.absolute() == Path(plugin).absolute() == pytester.path / expected


def test_no_cache_in_the_current_folder_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.chdir(tmp_path)
    assert pau("info") == 2
    err = capsys.readouterr().err
    assert f"no model cache in {str(tmp_path / '.pau_cache')!r}" in err
    assert "the default, ./.pau_cache" in err
    assert "sets no pau_cache_dir" in err
    assert "Pass --cache-dir DIR" in err
    filled(tmp_path / ".pau_cache", 3)
    assert pau("info") == 0


# -- clear -------------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_clear_needs_yes_when_it_cannot_ask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(tmp_path, 4)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert pau("clear", "--cache-dir", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "would delete 4 entries" in err
    assert "pass --yes" in err
    assert rows(tmp_path) == {"openai/m": 4}


def test_clear_asks_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(tmp_path, 4)
    filled(tmp_path, 2, "openai/other")
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    assert pau("clear", "--cache-dir", str(tmp_path)) == 1
    assert "nothing deleted" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    assert pau("clear", "--cache-dir", str(tmp_path), "--model", "openai/other") == 0
    out = capsys.readouterr().out
    assert "Delete 2 entries of model 'openai/other'" in out
    assert "deleted 2 entries of model 'openai/other'; 4 left" in out
    assert pau("clear", "--cache-dir", str(tmp_path), "--yes") == 0
    assert "deleted 4 entries; 0 left; on disk" in capsys.readouterr().out
    assert pau("clear", "--cache-dir", str(tmp_path), "--yes") == 0
    assert "nothing deleted" in capsys.readouterr().out


def test_clear_asks_on_a_real_terminal(tmp_path: Path) -> None:
    filled(tmp_path, 3)
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest_pau", "cache", "clear", "--cache-dir", str(tmp_path)],
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(secondary)
    os.write(primary, b"yes\n")
    out, err = proc.communicate(timeout=120)
    os.close(primary)
    assert proc.returncode == 0, err
    assert "deleted 3 entries; 0 left" in out
    assert rows(tmp_path) == {}


# -- prune -------------------------------------------------------------------------------------


def test_prune_by_age_and_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    filled(tmp_path, 10, "openai/old", days_old=40)
    filled(tmp_path, 5, "openai/new")
    assert pau("prune", "--cache-dir", str(tmp_path), "--older-than", "30", "--dry-run") == 0
    assert "would delete 10 entries stored before" in capsys.readouterr().out
    assert rows(tmp_path) == {"openai/new": 5, "openai/old": 10}
    assert pau("prune", "--cache-dir", str(tmp_path), "--older-than", "30") == 0
    assert "deleted 10 entries stored before" in capsys.readouterr().out
    assert rows(tmp_path) == {"openai/new": 5}


def test_prune_by_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = ResponseCache(tmp_path)
    for i in range(400):
        cache.put(f"k{i:04d}", "openai/m", {"text": "y" * 4000})
    cache.close()
    assert (tmp_path / "llm-cache.sqlite3").stat().st_size > 2**20
    assert pau("prune", "--cache-dir", str(tmp_path), "--max-size", "1M") == 0
    assert "; on disk" in capsys.readouterr().out
    assert (tmp_path / "llm-cache.sqlite3").stat().st_size <= 2**20
    kept = ResponseCache(tmp_path)
    assert kept.get("k0399") is not None
    assert kept.get("k0000") is None


_WRITER = textwrap.dedent(
    """
    import sys, time
    from pytest_pau.llm import ResponseCache
    cache = ResponseCache(sys.argv[1])
    end, n = time.time() + float(sys.argv[2]), 0
    while time.time() < end:
        if not cache.put(f"w-{n}", "writer", {"text": "w" * 2000}):
            sys.exit(f"put {n} failed: {cache.last_failure}")
        n += 1
    print(n)
    """
)


@pytest.mark.slow
def test_the_commands_beside_a_writing_process(tmp_path: Path) -> None:
    filled(tmp_path, 300, "openai/old", days_old=40)
    filled(tmp_path, 100, "openai/b")
    writer = subprocess.Popen(
        [sys.executable, "-W", "error", "-c", _WRITER, str(tmp_path), "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while rows(tmp_path).get("writer", 0) == 0:
        assert writer.poll() is None, writer.communicate()
        time.sleep(0.02)
    base = [sys.executable, "-m", "pytest_pau", "cache"]
    where = ["--cache-dir", str(tmp_path)]
    for argv in (
        ["info", "--json"],
        ["prune", "--older-than", "30"],
        ["clear", "--model", "openai/b", "--yes"],
        ["prune", "--max-size", "1G"],
        ["info"],
    ):
        done = subprocess.run([*base, *argv, *where], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    written = int(out)
    assert rows(tmp_path) == {"writer": written}, "no write was lost"
    conn = sqlite3.connect(tmp_path / "llm-cache.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
