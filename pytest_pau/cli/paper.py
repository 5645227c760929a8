"""``pau paper REPORT.json ... [-o DIR]``: the PAU paper's table and figures of several runs.

One report per model (or one per mode of a model): every number is recomputed from the
reports' per-item results as the paper's reference implementation counts them (a missing
judge rating 1, a missing code match 0). Writes ``table.md``, ``table.csv``, the figures
(``judge_spread.png``, ``match_spread.png`` with a Max bar per mode, ``modes.png`` when a
model is given in both modes, ``rank_correlation.png``) and ``paper.html`` into DIR, and
prints the Markdown table. Refuses reports of different protocols, datasets, judges or
coders. Needs the ``plots`` extra for the figures (``--no-figures`` writes the tables only).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from pytest_pau.errors import ConfigError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau paper``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "paper",
        help="The PAU paper's table and figures from JSON reports.",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("reports", nargs="+", metavar="REPORT", help="JSON reports (--pau-report).")
    p.add_argument(
        "-o",
        "--out",
        type=Path,
        default=Path("pau_paper"),
        metavar="DIR",
        help="Folder for the tables, figures and page (default: pau_paper).",
    )
    p.add_argument("--seed", type=int, default=0, help="Seed of the paired bootstrap (default 0).")
    p.add_argument(
        "--resamples",
        type=int,
        default=10_000,
        help="Resamples of the paired bootstrap (default 10000, the reference's).",
    )
    p.add_argument(
        "--no-figures",
        action="store_true",
        help="Write table.md and table.csv only (no matplotlib needed).",
    )
    return p


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``pau paper``; returns the exit status."""
    from pytest_pau.files.guard import WRITE_CHECKED, check_outputs, output_arg
    from pytest_pau.report.compare_io import read_scores
    from pytest_pau.report.paper_plots import PAPER_FILES, write_paper, write_tables
    from pytest_pau.report.paper_table import build_book, markdown

    out = out or sys.stdout
    if args.resamples < 1000:
        raise ConfigError(
            f"--resamples must be at least 1000 for a usable p-value, got {args.resamples!r}"
        )
    # The one guard over outputs: no report given is replaced, the folder is a folder
    # (no file, FIFO or device) where files can be written; checked before any is.
    check_outputs(
        [output_arg("-o", args.out, folder=True, writes=PAPER_FILES)],
        [output_arg("report", p, what="a report given") for p in args.reports],
        checked=WRITE_CHECKED,
    )
    reports = [read_scores(p) for p in args.reports]
    book = build_book(reports, list(args.reports), seed=args.seed, resamples=args.resamples)
    folder: Path = args.out.expanduser()
    try:
        written = write_tables(book, folder) if args.no_figures else write_paper(book, folder)
    except OSError as exc:
        raise ConfigError(
            f"-o {str(args.out)!r}: could not write the tables and figures there "
            f"({exc.strerror or exc})"
        ) from None
    print(markdown(book), file=out)
    for path in written:
        print(f"wrote {path}", file=out)
    for report, source, paper_run in zip(reports, args.reports, book.runs, strict=True):
        # A run made with --pau-coder=self whose own code never ran has no self-coder figure:
        # say so, or the figure and the columns are missing without a word.
        if report.run.coder == "self" and paper_run.stats.self_match is None:
            print(
                f"note: {paper_run.label} ran with --pau-coder=self, but none of the model's "
                "own code ran (every self-coder call failed): no self-coder figure or columns "
                f"for it; `pau show {source} ITEM` says why for each item",
                file=out,
            )
    return 0
