"""Package build hook: the sandbox's WebAssembly component is built with the package.

Hatchling runs this for the wheel (a release, ``pip install .``) and for an editable
install (``pip install -e .``): ``componentize-py`` turns ``sandbox_wasm/`` into
``sandbox_wasm/sandbox.wasm`` plus a stamp of the sources it came from (git ignores both),
and the wheel carries them as ``pytest_pau/_sandbox_wasm/``. A user's first run then only
compiles the component for its CPU. A stamp that matches the sources skips the build. A
failed build fails the wheel; an editable install goes on with a warning (its first run
builds the component into the user cache).

The rule (which files, which command) lives in ``pytest_pau/sandbox/guest.py``, loaded
here by its path: the build environment has hatchling and componentize-py, not the
package's own dependencies.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _guest_module(root: Path) -> Any:
    path = root / "pytest_pau" / "sandbox" / "guest.py"
    spec = importlib.util.spec_from_file_location("_pau_guest_build", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class SandboxComponentHook(BuildHookInterface):  # type: ignore[type-arg]
    """Build ``sandbox_wasm/sandbox.wasm`` before the wheel (or editable wheel) is made."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # the sdist carries the sources only
        root = Path(self.root)
        guest = _guest_module(root)
        source = root / "sandbox_wasm"
        if version == "standard":
            # The wheel takes these files only (no temporary files, no caches); an editable
            # install reads them from the checkout itself.
            for name in guest.wheel_files(source):
                build_data["force_include"][str(source / name)] = f"pytest_pau/_sandbox_wasm/{name}"
            templates = root / "conftest_templates"
            build_data["force_include"][str(templates)] = "pytest_pau/_conftest_templates"
        if guest.shipped(source, check_bytes=True) is not None:
            return
        started = time.perf_counter()
        print("pytest-pau: building the sandbox component (componentize-py)...", file=sys.stderr)
        try:
            guest.ship(source)
        except (OSError, RuntimeError) as exc:
            if version != "editable":
                raise  # a wheel without its component must not be made
            # An editable checkout still works: the first run builds the component into
            # the user cache (and says so), as a guest edited after the install does.
            print(
                f"pytest-pau: WARNING: the sandbox component was not built: {exc}", file=sys.stderr
            )
            return
        print(
            f"pytest-pau: sandbox component built in {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
