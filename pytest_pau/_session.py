"""The state of one pytest-pau run, kept in ``config.stash`` (never on ``config``).

One :class:`PauSession` per process. On an xdist worker it evaluates items; on the
controller (or a run without xdist, where one process is both) it gathers item results
from test reports, builds the summary, decides the gates and writes the report. Results
travel from workers as the ``pau_result`` attribute of a ``TestReport`` (a JSON string,
which pytest's report serialization carries), so gathering is the same with or without
``-n``.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau._version import __version__
from pytest_pau.errors import ConfigError, PauError
from pytest_pau.models import Instance, InstanceResult, Report, RunInfo, Summary
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau.dataset import DatasetInfo
    from pytest_pau.llm import Budget
    from pytest_pau.scoring import Evaluator

pau_session_key = pytest.StashKey["PauSession"]()
result_key = pytest.StashKey[InstanceResult]()
sent_key = pytest.StashKey[bool]()


def default_cache_dir(config: pytest.Config) -> Path:
    """``.pau_cache`` beside pytest's own cache folder (the rootdir unless ``cache_dir`` moves it)."""
    try:
        pytest_cache = Path(str(config.getini("cache_dir")))
    except ValueError:  # -p no:cacheprovider removes the ini key
        return config.rootpath / ".pau_cache"
    if not pytest_cache.is_absolute():
        pytest_cache = config.rootpath / pytest_cache
    return pytest_cache.parent / ".pau_cache"


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class PauSession:
    """Settings, instances, the lazily built Evaluator and the gathered results of a run."""

    def __init__(self, config: pytest.Config, settings: PauSettings) -> None:
        self.config = config
        if settings.cache_dir is None:
            settings = settings.model_copy(update={"cache_dir": default_cache_dir(config)})
        self.settings = settings
        self.is_worker = hasattr(config, "workerinput")
        self.instances: list[Instance] = []
        self.dataset_info: DatasetInfo | None = None
        """How the dataset's outputs were read (None when a conftest hook built the list)."""
        self.order: dict[str, int] = {}
        self.results: dict[str, InstanceResult] = {}
        """Controller: results gathered from reports, by instance id."""
        self.selected = 0
        self.started = now_utc()
        self.t0 = time.perf_counter()
        self.summary: Summary | None = None
        self.run_info: RunInfo | None = None
        self.report_written: Path | None = None
        self.report_error: str | None = None
        """Why the ``--pau-report`` file could not be written, when it could not."""
        self.interrupted = False
        """The run really stopped early (Ctrl-C, ``-x``/``--maxfail``, ``session.shouldstop``)."""
        self.outputs: list[str] = []
        self.endpoint_notes: list[str] = []
        """Models behind an ``api_base`` their server does not identify (cached by alias)."""
        self.cache_warning: str | None = None
        """Why the model cache was set aside at the start, when it was."""
        self._evaluator: Evaluator | None = None
        self._memo: dict[str, InstanceResult] = {}

    # -- instances ----------------------------------------------------------------------

    def load_instances(self) -> list[Instance]:
        """Ask ``pytest_pau_load_dataset`` implementations (ours runs last) for the instances."""
        s = self.settings
        instances = self.config.hook.pytest_pau_load_dataset(
            config=self.config, spec=s.dataset, split=s.split
        )
        if instances is None:
            raise ConfigError(f"no loader returned instances for --pau-dataset={s.dataset!r}")
        seen: set[str] = set()
        for inst in instances:
            if not isinstance(inst, Instance):
                raise ConfigError(
                    f"pytest_pau_load_dataset returned {type(inst).__name__!r} items; "
                    "expected pytest_pau.Instance objects"
                )
            if inst.id in seen:
                raise ConfigError(f"--pau-dataset={s.dataset!r}: duplicate instance id {inst.id!r}")
            seen.add(inst.id)
        # How the outputs were read; a conftest hook's plain list has no .info.
        self.dataset_info = getattr(instances, "info", None)
        self.instances = list(instances)
        self.order = {inst.id: i for i, inst in enumerate(self.instances)}
        return self.instances

    def prepare_cache(self) -> None:
        """Create the model cache before any worker starts (controller or single process).

        Two xdist workers creating a fresh SQLite file at the same moment can collide on
        switching it to WAL mode ("database is locked"); once the file exists in WAL mode,
        workers only open it. Also makes a broken ``--pau-cache-dir`` (or an unwritable
        ``--pau-report`` location) fail before any item, and sets a damaged cache file
        aside (``verify_cache``) while no worker has it open.
        """
        if self.is_worker:
            return
        self.check_report_path()
        if self.settings.no_cache or self.settings.cache_dir is None:
            return
        from pytest_pau.errors import CacheError, CacheWarning
        from pytest_pau.llm.cache_check import verify_cache

        try:
            # Header, schema, quick_check, a write; sets a damaged file aside (no worker
            # has it open yet). Its warning is shown in the summary's notes.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", CacheWarning)
                check = verify_cache(self.settings.cache_dir)
        except CacheError as exc:  # names --pau-cache-dir, the file, the reason, the fix
            raise ConfigError(str(exc)) from None
        except Exception as exc:  # sqlite3 and OS errors: say which option to fix
            raise ConfigError(
                f"--pau-cache-dir={str(self.settings.cache_dir)!r}: cannot create the model "
                f"cache there ({exc}); pick a writable folder or pass --pau-no-cache"
            ) from None
        if check.warning is not None:
            self.cache_warning = check.warning
            _warn(check.warning, CacheWarning)
        from pytest_pau._preflight import endpoint_notes

        self.endpoint_notes = endpoint_notes(self.settings)

    def check_report_path(self) -> None:
        """Fail before any item when the ``--pau-report`` file could never be written.

        Creates nothing: walks up to the nearest existing folder and checks that it is a
        writable folder (``write_report`` creates the missing ones), and that the report
        path itself is not a folder.

        Raises:
            ConfigError: naming ``--pau-report``, the path and the problem.
        """
        if self.settings.report is None:
            return
        target = self.resolve(self.settings.report.expanduser())
        problem = None
        if target.is_dir():
            problem = "it is a folder"
        else:
            ancestor = target.parent
            while not ancestor.exists() and ancestor != ancestor.parent:
                ancestor = ancestor.parent
            if not ancestor.is_dir():
                problem = f"{str(ancestor)!r} is not a folder"
            elif not os.access(ancestor, os.W_OK | os.X_OK):
                problem = f"folder {str(ancestor)!r} is not writable"
        if problem is not None:
            raise ConfigError(
                f"--pau-report={str(self.settings.report)!r}: cannot write the report there "
                f"({problem}); pick a writable path"
            )

    # -- evaluation (workers, or the single process) ------------------------------------------

    def budget(self) -> Budget | None:
        """The run's budget: under xdist, one ledger file shared by all workers.

        Every worker charges the same file (named after xdist's test-run id) under a file
        lock, so ``--pau-max-cost-usd`` caps the whole run, not a share per worker. None
        without a cap or without workers (the Evaluator then makes a process-local one).
        """
        s = self.settings
        workerinput = getattr(self.config, "workerinput", None)
        if s.max_cost_usd is None or workerinput is None:
            return None
        from pytest_pau.llm import Budget

        base = s.cache_dir if s.cache_dir is not None else Path(tempfile.gettempdir())
        ledger = Path(base) / "budget" / f"run-{workerinput['testrunuid']}.usd"
        return Budget(s.max_cost_usd, ledger=ledger)

    @property
    def evaluator(self) -> Evaluator:
        """The process's Evaluator, built on first use with the agent from the hook."""
        if self._evaluator is None:
            from pytest_pau.agent import PSEUDO_MODELS
            from pytest_pau.scoring import Evaluator

            config = self.config

            def classify(**kw: Any) -> str | None:
                label: str | None = config.hook.pytest_pau_classify_failure(config=config, **kw)
                return label

            s = self.settings
            evaluator = Evaluator(s, budget=self.budget(), classify_hook=classify)
            client = None
            if s.model not in PSEUDO_MODELS:
                try:
                    client = evaluator.client(s.model or "", s.api_base)
                except PauError:
                    client = None  # a custom agent may use a name litellm does not know
            agent = config.hook.pytest_pau_make_agent(config=config, settings=s, client=client)
            if agent is not None:
                if not callable(getattr(agent, "run", None)):
                    raise ConfigError(
                        f"pytest_pau_make_agent returned {agent!r}, which has no "
                        "run(instance, sandbox) method"
                    )
                evaluator.agent = agent
            self._evaluator = evaluator
        return self._evaluator

    def evaluate(
        self, instance: Instance, progress: Callable[[str], None] | None
    ) -> InstanceResult:
        """Evaluate once per process and instance (several tests may share one instance)."""
        if instance.id not in self._memo:
            self._memo[instance.id] = self.evaluator.evaluate(instance, progress=progress)
        return self._memo[instance.id]

    # -- gathering (the controller, or the single process) ---------------------------------

    def record(self, data: str) -> None:
        """Take one item's result from its report."""
        result = InstanceResult.model_validate_json(data)
        self.results[result.id] = result

    def count_selected(self, ids: list[str]) -> None:
        """Number of distinct instances among selected item ids (``...[<instance id>]``)."""
        found = set()
        for nodeid in ids:
            if nodeid.endswith("]") and "[" in nodeid:
                param = nodeid[nodeid.index("[") + 1 : -1]
                if param in self.order:
                    found.add(param)
        self.selected = len(found)

    def ordered_results(self) -> list[InstanceResult]:
        return sorted(
            self.results.values(), key=lambda r: (self.order.get(r.id, len(self.order)), r.id)
        )

    def build_run_info(self, interrupted: bool) -> RunInfo:
        s = self.settings
        from pytest_pau.prompting import PROMPTS_VERSION

        return RunInfo(
            plugin_version=__version__,
            model=s.model or "",
            judge_model=s.judge_model,
            coder_model=s.coder_model,
            dataset=s.dataset,
            split=s.split,
            mode=s.mode,
            seed=s.seed,
            max_iterations=s.max_iterations,
            prompts_version=PROMPTS_VERSION,
            dataset_outputs=self.dataset_info.outputs if self.dataset_info else None,
            dataset_outputs_by=self.dataset_info.outputs_by if self.dataset_info else None,
            thresholds=s.thresholds(),
            started=self.started,
            finished=now_utc(),
            python=sys.version.split()[0],
            host=platform.node(),
            interrupted=interrupted,
        )

    def notes(self) -> list[str]:
        out = []
        for role, model, option in self.settings.low_fidelity_roles():
            out.append(
                f"the {role} is the embedded {model!r} model, so these scores are low fidelity; "
                f"set a stronger one with {option}=MODEL (e.g. {option}=gpt-5-mini)"
            )
        counts = self.summary.counts if self.summary else None
        if counts and counts.selected > counts.items:
            missing = counts.selected - counts.items
            if self.interrupted:
                out.append(
                    "the run stopped early: re-run it; finished items come from the model cache"
                )
            else:
                out.append(
                    f"{missing} selected item{'s' if missing != 1 else ''} produced no PAU "
                    "result (skipped or errored before evaluation: see the test outcomes above)"
                )
        if self.report_error is not None:
            out.append(self.report_error)
        if self.cache_warning is not None:
            out.append(self.cache_warning)
        out.extend(self.endpoint_notes)
        other = sum(r.cache_hits_other_version for r in self.results.values())
        if other:
            out.append(
                f"{other} cached answer{'s' if other != 1 else ''} came from another pytest-pau "
                "or prompts version than this run's (correct: answers are keyed by their "
                "content); --pau-no-cache asks the models again"
            )
        return out

    def _stopped_early(self, interrupted: bool) -> bool:
        """Ctrl-C (``interrupted``), or pytest was told to stop (``-x``, ``--maxfail``...)."""
        if interrupted:
            return True
        session = self.config.pluginmanager.get_plugin("session")
        return bool(
            session is not None
            and (getattr(session, "shouldstop", False) or getattr(session, "shouldfail", False))
        )

    def finish(self, exitstatus: int, interrupted: bool) -> None:
        """Summary, gates, report files. Called once, on the controller."""
        # Imported here: numpy is not worth loading in runs that never get this far.
        from pytest_pau.report.summary import Gates, build_summary

        s = self.settings
        results = self.ordered_results()
        gates = Gates(s.min_mean_judge, s.min_pass_rate, s.min_mean_match, on_ci=s.gate_on_ci)
        self.summary = build_summary(
            results,
            gates=gates,
            wall_s=time.perf_counter() - self.t0,
            selected=max(self.selected, len(results)),
        )
        self.interrupted = self._stopped_early(interrupted)
        self.run_info = self.build_run_info(self.interrupted)
        report = Report(run=self.run_info, instances=results, summary=self.summary)
        if s.report is not None:
            from pytest_pau.report.json_report import write_report

            try:
                self.report_written = write_report(self.resolve(s.report), report)
            except OSError as exc:
                # Keep going: the summary, the gates and the other outputs still matter.
                self.report_error = (
                    f"--pau-report={str(s.report)!r}: could not write the JSON report ({exc})"
                )
                _warn(self.report_error)
                self._fail_session()
        self._write_extras(report)

    def _fail_session(self) -> None:
        """Make the exit status non-zero (a requested output is missing), unless it already is."""
        session = self.config.pluginmanager.get_plugin("session")
        if session is not None and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def resolve(self, path: Path) -> Path:
        """Relative output paths are taken from the invocation folder, as pytest does."""
        return path if path.is_absolute() else Path(self.config.invocation_params.dir) / path

    def _write_extras(self, report: Report) -> None:
        s = self.settings
        if s.html is not None:
            try:
                from pytest_pau.report.html import write_html

                self.outputs.append(f"HTML report: {write_html(report, self.resolve(s.html))}")
            except (ImportError, PauError, OSError) as exc:
                warnings.warn(f"--pau-html: could not write {str(s.html)!r}: {exc}", stacklevel=1)
        if s.plots is not None:
            try:
                from pytest_pau.report.plots import write_plots

                paths = write_plots([report], self.resolve(s.plots))
                self.outputs.append(f"plots: {len(paths)} PNG files in {self.resolve(s.plots)}")
            except (ImportError, PauError, OSError) as exc:
                warnings.warn(
                    f"--pau-plots: could not write plots to {str(s.plots)!r}: {exc}; "
                    "install the plots extra: pip install 'pytest-pau[plots]'",
                    stacklevel=1,
                )


def _warn(message: str, category: type[Warning] = UserWarning) -> None:
    """A warning in pytest's summary; never an exception (``-W error``) at session end."""
    try:
        warnings.warn(message, category, stacklevel=2)
    except Warning:
        print(f"warning: {message}", file=sys.stderr)
