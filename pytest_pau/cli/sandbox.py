"""``pau sandbox build|info|clean``: build the WebAssembly component ahead of time, inspect
it, or remove the builds of other guests and versions from the cache."""

from __future__ import annotations

import argparse
import time
from typing import Any


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``pau sandbox``."""
    parser = subparsers.add_parser(
        "sandbox",
        help="Build, inspect or clean the WebAssembly sandbox component.",
        description=(
            "The package ships the sandbox component (built with the package); on first use it is "
            "compiled for this CPU into the user cache. build: compile now (with --force: also "
            "rebuild the component into the cache, which is then used instead of the shipped one); "
            "info: show which component is used and where; clean: remove other builds from the cache."
        ),
    )
    parser.add_argument(
        "action",
        choices=("build", "info", "clean"),
        help=(
            "build: compile now (building the component only if none is shipped); "
            "info: print the component's origin, paths, sizes and times; "
            "clean: remove cached builds of other guests and plugin versions (~80 MiB each)."
        ),
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="build: rebuild the component into the user cache even when one is shipped or cached.",
    )
    return parser  # type: ignore[no-any-return]


def run(args: argparse.Namespace) -> int:
    """Build, describe or clean the component's cache."""
    from pytest_pau.sandbox import build

    if args.action == "build":
        started = time.perf_counter()
        if args.force:
            for old in build.cache_dir().glob("*.cwasm"):
                old.unlink()
        wasm = build.build_component(force=args.force)
        built = time.perf_counter()
        from pytest_pau.sandbox.runtime import CONFIG_TAG, get_runtime

        get_runtime()
        origin = build.component_origin()
        how = origin[1] if origin is not None else "built"
        print(
            f"component: {wasm} ({how}, {wasm.stat().st_size / 2**20:.1f} MiB, {built - started:.1f} s)"
        )
        compiled = build.compiled_path(CONFIG_TAG)
        print(
            f"compiled:  {compiled} ({compiled.stat().st_size / 2**20:.1f} MiB, {time.perf_counter() - built:.1f} s)"
        )
        return 0
    if args.action == "clean":
        removed, freed = build.clean()
        for folder in removed:
            print(f"removed {folder}")
        print(
            f"{len(removed)} stale build(s) removed, {freed / 2**20:.0f} MiB freed; kept {build.cache_dir()}"
        )
        return 0
    print(f"guest sources: {build.guest_dir()}")
    print(f"guest hash:    {build.guest_hash()}")
    print(f"cache folder:  {build.cache_dir()}")
    for path in sorted(build.cache_dir().iterdir()):
        if path.is_file() and not path.name.startswith("."):
            print(
                f"  {path.name:<40} {path.stat().st_size / 2**20:8.1f} MiB  {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(path.stat().st_mtime))}"
            )
    origin = build.component_origin()
    if origin is None:
        print(
            "component:     none shipped or built yet: run `pau sandbox build` (or it builds on first use)"
        )
        return 0
    print(f"component:     {origin[0]} ({origin[1]}, {origin[0].stat().st_size / 2**20:.1f} MiB)")
    from pytest_pau.sandbox.runtime import CONFIG_TAG

    if not build.compiled_path(CONFIG_TAG).is_file():
        # Timing a call now would time the compile: say so instead, and leave it to a run.
        print(
            f"compiled:      not yet for this CPU: a first run compiles it ({build.COMPILE_TAKES}), "
            "or `pau sandbox build` now"
        )
        return 0
    started = time.perf_counter()
    from pytest_pau.sandbox import Sandbox

    with Sandbox("def test_func():\n    return 1") as box:
        loaded = time.perf_counter()
        box.call_literal("()")
        print(f"load from cache: {(loaded - started) * 1000:.1f} ms (engine + component)")
        print(f"first call:      {(time.perf_counter() - loaded) * 1000:.1f} ms (instance + call)")
    return 0
