"""The state of one pytest-pau run, kept in ``config.stash`` (never on ``config``).

One :class:`PauSession` per process. On an xdist worker it evaluates items; on the
controller (or a run without xdist, where one process is both) it gathers item results
from test reports, builds the summary, decides the gates and writes the report. Results
travel from workers as the ``pau_result`` attribute of a ``TestReport`` (a JSON string,
which pytest's report serialization carries), so gathering is the same with or without
``-n``.
"""

from __future__ import annotations

import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau._streak import FailureStreak
from pytest_pau.errors import ConfigError, PauError
from pytest_pau.models import Instance, InstanceResult, RunInfo, Summary
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau._episodes import EpisodePool
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
        self.output_errors: list[str] = []
        """Why ``--pau-html`` / ``--pau-plots`` could not be written, when they could not."""
        self.endpoint_notes: list[str] = []
        """Models behind an ``api_base`` their server does not identify (cached by alias)."""
        self.cache_warning: str | None = None
        """Why the model cache was set aside at the start, when it was."""
        self._evaluator: Evaluator | None = None
        self._memo: dict[str, InstanceResult] = {}
        self.cancel = threading.Event()
        """Set on Ctrl-C: no episode and no model request starts any more."""
        self.ahead = 0
        """Results kept from episodes that finished before pytest, which stopped, reached them."""
        self.pool: EpisodePool | None = None
        """Runs upcoming items' episodes ahead of pytest (``--pau-concurrency`` > 1)."""
        self.streak = FailureStreak()
        """Stops starting items after several identical errors that no retry fixes."""
        self.crashes: list[tuple[str, str]] = []
        """Controller: ``(instance id, worker id)`` of items whose xdist worker died."""

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

    def resolve(self, path: Path) -> Path:
        """Relative output paths are taken from the invocation folder, as pytest does."""
        return path if path.is_absolute() else Path(self.config.invocation_params.dir) / path

    def prepare(self) -> None:
        """Checks before any item, on the controller (or the single process)."""
        if self.is_worker:
            return
        from pytest_pau import _preflight
        from pytest_pau._outputs import warn
        from pytest_pau.errors import CacheWarning

        s = self.settings
        junitxml = getattr(self.config.option, "xmlpath", None)
        _preflight.check_outputs(
            _preflight.output_args(s, self.resolve, junitxml=junitxml), _preflight.input_args(s)
        )
        _preflight.check_plots_extra(s)
        custom_agent = bool(self.config.hook.pytest_pau_make_agent.get_hookimpls())
        _preflight.check_credentials(s, custom_agent=custom_agent)
        self.cache_warning = _preflight.prepare_cache(s)
        if self.cache_warning is not None:
            warn(self.cache_warning, CacheWarning)
        self.endpoint_notes = _preflight.endpoint_notes(s)

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
            evaluator = Evaluator(
                s, budget=self.budget(), classify_hook=classify, cancel=self.cancel
            )
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
        """Evaluate once per process and instance (several tests may share one instance).

        With a pool, the episode may have run (or be running) ahead of pytest already.
        """
        if instance.id not in self._memo:
            if self.pool is not None:
                from pytest_pau._episodes import NotStarted

                try:
                    result = self.pool.result(instance, progress)
                except NotStarted as exc:
                    result = self._not_run(instance, str(exc))
            else:
                stop = self._stop_reason()
                if stop is not None:
                    result = self._not_run(instance, stop)
                else:
                    result = self._evaluate(instance, progress)
            self._memo[instance.id] = result
        return self._memo[instance.id]

    def _evaluate(
        self, instance: Instance, progress: Callable[[str], None] | None
    ) -> InstanceResult:
        """One episode, scored, and counted for the streak of unfixable errors."""
        result = self.evaluator.evaluate(instance, progress=progress)
        self.streak.observe(result)
        return result

    def _not_run(self, instance: Instance, reason: str) -> InstanceResult:
        return InstanceResult(
            id=instance.id,
            source=instance.source,
            arity=instance.arity,
            tags=list(instance.tags),
            gold=instance.description,
            skipped=reason,
        )

    def _stop_reason(self) -> str | None:
        """Why no further episode may start (a spent budget, an unfixable error), or None."""
        if self.streak.reason is not None:
            return self.streak.reason
        budget = self.evaluator.budget
        if budget is not None and budget.exhausted:
            return (
                f"budget --pau-max-cost-usd spent (${budget.spent:.4f} of ${budget.max_cost_usd:g})"
            )
        return None

    def start_episodes(self, session: pytest.Session) -> None:
        """Run the episodes of the items pytest will reach next, ahead of it, in threads."""
        n = self.settings.episodes_in_flight()
        if n <= 1:
            return
        from pytest_pau import _collect
        from pytest_pau._episodes import EpisodePool

        if self.is_worker:
            from pytest_pau._xdist import worker_queue

            queued = worker_queue(self.config, session)
            if queued is None:
                _warn_once(
                    "pytest-xdist's worker queue is not readable in this version: each worker "
                    "runs one episode at a time (--pau-concurrency has no effect under -n)"
                )
                return

            def upcoming() -> list[Instance]:
                return [i for item in queued() if (i := _collect.instance_of(item)) is not None]

        else:
            planned = [
                i
                for item in session.items
                if (i := _collect.instance_of(item)) is not None and not _collect.skipped(item)
            ]

            def upcoming() -> list[Instance]:
                return planned

        _ = self.evaluator  # built once, here, in pytest's thread (hooks run there)

        def may_start() -> str | None:
            if session.shouldstop or session.shouldfail:
                return (
                    f"not run: pytest stopped the run ({session.shouldstop or session.shouldfail})"
                )
            return self._stop_reason()

        self.pool = EpisodePool(
            self._evaluate,
            concurrency=n,
            source=upcoming,
            cancel=self.cancel,
            may_start=may_start,
        )

    def stop_episodes(self, *, interrupted: bool) -> None:
        """End the pool; on Ctrl-C cancel what runs. Keeps results pytest never reached."""
        if self.pool is None:
            return
        if interrupted:
            self.pool.cancel()
        else:
            self.pool.close()
        if not self.is_worker:
            for result in self.pool.unreported():
                if result.id not in self.results:
                    self.results[result.id] = result
                    self.ahead += 1

    # -- gathering (the controller, or the single process) ---------------------------------

    def record(self, data: str) -> None:
        """Take one item's result from its report."""
        result = InstanceResult.model_validate_json(data)
        self.results[result.id] = result

    def instance_of_nodeid(self, nodeid: str) -> Instance | None:
        """The instance a PAU item id (``...[<instance id>]``) runs, or None for other tests."""
        if not (nodeid.endswith("]") and "[" in nodeid):
            return None
        index = self.order.get(nodeid[nodeid.index("[") + 1 : -1])
        return None if index is None else self.instances[index]

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


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, stacklevel=2)
