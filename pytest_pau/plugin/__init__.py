"""The pytest plugin (entry point ``pytest11: pau``): whether a run is active, and its set-up.

The hooks of an active run are :class:`~pytest_pau.plugin.hooks.PauPlugin`; the fixtures
are in :mod:`pytest_pau.plugin.fixtures`.

Inactive unless ``--pau-model`` (or ini ``pau_model``) is set: then it loads the
instances, registers their markers, collects one item per instance, evaluates items in
the ``pau_result`` fixture, gathers results (with or without xdist), prints the summary,
applies the release gates and writes the report. The work is delegated to
:mod:`pytest_pau.plugin.begin`, :mod:`pytest_pau.plugin.collect`,
:mod:`pytest_pau.plugin.intake`, :mod:`pytest_pau.plugin.evaluate`, :mod:`pytest_pau.plugin.finish`
and :mod:`pytest_pau.report`; the run itself is a :class:`~pytest_pau.plugin.state.PauRun`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pytest

# First, before the imports below (the plugin's start-up): importing it holds Ctrl-C, so one
# from here until pytest's session begins is one line and exit status 2, not a raw
# KeyboardInterrupt.
from pytest_pau.plugin import startup

# Before anything imports litellm: never fetch the price map from the network.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from pytest_pau.errors import ConfigError, DatasetError
from pytest_pau.plugin import begin, shard
from pytest_pau.plugin.config import register_pytest_options, settings_from_config
from pytest_pau.plugin.hooks import PauPlugin
from pytest_pau.plugin.markers import MarkerNames, declared
from pytest_pau.plugin.state import PauRun, pau_run_key
from pytest_pau.plugin.stop import interrupt_on_signals, remove_run_dir
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau.models import Instance

# The plugin's fixtures (pau_result, pau_sandbox...), and the scripted model server
# fixture (`scripted_llm`) that is offered to every project.
pytest_plugins = ["pytest_pau.plugin.fixtures", "pytest_pau.testing"]

declared_key = pytest.StashKey[set[str]]()


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
    state = PauRun(config, settings)
    try:
        begin.load_instances(state)
    except (ConfigError, DatasetError) as exc:
        raise pytest.UsageError(f"--pau-dataset={settings.dataset!r}: {exc}") from None
    if not config.option.collectonly:
        try:
            begin.prepare(state)
        except ConfigError as exc:
            raise pytest.UsageError(str(exc)) from None
    if settings.shard is not None:
        shard.prepare_shard(state)
    config.stash[pau_run_key] = state
    config.pluginmanager.register(PauPlugin(state), "pau-session")
    # SIGTERM (a CI timeout or cancel) and SIGHUP stop the run as Ctrl-C does: the report
    # is written with what finished, the workers stop (controller and workers alike).
    state.restore_signals = interrupt_on_signals(state.episodes.cancel.set)
    _exit_without_a_final_collection()
    from pytest_pau.llm import limits, pacing

    # --pau-max-connections and the quotas are for the whole run: each xdist worker (of
    # every --tx host) takes its share, and so does each --pau-shard shard (pacing divides
    # the quotas, and what the provider announces, the same way).
    # The worker count from xdist's own handshake, not PYTEST_XDIST_WORKER_COUNT: that
    # variable is also inherited by a pytest run inside a worker that is no worker itself.
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput.get("workercount", 1) or 1) if workerinput is not None else 1
    shards = settings.shard_part[1] if settings.shard_part else 1
    limits.configure(-(-settings.max_connections // max(1, workers * shards)))
    pacing.configure(settings.max_rpm, settings.max_tpm, max(1, workers * shards))


@pytest.hookimpl(tryfirst=True, specname="pytest_configure")
def pytest_configure_started(config: pytest.Config) -> None:
    # pytest's session has begun: it handles Ctrl-C from here (exit status 2).
    startup.release()


@pytest.hookimpl(tryfirst=True, specname="pytest_configure")
def pytest_configure_declared_markers(config: pytest.Config) -> None:
    # Before any other plugin registers its markers: what is declared now is the user's
    # ini file (labels the user owns); everything registered later has a meaning elsewhere.
    config.stash[declared_key] = declared(config.getini("markers"))


@pytest.hookimpl(trylast=True, specname="pytest_configure")
def pytest_configure_markers(config: pytest.Config) -> None:
    # After every plugin's and conftest's pytest_configure: their markers are known, and no
    # dataset label may take one of their names (plugin/markers.py).
    state = config.stash.get(pau_run_key, None)
    if state is None:
        return
    state.marker_names = MarkerNames.for_config(config, config.stash.get(declared_key, set()))
    for line in state.marker_names.lines(state.instances):
        config.addinivalue_line("markers", line)


def pytest_unconfigure(config: pytest.Config) -> None:
    # Undo what pytest_configure registered: an in-process run (pytester, an IDE running
    # pytest twice) must not see the previous run's session plugin or state.
    for name in ("pau-session", "pau-ungated"):
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin, name)
    if pau_run_key in config.stash:
        config.stash[pau_run_key].restore_signals()
        remove_run_dir(config.stash[pau_run_key].run_dir)
        del config.stash[pau_run_key]
        from pytest_pau.llm import limits, pacing

        limits.configure(None)
        pacing.configure(None, None)


@pytest.hookimpl(trylast=True)
def pytest_pau_load_dataset(config: pytest.Config, spec: str, split: str) -> list[Instance]:
    # The dataset layer's load: begin.load_instances checks what every hook returned
    # against the run's sandbox backend, so not here a second time.
    from pytest_pau.dataset import load_dataset
    from pytest_pau.sandbox.batch import output_runner

    s = settings_from_config(config)
    return load_dataset(
        spec, split, outputs=s.dataset_outputs, runner=output_runner(), protocol=s.protocol
    )


class _UngatedNote:
    """Says, at the end of a run without a model, that the configured gates were not run."""

    def __init__(self, note: str) -> None:
        self.note = note

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.line(self.note, yellow=True)


def _note_ungated(config: pytest.Config, settings: PauSettings) -> None:
    if hasattr(config, "workerinput"):
        return  # the controller says it once
    from pytest_pau.plugin.finish import ungated_note

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
