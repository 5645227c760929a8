"""The running side of a pytest-pau run: what a :class:`RunState` does.

One :class:`PauSession` per process. On an xdist worker it evaluates items; on the
controller (or a run without xdist, where one process is both) it gathers item results
from test reports, feeds the early stop, and checks the run before any item. Results
travel from workers as the ``pau_result`` attribute of a ``TestReport`` (a JSON string,
which pytest's report serialization carries), so gathering is the same with or without
``-n``. The data lives in :class:`~pytest_pau.plugin.state.RunState`; the stages below this
module take that and never import the session.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau.errors import ConfigError, PauError
from pytest_pau.models import Instance, InstanceResult
from pytest_pau.plugin.state import RunState
from pytest_pau.plugin.stop import RunStop, make_run_dir

if TYPE_CHECKING:
    from pytest_pau.llm import Budget
    from pytest_pau.scoring import Evaluator

pau_session_key = pytest.StashKey["PauSession"]()


class PauSession(RunState):
    """Settings, instances, the lazily built Evaluator and the gathered results of a run."""

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
        if self.dataset_info is None or not self.dataset_info.checked:
            from pytest_pau.sandbox.runnable import check_instances

            check_instances(instances, what=s.dataset, backend=s.sandbox)
        self.instances = list(instances)
        self.order = {inst.id: i for i, inst in enumerate(self.instances)}
        return self.instances

    def prepare(self) -> None:
        """Checks before any item, on the controller (or the single process)."""
        if self.is_worker:
            return
        from pytest_pau.errors import CacheWarning
        from pytest_pau.plugin import preflight
        from pytest_pau.plugin.outputs import warn
        from pytest_pau.settings.env import check_env

        s = self.settings
        check_env()
        preflight.check_concurrency(s)
        junitxml = getattr(self.config.option, "xmlpath", None)
        inifile = self.config.inipath
        preflight.check_outputs(
            preflight.output_args(s, self.resolve, junitxml=junitxml),
            preflight.input_args(
                s, self.resolve, inifile=None if inifile is None else Path(inifile).resolve()
            ),
        )
        preflight.check_plots_extra(s)
        custom_agent = bool(self.config.hook.pytest_pau_make_agent.get_hookimpls())
        preflight.check_credentials(s, custom_agent=custom_agent)
        self.cache_warning = preflight.prepare_cache(s)
        if self.cache_warning is not None:
            warn(self.cache_warning, CacheWarning)
        self.endpoint_notes = preflight.endpoint_notes(s)
        self.baseline = preflight.read_baseline(self)
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
                from pytest_pau.plugin.episodes import NotStarted

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
        from pytest_pau.plugin.gates import blocks

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

    def count_selected(self, ids: list[str]) -> None:
        """The distinct instances among the selected item ids, in the order they run."""
        found = [i for nodeid in ids if (i := self.instance_id(nodeid)) is not None]
        self.selected_ids = list(dict.fromkeys(found))
        self.selected = len(self.selected_ids)
        s = self.settings
        if s.early_stop and self.early is None and not self.is_worker:
            from pytest_pau.stats.early_stop import EarlyStopTracker
            from pytest_pau.stats.gates import Gates

            levels = Gates(s.min_mean_judge, s.min_pass_rate, s.min_mean_match).levels()
            self.early = EarlyStopTracker(
                self.selected_ids,
                levels=levels,
                margins=s.regression_margins(),
                baseline={r.id: r for r in self.baseline.instances} if self.baseline else None,
                confidence=s.gate_confidence,
            )
