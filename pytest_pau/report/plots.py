"""PNG plots of one or more runs, in the style of the PAU paper's figures.

Three figures, each with every run side by side:

* ``scores.png``: per run, a stacked bar of judge-score levels (1-5) and, next to it, a
  stacked bar of code-match bins, each as a share of the scored items;
* ``failure_modes.png``: per failure mode, one bar per run (share of scored items);
* ``judge_vs_match.png``: judge score (jittered) against code match, one colour per run,
  with the pass thresholds drawn.

Figures are drawn with matplotlib's object API on an Agg canvas (no pyplot, no global
backend switch, safe inside a pytest run) at a fixed size, so every PNG is exactly
:data:`FIGURE_PX` pixels. Needs the ``plots`` extra: ``pip install 'pytest-pau[plots]'``.
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.models import InstanceResult, Report
from pytest_pau.paths import write_bytes_atomic
from pytest_pau.report.summary import MODEL_FAILURE_MODES, judge_bucket

if TYPE_CHECKING:
    from pytest_pau.report.outputs import OutputContext

DPI = 100
FIGURE_IN = (9.0, 5.0)
FIGURE_PX = (int(FIGURE_IN[0] * DPI), int(FIGURE_IN[1] * DPI))
"""(width, height) in pixels of every PNG."""

#: code-match bins: (label, low inclusive, high exclusive); 100% has its own bin.
MATCH_BINS: tuple[tuple[str, float, float], ...] = (
    ("<20%", 0.0, 0.2),
    ("20-40%", 0.2, 0.4),
    ("40-60%", 0.4, 0.6),
    ("60-80%", 0.6, 0.8),
    ("80-99%", 0.8, 1.0),
    ("100%", 1.0, float("inf")),
)
JUDGE_COLOURS = ("#b2182b", "#ef8a62", "#f7e08c", "#67a9cf", "#2166ac")
MATCH_COLOURS = ("#b2182b", "#ef8a62", "#fddbc7", "#d1e5f0", "#67a9cf", "#2166ac")
RUN_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
)


def check_matplotlib() -> None:
    """Import what drawing needs (the figure class and the Agg canvas), or say why not.

    ``--pau-plots`` calls it before the first item: a matplotlib that is installed but
    cannot be imported (a missing shared library, a numpy it was not built for) passes a
    mere "is it installed" check, and would fail only after every answer was paid for.

    Raises:
        ConfigError: matplotlib is not installed, or is and cannot be imported (the error).
    """
    try:
        import matplotlib.backends.backend_agg
        import matplotlib.figure  # noqa: F401
    except Exception as exc:  # a broken install raises more than ImportError
        try:
            installed = importlib.util.find_spec("matplotlib") is not None
        except (ImportError, ValueError):
            installed = False
        missing = isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith(
            "matplotlib"
        )  # a part of matplotlib itself is absent: not installed (whole), not broken
        if not installed or missing:
            raise ConfigError(
                "plots need matplotlib, which is not installed; "
                "install the plots extra: pip install 'pytest-pau[plots]'"
            ) from None
        raise ConfigError(
            f"plots need matplotlib, which is installed but cannot be imported "
            f"({type(exc).__name__}: {exc}); repair it: "
            "pip install --force-reinstall matplotlib"
        ) from None


def _matplotlib() -> Any:
    check_matplotlib()
    from matplotlib.figure import Figure

    return Figure


def _scored(report: Report) -> list[InstanceResult]:
    return [r for r in report.instances if r.error is None and r.skipped is None]


def run_labels(reports: Sequence[Report]) -> list[str]:
    """A short distinct label per run: its model, with ``#2``... for repeated models."""
    seen: dict[str, int] = {}
    labels = []
    for rep in reports:
        name = rep.run.model
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return labels


def judge_shares(results: Sequence[InstanceResult]) -> list[float]:
    """Share of each judge level 1..5 among the items with a judge score."""
    scores = [r.judge_score for r in results if r.judge_score is not None]
    counts = [0] * 5
    for s in scores:
        counts[int(judge_bucket(s)) - 1] += 1
    return [c / len(scores) if scores else 0.0 for c in counts]


def match_shares(results: Sequence[InstanceResult]) -> list[float]:
    """Share of each :data:`MATCH_BINS` bin among the items with a code match."""
    scores = [r.code_match for r in results if r.code_match is not None]
    counts = [sum(lo <= s < hi for s in scores) for _, lo, hi in MATCH_BINS]
    return [c / len(scores) if scores else 0.0 for c in counts]


def _new_figure() -> Any:
    figure_cls = _matplotlib()
    fig = figure_cls(figsize=FIGURE_IN, dpi=DPI)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    return fig


def plot_scores(reports: Sequence[Report]) -> Any:
    """Stacked bars of judge levels and code-match bins, per run side by side."""
    fig = _new_figure()
    ax = fig.add_subplot(1, 1, 1)
    labels = run_labels(reports)
    width = 0.38
    for i, rep in enumerate(reports):
        scored = _scored(rep)
        for x, shares, colours, names in (
            (
                i - width / 2 - 0.01,
                judge_shares(scored),
                JUDGE_COLOURS,
                [f"judge {k}" for k in range(1, 6)],
            ),
            (
                i + width / 2 + 0.01,
                match_shares(scored),
                MATCH_COLOURS,
                [f"match {b[0]}" for b in MATCH_BINS],
            ),
        ):
            bottom = 0.0
            for share, colour, name in zip(shares, colours, names, strict=True):
                ax.bar(
                    x,
                    share,
                    width,
                    bottom=bottom,
                    color=colour,
                    edgecolor="white",
                    linewidth=0.5,
                    label=name if i == 0 else None,
                )
                bottom += share
        ax.text(i - width / 2 - 0.01, 1.01, "judge", ha="center", va="bottom", fontsize=8)
        ax.text(i + width / 2 + 0.01, 1.01, "match", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(
        range(len(reports)),
        [f"{lab}\n(n={len(_scored(r))})" for lab, r in zip(labels, reports, strict=True)],
    )
    ax.set_ylim(0, 1.08)
    ax.set_xlim(-0.7, len(reports) - 0.3)
    ax.set_ylabel("share of scored items")
    ax.set_title("Judge score levels and code-match bins")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    fig.subplots_adjust(left=0.08, right=0.8, bottom=0.15, top=0.9)
    return fig


def plot_failure_modes(reports: Sequence[Report]) -> Any:
    """Share of scored items per failure mode, one bar per run."""
    fig = _new_figure()
    ax = fig.add_subplot(1, 1, 1)
    labels = run_labels(reports)
    modes = list(MODEL_FAILURE_MODES)
    if any(r.failure_mode == "none" and not r.passed for rep in reports for r in _scored(rep)):
        modes.append("unclassified")
    width = 0.8 / max(1, len(reports))
    for i, rep in enumerate(reports):
        scored = _scored(rep)
        failed = [r for r in scored if not r.passed]
        shares = []
        for mode in modes:
            count = sum(
                (r.failure_mode if r.failure_mode != "none" else "unclassified") == mode
                for r in failed
            )
            shares.append(count / len(scored) if scored else 0.0)
        xs = [m - 0.4 + width * (i + 0.5) for m in range(len(modes))]
        ax.bar(xs, shares, width, color=RUN_COLOURS[i % len(RUN_COLOURS)], label=labels[i])
    ax.set_xticks(range(len(modes)), [m.replace("_", "\n") for m in modes], fontsize=8)
    ax.set_ylabel("share of scored items")
    ax.set_ylim(0, 1)
    ax.set_title("Failure modes")
    ax.legend(fontsize=8, frameon=False)
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.17, top=0.9)
    return fig


def plot_judge_vs_match(reports: Sequence[Report], *, seed: int = 0) -> Any:
    """Judge score against code match per item; thresholds as dashed lines."""
    fig = _new_figure()
    ax = fig.add_subplot(1, 1, 1)
    rng = random.Random(seed)  # seeded jitter: the same report draws the same picture
    for i, (rep, label) in enumerate(zip(reports, run_labels(reports), strict=True)):
        pts = [
            (r.judge_score, r.code_match)
            for r in _scored(rep)
            if r.judge_score is not None and r.code_match is not None
        ]
        xs = [j + rng.uniform(-0.15, 0.15) for j, _ in pts]
        ys = [m + rng.uniform(-0.015, 0.015) for _, m in pts]
        ax.scatter(
            xs,
            ys,
            s=12,
            alpha=0.5,
            color=RUN_COLOURS[i % len(RUN_COLOURS)],
            label=f"{label} (n={len(pts)})",
            edgecolors="none",
        )
    # The first run's thresholds; pau compare warns when runs use different ones.
    thresholds = reports[0].run.thresholds if reports else {}
    judge_t = thresholds.get("judge_threshold")
    match_t = thresholds.get("match_threshold")
    if judge_t is not None:
        ax.axvline(judge_t - 0.5, color="grey", linestyle="--", linewidth=0.8)
    if match_t is not None:
        ax.axhline(match_t, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlim(0.5, 5.5)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xticks(range(1, 6))
    ax.set_xlabel("judge score (jittered)")
    ax.set_ylabel("code match")
    ax.set_title("Judge score vs code match")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.12, top=0.9)
    return fig


def render_pngs(reports: Sequence[Report]) -> dict[str, bytes]:
    """Every plot as PNG bytes, keyed by :data:`PLOT_NAMES` (used inline by the HTML report).

    Raises:
        ConfigError: no report given, or matplotlib is not installed.
    """
    if not reports:
        raise ConfigError("plots need at least one report, got none")
    figures = {
        "scores": plot_scores(reports),
        "failure_modes": plot_failure_modes(reports),
        "judge_vs_match": plot_judge_vs_match(reports),
    }
    return png_bytes(figures)


def png_bytes(figures: dict[str, Any]) -> dict[str, bytes]:
    """Each figure as PNG bytes, at :data:`DPI`, without the matplotlib version stamp (so
    the same data gives the same bytes)."""
    out = {}
    for name, fig in figures.items():
        buf = io.BytesIO()
        # No bbox_inches="tight": it would change the pixel size from figure to figure.
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
        out[name] = buf.getvalue()
    return out


def write_plots(reports: list[Report], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write ``scores.png``, ``failure_modes.png`` and ``judge_vs_match.png`` into ``out_dir``.

    This is what ``--pau-plots=DIR`` and ``pau plot`` call. The folder is created if
    needed; existing files of the same names are replaced.

    Returns:
        The paths written, in :data:`PLOT_NAMES` order.

    Raises:
        ConfigError: no report given, or matplotlib is not installed.
    """
    folder = Path(out_dir).expanduser()
    pngs = render_pngs(reports)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in pngs.items():
        paths.append(write_bytes_atomic(folder / f"{name}.png", data))
    return paths


def render_plot_files(report: Report, context: OutputContext) -> dict[str, bytes]:
    """``--pau-plots``' files (:func:`write_plots`' of one run): the row's renderer
    (:data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS`)."""
    return {f"{name}.png": data for name, data in render_pngs([report]).items()}
