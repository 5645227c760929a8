"""Before any model call: can every output be written, and does none overwrite another path?

The run's outputs (``--pau-report``, ``--pau-html``, ``--pau-plots``, pytest's
``--junitxml``) are written after every model call has been paid for, so a mistake in
one of them must show at configure time:

* each output's folder gets a real file created and removed in it (``os.access`` says
  yes for root on a read-only mount or in ``/proc``; only a write tells);
* no output may name a file another output writes, or a path an input is read from
  (the ``--pau-dataset`` file, the ``--pau-baseline`` report, the model cache and the
  calibration store, pytest's config file, the conftest files, any file named as pytest
  reads it), or a path another option needs as a folder;
* no output may be anything but a regular file (or nothing yet): the writers replace the
  file by renaming a temporary one over it, which would turn a character device, a FIFO
  or a socket into a regular file (and ``/dev/null`` with it).

Both raise :class:`~pytest_pau.errors.ConfigError` naming the options involved.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pytest_pau.errors import ConfigError

_PROBE = ".pau-write-check-"


@dataclass(frozen=True)
class PathArg:
    """A path one option names: what the run reads there, or writes there.

    Args:
        option: The option, as a user types it (``--pau-report``).
        given: The value as given (for messages).
        path: The same, absolute (relative values resolved from the invocation folder).
        folder: The option names a folder that the run writes ``writes`` into.
        writes: For a folder, the names of the files written into it.
        what: How an input is used, for messages (``the dataset``).
    """

    option: str
    given: str
    path: Path
    folder: bool = False
    writes: tuple[str, ...] = ()
    what: str = ""
    extra_files: tuple[Path, ...] = field(default=())
    """Further files of an input (a SQLite database's ``-wal`` and ``-shm``)."""

    @property
    def label(self) -> str:
        """``--pau-report='r.json'`` for an option; ``pytest's config file 'x'`` otherwise."""
        if self.option.startswith("-"):
            return f"{self.option}={self.given!r}"
        return f"{self.option} {self.given!r}"

    def files(self) -> list[Path]:
        """The files this option reads or writes."""
        if self.folder:
            return [_real(self.path / name) for name in self.writes]
        return [_real(self.path), *(_real(p) for p in self.extra_files)]

    def folders(self) -> list[Path]:
        """The folder this option needs (a folder option's own path)."""
        return [_real(self.path)] if self.folder else []


def _real(path: Path) -> Path:
    """``path`` with symlinks resolved, also when it does not exist yet."""
    return path.expanduser().resolve(strict=False)


def _same(a: Path, b: Path) -> bool:
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)  # hard links, bind mounts
    except OSError:
        return False


def _inside(inner: Path, outer: Path) -> bool:
    return inner != outer and inner.is_relative_to(outer)


def _at_or_inside(inner: Path, outer: Path) -> bool:
    return _same(inner, outer) or inner.is_relative_to(outer)


def special_kind(path: Path) -> str | None:
    """What ``path`` is when it is neither a regular file, a folder nor absent (links followed).

    >>> special_kind(Path("/dev/null"))
    'a character device'
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def probe_writable(arg: PathArg) -> None:
    """Create and remove a real file where ``arg`` will write; fail if that is impossible.

    A folder that does not exist yet is created by the writer: then the nearest existing
    folder above it must take a new folder, which is probed with a temporary one. A path
    that is a device, a FIFO or a socket is refused: the writers rename a temporary file
    over their target, which would replace that node with a regular file.

    Raises:
        ConfigError: naming the option, the path and the reason.
    """
    target = arg.path
    folder = target if arg.folder else target.parent
    problem = None
    specials = [(f, k) for f in arg.files() if (k := special_kind(f)) is not None]
    if specials:
        where, kind = specials[0]
        raise ConfigError(
            f"{arg.label}: {str(where)!r} is {kind}, not a regular file; the output is "
            "written by renaming a new file over it, which would replace it. Name a regular "
            "file (or a path that does not exist yet). Checked before any model call, so "
            "nothing was paid for"
        )
    if arg.folder and target.exists() and not target.is_dir():
        problem = "it is a file, and a folder is needed"
    elif not arg.folder and target.is_dir():
        problem = "it is a folder"
    else:
        ancestor = folder
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            problem = f"{str(ancestor)!r} is not a folder"
        else:
            problem = _try_write(ancestor, make_folder=ancestor != folder)
    if problem is not None:
        kind = "files" if arg.folder else "the file"
        raise ConfigError(
            f"{arg.label}: cannot write {kind} there ({problem}); pick a writable path. "
            "Checked before any model call, so nothing was paid for"
        )


def _try_write(folder: Path, *, make_folder: bool) -> str | None:
    """Create and remove a file (inside a new folder when ``make_folder``); None if it worked."""
    made: str | None = None
    name: str | None = None
    try:
        where = folder
        if make_folder:
            made = tempfile.mkdtemp(prefix=_PROBE, dir=folder)
            where = Path(made)
        fd, name = tempfile.mkstemp(prefix=_PROBE, dir=where)
        os.close(fd)
    except OSError as exc:
        return f"creating a file in {str(folder)!r} failed: {exc.strerror or exc}"
    finally:
        if name is not None:
            with contextlib.suppress(OSError):
                os.unlink(name)
        if made is not None:
            with contextlib.suppress(OSError):
                os.rmdir(made)
    return None


def check_conflicts(outputs: Sequence[PathArg], inputs: Sequence[PathArg]) -> None:
    """Fail when an output would overwrite an input or another output.

    Checked for every pair: a file written by one option is a file another option reads
    or writes; or one option writes a file where another needs a folder (a path inside
    it, or the folder itself).

    Raises:
        ConfigError: naming both options and both paths, for the first conflict found.
    """
    for i, out in enumerate(outputs):
        others = [*outputs[i + 1 :], *inputs]
        for other in others:
            problem = _conflict(out, other) or _conflict(other, out, swapped=True)
            if problem is not None:
                raise ConfigError(
                    f"{out.label} and {other.label}: {problem}; give them different paths. "
                    "Checked before any model call, so nothing was paid for"
                )


def _conflict(a: PathArg, b: PathArg, *, swapped: bool = False) -> str | None:
    """Why ``a`` (an output, unless ``swapped``) and ``b`` cannot both have their paths."""
    b_is_input = bool(b.what)
    if swapped:
        a_is_input = bool(a.what)
        if a_is_input:  # an input writes nothing: only the other direction can clash
            return None
    for fa in a.files():
        for fb in b.files():
            if _same(fa, fb):
                if b_is_input:
                    return f"writing {a.option} would overwrite {b.what} ({str(fb)!r})"
                return f"both write {str(fa)!r}: one would overwrite the other"
        needs = [(p, _inside) for p in b.files()] + [(p, _at_or_inside) for p in b.folders()]
        for need, clashes in needs:
            if clashes(need, fa):
                return (
                    f"{a.option} writes the file {str(fa)!r}, but {b.option} needs it to be a "
                    f"folder (for {str(need)!r})"
                )
    for folder in a.folders():
        for fb in b.files():
            if _same(folder, fb):
                return (
                    f"{a.option} needs a folder at {str(folder)!r}, where {b.option} "
                    f"{'reads' if b_is_input else 'writes'} a file"
                )
    return None
