"""The instances a pytest command line selects: pytest's own collection, run in-process.

``pau train [options] -- [pytest args]`` trains on exactly what
``pytest --pau-model=oracle --collect-only -q [pytest args]`` lists, in that order: the
project's ini file and conftest hooks (``pytest_pau_load_dataset``...), ``-k``, ``-m``,
``--pau-limit``, ``--lf``/``--ff`` (pytest's cache of the last benchmark run) and every
``pau_*`` ini key. Nothing is re-implemented: :func:`collect_selection` runs
``pytest.main`` with ``--collect-only`` and a small plugin that records the selected items
and the settings the plugin resolved. No item runs, no model is called.
"""

from __future__ import annotations

import contextlib
import io
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_pau.errors import ConfigError
from pytest_pau.models import Instance
from pytest_pau.plugin.collect import instance_of
from pytest_pau.plugin.config import settings_from_config
from pytest_pau.plugin.state import pau_run_key
from pytest_pau.settings import PauSettings
from pytest_pau.settings.options import ALL_OPTIONS

#: What the collection runs as when neither ``--pau-model`` nor ini ``pau_model`` is given:
#: the option only switches the plugin's collection on; nothing calls a model.
COLLECTION_MODEL = "oracle"
#: The settings an episode reads (``pau train --dry-run`` prints them).
EPISODE_FIELDS = (
    "dataset", "split", "dataset_outputs", "limit", "mode", "max_iterations", "seed",
    "sandbox", "cache_dir", "no_cache",
)  # fmt: skip
#: The settings of ``--eval-every`` (the benchmark's judge, coder and pass rule).
EVAL_FIELDS = (
    "judge_model", "judge_api_base", "coder_model", "coder_api_base", "judge_samples",
    "judge_threshold", "match_threshold",
)  # fmt: skip
_ERROR_LINES = 40
_FLAGS = {spec.field: spec.flag for spec in ALL_OPTIONS}


@dataclass(frozen=True)
class Selection:
    """What one pytest command line selected, and the settings it resolved."""

    instances: list[Instance]
    """The selected instances, each once, in pytest's item order."""
    settings: PauSettings
    """The plugin's resolved settings (command line, ini, defaults; ``cache_dir`` resolved)."""
    pytest_args: tuple[str, ...]
    """The user's pytest arguments (without the ones :func:`collect_selection` adds)."""
    rootdir: Path
    inifile: Path | None
    items: int
    """Selected PAU items (more than instances when several tests take one instance)."""
    given: frozenset[str] = frozenset()
    """The settings the pytest arguments or the ini file set (the others are defaults)."""
    model_added: bool = False
    """Whether ``--pau-model=oracle`` was supplied for the collection."""
    other_items: int = 0
    """Selected items that are not PAU items (ordinary tests; never trained on)."""

    @property
    def ids(self) -> list[str]:
        """``<source>/<id>`` of every selected instance, in order."""
        return [i.id for i in self.instances]

    def describe(self, settings: PauSettings | None = None) -> list[str]:
        """The ids, one a line, then ``#`` lines: the command and ``settings`` (default: own)."""
        s = settings if settings is not None else self.settings
        ini = f", ini {self.inifile}" if self.inifile else ""
        lines = [
            *self.ids,
            f"# {len(self.instances)} instance(s), {self.items} item(s) selected by: "
            f"{self.command()}  (rootdir {self.rootdir}{ini})",
        ]
        if self.other_items:
            lines.append(
                f"# {self.other_items} other selected test(s) take no PAU instance: ignored"
            )
        given = ", ".join(sorted(self.given)) or "none"
        return [
            *lines,
            f"# settings: {settings_lines(s, EPISODE_FIELDS)}",
            f"# eval settings: {settings_lines(s, EVAL_FIELDS)}",
            f"# given by the pytest arguments or the ini file: {given}; the rest are defaults",
        ]

    def command(self) -> str:
        """The equivalent pytest command line, for messages and ``--dry-run``."""
        extra = [f"--pau-model={COLLECTION_MODEL}"] if self.model_added else []
        return shlex.join(["pytest", *extra, "--collect-only", "-q", *self.pytest_args])


@dataclass
class _Recorder:
    """The plugin handed to ``pytest.main``: supplies ``--pau-model``, records the selection."""

    model_added: bool = False
    finished: bool = False
    instances: list[Instance] = field(default_factory=list)
    items: int = 0
    other_items: int = 0
    settings: PauSettings | None = None
    given: frozenset[str] = frozenset()
    rootdir: Path | None = None
    inifile: Path | None = None
    collect_errors: list[str] = field(default_factory=list)

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        # Before the pau plugin's own pytest_configure resolves its settings.
        try:
            given = config.getoption("pau_model") is not None or bool(config.getini("pau_model"))
        except ValueError:  # the pau plugin is not loaded (-p no:pau): reported after the run
            return
        if not given:
            config.option.pau_model = COLLECTION_MODEL
            self.model_added = True

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(f"{report.nodeid or '.'}: {report.longreprtext.strip()}")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        config = session.config
        state = config.stash.get(pau_run_key, None)  # cleared at unconfigure: read it now
        self.settings = state.settings if state is not None else None
        if state is not None:
            # Resolving again is pure (options, ini); its fields_set is what was given.
            resolved = settings_from_config(config)
            given = {
                f
                for f in resolved.model_fields_set
                # an unset ini flag reads False, which resolve() counts as given
                if not (_FLAGS.get(f) and getattr(resolved, f) is False)
            }
            self.given = frozenset(given - {"model"} if self.model_added else given)
        self.rootdir, self.inifile = config.rootpath, config.inipath
        seen: dict[str, Instance] = {}
        for item in session.items:
            instance = instance_of(item)
            if instance is None:
                self.other_items += 1
                continue
            self.items += 1
            seen.setdefault(instance.id, instance)
        self.instances = list(seen.values())
        self.finished = True


def collect_selection(pytest_args: Sequence[str]) -> Selection:
    """Run pytest's collection in-process, in the current folder, and return what it selected.

    pytest's own output is captured; it is shown only inside the error when the collection
    fails. Works any number of times in one process (the plugin cleans up at unconfigure,
    and pytest re-imports a rootdir ``conftest.py`` each run).

    Args:
        pytest_args: Arguments as on the ``pytest`` command line (``-m hard -k add --lf``).

    Raises:
        ConfigError: a pytest usage error, collection errors, pytest-pau inactive, or no
            PAU instance selected; the message names the pytest arguments.
    """
    args = tuple(pytest_args)
    recorder = _Recorder()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = pytest.main(["--collect-only", "-q", *args], plugins=[recorder])
        except SystemExit as exc:  # a conftest calling sys.exit() at import
            code = exc.code if isinstance(exc.code, int) else 1
    shown = shlex.join(args) if args else "(none)"
    where = f"pytest arguments after `--`: {shown}"
    again = shlex.join(["pytest", f"--pau-model={COLLECTION_MODEL}", "--collect-only", *args])
    output = out.getvalue()
    if "while loading conftest" in output:  # pytest reports a broken conftest as a usage error
        raise ConfigError(
            f"{where}: pytest could not load a conftest.py:\n{_trim(_tail(output))}\n"
            f"fix it (`{again}` shows the same)"
        )
    if code == pytest.ExitCode.USAGE_ERROR:
        raise ConfigError(
            f"{where}: pytest refused them: {_usage_errors(output)}; fix them (they are "
            f"pytest's: `{again}` must accept them)"
        )
    if recorder.collect_errors or code == pytest.ExitCode.INTERRUPTED:
        details = "\n".join(recorder.collect_errors) or _tail(output)
        raise ConfigError(
            f"{where}: pytest could not collect:\n{_trim(details)}\nfix the errors above "
            f"(`{again}` shows them too)"
        )
    if code == pytest.ExitCode.OK and not recorder.finished:
        raise ConfigError(
            f"{where}: pytest stopped without collecting (an argument such as --help, "
            "--version, --markers or --fixtures does that); leave it out"
        )
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) or not (
        recorder.finished
    ):
        internal = [ln for ln in output.splitlines() if ln.startswith("INTERNALERROR>")]
        cause = internal[-1].removeprefix("INTERNALERROR>").strip() if internal else _tail(output)
        raise ConfigError(
            f"{where}: pytest stopped before selecting instances (exit status {int(code)}): "
            f"{_trim(cause)}\n`{again}` shows the whole error"
        )
    if recorder.settings is None:
        raise ConfigError(
            f"{where}: the pytest-pau plugin is not active in this pytest run (disabled with "
            "-p no:pau, or PYTEST_DISABLE_PLUGIN_AUTOLOAD is set); enable it, e.g. "
            "-p pytest_pau.plugin"
        )
    if not recorder.instances:
        others = (
            f" ({recorder.other_items} other test(s) selected, none takes a PAU instance)"
            if recorder.other_items
            else ""
        )
        raise ConfigError(
            f"{where}: selected no PAU instance in {recorder.rootdir}{others}; loosen -k/-m, "
            f"run the benchmark before --lf, or see what they select: `{again} -q`"
        )
    assert recorder.rootdir is not None
    return Selection(
        instances=recorder.instances,
        settings=recorder.settings,
        pytest_args=args,
        rootdir=recorder.rootdir,
        inifile=recorder.inifile,
        items=recorder.items,
        given=recorder.given,
        model_added=recorder.model_added,
        other_items=recorder.other_items,
    )


def settings_lines(settings: PauSettings, names: Sequence[str]) -> str:
    """``name=value`` pairs of ``names``, as ``--dry-run`` prints them."""
    return " ".join(f"{n}={getattr(settings, n)}" for n in names)


def _usage_errors(output: str) -> str:
    """pytest's own words for a usage error (its argparse message, or a UsageError's)."""
    found = []
    for raw in output.splitlines():
        line = raw.strip()
        if line.startswith("ERROR:") and not line.startswith("ERROR: usage:"):
            found.append(line.removeprefix("ERROR:").strip())
        elif ": error: " in line:  # "pytest.main(): error: unrecognized arguments: --x"
            found.append(line.split(": error: ", 1)[1])
    return "; ".join(found) or _tail(output)


def _tail(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[-_ERROR_LINES:]) or "(pytest printed nothing)"


def _trim(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= _ERROR_LINES:
        return text
    return "\n".join([*lines[:_ERROR_LINES], f"... ({len(lines) - _ERROR_LINES} more lines)"])
