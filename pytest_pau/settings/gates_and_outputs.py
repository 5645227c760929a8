"""The ``--pau-*`` rows of what decides and what is written: per-item thresholds, the
session's release gates, and the outputs (JSON, HTML, plots, markdown).

The level gates' rows are made from :data:`pytest_pau.models.metrics.LEVEL_GATES` (the
threshold's parser from the scale of the gate's metric), never written out here.

The rows of what runs (models, dataset, run) are in :mod:`pytest_pau.settings.options`,
which puts all of them together in ``--help`` order.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_pau.models.metrics import LEVEL_GATES, METRICS, LevelGate
from pytest_pau.settings.spec import OptionSpec
from pytest_pau.settings.values import (
    EXIT_POLICIES,
    parse_choice,
    parse_confidence,
    parse_fraction,
    parse_judge_score,
    parse_margins,
    parse_path,
)

THRESHOLD_OPTIONS = (
    OptionSpec(
        "judge-threshold",
        "An item fails when its judge score is below this.",
        parse_judge_score,
        "SCORE",
    ),
    OptionSpec(
        "match-threshold",
        "An item fails when its code match is below this.",
        parse_fraction,
        "FRACTION",
    ),
)

#: How a level gate's threshold is read, by the scale of its metric.
_THRESHOLD_PARSERS = {
    (1.0, 5.0): (parse_judge_score, "SCORE"),
    (0.0, 1.0): (parse_fraction, "FRACTION"),
}


def _level_gate_option(gate: LevelGate) -> OptionSpec:
    """The option row of a level gate (:data:`~pytest_pau.models.metrics.LEVEL_GATES`)."""
    parse, metavar = _THRESHOLD_PARSERS[METRICS[gate.metric][1]]
    return OptionSpec(
        gate.option.removeprefix("--pau-"),
        f"Release gate: exit status 1 when {gate.explained} is below this.",
        parse,
        metavar,
        default_text="no gate",
    )


GATE_OPTIONS = (
    *(_level_gate_option(gate) for gate in LEVEL_GATES.values()),
    OptionSpec(
        "gate-on-ci",
        "Gates compare the exact one-sided lower confidence bound (at --pau-gate-confidence; "
        "valid from one item) instead of the mean: a gate passes only when it is met beyond "
        "noise.",
    ),
    OptionSpec(
        "baseline",
        "Regression gate: a JSON report (--pau-report) of the released model; exit status 1 "
        "unless this run is shown, paired on the selected instances the baseline scored, to "
        "be worse by less than --pau-max-regression.",
        parse_path,
        "REPORT.json",
        default_text="no regression gate",
    ),
    OptionSpec(
        "max-regression",
        "The regression each metric may show against --pau-baseline: METRIC:DELTA pairs, "
        "METRIC judge, match or pass (e.g. judge:0.2,match:0.05,pass:0.05 gates all three).",
        parse_margins,
        "MARGINS",
        default_text="judge:0.2",
    ),
    OptionSpec(
        "gate-confidence",
        "Confidence of the regression gate's non-inferiority test, of --pau-gate-on-ci's "
        "bound and of --pau-early-stop's verdicts.",
        parse_confidence,
        "LEVEL",
    ),
    OptionSpec(
        "early-stop",
        "Stop starting items once every gate's verdict is known at --pau-gate-confidence "
        "(anytime-valid tests of the same questions; items run in a seeded random order, no "
        "more in flight than the next decision could need); the rest are skipped.",
    ),
    OptionSpec(
        "exit",
        "What decides the exit status when a gate is set: gates (items below their "
        "thresholds do not fail the run; errors and other tests still do) or items (every "
        "failed item fails the run too).",
        parse_choice(EXIT_POLICIES),
        "gates|items",
    ),
)


@dataclass(frozen=True)
class ReportOutput:
    """One output a run writes from its settled report (a row of :data:`REPORT_OUTPUTS`).

    The row is the whole of an output but its renderer: its option (``--pau-<name>``, the
    :class:`~pytest_pau.settings.PauSettings` field of the same name, the ini key), its
    ``pau merge`` option, how its failure and its line in the outputs list read.
    :mod:`pytest_pau.report.outputs` stages, writes and commits every row the same way.
    """

    option: OptionSpec
    """The ``--pau-*`` option (a path; the setting's field is ``option.field``)."""
    what: str
    """What it is, for a failure: ``the HTML report``."""
    listed: str
    """Its line in the outputs list: ``{path}`` the path written, ``{count}`` the files."""
    render: str
    """``module:function``, ``function(report, context) -> {name: bytes}``: the content,
    ``""`` for the file itself, a file name for each file a folder output writes. Named,
    not imported, so that the settings load without the report layer."""
    writes: tuple[str, ...] = ()
    """A folder output: the files it writes in it (empty: the option names a file)."""
    merge: tuple[str, str] | None = None
    """``pau merge``'s option and help for it; None: a pytest run's output only."""

    @property
    def field(self) -> str:
        """The :class:`~pytest_pau.settings.PauSettings` field (``html``)."""
        return self.option.field

    @property
    def flag(self) -> str:
        """The option as typed: ``--pau-html``."""
        return f"--pau-{self.option.name}"


#: The run's outputs, in ``--help`` order (also the order of the outputs list). Adding a
#: format is one row here and its renderer.
#: The plots ``--pau-plots`` (and ``pau plot``) write, as ``<name>.png``, in this order.
PLOT_NAMES = ("scores", "failure_modes", "judge_vs_match")

REPORT_OUTPUTS = (
    ReportOutput(
        OptionSpec(
            "report",
            "Write the JSON report here (atomically).",
            parse_path,
            "PATH",
            default_text="none",
        ),
        what="the JSON report",
        listed="PAU report: {path}",
        render="pytest_pau.report.json_report:render_json",
        merge=(
            "-o",
            "Write the merged JSON report here (atomically). Like --html and --markdown, "
            "never over a shard, the shards' --pau-baseline or another output; checked "
            "before anything is written.",
        ),
    ),
    ReportOutput(
        OptionSpec(
            "html",
            "Write a self-contained HTML report here.",
            parse_path,
            "PATH",
            default_text="none",
        ),
        what="the HTML report",
        listed="HTML report: {path}",
        render="pytest_pau.report.html:render_html_file",
        merge=("--html", "Also write the HTML report. Default: none."),
    ),
    ReportOutput(
        OptionSpec(
            "plots",
            "Write PNG plots into this folder (needs the plots extra).",
            parse_path,
            "DIR",
            default_text="none",
        ),
        what="the plots",
        listed="plots: {count} PNG files in {path}",
        render="pytest_pau.report.plots:render_plot_files",
        writes=tuple(f"{name}.png" for name in PLOT_NAMES),
    ),
    ReportOutput(
        OptionSpec(
            "markdown",
            "Write a Markdown summary here, sized for a pull-request comment (under 64 KB); "
            "a job summary is appended to $GITHUB_STEP_SUMMARY whenever that is set.",
            parse_path,
            "FILE",
            default_text="none",
        ),
        what="the Markdown summary",
        listed="Markdown summary: {path}",
        render="pytest_pau.report.markdown:render_markdown_file",
        merge=(
            "--markdown",
            "Also write the Markdown summary (a pull-request comment). Default: none.",
        ),
    ),
)

#: The outputs' option rows (``--help``, ini keys), one per :data:`REPORT_OUTPUTS` row.
REPORT_OPTIONS = tuple(output.option for output in REPORT_OUTPUTS)
