"""The one guard over every path pytest-pau writes, and over the files it reads.

Every output is written after work that cost something (a run's model calls, a merge, an
export), so every mistake about where it goes must show before anything is written. The
writers are a pytest run (``--pau-report``, ``--pau-html``, ``--pau-markdown``,
``--pau-plots``, pytest's ``--junitxml``), ``pau merge`` (``-o``, ``--html``,
``--markdown``), ``pau cache export``, ``pau paper -o``, ``pau train --output``,
``pau compare --json``, ``pau judge-check --output``, ``pau import-reference -o``,
``pau plot --out/--html`` and ``pau init DIR``; each describes its outputs and inputs as
:class:`PathArg` rows and calls :func:`check_outputs`:

* paths are resolved once, safely: a symbolic-link loop is a usage error naming the path;
* no output may name a file another output writes, or a path an input is read from (a
  shard, the dataset file, the ``--pau-baseline`` report, the model cache and the
  calibration store, pytest's config file, the conftest files, any file named as pytest
  reads it), or a path another option needs as a folder;
* no output may be anything but a regular file (or nothing yet), and no folder output
  anything but a folder (nor hold a folder where it writes a file): the writers replace a file by renaming a temporary one over it,
  which would turn a character device, a FIFO or a socket into a regular file (and
  ``/dev/null`` with it);
* each output's folder gets a real file created and removed in it (``os.access`` says
  yes for root on a read-only mount or in ``/proc``; only a write tells).

:func:`check_input_file` is the same care for what is read: a regular file of a bounded
size, or a clear error, never an ``open()`` that blocks on a FIFO.

All raise :class:`~pytest_pau.errors.ConfigError` naming the options involved.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pytest_pau.errors import ConfigError

_PROBE = ".pau-write-check-"
#: What a check before a pytest run says it saved.
RUN_CHECKED = "Checked before any model call, so nothing was paid for"
#: What a check of a command's outputs says it saved.
WRITE_CHECKED = "Checked before anything was written"
#: The names of files pytest reads as configuration or imports as code (``conftest.py``):
#: an output of that name would change or break the next run, wherever this run's own
#: config file is.
PYTEST_NAMES = (
    "conftest.py",
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
)


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
        """The files this option reads or writes.

        Raises:
            ConfigError: A path is a symbolic-link loop (named, with the option).
        """
        if self.folder:
            return [real(self.path / name, self.label) for name in self.writes]
        return [real(self.path, self.label), *(real(p, self.label) for p in self.extra_files)]

    def folders(self) -> list[Path]:
        """The folder this option needs (a folder option's own path)."""
        return [real(self.path, self.label)] if self.folder else []


def output_arg(
    option: str,
    given: str | os.PathLike[str],
    *,
    base: Path | None = None,
    folder: bool = False,
    writes: Sequence[str] = (),
    what: str = "",
) -> PathArg:
    """The :class:`PathArg` of a path given on a command line.

    Args:
        option: The option as typed (``-o``, ``--html``), or a description (``shard``).
        given: The value as given; ``~`` is expanded, a relative path is taken from
            ``base`` (default: the current folder).
        folder, writes, what: As :class:`PathArg`'s (``what`` makes it an input).

    Raises:
        ConfigError: The path is a symbolic-link loop.
    """
    label = f"{option}={str(given)!r}" if option.startswith("-") else f"{option} {str(given)!r}"
    path = Path(given).expanduser()
    path = real((base or Path.cwd()) / path, label)
    return PathArg(option, str(given), path, folder=folder, writes=tuple(writes), what=what)


def real(path: Path, label: str = "") -> Path:
    """``path`` with symlinks resolved, also when it does not exist yet.

    Raises:
        ConfigError: The path (or a folder on it) is a symbolic-link loop, or cannot be
            resolved at all; the message names ``label`` and the path.
    """
    try:
        return path.expanduser().resolve(strict=False)
    except (RuntimeError, OSError) as exc:  # RuntimeError: a loop, before Python 3.13
        where = f"{label}: " if label else ""
        loop = isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP
        what = "it is a symbolic-link loop" if loop else "a folder on it cannot be read"
        raise ConfigError(
            f"{where}{str(path)!r} cannot be resolved: {what} ({type(exc).__name__}: {exc}); "
            "point the path at a real file or folder"
        ) from None


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


def probe_writable(arg: PathArg, *, checked: str = RUN_CHECKED) -> None:
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
    if arg.folder and (kind := special_kind(target)) is not None:
        raise ConfigError(
            f"{arg.label}: {str(target)!r} is {kind}, and a folder is needed. Name a folder "
            f"(or a path that does not exist yet). {checked}"
        )
    specials = [(f, k) for f in arg.files() if (k := special_kind(f)) is not None]
    if specials:
        where, kind = specials[0]
        raise ConfigError(
            f"{arg.label}: {str(where)!r} is {kind}, not a regular file; the output is "
            "written by renaming a new file over it, which would replace it. Name a regular "
            f"file (or a path that does not exist yet). {checked}"
        )
    inner = [f for f in arg.files() if arg.folder and f.is_dir()]
    if arg.folder and target.exists() and not target.is_dir():
        problem = "it is a file, and a folder is needed"
    elif inner:
        problem = f"{str(inner[0])!r}, a file it writes, is a folder"
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
            f"{arg.label}: cannot write {kind} there ({problem}); pick a writable path. {checked}"
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


def check_conflicts(
    outputs: Sequence[PathArg], inputs: Sequence[PathArg], *, checked: str = RUN_CHECKED
) -> None:
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
                    f"{checked}"
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


def check_names(outputs: Sequence[PathArg], *, checked: str = RUN_CHECKED) -> None:
    """Refuse an output named as pytest's own files (:data:`PYTEST_NAMES`).

    Raises:
        ConfigError: naming the option, the path and what pytest does with such a file.
    """
    for arg in outputs:
        for path in arg.files():
            if path.name in PYTEST_NAMES:
                what = (
                    "a conftest file, which pytest imports as code"
                    if path.name == "conftest.py"
                    else "a file pytest reads its configuration from"
                )
                raise ConfigError(
                    f"{arg.label}: {path.name!r} is the name of {what}; writing "
                    f"{arg.option} there would overwrite or create one ({str(path)!r}). "
                    f"Name another file. {checked}"
                )


def check_outputs(
    outputs: Sequence[PathArg],
    inputs: Sequence[PathArg],
    *,
    checked: str = RUN_CHECKED,
    pytest_files: bool = False,
) -> None:
    """The guard: fail before anything is written when an output would overwrite another
    path, is no regular file (or, for a folder output, no folder), or cannot be written.

    Args:
        outputs: Every path the command writes (each option, once).
        inputs: Every path it reads (rows with ``what`` set).
        checked: The sentence that ends each message: what the check saved.
        pytest_files: The outputs are pytest's own files on purpose (``pau init`` writes
            a conftest and a ``pytest.ini``): :func:`check_names` is skipped.

    Raises:
        ConfigError: naming the option(s), the path(s) and the problem.
    """
    if not pytest_files:
        check_names(outputs, checked=checked)
    check_conflicts(outputs, inputs, checked=checked)
    for arg in outputs:
        probe_writable(arg, checked=checked)


def check_input_file(path: Path, label: str, *, max_bytes: int | None = None) -> Path:
    """``path``, resolved, checked to be a regular file (of at most ``max_bytes``) before
    anything opens it: ``open()`` on a FIFO blocks until a writer comes, and a device or
    an endless file is never done reading.

    Args:
        path: The file as given.
        label: What names it in a message (``pau merge: shard 'a.json'``).
        max_bytes: The largest size read; None for no bound.

    Raises:
        ConfigError: naming ``label``, the path and what it is instead.
    """
    resolved = real(path, label)
    try:
        st = os.stat(resolved)
    except FileNotFoundError:
        raise ConfigError(f"{label}: {str(path)!r}: no such file") from None
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read {str(path)!r}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ConfigError(f"{label}: {str(path)!r} is a folder; name a file")
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(
            f"{label}: {str(path)!r} is {special_kind(resolved) or 'not a regular file'}, not a "
            "regular file; it was not read (a pipe or a device may never end). Save it to a "
            "file first"
        )
    if max_bytes is not None and st.st_size > max_bytes:
        raise ConfigError(
            f"{label}: {str(path)!r} is {st.st_size:,} bytes, more than the {max_bytes:,} "
            "read at most; it was not read"
        )
    return resolved
