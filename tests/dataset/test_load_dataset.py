"""The load_dataset entry point: spec dispatch, registered loaders, hf through datasets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pytest_pau
from pytest_pau.dataset import load_dataset, register_loader, unregister_loader
from pytest_pau.errors import DatasetError
from pytest_pau.models import Instance


def test_unknown_spec_lists_what_is_accepted() -> None:
    with pytest.raises(
        DatasetError, match=r"unknown dataset 'nope': expected 'builtin', 'humaneval'"
    ):
        load_dataset("nope")


def test_wrong_suffix_is_unknown(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"unknown dataset .*data\.csv"):
        load_dataset(str(tmp_path / "data.csv"))


def test_registered_loader_is_tried_first(tmp_path: Path) -> None:
    calls: list[tuple[str, str, Path]] = []
    instance = Instance(
        id="toy/one",
        source="toy",
        code="def test_func(arg0):\n    return arg0\n",
        header="def test_func(arg0):",
        description="identity",
        arity=1,
    )

    def toy(spec: str, split: str, cache_dir: Path) -> list[Instance]:
        calls.append((spec, split, cache_dir))
        return [instance]

    register_loader("toy:", toy)
    register_loader(lambda spec: spec == "builtin-but-mine", toy)
    try:
        assert load_dataset("toy:x", "dev", cache_dir=tmp_path) == [instance]
        assert load_dataset("builtin-but-mine", cache_dir=tmp_path) == [instance]
    finally:
        unregister_loader(toy)
    assert calls == [("toy:x", "dev", tmp_path), ("builtin-but-mine", "test", tmp_path)]
    with pytest.raises(DatasetError, match="unknown dataset 'toy:x'"):
        load_dataset("toy:x")


def test_package_level_load_dataset_is_the_same() -> None:
    assert pytest_pau.load_dataset("builtin") == load_dataset("builtin")


def test_hf_reads_a_local_parquet_in_the_published_layout(
    row: Callable[..., dict[str, Any]],
    write_parquet: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    repo = tmp_path / "DJ-Research" / "PAU-Benchmark"
    rows = [row(id=None), row(id=None, description="Second one.")]
    write_parquet(rows, repo / "data" / "test-00000-of-00001.parquet")
    write_parquet([row(id=None)], repo / "data" / "train-00000-of-00001.parquet")
    instances = load_dataset(f"hf:{repo}", "test", cache_dir=tmp_path / "cache")
    assert [i.id for i in instances] == ["pau_benchmark/test_0000", "pau_benchmark/test_0001"]
    assert instances[1].description == "Second one."
    assert instances[0].test_examples[1].raises == "ZeroDivisionError"
    assert len(load_dataset(f"hf:{repo}", "train", cache_dir=tmp_path / "cache")) == 1


def test_hf_bad_rows_and_missing_sets_are_clear(
    row: Callable[..., dict[str, Any]],
    write_parquet: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    repo = tmp_path / "owner" / "bad"
    write_parquet(
        [row(id=None), row(id=None, header=None)], repo / "data" / "test-00000-of-00001.parquet"
    )
    with pytest.raises(DatasetError, match=r"\[test\] row 1: field 'header': required"):
        load_dataset(f"hf:{repo}", cache_dir=tmp_path / "cache")
    with pytest.raises(
        DatasetError, match=r"could not load split 'test'.*pass its path to --pau-dataset"
    ):
        load_dataset(f"hf:{tmp_path / 'no' / 'such'}", cache_dir=tmp_path / "cache")
    with pytest.raises(DatasetError, match=r"expected hf:OWNER/NAME"):
        load_dataset("hf:")
