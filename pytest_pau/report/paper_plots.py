"""``pau paper``'s figures, in pytest-pau's own style, and its one HTML page.

* ``judge_spread.png``: per mode, one stacked bar per run of the shares at judge levels
  1..5 (every item that ran, a missing rating as 1), then the ``Max`` bar;
* ``match_spread.png``: the same for the fixed coder's code-match bins (0-19% .. 80-100%);
  ``self_match_spread.png`` for the model's own code (``--pau-coder=self``) when present;
* ``modes.png``: for every model given in both modes, in-context beside interactive;
* ``rank_correlation.png``: per mode with two runs or more, Spearman's rho of the runs'
  judge scores on their shared instances (average ranks for ties).

Drawn with matplotlib's object API on an Agg canvas at a fixed size (no pyplot, no global
backend switch); needs the ``plots`` extra.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from pytest_pau.models import PaperStats
from pytest_pau.models.paper import MATCH_BINS
from pytest_pau.paths import write_bytes_atomic, write_text_atomic
from pytest_pau.report.paper_table import (
    PaperBook,
    csv_text,
    markdown,
    pair_rows,
    pairs_caption,
    table_rows,
)
from pytest_pau.report.plots import DPI, JUDGE_COLOURS, check_matplotlib, png_bytes

FIGURE_IN = (10.0, 5.5)
#: Code-match bins from worst (red) to best (blue), as the judge levels are drawn.
BIN_COLOURS = ("#b2182b", "#ef8a62", "#fddbc7", "#67a9cf", "#2166ac")
LEVELS = ("1", "2", "3", "4", "5")


def _figure(size: tuple[float, float] = FIGURE_IN) -> Any:
    check_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


Bar = tuple[str, list[float]]


def _stacked(
    ax: Any,
    groups: Sequence[tuple[str, Sequence[Bar]]],
    names: Sequence[str],
    colours: Sequence[str],
    *,
    name_one: bool = False,
) -> None:
    """Stacked bars of shares (in %), a gap and a bold name under each group (under a lone
    group too with ``name_one``)."""
    x = 0.0
    ticks, labels = [], []
    for g, (group, bars) in enumerate(groups):
        start = x
        for label, shares in bars:
            bottom = 0.0
            for k, (share, colour) in enumerate(zip(shares, colours, strict=True)):
                ax.bar(
                    x,
                    100 * share,
                    0.8,
                    bottom=bottom,
                    color=colour,
                    edgecolor="white",
                    linewidth=0.6,
                    label=names[k] if g == 0 and label == bars[0][0] else None,
                    hatch="//" if label == "Max" else None,
                )
                bottom += 100 * share
            ticks.append(x)
            labels.append(label)
            x += 1.0
        if group and (len(groups) > 1 or name_one):
            ax.text((start + x - 1) / 2, -24, group, ha="center", va="top", fontweight="bold")
        x += 1.0  # a gap between groups
    ax.set_xticks(ticks, labels, rotation=20, ha="right")
    ax.set_ylim(0, 100)
    ax.set_xlim(-0.7, x - 1.3)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(
        loc="lower left", bbox_to_anchor=(0, 1.01), ncol=len(names), frameon=False, fontsize=9
    )


def _judge(s: PaperStats) -> list[float]:
    return [s.judge.shares.get(k, 0.0) for k in LEVELS]


def _bins(block: Any) -> list[float]:
    return [block.bins.get(label, 0.0) if block else 0.0 for label, _, _ in MATCH_BINS]


def _spread(book: PaperBook, what: str) -> Any:
    fig = _figure()
    ax = fig.add_subplot(1, 1, 1)
    groups = []
    for block in book.modes:
        bars: list[Bar] = []
        for run in block.runs:
            s = run.stats
            shares = _judge(s) if what == "judge" else _bins(getattr(s, what))
            bars.append((run.label, shares))
        m = block.max_stats
        if m is not None and (what != "self_match" or m.self_match is not None):
            bars.append(("Max", _judge(m) if what == "judge" else _bins(getattr(m, what))))
        groups.append((block.mode, bars))
    if what == "judge":
        _stacked(ax, groups, [f"score {k}" for k in LEVELS], JUDGE_COLOURS)
        ax.set_ylabel("Score spread (% of items)")
        title = "Judge score spread"
    else:
        _stacked(ax, groups, [label for label, _, _ in MATCH_BINS], BIN_COLOURS)
        ax.set_ylabel("Code-match spread (% of items)")
        title = "Code match spread, " + ("fixed coder" if what == "match" else "self coder")
    ax.set_title(title, loc="left", pad=28, fontsize=11)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.28, top=0.85)
    return fig


def _modes(book: PaperBook) -> Any | None:
    by_model: dict[str, dict[str, Any]] = {}
    for run in book.runs:
        by_model.setdefault(run.model, {})[run.mode] = run
    both = {m: v for m, v in by_model.items() if len(v) > 1}
    if not both:
        return None
    fig = _figure()
    ax = fig.add_subplot(1, 1, 1)
    groups = []
    for runs in both.values():
        ordered = sorted(runs.values(), key=lambda r: r.mode)
        name = ordered[0].label.rsplit(" (", 1)[0]
        groups.append((name, [(r.mode, _judge(r.stats)) for r in ordered]))
    _stacked(ax, groups, [f"score {k}" for k in LEVELS], JUDGE_COLOURS, name_one=True)
    ax.set_ylabel("Score spread (% of items)")
    ax.set_title("In-context vs interactive", loc="left", pad=28, fontsize=11)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.28, top=0.85)
    return fig


def _heatmap(book: PaperBook) -> Any | None:
    blocks = [b for b in book.modes if b.spearman is not None]
    if not blocks:
        return None
    longest = max(len(r.label) for b in blocks for r in b.runs)
    margin = min(3.5, 0.5 + 0.075 * longest)  # inches for the row labels
    fig = _figure((len(blocks) * (4.2 + margin) + 1.2, 4.6 + margin * 0.6))
    image = None
    for k, block in enumerate(blocks):
        ax = fig.add_subplot(1, len(blocks), k + 1)
        matrix = block.spearman or []
        values = [[float("nan") if v is None else v for v in row] for row in matrix]
        image = ax.imshow(values, cmap="RdBu", vmin=-1, vmax=1)
        names = [r.label for r in block.runs]
        ax.set_xticks(range(len(names)), names, rotation=25, ha="right")
        ax.set_yticks(range(len(names)), names)
        for i, row in enumerate(matrix):
            for j, v in enumerate(row):
                text = "n/a" if v is None else f"{v:.2f}"
                dark = v is not None and abs(v) > 0.6
                ax.text(j, i, text, ha="center", va="center", color="white" if dark else "black")
        ax.set_title(f"{block.mode} (n={len(block.shared)})", fontsize=10)
    width, height = fig.get_size_inches()
    fig.subplots_adjust(
        left=margin / width,
        right=1 - 1.3 / width,
        bottom=margin * 0.6 / height,
        top=0.88,
        wspace=margin / 4.2,
    )
    fig.colorbar(image, ax=fig.axes, shrink=0.8, label="Spearman rank correlation")
    fig.suptitle("Rank correlation of the runs' judge scores", x=0.02, ha="left", fontsize=11)
    return fig


#: The stems of the figures :func:`render_figures` may draw.
FIGURE_NAMES = ("judge_spread", "match_spread", "self_match_spread", "modes", "rank_correlation")


def render_figures(book: PaperBook) -> dict[str, bytes]:
    """Every figure that applies, as PNG bytes keyed by file stem."""
    figures: dict[str, Any] = {
        "judge_spread": _spread(book, "judge"),
        "match_spread": _spread(book, "match"),
    }
    if any(r.stats.self_match is not None for r in book.runs):
        figures["self_match_spread"] = _spread(book, "self_match")
    for name, fig in (("modes", _modes(book)), ("rank_correlation", _heatmap(book))):
        if fig is not None:
            figures[name] = fig
    return png_bytes(figures)


#: What each figure shows, for its caption (the file name says where it is, not what).
CAPTIONS = {
    "judge_spread": "Judge scores: each run's share of items at every level, 1 to 5.",
    "match_spread": "Code match of the fixed coder: each run's share of items in each bin.",
    "self_match_spread": "Code match of the model's own code (--pau-coder=self), per bin.",
    "modes": "Failure modes: each run's failed items by mode.",
    "rank_correlation": "Rank correlation (Spearman) of the runs' judge scores, item by item.",
}


def _html_table(rows: list[list[str]]) -> str:
    """Rows (the header first) as a table that scrolls sideways instead of overflowing."""
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows[1:]
    )
    return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'


def html_page(book: PaperBook, pngs: dict[str, bytes]) -> str:
    """One self-contained page: the table, the pairs, every figure inline."""
    pairs = (
        f"<h2>Paired tests</h2><p>{escape(pairs_caption(book))}</p>{_html_table(pair_rows(book))}"
        if book.pairs
        else ""
    )
    images = "".join(
        f'<figure><img alt="{escape(CAPTIONS.get(name, name))}" src="data:image/png;base64,'
        f'{base64.b64encode(data).decode()}"><figcaption>{escape(CAPTIONS.get(name, name))} '
        f"<small>({escape(name)}.png)</small></figcaption></figure>"
        for name, data in pngs.items()
    )
    warnings = "".join(f'<p class="warn">warning: {escape(w)}</p>' for w in book.warnings)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        "<title>PAU paper table</title><style>body{font-family:sans-serif;margin:2em}"
        "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;"
        "padding:3px 6px;text-align:right}td:first-child,th:first-child{text-align:left}"
        "img{max-width:100%}.warn{color:#a15c00}.scroll{max-width:100%;overflow-x:auto}"
        "</style>"
        f"</head><body><h1>PAU paper table ({len(book.runs)} runs, protocol "
        f"{escape(book.protocol)})</h1>{warnings}{_html_table(table_rows(book))}"
        f"{pairs}<h2>Figures</h2>{images}"
        "</body></html>\n"
    )


#: Every file ``pau paper`` may write into its folder (the figures that apply, of these).
PAPER_FILES = (
    "table.md",
    "table.csv",
    *(f"{name}.png" for name in FIGURE_NAMES),
    "paper.html",
)


def write_tables(book: PaperBook, out_dir: Path) -> list[Path]:
    """Write ``table.md`` and ``table.csv`` into ``out_dir``, each atomically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [
        write_text_atomic(out_dir / name, text)
        for name, text in (("table.md", markdown(book)), ("table.csv", csv_text(book)))
    ]


def write_paper(book: PaperBook, out_dir: Path) -> list[Path]:
    """Write ``table.md``, ``table.csv``, the PNGs and ``paper.html`` into ``out_dir``,
    each atomically."""
    pngs = render_figures(book)
    written = write_tables(book, out_dir)
    for name, data in pngs.items():
        written.append(write_bytes_atomic(out_dir / f"{name}.png", data))
    written.append(write_text_atomic(out_dir / "paper.html", html_page(book, pngs)))
    return written
