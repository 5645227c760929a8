"""``pau paper``'s numbers: the paper's table of several runs, its Max rows, pairs and ranks.

One :class:`PaperRun` per report (a model in one mode), its statistics recomputed from the
report's per-item results by :func:`pytest_pau.stats.paper_stats.paper_statistics`; per mode a
``Max`` row (per instance the best judge score and code match over that mode's runs, on
the instances they share); per mode the Spearman matrix of the runs' judge scores; and the
reference's paired bootstrap for every pair of runs of one mode and every model given in
both modes. :func:`markdown` and :func:`csv_text` write the table; the figures are
:mod:`pytest_pau.report.paper_plots`'s.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from pytest_pau.errors import ConfigError
from pytest_pau.models import AnyReport, PaperStats
from pytest_pau.models.paper import MATCH_BINS, PAPER, paper_name
from pytest_pau.report.fmt import num, pct
from pytest_pau.stats.compare import same_protocol
from pytest_pau.stats.metrics import counted
from pytest_pau.stats.paper_stats import (
    BootstrapResult,
    judge_block,
    match_block,
    max_values,
    paired_bootstrap,
    paper_statistics,
    spearman_matrix,
)

#: Modes in the paper's order (its ``method_orders``: in-context before interactive).
MODE_ORDER = ("incontext", "interactive")


@dataclass
class PaperRun:
    """One report: a model in one mode, and the paper's statistics of every item it ran."""

    label: str
    model: str
    mode: str
    source: str
    stats: PaperStats
    judge: dict[str, float]
    """Instance id -> the judge score the paper counts (a missing rating as 1)."""
    match: dict[str, float]
    """Instance id -> the fixed coder's code match the paper counts (missing as 0)."""
    own: dict[str, float] | None = None
    """``--pau-coder=self``: instance id -> the model's own code match (missing as 0)."""


@dataclass
class PairTest:
    """The paired bootstrap of two runs on one metric."""

    a: str
    b: str
    metric: str
    result: BootstrapResult | None


@dataclass
class ModeBlock:
    """The runs of one mode, their Max row and rank correlations."""

    mode: str
    runs: list[PaperRun]
    shared: list[str]
    max_stats: PaperStats | None
    spearman: list[list[float | None]] | None


@dataclass
class PaperBook:
    """Everything ``pau paper`` writes."""

    runs: list[PaperRun]
    modes: list[ModeBlock]
    pairs: list[PairTest]
    protocol: str
    seed: int
    resamples: int
    warnings: list[str] = field(default_factory=list)


def _scorer(model: str) -> str:
    """A scorer's name without the route: ``openai/meta-llama/X`` and ``meta-llama/X`` agree."""
    return model.rsplit("/", 1)[-1]


def check_same_footing(reports: Sequence[AnyReport], sources: Sequence[str]) -> str:
    """Refuse reports whose numbers mean different things; returns their protocol.

    Raises:
        ConfigError: different protocols, datasets (or splits), judges or coders, each
            named with the report it came from.
    """
    protocol = same_protocol(reports, sources)
    checks = {
        "dataset": [f"{r.run.dataset} [{r.run.split}]" for r in reports],
        "judge": [_scorer(r.run.judge_model) for r in reports],
        "coder": [_scorer(r.run.coder_model) for r in reports],
    }
    for what, values in checks.items():
        if len(set(values)) > 1:
            which = ", ".join(f"{s}: {v!r}" for s, v in zip(sources, values, strict=True))
            raise ConfigError(
                f"pau paper: the reports have different {what}s ({which}); the paper's table "
                f"puts side by side runs of one dataset scored by one judge and one coder"
            )
    return protocol


def _labels(reports: Sequence[AnyReport]) -> list[str]:
    """The paper's name per run; a model given in several modes or twice gets a suffix."""
    names = [paper_name(r.run.model) for r in reports]
    modes_of: dict[str, set[str]] = {}
    for name, rep in zip(names, reports, strict=True):
        modes_of.setdefault(name, set()).add(rep.run.mode)
    seen: dict[str, int] = {}
    out = []
    for name, rep in zip(names, reports, strict=True):
        label = f"{name} ({rep.run.mode})" if len(modes_of[name]) > 1 else name
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


def _run(report: AnyReport, label: str, source: str) -> PaperRun:
    rows = [r for r in report.instances if r.skipped is None]
    judge = {r.id: counted(r, "judge", PAPER) for r in rows}
    match = {r.id: counted(r, "match", PAPER) for r in rows}
    stats = paper_statistics(report.instances)
    own = None
    if stats.self_match is not None:
        own = {r.id: 0.0 if r.self_code_match is None else r.self_code_match for r in rows}
    return PaperRun(
        label=label,
        model=report.run.model,
        mode=report.run.mode,
        source=source,
        stats=stats,
        judge={k: v for k, v in judge.items() if v is not None},
        match={k: v for k, v in match.items() if v is not None},
        own=own,
    )


def _shared(runs: Sequence[PaperRun]) -> list[str]:
    first = list(runs[0].judge)
    return [i for i in first if all(i in r.judge for r in runs[1:])]


def build_book(
    reports: Sequence[AnyReport],
    sources: Sequence[str],
    *,
    seed: int = 0,
    resamples: int = 10_000,
) -> PaperBook:
    """The paper's table, Max rows, rank correlations and pairs of ``reports``.

    Raises:
        ConfigError: no report, or reports that are not on one footing
            (:func:`check_same_footing`).
    """
    if not reports:
        raise ConfigError("pau paper needs at least one report")
    protocol = check_same_footing(reports, sources)
    runs = [
        _run(rep, lab, src)
        for rep, lab, src in zip(reports, _labels(reports), sources, strict=True)
    ]
    book = PaperBook(
        runs=runs, modes=[], pairs=[], protocol=protocol, seed=seed, resamples=resamples
    )
    if protocol != PAPER:
        book.warnings.append(
            f"the runs used --pau-protocol={protocol}: their judge, coder and prompts are not "
            "the paper's; the numbers here count as the paper does (a missing rating 1, a "
            "missing code match 0)"
        )
    present = sorted({r.mode for r in runs}, key=lambda m: (m not in MODE_ORDER, m))
    for mode in present:
        of_mode = [r for r in runs if r.mode == mode]
        shared = _shared(of_mode)
        if any(len(r.judge) != len(shared) for r in of_mode):
            book.warnings.append(
                f"{mode}: the runs share {len(shared)} instances; the Max row, the rank "
                "correlations and the paired tests use those, each run's row all of its own"
            )
        max_stats = spearman = None
        if len(of_mode) > 1 and shared:
            best_j = max_values([[r.judge[i] for i in shared] for r in of_mode])
            best_m = max_values([[r.match[i] for i in shared] for r in of_mode])
            max_stats = PaperStats(
                n=len(shared), judge=judge_block(best_j), match=match_block(best_m)
            )
            if all(r.own is not None for r in of_mode):
                own = max_values([[(r.own or {})[i] for i in shared] for r in of_mode])
                max_stats.self_match = match_block(own)
            spearman = spearman_matrix([[r.judge[i] for i in shared] for r in of_mode])
        book.modes.append(ModeBlock(mode, of_mode, shared, max_stats, spearman))
        for x, y in itertools.combinations(of_mode, 2):
            book.pairs += _pair(x, y, shared, seed=seed, resamples=resamples)
    models = {r.model for r in runs}
    for model in sorted(models):
        both = [r for r in runs if r.model == model]
        for x, y in itertools.combinations(both, 2):
            if x.mode != y.mode:
                ids = [i for i in x.judge if i in y.judge]
                book.pairs += _pair(x, y, ids, seed=seed, resamples=resamples)
    return book


def _pair(
    x: PaperRun, y: PaperRun, ids: Sequence[str], *, seed: int, resamples: int
) -> list[PairTest]:
    return [
        PairTest(
            x.label,
            y.label,
            metric,
            paired_bootstrap(
                [getattr(x, metric)[i] for i in ids],
                [getattr(y, metric)[i] for i in ids],
                seed=seed,
                resamples=resamples,
            ),
        )
        for metric in ("judge", "match")
    ]


def _columns(self_coder: bool) -> list[str]:
    cols = ["model", "mode", "n", "judge mean ± std"]
    cols += [f"judge {k}" for k in ("1", "2", "3", "4", "5")]
    cols += ["judge >= 3", "queries mean ± std", "concluded"]
    coders = ["match", "self match"] if self_coder else ["match"]
    for c in coders:
        cols += [f"{c} mean ± std", f"{c} = 1", f"{c} >= 0.5", f"{c} = 0"]
        cols += [f"{c} {label}" for label, _, _ in MATCH_BINS]
    return cols


def _cells(label: str, mode: str, s: PaperStats, self_coder: bool) -> list[str]:
    j = s.judge
    out = [label, mode, str(s.n), f"{num(j.mean)} ± {num(j.std)}"]
    out += [pct(j.shares.get(k)) for k in ("1", "2", "3", "4", "5")]
    out += [pct(j.share_3_plus)]
    if label == "Max":
        out += ["", ""]
    elif mode == "incontext":
        out += ["n/a", "n/a"]  # shown the examples, the model asks nothing (not 0.00 ± 0.00)
    else:
        out += [f"{num(s.queries_mean)} ± {num(s.queries_std)}", pct(s.concluded_share)]
    blocks = [s.match, s.self_match] if self_coder else [s.match]
    for m in blocks:
        if m is None:
            out += [""] * (4 + len(MATCH_BINS))
            continue
        out += [f"{num(m.mean)} ± {num(m.std)}", pct(m.share_exact), pct(m.share_half)]
        out += [pct(m.share_zero)] + [pct(m.bins.get(label)) for label, _, _ in MATCH_BINS]
    return out


def table_rows(book: PaperBook) -> list[list[str]]:
    """The header and one row per run (and a Max row per mode with several runs)."""
    self_coder = any(r.stats.self_match is not None for r in book.runs)
    rows = [_columns(self_coder)]
    for block in book.modes:
        for run in block.runs:
            rows.append(_cells(run.label, run.mode, run.stats, self_coder))
        if block.max_stats is not None:
            rows.append(_cells("Max", block.mode, block.max_stats, self_coder))
    return rows


def markdown(book: PaperBook) -> str:
    """The table (and the paired tests) as Markdown."""
    rows = table_rows(book)
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    if book.pairs:
        head, *pairs = pair_rows(book)
        lines += ["", pairs_caption(book), "", "| " + " | ".join(head) + " |"]
        lines += ["|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in pairs]
    lines += [f"\nwarning: {w}" for w in book.warnings]
    return "\n".join(lines) + "\n"


def pairs_caption(book: PaperBook) -> str:
    """What the paired tests are, in one sentence (above their table)."""
    return (
        f"Paired bootstrap (the reference's: {book.resamples:,} half-size resamples, seed "
        f"{book.seed}); p = the share of resamples in which the better run does not win."
    )


def pair_rows(book: PaperBook) -> list[list[str]]:
    """The paired tests as rows, the header first (Markdown's and the HTML page's)."""
    rows = [["run A", "run B", "metric", "n", "mean A", "mean B", "winner", "p"]]
    for p in book.pairs:
        r = p.result
        if r is None:
            rows.append([p.a, p.b, p.metric, "too few", "", "", "", ""])
            continue
        winner = {"A": p.a, "B": p.b}.get(r.winner, "tie")
        means = [num(r.mean_a, ".3f"), num(r.mean_b, ".3f")]
        rows.append([p.a, p.b, p.metric, str(r.n), *means, winner, f"{r.p_value:.4f}"])
    return rows


def csv_text(book: PaperBook) -> str:
    """The table as CSV (the paper's rows, one per run, Max rows included)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(table_rows(book))
    return buf.getvalue()
