"""A user cache that cannot take what a first run writes: a clear error, never a raw OSError.

The per-user cache holds the joined weights and the sandbox compiled for the CPU. When it
cannot be made (a file in the way, a read-only home) or written (a full disk), the error
names the path, the reason and ``PAU_USER_CACHE``. (Tests run as root here, so a file in
the way of a folder stands in for a read-only one: ``chmod`` does not stop root.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_pau.errors import LocalModelError, SandboxBuildError, UserCacheError
from pytest_pau.llm.local import weights
from pytest_pau.paths import user_cache_dir, user_cache_subdir
from pytest_pau.sandbox import build
from tests.firstrun.conftest import BYTES


def test_a_cache_that_cannot_be_made_names_the_folder_and_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PAU_USER_CACHE", str(blocker / "cache"))
    with pytest.raises(UserCacheError) as exc:
        user_cache_dir()
    message = str(exc.value)
    assert str(blocker / "cache") in message
    assert "Not a directory" in message
    assert "PAU_USER_CACHE" in message

    monkeypatch.setenv("PAU_USER_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "sandbox").write_text("in the way")
    with pytest.raises(UserCacheError, match=r"cache/sandbox/0\.1\.0"):
        user_cache_subdir("sandbox", "0.1.0")


def test_the_builtin_dataset_loads_without_a_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    script = "from pytest_pau.dataset import load_dataset; print(len(load_dataset('builtin')))"
    env = {"PAU_USER_CACHE": str(blocker / "cache"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "240"


@pytest.fixture
def carried(
    tiny: weights.LocalModelSpec, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> weights.LocalModelSpec:
    """The tiny model carried by two 'packages' (files here), joined into the user cache."""
    parts = [tmp_path / "part1", tmp_path / "part2"]
    parts[0].write_bytes(BYTES[:500])
    parts[1].write_bytes(BYTES[500:])
    monkeypatch.setattr(weights, "_carrier_parts", lambda spec: parts)
    return tiny


def test_weights_that_cannot_be_written_say_where_and_leave_no_partial_file(
    carried: weights.LocalModelSpec,
) -> None:
    tiny = carried
    models = weights.models_dir()
    # The join's temporary file cannot be created (a folder sits at its name), as on a
    # full or read-only disk.
    import os

    (models / f"{Path(tiny.filename).stem}.{os.getpid()}.partial").mkdir()
    with pytest.raises(LocalModelError) as exc:
        weights.resolve_weights("local-small")
    message = str(exc.value)
    assert message.startswith(f"cannot join the weights of {tiny.title}: ")
    assert ".partial" in message
    assert "PAU_USER_CACHE" in message
    assert not (models / tiny.filename).exists()


def test_joined_weights_are_used_without_writing_anything(
    carried: weights.LocalModelSpec,
) -> None:
    tiny = carried
    joined = weights.resolve_weights("local-small")
    assert joined.read_bytes() == BYTES
    assert weights.checked(joined, tiny)  # its check is kept: the next run hashes nothing
    before = sorted(p.name for p in weights.models_dir().rglob("*"))
    weights._resolved.clear()
    # A later run finds the joined, checked file: no lock file, no marker, no copy.
    assert weights.resolve_weights("local-small") == joined
    assert sorted(p.name for p in weights.models_dir().rglob("*")) == before


def test_a_sandbox_lock_that_cannot_be_made_is_a_build_error_naming_the_cache(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "sandbox-cache"
    folder.mkdir()
    (folder / ".build.lock").mkdir()  # no lock file can be opened there
    with pytest.raises(SandboxBuildError) as exc, build._lock(folder):
        pass
    message = str(exc.value)
    assert message.startswith("cannot build or compile the sandbox: ")
    assert str(folder) in message
    assert "PAU_USER_CACHE" in message
