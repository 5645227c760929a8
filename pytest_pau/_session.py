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
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau._gates import STOP_FILE_KEY, RunStop
from pytest_pau._streak import FailureStreak
from pytest_pau.errors import ConfigError, PauError
from pytest_pau.models import Instance, InstanceResult, RunInfo, Summary
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau._episodes import EpisodePool
    from pytest_pau.dataset import DatasetInfo
    from pytest_pau.llm import Budget
    from pytest_pau.report.compare_io import ScoresReport
    from pytest_pau.report.early_stop import EarlyStopTracker
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
        self.selected_ids: list[str] = []
        """Controller: the selected instances, in the order their items run."""
        self.blocking: list[str] = []
        """Controller: node ids of failed reports that fail a gated run (not a model below
        its thresholds: errors, other tests, collection errors)."""
        self.baseline: ScoresReport | None = None
        """``--pau-baseline``, read before any item."""
        self.early: EarlyStopTracker | None = None
        """``--pau-early-stop``: the gates' confidence sequences (controller)."""
        self._gate_lock = threading.Lock()
        """Serialises :meth:`feed_gates` (episode threads and pytest's thread)."""
        self.run_dir: Path | None = None
        """Controller: the run's private folder (the stop file for xdist workers)."""
        workerinput = getattr(config, "workerinput", None) or {}
        stop_file = workerinput.get(STOP_FILE_KEY)
        self.stop = RunStop(Path(stop_file) if stop_file else None)
        """A stop request every process sees (early stop, Ctrl-C on the controller)."""
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
        self.baseline = _preflight.read_baseline(self)
        from pytest_pau._gates import make_run_dir

        self.run_dir = make_run_dir()
        self.stop = RunStop(self.run_dir / "stop")

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
                stop = self.stop_reason()
                if stop is not None:
                    result = self._not_run(instance, stop)
                else:
                    result = self.evaluate_one(instance, progress)
            self._memo[instance.id] = result
        return self._memo[instance.id]

    def evaluate_one(
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

    def stop_reason(self) -> str | None:
        """Why no further episode may start (a decided gate, Ctrl-C, an unfixable error,
        a spent budget), or None."""
        stop = self.stop.reason()
        if stop is not None:
            return f"not run: {stop}"
        if self.streak.reason is not None:
            return self.streak.reason
        budget = self.evaluator.budget
        if budget is not None and budget.exhausted:
            return (
                f"budget --pau-max-cost-usd spent (${budget.spent:.4f} of ${budget.max_cost_usd:g})"
            )
        return None

    # -- gathering (the controller, or the single process) ---------------------------------

    def record(self, data: str) -> None:
        """Take one item's result from its report."""
        result = InstanceResult.model_validate_json(data)
        self.results[result.id] = result
        self.feed_gates(result.id, result)

    def ended(self, report: pytest.TestReport | pytest.CollectReport) -> None:
        """Every report on the controller: what fails a gated run; items without a result."""
        from pytest_pau._gates import blocks

        if blocks(report):
            self.blocking.append(report.nodeid)
        if self.early is not None and getattr(report, "when", None) == "teardown":
            instance_id = self.instance_id(report.nodeid)
            if instance_id is not None and instance_id not in self.results:
                self.feed_gates(instance_id, None)  # skipped by a mark, or errored before

    def feed_gates(self, instance_id: str, result: InstanceResult | None) -> None:
        """One result for the early stop (or None: the item has none). Called from pytest's
        thread and, in one process, from the episode threads: serialised here."""
        if self.early is None:
            return
        with self._gate_lock:
            decided = self.early.add(instance_id, result)
        if decided:
            n, total = self.early.decided_after, len(self.early.order)
            self.stop.request(
                f"--pau-early-stop: every gate was decided after {n} of {total} items"
            )

    def instance_id(self, nodeid: str) -> str | None:
        """The instance of a PAU item id (``...[<instance id>]``), or None."""
        if nodeid.endswith("]") and "[" in nodeid:
            param = nodeid[nodeid.index("[") + 1 : -1]
            if param in self.order:
                return param
        return None

    def instance_of_nodeid(self, nodeid: str) -> Instance | None:
        """The instance a PAU item id (``...[<instance id>]``) runs, or None for other tests."""
        if not (nodeid.endswith("]") and "[" in nodeid):
            return None
        index = self.order.get(nodeid[nodeid.index("[") + 1 : -1])
        return None if index is None else self.instances[index]

    def count_selected(self, ids: list[str]) -> None:
        """The distinct instances among the selected item ids, in the order they run."""
        found = [i for nodeid in ids if (i := self.instance_id(nodeid)) is not None]
        self.selected_ids = list(dict.fromkeys(found))
        self.selected = len(self.selected_ids)
        s = self.settings
        if s.early_stop and self.early is None and not self.is_worker:
            from pytest_pau.report.early_stop import EarlyStopTracker
            from pytest_pau.report.gates import Gates

            levels = Gates(s.min_mean_judge, s.min_pass_rate, s.min_mean_match).levels()
            self.early = EarlyStopTracker(
                self.selected_ids,
                levels=levels,
                margins=s.regression_margins(),
                baseline={r.id: r for r in self.baseline.instances} if self.baseline else None,
                confidence=s.gate_confidence,
            )

    def ordered_results(self) -> list[InstanceResult]:
        return sorted(
            self.results.values(), key=lambda r: (self.order.get(r.id, len(self.order)), r.id)
        )
