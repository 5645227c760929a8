"""The pytest plugin (entry point ``pytest11: pau``): its hooks; the fixtures are in ``_fixtures``.

Inactive unless ``--pau-model`` (or ini ``pau_model``) is set: then it loads the
instances, registers their markers, collects one item per instance, evaluates items in
the ``pau_result`` fixture, gathers results (with or without xdist), prints the summary,
applies the release gates and writes the report. The work is delegated to
:mod:`pytest_pau.plugin.collect`, :mod:`pytest_pau.plugin.session` and :mod:`pytest_pau.report`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import pytest

# Before anything imports litellm: never fetch the price map from the network.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from pytest_pau.errors import ConfigError, DatasetError
from pytest_pau.plugin import ahead, collect, gates
from pytest_pau.plugin.config import register_pytest_options, settings_from_config
from pytest_pau.plugin.gates import BelowThreshold
from pytest_pau.plugin.session import PauSession, pau_session_key
from pytest_pau.plugin.state import result_key, sent_key
from pytest_pau.plugin.stop import INTERRUPT, STOP_FILE_KEY, remove_run_dir
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau.models import Instance

# The plugin's fixtures (pau_result, pau_sandbox...), and the scripted model server
# fixture (`scripted_llm`) that is offered to every project.
pytest_plugins = ["pytest_pau.plugin.fixtures", "pytest_pau.testing"]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_pau import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    register_pytest_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "pau: every PAU benchmark item (pytest-pau)")
    try:
        settings = settings_from_config(config)
    except ConfigError as exc:
        if config.getoption("pau_model") is None and not str(config.getini("pau_model")):
            return  # inactive: a bad pau_* ini value must not break ordinary test runs
        raise pytest.UsageError(str(exc)) from None
    if not settings.active or config.option.help:
        if not config.option.help:
            _note_ungated(config, settings)
        return
    # litellm builds pydantic schemas on its first call, inside the first item: keep its
    # library-internal warnings out of the users' warning summary.
    config.addinivalue_line("filterwarnings", "ignore:.*ReadOnly. qualifier:UserWarning:pydantic")
    state = PauSession(config, settings)
    try:
        instances = state.load_instances()
    except (ConfigError, DatasetError) as exc:
        raise pytest.UsageError(f"--pau-dataset={settings.dataset!r}: {exc}") from None
    if not config.option.collectonly:
        try:
            state.prepare()
        except ConfigError as exc:
            raise pytest.UsageError(str(exc)) from None
    for line in collect.marker_lines(instances):
        config.addinivalue_line("markers", line)
    config.stash[pau_session_key] = state
    config.pluginmanager.register(PauPlugin(state), "pau-session")
    _exit_without_a_final_collection()
    from pytest_pau.llm import limits, pacing

    # --pau-max-connections and the quotas are for the whole run: each xdist worker takes
    # its share (pacing divides the quotas, and what the provider announces, by workers).
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    limits.configure(-(-settings.max_connections // max(1, workers)))
    pacing.configure(settings.max_rpm, settings.max_tpm, workers)


def pytest_unconfigure(config: pytest.Config) -> None:
    # Undo what pytest_configure registered: an in-process run (pytester, an IDE running
    # pytest twice) must not see the previous run's session plugin or state.
    for name in ("pau-session", "pau-ungated"):
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin, name)
    if pau_session_key in config.stash:
        remove_run_dir(config.stash[pau_session_key].run_dir)
        del config.stash[pau_session_key]
        from pytest_pau.llm import limits, pacing

        limits.configure(None)
        pacing.configure(None, None)


@pytest.hookimpl(trylast=True)
def pytest_pau_load_dataset(config: pytest.Config, spec: str, split: str) -> list[Instance]:
    from pytest_pau import load_dataset

    return load_dataset(spec, split, outputs=settings_from_config(config).dataset_outputs)


class PauPlugin:
    """The hooks of an active run (registered by ``pytest_configure``)."""

    def __init__(self, state: PauSession) -> None:
        self.state = state

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
        metafunc.parametrize(collect.ARGNAME, collect.params(self.state.instances))

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
        if s.early_stop:
            # The first results must be a fair sample: a seeded shuffle, never dataset order.
            collect.shuffle_items(items, s.seed)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.state.count_selected([item.nodeid for item in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.state.count_selected(list(ids))

    # -- running ------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        # The items are final now: start their episodes ahead of pytest (threads, at most
        # --pau-concurrency at once). Not on the xdist controller: it runs no item.
        if not session.config.option.collectonly and not _is_xdist_controller(session.config):
            ahead.start_episodes(self.state, session)
        return (yield)

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

        handle_crash(self.state, crashitem, report)

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
            report.pau_result = result.model_dump_json()
            item.stash[sent_key] = True
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.state.is_worker:
            return
        data = getattr(report, "pau_result", None)
        if data:
            self.state.record(data)
        self.state.ended(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if not self.state.is_worker:
            self.state.ended(report)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        # Each xdist worker learns where the controller's stop request will appear.
        if self.state.stop.path is not None:
            node.workerinput[STOP_FILE_KEY] = str(self.state.stop.path)

    # -- the end ------------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        # tryfirst: before xdist's own hook tears the workers down.
        config = session.config
        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        if interrupted and not self.state.is_worker:
            from pytest_pau.plugin.xdist import drain_results

            self.state.stop.request(f"{INTERRUPT}: Ctrl-C on the controller")
            for data in drain_results(config):
                self.state.record(data)
        ahead.stop_episodes(self.state, interrupted=interrupted)
        if self.state.is_worker or config.option.collectonly:
            return
        from pytest_pau.plugin import outputs

        outputs.finish(self.state, int(exitstatus), interrupted)
        summary = self.state.summary
        if summary is not None and not summary.gates_passed and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        session.exitstatus = gates.exit_status(self.state, int(session.exitstatus))

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        state = self.state
        if not state.selected and not state.results and state.instances:
            s = state.settings
            hint = collect.no_match_hint(config, len(state.instances), s.dataset, s.split)
            terminalreporter.line(hint, yellow=True)
        summary = state.summary
        if summary is None:
            return
        from pytest_pau.plugin import outputs
        from pytest_pau.report.render import gate_failure_line, render

        if summary.counts.items:
            extra: list[str] = []
            for lines in config.hook.pytest_pau_summary_extra(config=config, summary=summary):
                extra.extend(lines or [])
            render(
                summary,
                terminalreporter,
                run=self.state.run_info,
                notes=outputs.notes(self.state),
                extra_lines=extra,
                unicode=_unicode_ok(),
            )
            if self.state.report_written:
                terminalreporter.line(f"PAU report: {self.state.report_written}")
            for line in self.state.outputs:
                terminalreporter.line(line)
        closing = gate_failure_line(summary)
        if closing is not None:
            terminalreporter.line(closing, red=True, bold=True)
        session = config.pluginmanager.get_plugin("session")
        status = int(getattr(session, "exitstatus", 0)) if session is not None else 0
        passed = gates.closing_line(self.state, status)
        if passed is not None:
            terminalreporter.line(passed, green=status == 0, red=status != 0, bold=True)


class _UngatedNote:
    """Says, at the end of a run without a model, that the configured gates were not run."""

    def __init__(self, note: str) -> None:
        self.note = note

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.line(self.note, yellow=True)


def _note_ungated(config: pytest.Config, settings: PauSettings) -> None:
    if hasattr(config, "workerinput"):
        return  # the controller says it once
    from pytest_pau.plugin.outputs import ungated_note

    note = ungated_note(config, settings)
    if note is not None:
        config.pluginmanager.register(_UngatedNote(note), "pau-ungated")


_freeze_registered = False


def _exit_without_a_final_collection() -> None:
    """Skip the interpreter's last garbage collection: 1.2 s at every exit once litellm is in.

    litellm leaves a very large object graph behind, and the collection CPython runs while
    it shuts down walks all of it (measured: a process that imported litellm took 1.17 s to
    exit, 0.04 s with this). ``gc.freeze()`` in an exit handler that runs after ours and
    litellm's (it is registered first) moves every object out of the collector's reach; the
    files and sandboxes are closed by their own exit handlers before it, so nothing waits
    on that collection.
    """
    global _freeze_registered
    if not _freeze_registered:
        import atexit
        import gc

        atexit.register(gc.freeze)
        _freeze_registered = True


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))


def _unicode_ok() -> bool:
    try:
        "█▏".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
