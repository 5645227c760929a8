"""``pau init [DIR] --template NAME``: copy a conftest template into a project."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest_pau
from pytest_pau.errors import ConfigError
from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg
from pytest_pau.paths import write_bytes_atomic

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
        "--force is given (then each one replaced is named); a FIFO, a device or a folder "
        "where a file goes is refused before anything is written.",
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
        "--force",
        action="store_true",
        help="Overwrite existing files (each one replaced is named). Default: off.",
    )
    parser.add_argument("--list", action="store_true", help="List the templates and exit.")
    return parser


def _template_files(name: str, target: Path) -> list[Path]:
    """The paths template ``name`` writes under ``target`` (none for an unknown name)."""
    if name not in TEMPLATES:
        return []
    source = templates_dir() / TEMPLATES[name][0]
    return sorted(
        target / p.relative_to(source)
        for p in source.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def write_template(name: str, target: Path, *, force: bool = False) -> list[Path]:
    """Copy template ``name`` into ``target``; return the files written.

    Raises:
        ConfigError: unknown template, or a file exists and ``force`` is off.
    """
    if name not in TEMPLATES:
        raise ConfigError(f"unknown template {name!r}; expected one of {', '.join(TEMPLATES)}")
    source = templates_dir() / TEMPLATES[name][0]
    files = sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    # The one guard over outputs, before any file is written: DIR is a folder (no file,
    # FIFO or device, no symbolic-link loop) that takes files, where no file the template
    # writes is a FIFO, a device or a folder, nor a template file itself. pytest's own
    # names are what the templates are, so they are allowed here.
    check_outputs(
        [
            output_arg(
                "DIR", target, folder=True, writes=[str(p.relative_to(source)) for p in files]
            )
        ],
        [output_arg("template", p, what=f"the template {name!r}") for p in files],
        checked=WRITE_CHECKED,
        pytest_files=True,
    )
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
    written: list[Path] = []
    for p in files:
        dest = target / p.relative_to(source)
        try:
            write_bytes_atomic(dest, p.read_bytes())
        except OSError as exc:
            raise ConfigError(
                f"DIR {str(target)!r}: could not write {str(dest)!r} ({exc.strerror or exc})"
                + (f"; wrote {', '.join(map(str, written))} before it" if written else "")
            ) from None
        written.append(dest)
    return written


def run(args: argparse.Namespace) -> int:
    if args.list:
        for name, (_, text) in TEMPLATES.items():
            print(f"{name:<15} {text}")
        return 0
    target = Path(args.dir)
    existed = {p for p in _template_files(args.template, target) if p.exists()}
    written = write_template(args.template, target, force=args.force)
    for path in written:
        if path in existed:
            print(f"replaced {path} (--force: the file that was there is gone)")
        else:
            print(f"wrote {path}")
    print(
        f"next: pytest --pau-model=MODEL  (template {args.template}; see the comments in the files)"
    )
    return 0
