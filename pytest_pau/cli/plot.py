"""``pau plot REPORT... --out DIR``: PNG plots of one or more runs, side by side.

Writes ``scores.png`` (judge levels and code-match bins), ``failure_modes.png`` and
``judge_vs_match.png`` into DIR; ``--html PATH`` also writes the self-contained HTML
report of the first REPORT. Each file is written atomically, never over a REPORT, checked
before any report is read. Needs the ``plots`` extra (matplotlib).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_pau.errors import ConfigError
from pytest_pau.report.json_report import read_report


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau plot``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "plot",
        help="Draw PNG plots from JSON reports.",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument(
        "reports",
        nargs="+",
        metavar="REPORT",
        help="JSON reports (--pau-report), drawn side by side.",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("pau_plots"),
        metavar="DIR",
        help="Folder for the PNG files (default: pau_plots).",
    )
    p.add_argument(
        "--html",
        type=Path,
        metavar="PATH",
        help="Also write the HTML report of the first REPORT to PATH (default: none).",
    )
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``pau plot``; returns the exit status."""
    from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg
    from pytest_pau.report.plots import write_plots
    from pytest_pau.settings.gates_and_outputs import PLOT_NAMES

    # The one guard over outputs, before any report is read: DIR is a folder (no file,
    # FIFO or device) that takes files, --html a regular file; neither replaces a REPORT.
    outputs = [output_arg("--out", args.out, folder=True, writes=[f"{n}.png" for n in PLOT_NAMES])]
    if args.html is not None:
        outputs.append(output_arg("--html", args.html))
    inputs = [output_arg("report", p, what="a report drawn") for p in args.reports]
    check_outputs(outputs, inputs, checked=WRITE_CHECKED)
    reports = [read_report(p) for p in args.reports]
    try:
        for path in write_plots(reports, args.out):
            print(path)
        if args.html is not None:
            from pytest_pau.report.html import write_html

            print(write_html(reports[0], args.html))
    except OSError as exc:
        raise ConfigError(
            f"pau plot: could not write {exc.filename or 'an output'!s} ({exc.strerror or exc}); "
            "a file there, if any, is left as it was"
        ) from None
    return 0
