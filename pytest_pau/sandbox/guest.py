"""The sandbox guest as a build input: its files, their digest, and the ``componentize-py``
command that turns them into the WebAssembly component.

Two builds use this module: the package build (``hatch_build.py`` loads this file by its
path, when the wheel is built, so it imports nothing but the standard library) and the
runtime's fallback build (:mod:`pytest_pau.sandbox.build`). The component the package
build makes is *shipped*: ``sandbox.wasm`` next to the guest sources, with a stamp holding
the digest of the sources it was built from. A stamp that no longer matches (the guest
was edited after the install) means the shipped component is not used.

``componentize-py`` does not give the same bytes twice (its pre-initialised interpreter
snapshot differs from build to build, also with ``PYTHONHASHSEED`` fixed): a rebuild is
checked for the same behaviour, not the same bytes (``tests/sandbox/test_shipped.py``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: Files of the guest that go into the component (and into its digest).
GUEST_FILES = (
    "app.py",
    "pau_runner.py",
    "pau_answer.py",
    "pau_guard.py",
    "pau_names.py",
    "pau_preload.py",
    "pau_records.py",
    "pau_state.py",
    "pau_literals.py",
    "wit/sandbox.wit",
)
WORLD = "sandbox"
#: The shipped component and its stamp, next to the guest sources.
SHIPPED = "sandbox.wasm"
STAMP = "sandbox.wasm.guest"
COMPONENTIZE_PY = "componentize-py==0.25.1"


def guest_hash(root: Path) -> str:
    """A short digest of every guest file under ``root``."""
    digest = hashlib.sha256()
    for name in GUEST_FILES:
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _stamp(root: Path, component: Path) -> str:
    """The stamp's text: the guest's digest, then the component's size and SHA-256."""
    return f"{guest_hash(root)}\n{component.stat().st_size} {_digest(component)}\n"


def shipped(root: Path, *, check_bytes: bool = False) -> Path | None:
    """The component shipped with the guest under ``root``, if it was built from these
    very sources (the stamp's first line is their digest) and has the size the stamp
    gives; with ``check_bytes`` also its SHA-256 (the package build checks it before it
    ships the file; a run checks the size only, and falls back to a build of its own
    when wasmtime cannot compile the file). None otherwise."""
    component, stamp = root / SHIPPED, root / STAMP
    try:
        lines = stamp.read_text().split()
        if not component.is_file() or len(lines) != 3 or lines[0] != guest_hash(root):
            return None
        if component.stat().st_size != int(lines[1]):
            return None
        if check_bytes and _digest(component) != lines[2]:
            return None
    except (OSError, ValueError):
        return None
    return component


def componentize(root: Path, out: Path, *, timeout_s: float) -> subprocess.CompletedProcess[str]:
    """Run ``componentize-py`` on the guest under ``root``, writing the component to ``out``.

    Raises:
        OSError: componentize-py could not be started.
        subprocess.TimeoutExpired: it ran longer than ``timeout_s``.
    """
    cmd = [
        sys.executable,
        "-c",
        "import sys; from componentize_py import script; sys.argv[0] = 'componentize-py'; sys.exit(script())",
        "-q",
        "-d",
        str(root / "wit"),
        "-w",
        WORLD,
        "componentize",
        "-p",
        str(root),
        "app",
        "-o",
        str(out),
    ]
    with tempfile.TemporaryDirectory(prefix="pau-guest-") as cwd:
        return subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout_s, check=False
        )


def ship(root: Path, *, timeout_s: float = 600) -> Path:
    """Build the component next to the guest under ``root`` unless a matching one is there.

    The component is written in a temporary folder beside ``root`` (never inside it: the
    wheel takes the guest folder's files) and renamed into place, then the stamp: an
    interrupted build leaves no component that a stamp vouches for.

    Raises:
        RuntimeError: componentize-py failed; its output is in the message.
    """
    found = shipped(root, check_bytes=True)
    if found is not None:
        return found
    target = root / SHIPPED
    (root / STAMP).unlink(missing_ok=True)
    for stale in root.glob(f".{SHIPPED}.*.tmp"):  # left by a build killed before this fix
        stale.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix=".pau-sandbox-build-", dir=root.parent) as tmp:
        out = Path(tmp) / SHIPPED
        proc = componentize(root, out, timeout_s=timeout_s)
        if proc.returncode != 0 or not out.is_file():
            tail = (proc.stderr or proc.stdout).strip()[-2000:]
            raise RuntimeError(
                f"componentize-py failed (exit {proc.returncode}) building {root}:\n{tail}"
            )
        os.replace(out, target)
    (root / STAMP).write_text(_stamp(root, target))
    return target


def wheel_files(root: Path) -> list[str]:
    """The guest folder's files a wheel ships: the sources, their README, the component
    and its stamp."""
    return [*GUEST_FILES, "README.md", SHIPPED, STAMP]
