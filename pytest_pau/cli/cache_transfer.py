"""``pau cache export FILE`` and ``pau cache import FILE...``: caches that travel (``docs/ci.md``).

A CI matrix's jobs each fill their own cache folder; GitHub's cache saves one folder under
one key. Each job exports its cache to a file (an artifact), and the job that needs every
answer imports them all: union by key, safe while a run writes. The work is
:mod:`pytest_pau.llm.cache.transfer`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from pytest_pau.settings.values import parse_path


def parse_since(text: str) -> float:
    """A moment: ISO 8601 (``2026-12-01T10:00:00Z``) or seconds since the epoch."""
    value = str(text).strip()
    try:
        number = float(value)
    except ValueError:
        pass
    else:
        if not math.isfinite(number):  # nan, inf, 1e400: no moment, and "0 entries" would pass
            raise argparse.ArgumentTypeError(
                f"expected a time such as 2026-12-01T10:00:00Z or seconds since the epoch, got "
                f"{text!r}, which is no moment"
            )
        return number
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a time such as 2026-12-01T10:00:00Z or seconds since the epoch, got {text!r}"
        ) from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(
            f"expected a time with its zone (2026-12-01T10:00:00Z), got {text!r}: a time "
            "without one means something else on every machine"
        )
    return moment.timestamp()


def add_transfer_parsers(action: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``export`` and ``import`` through ``pau cache``'s ``action(name, help)``."""
    export = action(
        "export",
        "Write the cache's entries to FILE (an SQLite file of the same table), consistent "
        "while a run writes; an earlier export at FILE is replaced, any other file refused.",
    )
    export.add_argument("file", type=parse_path, metavar="FILE", help="The export file.")
    export.add_argument(
        "--since",
        type=parse_since,
        metavar="TIME",
        help="Only entries stored at or after TIME (2026-12-01T10:00:00Z, or seconds since "
        "the epoch): what this job added. Default: every entry.",
    )
    imp = action(
        "import",
        "Add the entries of export files (or other cache folders) that the cache lacks; a "
        "key the cache holds with another answer is reported and the cache's answer kept. "
        "Creates the cache when there is none.",
    )
    imp.add_argument(
        "files",
        nargs="+",
        type=parse_path,
        metavar="FILE",
        help="Export files or cache folders, in order (an earlier one wins a key).",
    )


def export(args: argparse.Namespace, directory: Path, *, size: Callable[[float], str]) -> int:
    """``pau cache export FILE`` of the cache in ``directory``."""
    from pytest_pau.llm.cache.transfer import export_cache

    result = export_cache(directory, args.file, since=args.since)
    entries = f"{result.entries:,} entr{'y' if result.entries == 1 else 'ies'}"
    print(f"exported {entries} to {result.path} ({size(result.bytes)})")
    return 0


def import_(args: argparse.Namespace, directory: Path) -> int:
    """``pau cache import FILE...`` into the cache in ``directory`` (created when missing)."""
    from pytest_pau.llm.cache import ResponseCache
    from pytest_pau.llm.cache.import_sources import check_sources
    from pytest_pau.llm.cache.transfer import import_caches

    check_sources([Path(f) for f in args.files])  # before the cache is created or touched
    cache = ResponseCache(directory, option="--cache-dir")
    try:
        results = import_caches(cache.connection(), [Path(f) for f in args.files])
    finally:
        cache.close()
    conflicts = 0
    for r in results:
        print(
            f"{r.path}: {r.read:,} read, {r.added:,} added, {r.same:,} already there"
            + (f", {r.conflicts:,} with another answer (the cache's kept)" if r.conflicts else "")
        )
        for key, model in r.examples:
            print(f"  conflict: key {key} ({model})", file=sys.stderr)
        conflicts += r.conflicts
    added = sum(r.added for r in results)
    print(f"cache {cache.path}: {added:,} entries added from {len(results)} file(s)")
    if conflicts:
        print(
            f"note: {conflicts:,} key(s) had two different answers (a provider that is not "
            "deterministic at temperature 0 answers one request two ways); each kept the "
            "answer the cache already had, so a re-run reads that one",
            file=sys.stderr,
        )
    return 0
