"""``pau cache info|clear|prune|export|import``: inspect, shrink and move the model-call cache.

Every model answer of a run is stored in ``<cache dir>/llm-cache.sqlite3``. ``info`` shows
its size, entries per model, dates and versions; ``clear`` deletes all entries or one
model's; ``prune`` deletes the oldest entries (by age or until the file fits a size) and
gives the space back; ``export`` writes the entries to one file and ``import`` adds files'
entries to the cache (union by key; a key with two different answers is reported and the
cache's answer kept), so that caches travel between CI machines. All of them are safe while
a pytest run writes to the cache: rows move in short transactions, and rows written
meanwhile are kept.

Which cache: ``--cache-dir DIR``; else ``pau_cache_dir`` from the pytest configuration
file in the current folder (pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg:
the first pytest would use); else ``.pau_cache`` beside that file's ``cache_dir``; else
``./.pau_cache``. Run it from the folder where you run pytest (the rootdir).

Exit status: 0 done, 1 nothing done (clear declined) or the integrity check failed,
2 bad arguments or no usable cache.
"""

from __future__ import annotations

import argparse
import configparser
import json
import re
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from pytest_pau.errors import ConfigError
from pytest_pau.settings import help_text
from pytest_pau.settings.options import OPTIONS_BY_NAME, OptionSpec
from pytest_pau.settings.values import parse_path

_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """A size in bytes: ``500M``, ``2G``, ``1.5GiB``, ``800000`` (K, M, G, T are 1024-based)."""
    match = _SIZE.match(str(text))
    if not match:
        raise argparse.ArgumentTypeError(
            f"expected a size such as 500M, 2G or 1048576 (bytes), got {text!r}"
        )
    value = int(float(match[1]) * _UNITS[match[2].lower()])
    if value <= 0:
        raise argparse.ArgumentTypeError(
            f"expected a size above 0, got {text!r}; to delete everything use `pau cache clear`"
        )
    return value


def parse_days(text: str) -> float:
    """A non-negative number of days (fractions allowed: ``0.5`` is 12 hours)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of days, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of days >= 0, got {text!r}")
    return value


def _cache_dir_spec() -> OptionSpec:
    return OPTIONS_BY_NAME["cache-dir"]


# -- which cache -------------------------------------------------------------------------


def pytest_ini_values(folder: Path) -> tuple[Path | None, dict[str, str]]:
    """The pytest configuration file in ``folder`` (the first pytest would use) and its keys."""
    for name, section in (("pytest.ini", "pytest"), (".pytest.ini", "pytest")):
        path = folder / name
        if path.is_file():
            return path, _ini_section(path, section) or {}
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{str(pyproject)!r}: cannot read it ({exc})") from None
        table = tool.get("pytest", {}) if isinstance(tool, dict) else {}
        if isinstance(table, dict) and table:
            # pytest 9 reads [tool.pytest] natively and [tool.pytest.ini_options] as ini.
            options = table.get("ini_options", table)
            if isinstance(options, dict):
                return pyproject, {k: str(v) for k, v in options.items() if v is not None}
    for name, section in (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        path = folder / name
        values = _ini_section(path, section) if path.is_file() else None
        if values is not None:
            return path, values
    return None, {}


def _ini_section(path: Path, section: str) -> dict[str, str] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{str(path)!r}: cannot read it ({exc})") from None
    return dict(parser[section]) if parser.has_section(section) else None


def resolve_cache_dir(given: Path | None, folder: Path | None = None) -> tuple[Path, str]:
    """The cache dir to use and where that came from (for messages)."""
    if given is not None:
        return given, "--cache-dir"
    folder = Path.cwd() if folder is None else folder
    ini, values = pytest_ini_values(folder)
    if values.get("pau_cache_dir", "").strip():
        return Path(values["pau_cache_dir"].strip()).expanduser(), f"pau_cache_dir in {ini}"
    if values.get("cache_dir", "").strip():
        pytest_cache = Path(values["cache_dir"].strip()).expanduser()
        if not pytest_cache.is_absolute():
            pytest_cache = folder / pytest_cache
        return pytest_cache.parent / ".pau_cache", f"beside cache_dir in {ini}"
    return folder / ".pau_cache", "the default, ./.pau_cache" + (
        f" ({ini} sets no pau_cache_dir)" if ini else ""
    )


def _existing_cache(args: argparse.Namespace) -> Path:
    from pytest_pau.llm.cache.cache_file import FILENAME

    directory, source = resolve_cache_dir(args.cache_dir)
    directory = directory.absolute()
    if not (directory / FILENAME).is_file():
        raise ConfigError(
            f"no model cache in {str(directory)!r} (from {source}): no {FILENAME} there. "
            "Pass --cache-dir DIR, or run this from the folder where you run pytest"
        )
    return directory


# -- the parser --------------------------------------------------------------------------


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau cache``."""
    doc = (__doc__ or "").split("\n\n")
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "cache",
        help="Inspect, clear or prune the model-call cache.",
        description="\n\n".join(doc[1:4]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="cache_action", metavar="ACTION", required=True)
    spec = _cache_dir_spec()
    cache_dir_help = (
        f"{help_text(spec).replace('Default:', 'Plugin default:')} Here: pau_cache_dir from the pytest "
        "ini file in the current folder, else .pau_cache beside its cache_dir, else ./.pau_cache."
    )

    def action(name: str, help_text: str) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = actions.add_parser(
            name, help=help_text, description=help_text
        )
        sub.add_argument(
            "--cache-dir", type=parse_path, default=None, metavar=spec.metavar, help=cache_dir_help
        )
        return sub

    info = action(
        "info",
        "Show the cache file, its size on disk, entries and bytes per model, the oldest and "
        "newest entry, the plugin and prompts versions present, and a quick integrity check.",
    )
    info.add_argument("--json", action="store_true", help="Print JSON. Default: a text table.")
    info.add_argument(
        "--no-check",
        action="store_true",
        help="Skip PRAGMA quick_check (about 1.5 ms per MiB). Default: check.",
    )
    clear = action(
        "clear",
        "Delete every entry, or one model's, and give the space back. Asks first on a "
        "terminal; elsewhere needs --yes.",
    )
    clear.add_argument("--model", metavar="MODEL", help="Only this model's entries. Default: all.")
    clear.add_argument("--yes", "-y", action="store_true", help="Do not ask. Default: ask.")
    prune = action(
        "prune",
        "Delete entries older than DAYS, and/or the oldest entries until the database fits "
        "in SIZE; then give the space back (incremental vacuum) and truncate the WAL.",
    )
    prune.add_argument(
        "--older-than",
        type=parse_days,
        metavar="DAYS",
        help="Delete entries stored more than DAYS days ago (0.5 = 12 hours). Default: unset.",
    )
    prune.add_argument(
        "--max-size",
        type=parse_size,
        metavar="SIZE",
        help="Delete the oldest entries until the database file is at most SIZE "
        "(500M, 2G; K/M/G/T are 1024-based). Default: unset.",
    )
    prune.add_argument(
        "--dry-run", action="store_true", help="Only say what would be deleted. Default: off."
    )
    from pytest_pau.cli.cache_transfer import add_transfer_parsers

    add_transfer_parsers(action)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``pau cache ACTION``."""
    from pytest_pau.cli import cache_transfer

    if args.cache_action == "export":
        return cache_transfer.export(args, _existing_cache(args), size=_size)
    if args.cache_action == "import":
        return cache_transfer.import_(args, resolve_cache_dir(args.cache_dir)[0].absolute())
    handler = {"info": _info, "clear": _clear, "prune": _prune}[args.cache_action]
    return handler(args)


# -- the actions -------------------------------------------------------------------------


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def _when(stamp: float | None) -> str:
    return "-" if stamp is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _counts(values: dict[str, int]) -> str:
    return ", ".join(f"{k} ({n:,})" for k, n in values.items()) or "-"


def _info(args: argparse.Namespace) -> int:
    from pytest_pau.llm.cache.info import cache_info

    info = cache_info(_existing_cache(args), check=not args.no_check)
    if args.json:
        print(json.dumps(info.to_json(), indent=2))
    else:
        print(f"cache:            {info.path}")
        print(
            f"size on disk:     {_size(info.db_bytes + info.wal_bytes)} (database "
            f"{_size(info.db_bytes)} + WAL {_size(info.wal_bytes)}; free pages "
            f"{_size(info.free_bytes)}, auto_vacuum {info.auto_vacuum})"
        )
        undated = f"; {info.undated:,} without a valid time" if info.undated else ""
        print(
            f"entries:          {info.entries:,} ({_size(info.payload_bytes)} of answers; "
            f"oldest {_when(info.oldest)}, newest {_when(info.newest)}{undated})"
        )
        print(f"plugin versions:  {_counts(info.plugin_versions)}")
        print(f"prompts versions: {_counts(info.prompts_versions)}")
        if info.integrity is not None:
            print(f"integrity:        {info.integrity} (quick_check, {info.check_s:.2f} s)")
        if info.models:
            width = max(len("model"), *(len(m.model) for m in info.models))
            print(f"\n{'model':<{width}}  {'entries':>9}  {'size':>11}  {'oldest':<16}  newest")
            for m in info.models:
                print(
                    f"{m.model:<{width}}  {m.entries:>9,}  {_size(m.bytes):>11}  "
                    f"{_when(m.oldest):<16}  {_when(m.newest)}"
                )
    return 0 if info.integrity in (None, "ok") else 1


def _entries(n: int) -> str:
    return f"{n:,} entr{'y' if n == 1 else 'ies'}"


def _space(removal: Any) -> str:
    r = removal.reclaim
    if r is None:
        return ""
    return f"; on disk {_size(r.bytes_before)} -> {_size(r.bytes_after)} ({r.method}, {r.seconds:.1f} s)"


def _clear(args: argparse.Namespace) -> int:
    from pytest_pau.llm.cache.admin import clear, count_entries, open_for_maintenance

    cache = open_for_maintenance(_existing_cache(args))
    try:
        of = f" of model {args.model!r}" if args.model else ""
        n = count_entries(cache, args.model)
        if n == 0:
            print(f"no entries{of} in {cache.path}: nothing deleted")
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                raise ConfigError(
                    f"this would delete {_entries(n)}{of} from {str(cache.path)!r}; pass --yes to "
                    "confirm (input is not a terminal, so it cannot ask)"
                )
            answer = input(f"Delete {_entries(n)}{of} from {cache.path}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing deleted")
                return 1
        removal = clear(cache, model=args.model)
        print(
            f"deleted {_entries(removal.removed)}{of}; {removal.remaining:,} left{_space(removal)}"
        )
        if removal.reclaim is not None and removal.reclaim.problem:
            print(f"note: {removal.reclaim.problem}")
        return 0
    finally:
        cache.close()


def _prune(args: argparse.Namespace) -> int:
    from pytest_pau.llm.cache.admin import open_for_maintenance, prune

    if args.older_than is None and args.max_size is None:
        raise ConfigError("pau cache prune needs --older-than DAYS, --max-size SIZE or both")
    cache = open_for_maintenance(_existing_cache(args))
    try:
        removal = prune(
            cache,
            older_than_s=None if args.older_than is None else args.older_than * 86400,
            max_bytes=args.max_size,
            dry_run=args.dry_run,
        )
        before = "" if removal.cutoff is None else f" stored before {_when(removal.cutoff)}"
        if args.dry_run:
            print(
                f"would delete {_entries(removal.removed)}{before}; {removal.remaining:,} "
                f"would be left (dry run: nothing deleted)"
            )
            return 0
        print(
            f"deleted {_entries(removal.removed)}{before}; {removal.remaining:,} left{_space(removal)}"
        )
        if removal.reclaim is not None and removal.reclaim.problem:
            print(f"note: {removal.reclaim.problem}")
        return 0
    finally:
        cache.close()
