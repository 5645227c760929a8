"""The hooks of an active run: :class:`PauPlugin`, registered by ``pytest_configure``.

Each hook delegates to the module of :mod:`pytest_pau.plugin` whose job it is (collection,
episodes, gathering, the end of the run); the module-level hooks that decide whether a run
is active at all are in the package's ``__init__``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Generator
from typing import Any

import pytest

from pytest_pau.models import Skip, SkipCause
from pytest_pau.plugin import ahead, collect, intake, narrowed_retry, shard
from pytest_pau.plugin.begin import worker_input
from pytest_pau.plugin.blocking import BelowThreshold
from pytest_pau.plugin.state import PauRun, result_key, sent_key
from pytest_pau.plugin.stop import INTERRUPT, STOP_SIGNALS, SignalInterrupt


class PauPlugin:
    """The hooks of an active run (registered by ``pytest_configure``)."""

    def __init__(self, state: PauRun) -> None:
        self.state = state
        self._retry_sent = False
        self._shard_sent = False
        self._warmed = False

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        s = self.state.settings
        n = len(self.state.instances)
        lines = [
            f"pau: model {s.model}, judge {s.judge_model}, coder {s.coder_model}, "
            f"dataset {s.dataset}/{s.split} ({n} instance{'' if n == 1 else 's'}), "
            f"{s.mode} mode, max {s.max_iterations} iterations, cache "
            f"{'off' if s.no_cache else s.cache_dir}"
        ]
        info = self.state.dataset_info
        if info is not None and config.get_verbosity() > 0:
            lines.append(f"pau: dataset {s.dataset} [{s.split}]: {info.describe()}")
        if s.protocol == "paper":
            lines.append(
                "pau: --pau-protocol=paper: a missing judge rating counts 1 and a missing "
                "code match 0 in every mean, interval and gate (the items stay listed)"
            )
        # What the loader did beyond reading is never silent (recompute, paper expectations).
        lines += [f"pau: dataset: {note}" for note in getattr(info, "notes", ())]
        if config.get_verbosity() > 0:
            lines += collect.disagreement_lines(getattr(info, "disagreements", ()))
        renamed = self.state.marker_names.header()
        if renamed is not None:
            lines.append(renamed)
        return lines

    # -- collection ---------------------------------------------------------------------

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if collect.ARGNAME not in metafunc.fixturenames:
            return
        for mark in metafunc.definition.iter_markers("parametrize"):
            names = mark.args[0] if mark.args else mark.kwargs.get("argnames", "")
            if collect.ARGNAME in (
                names
                if isinstance(names, (list, tuple))
                else str(names).replace(" ", "").split(",")
            ):
                return  # the user parametrizes pau_instance themselves
        metafunc.parametrize(
            collect.ARGNAME, collect.params(self.state.instances, self.state.marker_names)
        )

    @pytest.hookimpl(tryfirst=True, specname="pytest_collection_modifyitems")
    def pytest_collection_modifyitems_inject(
        self, session: pytest.Session, items: list[pytest.Item]
    ) -> None:
        # Before -k/-m deselection, so those select among the builtin items too.
        if not collect.uses_instances(items):
            items.extend(collect.builtin_items(session))

    @pytest.hookimpl(wrapper=True, tryfirst=True, specname="pytest_collection_modifyitems")
    def pytest_collection_modifyitems_limit(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> Generator[None, None, None]:
        # --pau-limit takes the first N of what every other selection left: after -k/-m
        # (plain hooks) and after --lf/--ff, whose tryfirst wrapper was registered before
        # this one, so it runs inside it.
        yield
        s = self.state.settings
        if s.limit is not None:
            dropped = collect.apply_limit(items, s.limit, self.state.order)
            if dropped:
                config.hook.pytest_deselected(items=dropped)
        if s.shard is not None:
            # After every other selection: the same partition of the same selection on
            # every machine (and every xdist worker).
            dropped = shard.apply_shard(items, self.state)
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            shard.tell_controller(config, self.state)
        if s.early_stop:
            # The first results must be a fair sample: a seeded shuffle, never dataset order.
            collect.shuffle_items(items, s.seed)

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.state.deselected += sum(collect.instance_of(i) is not None for i in items)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        intake.count_selected(self.state, [item.nodeid for item in session.items])
        option = narrowed_retry.narrowed_by(session.config, self.state.deselected)
        if option is not None:
            selected = sum(collect.instance_of(i) is not None for i in session.items)
            self.state.retry_selection = narrowed_retry.reason(
                option, selected, self.state.deselected
            )

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        intake.count_selected(self.state, list(ids))
        # The controller does a first run's slow steps (and says them) before it hands out
        # the first item: the workers, each silent, then find them done.
        if not self._warmed and self.state.selected and not node.config.option.collectonly:
            self._warmed = True
            from pytest_pau.plugin import warmup

            warmup.warm_up(self.state, node.config)

    # -- running ------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        # The items are final now: start their episodes ahead of pytest (threads, at most
        # --pau-concurrency at once). Not on the xdist controller: it runs no item.
        if not session.config.option.collectonly and not _is_xdist_controller(session.config):
            if not self.state.is_worker and self.state.selected:
                from pytest_pau.plugin import warmup

                warmup.warm_up(self.state, session.config)
            ahead.start_episodes(self.state, session)
        restore = _cancel_on_ctrl_c(self.state)
        try:
            return (yield)
        finally:
            restore()

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        # xdist's load scheduling keeps two items on a worker once items are slow: too few
        # for many episodes in flight. Ours keeps twice the concurrency queued on each.
        from pytest_pau.plugin.xdist import make_scheduler, uses_load_scheduling

        n = self.state.settings.episodes_in_flight()
        if n > 1 and uses_load_scheduling(config):
            return make_scheduler(config, log, depth=2 * n)
        return None

    @pytest.hookimpl(optionalhook=True, trylast=True)
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport, sched: Any) -> None:
        # A dead worker's item: an infrastructure error (E), with its PAU result.
        from pytest_pau.plugin.crash import handle_crash

        result = handle_crash(self.state, crashitem, report)
        if result is not None:
            intake.take(self.state, result)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, Any, Any]:
        report = yield
        if call.excinfo is not None and call.excinfo.errisinstance(BelowThreshold):
            report.pau_below_threshold = True  # data for the gates (serialized under xdist)
        result = item.stash.get(result_key, None)
        if result is not None and not item.stash.get(sent_key, False):
            # The first report after evaluation carries the result; pytest serializes extra
            # report attributes, so it reaches the xdist controller unchanged.
            report.pau_result = dump_held(result.model_dump_json)
            item.stash[sent_key] = True
        if self.state.is_worker and self.state.retry_selection and not self._retry_sent:
            report.pau_retry = self.state.retry_selection  # the controller did not collect
            self._retry_sent = True
        if self.state.is_worker and self.state.settings.shard and not self._shard_sent:
            # Under xdist the controller does not collect: the first report of each worker
            # tells it the whole selection and this shard's part (for the report).
            report.pau_shard = shard.payload_json(self.state)
            self._shard_sent = True
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.state.is_worker:
            return
        data = getattr(report, "pau_result", None)
        if data:
            intake.record(self.state, data)
        selection = getattr(report, "pau_shard", None)
        if selection:
            shard.take_payload_json(self.state, selection)
        retried = getattr(report, "pau_retry", None)
        if retried and self.state.retry_selection is None:
            self.state.retry_selection = str(retried)
        intake.ended(self.state, report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if not self.state.is_worker:
            intake.ended(self.state, report)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        # Each xdist worker learns where the controller's stop request will appear, where
        # the run's budget ledger is, and (for --pau-shard) what the cache answers.
        node.workerinput.update(worker_input(self.state, node.workerinput.get("testrunuid")))

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        # A worker that ran no item sent no report: its output still says the selection.
        selection = (getattr(node, "workeroutput", None) or {}).get("pau_shard")
        if selection:
            shard.take_payload_json(self.state, selection)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        if isinstance(excinfo.value, SignalInterrupt):
            self.state.interrupted_by = excinfo.value.name

    # -- the end ------------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        # tryfirst: before xdist's own hook tears the workers down.
        config = session.config
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        if interrupted and not self.state.is_worker:
            from pytest_pau.plugin.xdist import drain_results

            how = self.state.interrupted_by or "Ctrl-C"
            self.state.stop.request(
                Skip(SkipCause.INTERRUPTED, f"{INTERRUPT}: {how} on the controller")
            )
            for data in drain_results(config):
                intake.record(self.state, data)
        ahead.stop_episodes(self.state, interrupted=interrupted)
        if self.state.is_worker or config.option.collectonly:
            return
        from pytest_pau.plugin import finish

        finish.finish(self.state, int(session.exitstatus), interrupted)
        summary = self.state.summary
        if summary is not None and summary.verdict is not None:
            session.exitstatus = summary.verdict.exit_status

    @pytest.hookimpl(trylast=True, specname="pytest_sessionfinish")
    def pytest_sessionfinish_junit(self, session: pytest.Session) -> None:
        # trylast: after pytest's own junitxml writer, whose file this rewrites.
        if not self.state.is_worker:
            from pytest_pau.plugin.junit import after_junit

            after_junit(self.state)

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        state = self.state
        if not state.selected and not state.intake.results and state.instances:
            s = state.settings
            hint = collect.no_match_hint(config, len(state.instances), s.dataset, s.split)
            terminalreporter.line(hint, yellow=True)
        summary = state.summary
        if summary is None:
            return
        from pytest_pau.plugin import finish
        from pytest_pau.report.fmt import unicode_ok
        from pytest_pau.report.gate_lines import verdict_line
        from pytest_pau.report.render import render

        if summary.counts.items:
            # What the report files say: the notes and the extra lines of the settled end.
            report = self.state.outputs.final_report
            render(
                summary,
                terminalreporter,
                run=self.state.run_info,
                notes=report.notes if report is not None else finish.notes(self.state),
                extra_lines=report.extra if report is not None else (),
                unicode=unicode_ok(),
            )
            if self.state.outputs.report_written:
                terminalreporter.line(f"PAU report: {self.state.outputs.report_written}")
            for line in self.state.outputs.written:
                terminalreporter.line(line)
        verdict = summary.verdict
        closing = verdict_line(summary) if verdict is not None and state.settings.gated else None
        if closing is None and (empty := shard.empty_part(self.state)) is not None:
            terminalreporter.line(empty, yellow=True)
        if verdict is not None and closing is not None:
            # The last line says what the exit status says, and why (summary.verdict).
            ok = verdict.exit_status == 0
            terminalreporter.line(closing, green=ok, red=not ok, bold=True)
        from pytest_pau.plugin.ci import annotation_lines

        for line in annotation_lines(self.state):
            terminalreporter.line(line)  # GitHub reads a workflow command at a line's start


def _cancel_on_ctrl_c(state: PauRun) -> Any:
    """Ctrl-C cancels every episode's requests at once, then interrupts pytest as ever.

    Without it, requests kept starting until pytest's own handling reached the session's
    end (0.3-1.0 s later, 14 at --pau-concurrency=16). Returns the undo; nothing is done
    outside the main thread, or when SIGINT is ignored (a background job).
    """

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        return lambda: None

    def on_sigint(signum: int, frame: Any) -> Any:
        state.episodes.cancel.set()
        if not state.is_worker:
            # The workers too.
            state.stop.request(
                Skip(SkipCause.INTERRUPTED, f"{INTERRUPT}: Ctrl-C on the controller")
            )
        return previous(signum, frame)

    signal.signal(signal.SIGINT, on_sigint)

    def restore() -> None:
        if signal.getsignal(signal.SIGINT) is on_sigint:
            signal.signal(signal.SIGINT, previous)

    return restore


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))


#: The signals that stop a run (Ctrl-C and :data:`~pytest_pau.plugin.stop.STOP_SIGNALS`);
#: held back while a result is serialised (:func:`dump_held`).
_STOPPING = (signal.SIGINT, *STOP_SIGNALS)


def dump_held(dump: Any) -> str:
    """``dump()`` with the stopping signals held back until it returns, then delivered.

    pydantic wraps a ``KeyboardInterrupt`` raised inside its serializer (Ctrl-C landing
    there) into a ``PydanticSerializationError``, which pytest reported as an INTERNALERROR
    (exit 3) instead of an interrupted run (exit 2). Python runs signal handlers in the main
    thread whichever thread the signal reached, so there the handlers are swapped for one
    that notes the signal, and the first one noted is raised again, to the handler it was
    for, once ``dump()`` has returned. Elsewhere it runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        return str(dump())
    noted: list[int] = []
    held = {}
    for signum in _STOPPING:
        if signal.getsignal(signum) is not None:  # None: not set from Python, left alone
            held[signum] = signal.signal(signum, lambda got, frame: noted.append(got))
    try:
        return str(dump())
    finally:
        for signum, before in held.items():
            signal.signal(signum, before)
        if noted:
            signal.raise_signal(noted[0])
