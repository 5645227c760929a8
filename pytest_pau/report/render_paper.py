"""The paper's statistics block of a ``--pau-protocol=paper`` run, as lines of text.

The same lines go to the terminal summary (:func:`render_paper`) and to the HTML report
(:func:`paper_lines`), so the two never disagree. The numbers are
:func:`pytest_pau.stats.paper_stats.paper_statistics`'s; the layout follows the paper's table:
mean +- std, the share at each judge level, the share at 3 or more, queries, concluded,
then per coder the shares at 1, at 0.5 or more, at 0 and the five bins.
"""

from __future__ import annotations

from pytest_pau.models import PaperMatchStats, PaperStats
from pytest_pau.report.fmt import num, pct
from pytest_pau.report.writer import Writer


def _pm(mean: float | None, std: float | None) -> str:
    """``2.41 ± 1.30`` (the std is ddof=1; ``± n/a`` below two rows)."""
    return f"{num(mean)} ± {num(std)}"


def _match_lines(title: str, m: PaperMatchStats) -> list[str]:
    bins = "  ".join(f"{k} {pct(v)}" for k, v in m.bins.items())
    filled = f"  ({m.filled} without a code match counted as 0)" if m.filled else ""
    return [
        f"{title}  {_pm(m.mean, m.std)}  = 1: {pct(m.share_exact)}  >= 0.5: "
        f"{pct(m.share_half)}  = 0: {pct(m.share_zero)}{filled}",
        f"  bins  {bins}",
    ]


def paper_lines(p: PaperStats, mode: str | None = None) -> list[str]:
    """The block's lines: the judge's, the queries', each coder's.

    ``mode`` is the run's ``--pau-mode``: an ``incontext`` run asks no queries and never
    concludes, so its queries line says "not applicable" (``0.00 ± 0.00 concluded 0.0%``
    read as a model that asked nothing and never finished).
    """
    j = p.judge
    levels = "  ".join(f"{k}: {pct(v)}" for k, v in j.shares.items())
    filled = f"  ({j.filled} without a rating counted as 1)" if j.filled else ""
    lines = [
        f"paper statistics (--pau-protocol=paper: every item that ran, n={p.n})",
        f"judge score  {_pm(j.mean, j.std)}  >= 3: {pct(j.share_3_plus)}{filled}",
        f"  levels  {levels}",
        "queries      not applicable (--pau-mode=incontext: the model is shown the examples, "
        "it asks nothing)"
        if mode == "incontext"
        else f"queries      {_pm(p.queries_mean, p.queries_std)}  concluded "
        f"{pct(p.concluded_share)}",
        *_match_lines("code match  ", p.match),
    ]
    if p.self_match is not None:
        lines += _match_lines("self coder  ", p.self_match)
    if p.errors:
        lines.append(
            f"  {p.errors} errored item{'s' if p.errors != 1 else ''} counted with these fill "
            "values (still listed as errors); the reference stops on an API failure, so it "
            "has no number for an item whose model call failed"
        )
    if p.not_run:
        lines.append(f"  {p.not_run} item{'s' if p.not_run != 1 else ''} not run: no row")
    return lines


def render_paper(p: PaperStats, writer: Writer, mode: str | None = None) -> None:
    """Write the block (the first line bold); ``mode`` as in :func:`paper_lines`."""
    lines = paper_lines(p, mode)
    writer.line("")
    writer.line(lines[0], bold=True)
    for line in lines[1:]:
        writer.line(line)
