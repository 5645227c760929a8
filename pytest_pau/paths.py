"""Where pytest-pau keeps files: the per-project cache and the per-user cache."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pytest_pau.errors import UserCacheError


def user_cache_dir() -> Path:
    """The per-user cache (built sandbox, model weights): ``$PAU_USER_CACHE`` or platformdirs'.

    Raises:
        UserCacheError: the folder cannot be made (a read-only home, a file in the way).
    """
    env = os.environ.get("PAU_USER_CACHE")
    if env:
        path = Path(env).expanduser()
    else:
        import platformdirs

        path = Path(platformdirs.user_cache_dir("pytest-pau"))
    return _made(path, path)


def user_cache_subdir(*parts: str) -> Path:
    """A folder under the user cache, made if missing (``sandbox``, ``0.1.0``, ...).

    Raises:
        UserCacheError: it cannot be made, naming the folder, the reason and the fix.
    """
    root = user_cache_dir()
    return _made(root.joinpath(*parts), root)


def user_cache_failure(path: Path, exc: OSError) -> str:
    """What a failed write under the user cache says: the path, the reason, the fix."""
    reason = exc.strerror or str(exc)
    source = "PAU_USER_CACHE" if os.environ.get("PAU_USER_CACHE") else "the per-user cache"
    fix = (
        "free space there or set PAU_USER_CACHE to a folder with room (about 2 GB)"
        if exc.errno == errno.ENOSPC
        else "set PAU_USER_CACHE to a folder you can write"
    )
    return f"{path}: {reason} ({source}); {fix}"


def _made(path: Path, root: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        what = "cannot be made" if path == root else "cannot hold a folder"
        raise UserCacheError(f"the user cache {what}: {user_cache_failure(path, exc)}") from None
    return path


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` so that no reader ever sees half a file
    (:func:`write_bytes_atomic`).

    Returns:
        The absolute path written.
    """
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that no reader ever sees half a file
    (:func:`stage_file`, then :meth:`StagedFile.commit`).

    Returns:
        The absolute path written.
    """
    staged = stage_file(path)
    try:
        staged.write(data)
        return staged.commit()
    except BaseException:
        staged.discard()
        raise


@dataclass
class StagedFile:
    """A new file being written beside its target, not yet in its place.

    :func:`stage_file` makes it; :meth:`write` fills it (flushed to disk, with the mode a
    plain ``open()`` would give: ``mkstemp`` makes it 0600, which a CI artefact upload or
    another user could not read); :meth:`commit` renames it over the target, so a reader
    never sees half a file; :meth:`discard` removes it, leaving the file at the target as
    it was. A run killed mid-write leaves the old file, never a partial one.
    """

    target: Path
    """The absolute path the file is for."""
    temporary: Path
    """The temporary file, in the target's folder (a rename never crosses a file system)."""

    def write(self, data: bytes) -> None:
        """Write ``data`` into the temporary file (replacing what it held)."""
        with open(self.temporary, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.temporary, 0o666 & ~umask)

    def commit(self) -> Path:
        """Rename the written file over the target; returns the target."""
        os.replace(self.temporary, self.target)
        return self.target

    def discard(self) -> None:
        """Remove the temporary file (nothing at the target changes); never raises."""
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)


def stage_file(path: str | os.PathLike[str]) -> StagedFile:
    """An empty temporary file beside ``path`` (its folders created), to write and commit.

    Raises:
        OSError: ``path`` is a symbolic-link loop, or exists and is not a regular file
            (the rename would replace a device, a FIFO or a socket, ``/dev/null`` through
            a link, with a regular file: the run's preflight refuses such outputs, and this
            catches one that became so during the run), or its folder cannot take a file.
    """
    try:
        target = Path(path).expanduser().resolve()
    except RuntimeError as exc:  # a symbolic-link loop, before Python 3.13
        raise OSError(errno.ELOOP, f"{str(path)!r} is a symbolic-link loop ({exc})") from None
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(
            errno.EEXIST, f"{str(target)!r} exists and is not a regular file; it is left alone"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    return StagedFile(target, Path(tmp))
