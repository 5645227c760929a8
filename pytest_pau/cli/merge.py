"""``pau merge SHARD.json ... -o REPORT.json [--gate]``: the shards of a run as one report.

Each shard (``pytest --pau-shard=K/N --pau-report=shard-K.json``) ran a part of the
selection. This joins their items and recomputes every figure, interval, failure-mode
table, calibration line and gate verdict from them, with the functions a pytest run uses,
so the report equals the one a single run of the whole selection would have written. It
fails closed, exit status 1 with every cause named, when a shard is missing or given twice,
or the shards disagree on the selection, the settings, the protocol, the judge, the coder
or the prompts; or a shard holds an item twice, says it is shard K/N with K above N, or
has a score that is no number.

``--gate`` applies the release gates the shards were run with (``--pau-min-*``,
``--pau-baseline``, read here relative to the current folder) and exits as pytest would:
0 when every gate passes and no item errored, 1 otherwise. Without it the exit status is 0
once the report is written. In a GitHub Actions job it also appends the job summary and
writes the failed gates as annotations; ``--markdown FILE`` writes the pull-request comment.

Exit status: 0 merged (with ``--gate``: and the gates passed), 1 refused or a gate failed,
2 bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pau.errors import MergeError, PauError
from pytest_pau.files.guard import PathArg, output_arg
from pytest_pau.settings.gates_and_outputs import REPORT_OUTPUTS, ReportOutput
from pytest_pau.settings.values import parse_path

if TYPE_CHECKING:
    from pytest_pau.models import (
        Calibration,
        InstanceResult,
        Report,
        RunInfo,
        ScoresReport,
    )
    from pytest_pau.report.shards import Joined
    from pytest_pau.settings import PauSettings


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``pau merge``."""
    doc = (__doc__ or "").split("\n\n")
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "merge",
        help="Join the JSON reports of a run's shards (--pau-shard) into one, gates recomputed.",
        description="\n\n".join(doc[1:4]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "shards", nargs="+", type=parse_path, metavar="SHARD.json", help="Every shard's report."
    )
    merged = [output for output in REPORT_OUTPUTS if output.merge is not None]
    for output in merged:
        assert output.merge is not None
        option, text = output.merge
        if output.field == "report":  # the merged report itself: -o, --output
            parser.add_argument(
                option, "--output", type=parse_path, required=True, metavar="REPORT.json", help=text
            )
            parser.add_argument(
                "--gate",
                action="store_true",
                help="Exit as pytest would: 1 when a release gate fails or an item errored. "
                "Default: exit 0 once merged.",
            )
        else:
            parser.add_argument(
                option, dest=output.field, type=parse_path, metavar="FILE", help=text
            )
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``pau merge``: every refusal is exit status 1 with its causes."""
    try:
        return _merge(args)
    except PauError as exc:
        print(f"pau merge: error: {exc}", file=sys.stderr)
        return 1


def settings_of(joined: Joined) -> PauSettings:
    """The shards' settings as this version's :class:`PauSettings` (no shard, no outputs).

    Raises:
        MergeError: The shards recorded settings this version does not know.
    """
    from pytest_pau.settings import PauSettings

    known = PauSettings.model_fields
    unknown = sorted(k for k in joined.settings if k not in known)
    if unknown:
        raise MergeError(
            f"the shards were run by pytest-pau {joined.run.plugin_version} with settings this "
            f"version does not know ({', '.join(unknown)}); merge them with pytest-pau "
            f"{joined.run.plugin_version}"
        )
    return PauSettings.model_validate({k: v for k, v in joined.settings.items() if k in known})


def _baseline(settings: PauSettings, run: RunInfo) -> ScoresReport | None:
    """The shards' ``--pau-baseline``, read from here, refused as a pytest run refuses it."""
    if settings.baseline is None:
        return None
    from pytest_pau.errors import ConfigError
    from pytest_pau.report.compare_io import read_scores
    from pytest_pau.stats.gates import check_baseline

    try:
        baseline = read_scores(settings.baseline)
    except ConfigError as exc:
        raise MergeError(
            f"the shards' --pau-baseline={str(settings.baseline)!r}: {exc}; run pau merge "
            "from the folder the shards ran in (the path is read relative to it)"
        ) from None
    refusals, _ = check_baseline(baseline, run, str(settings.baseline))
    if refusals:
        raise MergeError("\n".join(refusals))
    return baseline


def _calibration(
    s: PauSettings, joined: Joined, results: list[InstanceResult]
) -> Calibration | None:
    """The calibration line of the whole selection, from the shards' stored oracle/null rows."""
    if not s.low_fidelity_roles():
        return None
    from pytest_pau.report.calibration import ItemKey, calibrate, scorers_text

    def key(instance: str) -> ItemKey:
        # The shards matched each row to the instance's content already.
        return ItemKey(s.dataset, s.split, instance, "")

    found = {(key(r.instance), r.model): (r.judge, r.match) for r in joined.calibration}
    return calibrate(
        found,
        [key(i) for i in joined.selection],
        {r.id: r for r in results},
        scorers=scorers_text(s, prompts_version=joined.run.prompts_version),
        commands=joined.calibration_commands,
    )


def _requested(args: argparse.Namespace) -> list[tuple[ReportOutput, str, Path]]:
    """The outputs ``pau merge`` was asked for: (row, its option, the path as given)."""
    out = []
    for output in REPORT_OUTPUTS:
        if output.merge is not None:
            given = getattr(args, "output" if output.field == "report" else output.field)
            if given is not None:
                out.append((output, output.merge[0], given))
    return out


def output_args(args: argparse.Namespace) -> list[PathArg]:
    """What ``pau merge`` writes: ``-o``, ``--html``, ``--markdown``."""
    return [output_arg(option, given) for _, option, given in _requested(args)]


def _merge(args: argparse.Namespace) -> int:
    from pytest_pau.files.guard import WRITE_CHECKED, check_conflicts, check_outputs, output_arg
    from pytest_pau.models import ItemStatus, Report
    from pytest_pau.plugin.finish import run_notes
    from pytest_pau.report.json_report import read_report
    from pytest_pau.report.shards import join_shards
    from pytest_pau.run.end import RunEnd, settle

    shards = [output_arg("shard", p, what="one of the shards' reports") for p in args.shards]
    outputs = output_args(args)
    check_outputs(outputs, shards, checked=WRITE_CHECKED)  # before any shard is read
    reports = [(str(p), read_report(p)) for p in args.shards]
    joined = join_shards(reports)
    settings = settings_of(joined)
    if settings.baseline is not None:
        # The gate compares the run with this file: the merged report must never replace it.
        baseline = output_arg(
            "the shards' --pau-baseline", settings.baseline, what="the baseline report"
        )
        check_conflicts(outputs, [baseline], checked=WRITE_CHECKED)
    results = joined.results
    walls = [r.summary.wall_s for _, r in reports if r.summary.wall_s is not None]
    failing = any(r.status in (ItemStatus.FAILED, ItemStatus.ERROR) for r in results)
    # The verdict a pytest run of the whole selection would give (what the merged JSON
    # report says); --gate makes its exit status pau merge's own.
    end = RunEnd(
        settings=settings,
        results=results,
        run_info=joined.run,
        selected_ids=joined.selection,
        selected=len(joined.selection),
        # Skipped by a mark in their shard: out of the selection, as a whole run has them.
        user_skipped={i for _, r in reports if r.shard is not None for i in r.shard.user_skipped},
        wall_s=max(walls) if walls else None,
        baseline=_baseline(settings, joined.run),
        calibration=_calibration(settings, joined, results),
        pytest_status=1 if failing else (0 if results else 5),
        # As in a gated pytest run: an errored item (E) fails it whatever the gates say.
        blocking=[r.id for r in results if r.status == ItemStatus.ERROR],
    )
    summary = settle(end)
    notes = run_notes(settings, joined.run, summary, interrupted=joined.run.interrupted)
    report = Report(
        run=joined.run,
        instances=results,
        summary=summary,
        notes=list(dict.fromkeys(notes + joined.notes)),
    )
    return _outputs(args, settings, report)


def _outputs(args: argparse.Namespace, settings: PauSettings, report: Report) -> int:
    """Stage every requested output, fill each from the settled report, then commit them
    all and say what was written (the merged report first).

    Raises:
        MergeError: An output could not be staged (nothing is written then) or written;
            the file at its path, if any, is left as it was.
    """
    from pytest_pau.plugin.ci import closing_text
    from pytest_pau.report.fmt import unicode_ok
    from pytest_pau.report.github import annotation_commands, append_step_summary, on_github
    from pytest_pau.report.outputs import OutputContext, Staged, commit, fill, stage
    from pytest_pau.report.render import TextWriter, render

    summary = report.summary
    assert summary.verdict is not None
    gated = summary.verdict.exit_status
    status = gated if args.gate else 0
    closing = closing_text(settings, summary)
    staged: list[tuple[str, Staged]] = []
    context = OutputContext(closing=closing, report_file=str(args.output))
    try:
        for output, option, given in _requested(args):
            try:
                staged.append((option, stage(output, given, Path(given).expanduser())))
            except OSError as exc:
                raise _failed(option, given, exc) from None
        for option, out in staged:
            try:
                fill(out, report, context)
            except OSError as exc:
                raise _failed(option, out.given, exc) from None
        # Every output is written: only now does any replace what was at its path.
        lines = [commit(out) for _, out in staged]
    finally:
        for _, out in staged:
            out.discard()  # what was not committed (none once all are)
    writer = TextWriter()
    render(summary, writer, run=report.run, notes=report.notes, unicode=unicode_ok())
    print(writer.getvalue(), end="")
    lines[0] += f" (merged from {len(args.shards)} shards)"
    for line in lines:
        print(line)
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        append_step_summary(report, closing=closing, path=Path(step), report_file=str(args.output))
    if closing is not None:
        print(closing)
    if not args.gate and gated != 0:
        print(f"pau merge without --gate exits 0; with --gate it would exit {gated}")
    if on_github():
        for line in annotation_commands(report):
            print(line)
    return status


def _failed(option: str, given: Path, exc: OSError) -> MergeError:
    """An output that could not be written (a full disk, a folder gone since the check),
    as a :class:`MergeError`, never a raw ``OSError``."""
    return MergeError(
        f"{option} {str(given)!r}: could not write it ({exc.strerror or exc}); the file "
        "there, if any, is left as it was"
    )
