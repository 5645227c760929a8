"""The builtin set is parsed once per version and file, then read back from the user cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pytest_pau.dataset.builtin as builtin
from pytest_pau.dataset import load_dataset


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private user cache, and no set loaded yet in this process."""
    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path))
    builtin._load_cached.cache_clear()
    yield tmp_path / "dataset"
    builtin._load_cached.cache_clear()


def _parse_is_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the JSONL was parsed again")

    import pytest_pau.dataset.files as files

    monkeypatch.setattr(files, "load_file", refuse)


def test_a_second_process_reads_the_checked_rows_back(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = list(load_dataset("builtin"))
    [cached] = fresh.glob("builtin-*.json")
    builtin._load_cached.cache_clear()  # what a new process starts with
    _parse_is_forbidden(monkeypatch)
    again = list(load_dataset("builtin"))
    assert again == first
    assert len(again) == 240
    assert cached.stat().st_size > 100_000


def test_a_damaged_cache_file_is_ignored_and_rewritten(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = list(load_dataset("builtin"))
    [cached] = fresh.glob("builtin-*.json")
    cached.write_text('[{"id": "half a row')
    builtin._load_cached.cache_clear()
    assert list(load_dataset("builtin")) == first
    builtin._load_cached.cache_clear()
    _parse_is_forbidden(monkeypatch)
    assert list(load_dataset("builtin")) == first  # the rewritten file serves


def test_another_file_or_version_never_reads_these_rows(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_dataset("builtin")
    rows = builtin.DATA_FILE.read_text().splitlines()
    edited = tmp_path / "builtin.jsonl"
    edited.write_text("\n".join(rows[:3]) + "\n")
    builtin._load_cached.cache_clear()
    assert len(builtin.load_builtin(path=edited)) == 3
    monkeypatch.setattr(builtin, "__version__", "99.0")
    builtin._load_cached.cache_clear()
    assert len(load_dataset("builtin")) == 240
    assert len(list(fresh.glob("builtin-*.json"))) == 3
