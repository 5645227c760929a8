"""``pau init [DIR] --template NAME``: copy a conftest template into a project."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

import pytest_pau
from pytest_pau.errors import ConfigError

#: template name -> (folder under conftest_templates/, one-line description)
TEMPLATES: dict[str, tuple[str, str]] = {
    "release-gate": (
        "release_gate",
        "thresholds and release gates in pytest.ini, a baseline comparison",
    ),
    "custom-agent": ("custom_agent", "your own agent through the pytest_pau_make_agent hook"),
    "custom-dataset": (
        "custom_dataset",
        "your own methods through the pytest_pau_load_dataset hook",
    ),
    "custom-test": ("custom_test", "your own assertions on pau_result, one test per instance"),
}


def templates_dir() -> Path:
    """Where the templates are: inside the wheel, or at the top of a source checkout."""
    package = Path(pytest_pau.__file__).parent
    for candidate in (package / "_conftest_templates", package.parent / "conftest_templates"):
        if candidate.is_dir():
            return candidate
    raise ConfigError(
        f"the conftest templates are missing from this installation (looked in {package}); "
        "reinstall pytest-pau"
    )


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    names = ", ".join(TEMPLATES)
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "init",
        help="Write conftest templates into a project.",
        description=f"Copy a template ({names}) into DIR. Existing files are kept unless "
        "--force is given.",
    )
    parser.add_argument(
        "dir", nargs="?", default=".", help="Target folder. Default: the current one."
    )
    parser.add_argument(
        "--template",
        "-t",
        default="release-gate",
        choices=list(TEMPLATES),
        help="Which template to write. Default: release-gate.",
    )
    parser.add_argument(
        "--force", action="store_true", help="Overwrite existing files. Default: off."
    )
    parser.add_argument("--list", action="store_true", help="List the templates and exit.")
    return parser


def write_template(name: str, target: Path, *, force: bool = False) -> list[Path]:
    """Copy template ``name`` into ``target``; return the files written.

    Raises:
        ConfigError: unknown template, or a file exists and ``force`` is off.
    """
    if name not in TEMPLATES:
        raise ConfigError(f"unknown template {name!r}; expected one of {', '.join(TEMPLATES)}")
    source = templates_dir() / TEMPLATES[name][0]
    files = sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    clashes = [
        target / p.relative_to(source) for p in files if (target / p.relative_to(source)).exists()
    ]
    if clashes and not force:
        names = [str(c) for c in clashes]
        shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        verb = "exists" if len(names) == 1 else "exist"
        raise ConfigError(
            f"{shown} already {verb}; merge the template by hand (see "
            f"{source}) or pass --force to overwrite {'it' if len(names) == 1 else 'them'}"
        )
    written = []
    for p in files:
        dest = target / p.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
        written.append(dest)
    return written


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name, (_, text) in TEMPLATES.items():
            print(f"{name:<15} {text}")
        return 0
    written = write_template(args.template, Path(args.dir), force=args.force)
    for path in written:
        print(f"wrote {path}")
    print(
        f"next: pytest --pau-model=MODEL  (template {args.template}; see the comments in the files)"
    )
    return 0
