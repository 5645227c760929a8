"""A full disk under ``--pau-cache-dir`` at start-up is named as such, with its own fix.

A real full file system: a 256 KiB tmpfs filled to the last byte (root only; skipped where
mounting is not allowed).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "full"
    mount.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        pytest.skip("needs a tmpfs mount (root)")
    if done.returncode != 0:
        pytest.skip("needs a tmpfs mount (root)")
    try:
        fd = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass  # ENOSPC: full
        finally:
            os.close(fd)
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True, timeout=30)


def test_a_full_disk_at_start_says_so_not_permissions(
    full_disk: Path, run_pau, scoring_llm
) -> None:
    served = scoring_llm.requests
    result = run_pau("-m", "smoke", f"--pau-cache-dir={full_disk / 'cache'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "(the disk is full; OperationalError: database or disk is full)" in err
    assert (
        "free space on that disk (or raise its quota), or pick a folder on another disk with "
        "--pau-cache-dir=DIR, or pass --pau-no-cache"
    ) in err
    assert "fix the permissions" not in err  # was the advice, whatever the cause
    assert scoring_llm.requests == served
