"""Find, build and cache the WebAssembly component that runs methods.

The component comes, in this order, from:

1. a build in the user cache (``pau sandbox build --force`` puts one there);
2. the package: ``sandbox.wasm`` next to the guest sources, built when the package was
   built (the wheel at release, an editable install at ``pip install -e``), used when its
   stamp matches the guest sources (:mod:`pytest_pau.sandbox.guest`);
3. a build now, by ``componentize-py`` (about 10 s on idle cores), into the user cache.

wasmtime then compiles it to machine code for this CPU (about 15 s on 2 cores, once):
``<user cache>/sandbox/<plugin version>/<hash of the guest sources>/sandbox-<wasmtime
version>-<config>.cwasm``, loaded with ``Component.deserialize_file`` in a few
milliseconds by every later process.

Several processes (pytest-xdist workers) may ask at once: each artefact is written to a
temporary name and renamed into place atomically, under a ``filelock.FileLock``, so a
reader never sees half a file and the work is done once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_pau._version import __version__
from pytest_pau.errors import SandboxBuildError
from pytest_pau.paths import user_cache_dir, user_cache_failure, user_cache_subdir
from pytest_pau.sandbox import guest
from pytest_pau.sandbox.guest import GUEST_FILES, WORLD

__all__ = ["GUEST_FILES", "WORLD", "build_component", "load_component"]

BUILD_TIMEOUT_S = 600

#: How long the two first-use steps take, as the messages that announce them say it
#: (measured on 2 cores: componentize-py 10-15 s, wasmtime's compile 13.4-14.8 s).
BUILD_TAKES = "componentize-py, about 10 s"
COMPILE_TAKES = "about 15 s on 2 cores"


def guest_dir() -> Path:
    """Where the guest sources are: the wheel's copy first, then the source checkout.

    Raises:
        SandboxBuildError: Neither location holds the guest.
    """
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_sandbox_wasm", package.parent / "sandbox_wasm"):
        if (candidate / "app.py").is_file():
            return candidate
    raise SandboxBuildError(
        f"the sandbox guest sources were not found in {package / '_sandbox_wasm'} or "
        f"{package.parent / 'sandbox_wasm'}; reinstall pytest-pau (pip install --force-reinstall pytest-pau)"
    )


def guest_hash() -> str:
    """A short digest of every guest file; a change of the guest gives a new cache folder."""
    return guest.guest_hash(guest_dir())


def cache_dir() -> Path:
    """The folder holding this guest's built artefacts."""
    return user_cache_subdir("sandbox", __version__, guest_hash())


def stale_builds() -> list[Path]:
    """Cached builds other than this guest's: older guests and other plugin versions.

    Each is ~80 MiB; nothing removes them on its own, since another installation (another
    virtualenv, another version) may share the cache and still use its build.
    """
    current = cache_dir().resolve()
    root = user_cache_dir() / "sandbox"
    return sorted(
        folder for folder in root.glob("*/*") if folder.is_dir() and folder.resolve() != current
    )


def clean() -> tuple[list[Path], int]:
    """Remove :func:`stale_builds`, skipping one whose build is running; returns what was
    removed and the bytes freed."""
    from filelock import FileLock, Timeout

    removed, freed = [], 0
    for folder in stale_builds():
        try:
            with FileLock(str(folder / ".build.lock"), timeout=0):
                size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
                shutil.rmtree(folder)
        except (Timeout, OSError):
            continue
        removed.append(folder)
        freed += size
    for version in (user_cache_dir() / "sandbox").iterdir():
        if version.is_dir() and not any(version.iterdir()):
            version.rmdir()
    return removed, freed


def component_path() -> Path:
    """Path of the component built into the user cache (it may not exist)."""
    return cache_dir() / "sandbox.wasm"


def component_origin() -> tuple[Path, str] | None:
    """The component a run would load and where it comes from (``"built"`` into the user
    cache or ``"shipped"`` with the package); None when neither exists yet."""
    if component_path().is_file():
        return component_path(), "built"
    found = guest.shipped(guest_dir())
    return (found, "shipped") if found is not None else None


@contextlib.contextmanager
def _lock(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s build lock (one build or compile at a time across processes).

    Raises:
        SandboxBuildError: the lock file cannot be made (a read-only or full user cache),
            naming the folder and PAU_USER_CACHE; or another process held it past
            :data:`BUILD_TIMEOUT_S`.
    """
    from filelock import FileLock

    lock = FileLock(str(folder / ".build.lock"), timeout=BUILD_TIMEOUT_S)
    try:
        lock.acquire()
    except OSError as exc:  # filelock's Timeout is a TimeoutError, an OSError too
        raise SandboxBuildError(
            f"cannot build or compile the sandbox: {user_cache_failure(folder, exc)}"
        ) from None
    try:
        yield
    finally:
        lock.release()


def build_component(*, force: bool = False) -> Path:
    """The component to load: built in the cache, else shipped, else built now.

    Args:
        force: Build into the user cache even when a component exists; that build is then
            the one loaded.

    Raises:
        SandboxBuildError: ``componentize-py`` failed or is missing.
    """
    origin = component_origin()
    if origin is not None and not force:
        return origin[0]
    target = component_path()
    with _lock(target.parent):
        if target.is_file() and not force:
            return target  # another process built it while we waited
        source = guest_dir()
        out = target.parent / f".sandbox.wasm.{os.getpid()}.tmp"
        started = time.perf_counter()
        try:
            proc = guest.componentize(source, out, timeout_s=BUILD_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            out.unlink(missing_ok=True)
            raise SandboxBuildError(
                f"could not run componentize-py: {exc}; install it with pip install {guest.COMPONENTIZE_PY}"
            ) from exc
        if proc.returncode != 0 or not out.is_file():
            out.unlink(missing_ok=True)
            tail = (proc.stderr or proc.stdout).strip()[-2000:]
            raise SandboxBuildError(
                f"componentize-py failed (exit {proc.returncode}) building {source}:\n{tail}\n"
                f"Check that {guest.COMPONENTIZE_PY} is installed (pip install '{guest.COMPONENTIZE_PY}')."
            )
        os.replace(out, target)
        (target.parent / "build-seconds.txt").write_text(f"{time.perf_counter() - started:.1f}\n")
    return target


def compiled_path(config_tag: str) -> Path:
    """Path of the machine code compiled by this wasmtime version for an engine config."""
    import wasmtime

    version = getattr(wasmtime, "__version__", None) or _wasmtime_version()
    return cache_dir() / f"sandbox-{version}-{config_tag}.cwasm"


def _wasmtime_version() -> str:
    from importlib.metadata import version

    return version("wasmtime")


def load_component(engine: object, config_tag: str) -> object:
    """The component compiled for ``engine``, from the cache when possible.

    Builds the component and compiles it on first use; later processes deserialize
    the cached machine code (milliseconds).

    Raises:
        SandboxBuildError: Building, compiling or loading failed.
    """
    from wasmtime import WasmtimeError
    from wasmtime.component import Component

    compiled = compiled_path(config_tag)
    if compiled.is_file():
        try:
            return Component.deserialize_file(engine, str(compiled))  # type: ignore[arg-type]
        except WasmtimeError:
            pass  # written by an incompatible build: compile again below
    wasm = build_component()
    with _lock(compiled.parent):
        if compiled.is_file():
            try:
                return Component.deserialize_file(engine, str(compiled))  # type: ignore[arg-type]
            except WasmtimeError:
                compiled.unlink(missing_ok=True)
        try:
            component = Component.from_file(engine, str(wasm))  # type: ignore[arg-type]
        except WasmtimeError as exc:
            if wasm == component_path():
                raise SandboxBuildError(
                    f"wasmtime could not compile {wasm}: {exc}; delete the folder {wasm.parent} "
                    "(the user cache's build) and retry"
                ) from exc
            failed = exc
        else:
            return _store(component, compiled)
    # The shipped component does not compile (damaged on disk, or a wheel that carries a
    # bad one): build one into the user cache, outside the lock the build takes itself;
    # that build is used from now on.
    print(
        f"pytest-pau: the shipped sandbox component {wasm} does not compile ({failed}); "
        f"building one into the user cache ({BUILD_TAKES})",
        file=sys.stderr,
    )
    build_component(force=True)
    return load_component(engine, config_tag)


def _store(component: Any, compiled: Path) -> Any:
    """Write the machine code of ``component`` to ``compiled`` (atomically); returns it.

    Raises:
        SandboxBuildError: the user cache could not take it (full, read-only).
    """
    tmp = compiled.parent / f".{compiled.name}.{os.getpid()}.tmp"
    try:
        tmp.write_bytes(bytes(component.serialize()))
        os.replace(tmp, compiled)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SandboxBuildError(
            f"could not write the compiled sandbox: {user_cache_failure(compiled, exc)}"
        ) from exc
    return component
