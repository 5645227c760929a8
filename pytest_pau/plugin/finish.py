"""The end of a pytest run: what it leaves behind (the summary, the report files and the
notes), settled and written once on the controller."""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau.errors import PauError
from pytest_pau.models import Report, RunInfo
from pytest_pau.plugin.notices import warn
from pytest_pau.plugin.state import now_utc

if TYPE_CHECKING:
    from pytest_pau.models import InstanceResult, Summary
    from pytest_pau.plugin.state import PauRun
    from pytest_pau.report.outputs import Staged
    from pytest_pau.run.end import RunEnd
    from pytest_pau.settings import PauSettings


def run_info(state: PauRun, interrupted: bool) -> RunInfo:
    """The report's ``run`` block: what produced the run."""
    from pytest_pau.report.json_report import run_info_of

    info = state.dataset_info
    return run_info_of(
        state.settings,
        model=state.settings.model or "",
        dataset_outputs=info.outputs if info else None,
        dataset_outputs_by=info.outputs_by if info else None,
        dataset_notes=list(info.notes) if info else [],
        dataset_disagreements=list(info.disagreements) if info else [],
        started=state.started,
        finished=now_utc(),
        python=sys.version.split()[0],
        host=platform.node(),
        interrupted=interrupted,
        shard=state.settings.shard,
        instance_digests={inst.id: inst.task_digest() for inst in state.instances},
    )


def run_notes(
    settings: PauSettings, run_info: RunInfo | None, summary: Summary | None, interrupted: bool
) -> list[str]:
    """The notes any run's summary has: fidelity, missing results, the shard.

    A pytest run's and ``pau merge``'s alike: both pass what they know of the run (a merged
    run has no loaded dataset, only its shards' ``run`` blocks).
    """
    out = []
    for role, model, option in settings.low_fidelity_roles():
        out.append(
            f"the {role} is the embedded {model!r} model, so these scores are low fidelity; "
            f"set a stronger one with {option}=MODEL (e.g. {option}=gpt-5-mini)"
        )
    # The run block carries them (a merged run has no loaded dataset, only its shards' runs).
    dataset_notes = run_info.dataset_notes if run_info else []
    out.extend(f"dataset: {note}" for note in dataset_notes)
    counts = summary.counts if summary else None
    if counts and counts.selected > counts.items:
        missing = counts.selected - counts.items
        if interrupted:
            out.append("the run stopped early: re-run it; finished items come from the model cache")
        else:
            out.append(
                f"{missing} selected item{'s' if missing != 1 else ''} produced no PAU "
                "result (skipped or errored before evaluation: see the test outcomes above)"
            )
    part = settings.shard_part
    if part is not None:
        gates = " and the release gates" if settings.gated else ""
        out.append(
            f"shard {part[0]}/{part[1]}: these figures are of this part of the selection "
            f"only; the whole selection's figures{gates} come from `pau merge` over "
            f"the {part[1]} shards' --pau-report files"
        )
    return out


def _run_notes(state: PauRun) -> list[str]:
    """:func:`run_notes` of this pytest run."""
    return run_notes(state.settings, state.run_info, state.summary, state.interrupted)


def notes(state: PauRun) -> list[str]:
    """The summary's notes: fidelity, missing results, cache and endpoint warnings."""
    out = _run_notes(state)
    if state.intake.ahead:
        out.append(
            f"{state.intake.ahead} item{'s' if state.intake.ahead != 1 else ''} finished ahead of pytest "
            "before it stopped: in the summary and the report, without a test outcome"
        )
    from pytest_pau.plugin.crash import crash_notes

    out.extend(crash_notes(state))
    if state.outputs.report_error is not None:
        out.append(state.outputs.report_error)
    out.extend(state.outputs.errors)
    if state.cache_warning is not None:
        out.append(state.cache_warning)
    out.extend(state.endpoint_notes)
    other = sum(r.cache_hits_other_version for r in state.intake.results.values())
    if other:
        out.append(
            f"{other} cached answer{'s' if other != 1 else ''} came from another pytest-pau "
            "or prompts version than this run's (correct: answers are keyed by their "
            "content); --pau-no-cache asks the models again"
        )
    return out


def ungated_note(config: pytest.Config, settings: PauSettings) -> str | None:
    """One line for a run without a model whose ini file or options set release gates.

    Without ``--pau-model`` the plugin does nothing, so gates set in ``pytest.ini`` are
    not evaluated; a CI job that forgot the model would otherwise pass without a word.
    """
    gates = [(k, v) for k, v in settings.level_gates().items() if v]
    if not gates:
        return None
    ini: list[str] = []
    cli: list[str] = []
    for key, value in gates:
        if config.getoption(f"pau_{key}", None) is not None:
            cli.append(f"--pau-{key.replace('_', '-')}={value:g}")
        else:
            ini.append(f"pau_{key} = {value:g}")
    parts = []
    if ini:
        parts.append(", ".join(ini) + (f" ({config.inipath.name})" if config.inipath else ""))
    if cli:
        parts.append(", ".join(cli))
    many = len(gates) != 1
    return (
        f"pytest-pau: release gate{'s' if many else ''} {' and '.join(parts)} "
        f"{'were' if many else 'was'} not evaluated: no model under test was given "
        "(--pau-model=MODEL, or pau_model in the ini file)"
    )


def _stopped_early(state: PauRun, interrupted: bool) -> bool:
    """Ctrl-C (``interrupted``), or pytest was told to stop (``-x``, ``--maxfail``...)."""
    if interrupted:
        return True
    session = state.config.pluginmanager.get_plugin("session")
    return bool(
        session is not None
        and (getattr(session, "shouldstop", False) or getattr(session, "shouldfail", False))
    )


def run_end(state: PauRun, results: list[InstanceResult], **known: Any) -> RunEnd:
    """What the end of the run decides from, as the run's state holds it now."""
    from pytest_pau.run.end import RunEnd

    assert state.run_info is not None
    problems = [
        *([state.outputs.report_error] if state.outputs.report_error else []),
        *state.outputs.errors,
    ]
    return RunEnd(
        settings=state.settings,
        results=results,
        run_info=state.run_info,
        selected_ids=state.selected_ids,
        selected=state.selected,
        user_skipped=state.intake.user_skipped,
        baseline=state.baseline,
        early=state.intake.early,
        blocking=state.intake.blocking,
        problems=problems,
        retry_selection=state.retry_selection,
        **known,
    )


def finish(state: PauRun, exitstatus: int, interrupted: bool) -> None:
    """Summary, gates, the verdict, report files. Called once, on the controller.

    Every requested output (:data:`~pytest_pau.settings.gates_and_outputs.REPORT_OUTPUTS`) is
    staged first, a temporary file beside its target (:func:`pytest_pau.report.outputs.stage`);
    one that cannot be is a missing requested output. Then the run's end is settled, once,
    with those failures (:func:`pytest_pau.run.end.settle`), and each output is rendered from
    that report and renamed into place (:func:`pytest_pau.report.outputs.write`): the table's
    rows, the users' own (``pytest_pau_report_write``), the JSON report last.

    Only a failure after the decision (a disk that filled since the output was staged, a
    user's output that raised) settles the end anew with it, for the outputs not yet
    written (the JSON report among them), so the exit status and the JSON report agree.
    """
    from pytest_pau.plugin.calibration import settle as settle_calibration
    from pytest_pau.plugin.shard import empty_part, shard_info
    from pytest_pau.report.outputs import Staged, stage
    from pytest_pau.run.end import settle
    from pytest_pau.settings.gates_and_outputs import REPORT_OUTPUTS

    s = state.settings
    results = state.ordered_results()
    # A dead xdist worker left its item unfinished: re-run to finish, as after Ctrl-C.
    state.interrupted = _stopped_early(state, interrupted) or bool(state.intake.crashes)
    state.run_info = run_info(state, state.interrupted)
    known = {
        "wall_s": time.perf_counter() - state.t0,
        "calibration": settle_calibration(state),
        "pytest_status": exitstatus,
        "empty_part": empty_part(state) is not None,
    }
    staged: list[Staged] = []
    for output in REPORT_OUTPUTS:
        given = getattr(s, output.field)
        if given is None:
            continue
        try:
            staged.append(stage(output, given, state.resolve(given)))
        except OSError as exc:
            _output_failed(state, Staged(output, given, given), exc)

    extra: list[str] = []
    hook_problems: list[str] = []

    def settled() -> Report:
        """The end of the run settled on what is known now, and its report."""
        state.summary = settle(run_end(state, results, **known))
        return reported()

    def reported() -> Report:
        """The report of the settled end, with what is known now besides the verdict."""
        # The notes as the terminal prints them: the HTML, the Markdown and the JSON report
        # show them too.
        shown = notes(state)
        assert state.run_info is not None
        state.outputs.final_report = Report(
            run=state.run_info,
            instances=results,
            summary=state.summary,
            notes=shown + hook_problems,
            extra=extra,
            shard=shard_info(state, shown[len(_run_notes(state)) :]),
        )
        return state.outputs.final_report

    from pytest_pau.plugin.ci import append_step_summary

    try:
        report = settled()
        if report.summary.counts.items:
            # Asked once, of the settled summary; a hook that fails is a note, not a lost report.
            lines, problems = summary_extra(state, report.summary)
            extra.extend(lines)
            hook_problems.extend(problems)
            report = reported()  # the lines change no verdict: the end is not settled anew
        # The JSON report, the run's record, is written last: it says what the exit status
        # says.
        last = [out for out in staged if out.output.field == "report"]
        for out in [out for out in staged if out.output.field != "report"]:
            report = _write(state, out, report, settled)
        append_step_summary(state, report)
        if _write_user_outputs(state, report):
            report = settled()
        for out in last:
            _write(state, out, report, settled)
    finally:
        for out in staged:
            out.discard()  # what was not committed (nothing, once all are)


def _write(state: PauRun, out: Staged, report: Report, settled: Callable[[], Report]) -> Report:
    """One staged output written from ``report`` and listed; the report as settled after it
    (anew only when it failed: a failure after the decision)."""
    from pytest_pau.plugin.ci import output_context
    from pytest_pau.report.outputs import write

    try:
        line = write(
            out, report, output_context(state.settings, state.summary, state.outputs.report_error)
        )
    except (ImportError, PauError, OSError) as exc:
        _output_failed(state, out, exc)
        return settled()
    if out.output.field == "report":
        state.outputs.report_written = out.path
    else:
        state.outputs.written.append(line)
    return report


def summary_extra(state: PauRun, summary: Summary) -> tuple[list[str], list[str]]:
    """The lines of every ``pytest_pau_summary_extra`` implementation, asked once, and the
    notes of those that failed.

    They go where the summary goes: the terminal, the HTML and Markdown summaries and the
    JSON report's ``extra``. An implementation that raises or returns something other than
    a list of strings adds no line and leaves a note naming it (the run's verdict stands:
    the lines are the project's own, not the model's figures); Ctrl-C in one stops asking
    the others, and the report files are written as ever. When a wrapper (``wrapper=True``
    or ``hookwrapper=True``) wraps the hook, it is asked as pluggy asks, as one, so the
    wrapper sees and may change the answers as the terminal's summary always let it.
    """
    config = state.config
    out: list[str] = []
    problems: list[str] = []
    hook = config.hook.pytest_pau_summary_extra
    kwargs = {"config": config, "summary": summary}
    impls = hook.get_hookimpls()
    wrapped = any(impl.hookwrapper or impl.wrapper for impl in impls)
    calls: list[tuple[str, Callable[[], object]]]
    if wrapped:
        # A wrapper sees (and may change) every answer: asked as pluggy asks, as one.
        calls = [("its wrappers", lambda: hook(config=config, summary=summary))]
    else:  # each on its own, in pluggy's order, so a failure names its plugin
        calls = [
            (impl.plugin_name, partial(impl.function, *(kwargs[arg] for arg in impl.argnames)))
            for impl in reversed(impls)
        ]
    for plugin_name, call in calls:
        name = f"pytest_pau_summary_extra of {plugin_name}"
        try:
            got = call()
            if wrapped and isinstance(got, list):  # pluggy's answers: each a list of str
                answers = [_lines(answer) for answer in got]
                lines = None if None in answers else [x for a in answers if a for x in a]
            else:
                lines = _lines(got)
        except KeyboardInterrupt:  # Ctrl-C in a long hook (the quick start's ceiling)
            problems.append(f"{name} was interrupted: its lines are left out of the summary")
            warn(problems[-1])
            break  # the report files are still written, from every finished item
        except BaseException as exc:  # a user's hook (pytest.fail, sys.exit too): no lost report
            problem = f"{name} raised {_described(exc, f'{type(exc).__name__}: {{}}', str)}"
        else:
            if lines is not None:
                out.extend(lines)
                continue
            problem = f"{name} returned {_described(got, f'{type(got).__name__} {{:.80}}', repr)}"
            problem += ", not a list of str"
        problems.append(f"{problem}: its lines are left out of the summary")
        warn(problems[-1])
    return out, problems


def _lines(got: object) -> list[str] | None:
    """A hook's answer as plain lines ([] for None); None when it is not a list of str."""
    if got is None:
        return []
    if isinstance(got, list | tuple) and all(isinstance(x, str) for x in got):
        # str.splitlines itself, never a subclass's: plain str lines, one per line
        return [line for text in got for line in str.splitlines(text) or [""]]
    return None


def _described(obj: object, form: str, text: Callable[[object], str]) -> str:
    """``form`` filled with ``text(obj)``; the bare type name when that raises too."""
    try:
        return form.format(text(obj))
    except Exception:  # a hostile __repr__ or __str__: the note names the type only
        return type(obj).__name__


def _write_user_outputs(state: PauRun, report: Report) -> bool:
    """The users' own outputs (``pytest_pau_report_write``); True when one failed."""
    config = state.config
    try:
        lines = config.hook.pytest_pau_report_write(config=config, report=report)
    except (OSError, PauError) as exc:
        message = f"pytest_pau_report_write: could not write an output ({exc})"
        state.outputs.errors.append(message)
        warn(message)
        return True
    state.outputs.written.extend(str(line) for line in lines if line)
    return False


def _output_failed(state: PauRun, out: Staged, exc: BaseException) -> None:
    """A requested output is missing: say so in the summary (the verdict fails the run).

    The JSON report's failure is the run's ``report_error`` (the Markdown then has no
    pointer to it); the others are ``outputs.errors``.
    """
    message = out.problem(exc)
    if isinstance(exc, ImportError):
        message += "; install the plots extra: pip install 'pytest-pau[plots]'"
    if out.output.field == "report":
        state.outputs.report_error = message
    else:
        state.outputs.errors.append(message)
    warn(message)
