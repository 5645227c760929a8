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


def shipped(root: Path) -> Path | None:
    """The component shipped with the guest under ``root``, if it was built from these
    very sources (its stamp matches their digest); None otherwise."""
    component, stamp = root / SHIPPED, root / STAMP
    try:
        if component.is_file() and stamp.read_text().strip() == guest_hash(root):
            return component
    except OSError:
        return None
    return None


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

    The component is written to a temporary name and renamed into place, then the stamp:
    an interrupted build leaves no component that a stamp vouches for.

    Raises:
        RuntimeError: componentize-py failed; its output is in the message.
    """
    found = shipped(root)
    if found is not None:
        return found
    target = root / SHIPPED
    (root / STAMP).unlink(missing_ok=True)
    tmp = root / f".{SHIPPED}.{os.getpid()}.tmp"
    try:
        proc = componentize(root, tmp, timeout_s=timeout_s)
        if proc.returncode != 0 or not tmp.is_file():
            tail = (proc.stderr or proc.stdout).strip()[-2000:]
            raise RuntimeError(
                f"componentize-py failed (exit {proc.returncode}) building {root}:\n{tail}"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    (root / STAMP).write_text(guest_hash(root) + "\n")
    return target
