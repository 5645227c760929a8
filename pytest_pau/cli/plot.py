"""``pau plot REPORT... --out DIR``: PNG plots of one or more runs, side by side.

Writes ``scores.png`` (judge levels and code-match bins), ``failure_modes.png`` and
``judge_vs_match.png`` into DIR; ``--html PATH`` also writes the self-contained HTML
report of the first REPORT. Needs the ``plots`` extra (matplotlib).
"""

from __future__ import annotations

import argparse
from pathlib import Path

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
    from pytest_pau.report.plots import write_plots

    reports = [read_report(p) for p in args.reports]
    for path in write_plots(reports, args.out):
        print(path)
    if args.html is not None:
        from pytest_pau.report.html import write_html

        print(write_html(reports[0], args.html))
    return 0
