"""Where pytest-pau keeps files: the per-project cache and the per-user cache."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_pau._version import __version__


def user_cache_dir() -> Path:
    """The per-user cache (built sandbox, model weights): ``$PAU_USER_CACHE`` or platformdirs'."""
    env = os.environ.get("PAU_USER_CACHE")
    if env:
        path = Path(env)
    else:
        import platformdirs

        path = Path(platformdirs.user_cache_dir("pytest-pau"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def versioned_cache_dir(name: str) -> Path:
    """A subfolder of the user cache keyed by plugin version (``sandbox/0.1.0``)."""
    path = user_cache_dir() / name / __version__
    path.mkdir(parents=True, exist_ok=True)
    return path
