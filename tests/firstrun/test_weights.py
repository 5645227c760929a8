"""docs/providers.md, "Where the weights come from": your own copy through PAU_LOCAL_MODEL_PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_pau.errors import LocalModelError
from pytest_pau.llm.local import weights
from tests.firstrun.conftest import BYTES


def test_your_own_copy_by_file_or_folder_is_used_after_the_check(
    tiny: weights.LocalModelSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    own = folder / tiny.filename
    own.write_bytes(BYTES)
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(folder))
    assert weights.resolve_weights("local-small") == own
    monkeypatch.setattr(weights, "_resolved", {})
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(own))
    assert weights.resolve_weights("local-small") == own


def test_a_copy_with_another_digest_is_refused(
    tiny: weights.LocalModelSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / tiny.filename
    own.write_bytes(BYTES[:-1] + b"!")  # same size, one byte changed
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(own))
    with pytest.raises(LocalModelError, match="does not match"):
        weights.resolve_weights("local-small")


def test_a_copy_of_another_size_is_skipped(
    tiny: weights.LocalModelSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / "other.gguf"
    own.write_bytes(BYTES + b"more")
    monkeypatch.setenv("PAU_LOCAL_MODEL_PATH", str(own))
    with pytest.raises(LocalModelError, match="was not found"):
        weights.resolve_weights("local-small")  # no other source here: the pip command
