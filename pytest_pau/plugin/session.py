"""The running side of a pytest-pau run: what a :class:`RunState` does.

One :class:`PauSession` per process. On an xdist worker it evaluates items; on the
controller (or a run without xdist, where one process is both) it gathers item results
and checks the run before any item. Every result enters the run through
:meth:`PauSession.take` (a scored or skipped item's, an episode's that finished ahead of
pytest, a crashed worker's), which feeds the early stop once per item. Results travel from
workers as the ``pau_result`` attribute of a ``TestReport`` (a JSON string, which pytest's
report serialization carries; :meth:`PauSession.record` reads it), so gathering is the
same with or without ``-n``. The data lives in :class:`~pytest_pau.plugin.state.RunState`; the stages below this
module take that and never import the session.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import ValidationError

from pytest_pau.errors import ConfigError, PauError
from pytest_pau.llm.budget import WAIT, Wait
from pytest_pau.models import Instance, InstanceResult, Skip, SkipCause
from pytest_pau.plugin.state import RunState
from pytest_pau.plugin.stop import RunStop, make_run_dir

#: ``workerinput`` key of the budget ledger's path (in the controller's cache folder).
LEDGER_KEY = "pau_budget_ledger"

if TYPE_CHECKING:
    from pytest_pau.llm import Budget
    from pytest_pau.scoring import Evaluator
    from pytest_pau.settings import PauSettings

pau_session_key = pytest.StashKey["PauSession"]()


def check_remote_budget(config: pytest.Config, settings: PauSettings) -> None:
    """Refuse ``--pau-max-cost-usd`` with xdist workers on other hosts (``--tx ssh=...``).

    Each host would keep its own ledger, so together they could spend the cap once per
    host; a cap that is silently multiplied is no cap.

    Raises:
        ConfigError: naming the remote ``--tx`` and the ways out.
    """
    if settings.max_cost_usd is None:
        return
    from pytest_pau.plugin.xdist import remote_gateways

    remote = remote_gateways(config)
    if remote:
        raise ConfigError(
            f"--pau-max-cost-usd={settings.max_cost_usd:g} cannot be kept across hosts: "
            f"--tx {remote[0]} starts workers on another machine, which cannot see this "
            "one's ledger, so each host would spend up to the whole cap. Run one pytest per "
            "host with --pau-shard=K/N instead (each shard gets 1/N of the cap) and join "
            "their --pau-report files with `pau merge`, or run without --pau-max-cost-usd"
        )


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
        from pytest_pau.files.guard import check_outputs
        from pytest_pau.plugin import preflight
        from pytest_pau.plugin.notices import warn
        from pytest_pau.settings.env_vars import check_env

        s = self.settings
        check_env()
        preflight.check_concurrency(s)
        junitxml = getattr(self.config.option, "xmlpath", None)
        inifile = self.config.inipath
        check_outputs(
            preflight.output_args(s, self.resolve, junitxml=junitxml),
            preflight.input_args(
                s, self.resolve, inifile=None if inifile is None else Path(inifile).resolve()
            ),
        )
        preflight.check_plots_extra(s)
        check_remote_budget(self.config, s)
        custom_agent = bool(self.config.hook.pytest_pau_make_agent.get_hookimpls())
        preflight.check_paper_roles(s)
        preflight.check_self_coder(s)
        preflight.check_credentials(s, custom_agent=custom_agent)
        self.cache_warning = preflight.prepare_cache(s)
        if self.cache_warning is not None:
            warn(self.cache_warning, CacheWarning)
        self.endpoint_notes = preflight.endpoint_notes(s)
        self.baseline = preflight.read_baseline(self)
        self.run_dir = make_run_dir()
        self.stop = RunStop(self.run_dir / "stop")

    def worker_input(self, run_id: str | None) -> dict[str, Any]:
        """What the controller hands an xdist worker: the stop file, the ledger, the cache's
        finished items for ``--pau-shard``."""
        from pytest_pau.plugin.shard import CACHED_KEY
        from pytest_pau.plugin.stop import STOP_FILE_KEY

        out: dict[str, Any] = {}
        if self.stop.path is not None:
            out[STOP_FILE_KEY] = str(self.stop.path)
        if run_id:
            out[LEDGER_KEY] = str(self.ledger_path(str(run_id)))
        if self.settings.shard is not None:
            out[CACHED_KEY] = list(self.shard.cached)
        return out

    def ledger_path(self, run_id: str) -> Path:
        """The budget ledger the controller hands its workers: one file per run, named after
        xdist's test-run id, in the controller's cache folder (an absolute path, so workers
        started in other folders of this machine, ``--tx popen//chdir=...``, share it)."""
        s = self.settings
        base = Path(s.cache_dir) if s.cache_dir is not None else Path(tempfile.gettempdir())
        return self.resolve(base.expanduser()).absolute() / "budget" / f"run-{run_id}.usd"

    # -- evaluation (workers, or the single process) ------------------------------------------

    def budget(self) -> Budget | None:
        """The run's budget, made once: one ledger shared by every process of the run on
        this machine.

        Under xdist every worker charges the same file under a file lock, so
        ``--pau-max-cost-usd`` caps the whole run, not a share per worker; its reservations
        and running items are shared too (``llm/budget.py``). The controller names the file
        (:meth:`ledger_path`) and hands it to every worker it starts, in whatever folder of
        this machine; workers on other hosts are refused up front
        (:func:`check_remote_budget`). A shard (``--pau-shard=K/N``) gets ``1/N`` of the
        cap: shards share no ledger. None without a cap.
        """
        s = self.settings
        cap = s.budget_share()
        if cap is None:
            return None
        if self.episodes.budget is None:
            from pytest_pau.llm import Budget

            part = s.shard_part
            name = None
            if part is not None:
                name = (
                    f"shard {part[0]}/{part[1]}'s share ${cap:g} of "
                    f"--pau-max-cost-usd={s.max_cost_usd:g}"
                )
            workerinput = getattr(self.config, "workerinput", None)
            ledger = None
            if workerinput is not None:
                ledger = workerinput.get(LEDGER_KEY)
                if ledger is None:  # a controller of another pytest-pau version
                    base = s.cache_dir if s.cache_dir is not None else Path(tempfile.gettempdir())
                    ledger = Path(base) / "budget" / f"run-{workerinput['testrunuid']}.usd"
            self.episodes.budget = Budget(cap, ledger=ledger, name=name)
        return self.episodes.budget

    @property
    def evaluator(self) -> Evaluator:
        """The process's Evaluator, built on first use with the agent from the hook."""
        if self.episodes.evaluator is None:
            from pytest_pau.agent import PSEUDO_MODELS
            from pytest_pau.scoring import Evaluator
            from pytest_pau.scoring.decoy import sample_decoys

            config = self.config

            def classify(**kw: Any) -> str | None:
                label: str | None = config.hook.pytest_pau_classify_failure(config=config, **kw)
                return label

            s = self.settings
            evaluator = Evaluator(
                s, budget=self.budget(), classify_hook=classify, cancel=self.episodes.cancel
            )
            # The judge check's items and decoys: the same on every xdist worker.
            evaluator.decoys = sample_decoys(self.selected_ids, self.instances, s)
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
            self.episodes.evaluator = evaluator
        return self.episodes.evaluator

    def evaluate(
        self, instance: Instance, progress: Callable[[str], None] | None
    ) -> InstanceResult:
        """Evaluate once per process and instance (several tests may share one instance).

        With a pool, the episode may have run (or be running) ahead of pytest already.
        """
        if instance.id not in self.episodes.results:
            if self.episodes.pool is not None:
                from pytest_pau.plugin.episodes import NotStarted

                try:
                    result = self.episodes.pool.result(instance, progress)
                except NotStarted as exc:
                    result = InstanceResult.not_run(instance, exc.skip)
            else:
                stop = self.admission(instance)
                while isinstance(stop, Wait):  # other workers' items may free the budget
                    time.sleep(0.05)
                    stop = self.admission(instance)
                if stop is not None:
                    result = InstanceResult.not_run(instance, stop)
                else:
                    result = self.evaluate_one(instance, progress)
            self.episodes.results[instance.id] = result
        return self.episodes.results[instance.id]

    def evaluate_one(
        self, instance: Instance, progress: Callable[[str], None] | None
    ) -> InstanceResult:
        """One admitted episode, scored, counted for the streak of unfixable errors and
        for the budget's estimate of what an item costs."""
        budget = self.budget()
        try:
            result = self.evaluator.evaluate(instance, progress=progress)
        except BaseException:
            if budget is not None:
                budget.finished(0.0)
            raise
        if budget is not None:
            budget.finished(result.cost_usd)
        self.episodes.streak.observe(result)
        from pytest_pau.plugin.shard import record_finished

        record_finished(self.settings, instance, result)
        return result

    def admission(self, instance: Instance) -> Skip | Wait | None:
        """Whether ``instance``'s episode may start now: None (it is admitted), a reason
        not to start it (:meth:`stop_reason`; the budget left cannot pay for an item), or
        :data:`~pytest_pau.llm.budget.WAIT` (once items in flight finish: the early stop's
        look-ahead, the budget's running items). Admitting counts the item as running."""
        stop = self.stop_reason()
        if stop is not None:
            return stop
        if self.ahead_of_window(instance):
            return WAIT
        budget = self.budget()
        answer = None if budget is None else budget.admit()
        return Skip(SkipCause.BUDGET, answer) if isinstance(answer, str) else answer

    def ahead_of_window(self, instance: Instance) -> bool:
        """``--pau-early-stop``: the item lies past what the next decision could need."""
        position = self.position.get(instance.id)
        allowed = self.stop.allowed()
        return position is not None and allowed is not None and position >= allowed

    def stop_reason(self) -> Skip | None:
        """Why no further episode may start (a decided gate, Ctrl-C, an unfixable error,
        a spent budget), or None."""
        stop = self.stop.reason()
        if stop is not None:
            return Skip(stop.cause, f"not run: {stop.reason}")
        if self.episodes.streak.reason is not None:
            return Skip(SkipCause.STREAK, self.episodes.streak.reason)
        budget = self.budget()
        if budget is not None and budget.exhausted:
            spent = f"${budget.spent:.4f} of ${budget.max_cost_usd:g}"
            return Skip(SkipCause.BUDGET, f"budget {budget.name} spent ({spent})")
        return None

    # -- gathering (the controller, or the single process) ---------------------------------

    def record(self, data: str) -> None:
        """Take one item's result from its report (:meth:`take`).

        A result whose score is none (NaN, out of its scale: a hook or a test changed it
        after scoring) is refused: the item counts as errored, saying which field.
        """
        try:
            result = InstanceResult.model_validate_json(data)
        except ValidationError as exc:
            result = refused_result(data, exc)
        self.take(result)

    def take(self, result: InstanceResult) -> None:
        """The one way a result enters the run (the controller, or the single process).

        In one process an episode's result arrives twice: from its thread when it is made
        (so the early stop hears of it before pytest reaches the item), then from the
        item's report, whose result (a hook may have changed it) replaces the first. The
        early stop is fed the first only. Called from pytest's thread and the episode
        threads; once the run has ended (:meth:`stop_taking`), a result an episode's thread
        makes later is left out, as the summary is being made of what came before.
        """
        with self._gate_lock:
            if self._taken_all:
                return
            self.results[result.id] = result
        self._feed_once(result.id, result)

    def stop_taking(self) -> None:
        """The run has ended: no further result enters it."""
        with self._gate_lock:
            self._taken_all = True

    def no_result(self, instance_id: str) -> None:
        """An item ended without a result (skipped by a mark, errored before evaluation):
        the early stop counts it as unknown, unless its result came first."""
        self._feed_once(instance_id, None)

    def ended(self, report: pytest.TestReport | pytest.CollectReport) -> None:
        """Every report on the controller: what fails a gated run; items without a result."""
        from pytest_pau.plugin.blocking import blocks

        if blocks(report):
            self.blocking.append(report.nodeid)
        elif getattr(report, "pau_below_threshold", False):
            self.below_threshold.append(report.nodeid)
        if report.skipped and getattr(report, "when", None) == "setup":
            instance_id = self.instance_id(report.nodeid)
            if instance_id is not None and instance_id not in self.results:
                self.user_skipped.add(instance_id)
        if getattr(report, "when", None) == "teardown":
            instance_id = self.instance_id(report.nodeid)
            if instance_id is not None and instance_id not in self.results:
                self.no_result(instance_id)  # skipped by a mark, or errored before

    def _feed_once(self, instance_id: str, result: InstanceResult | None) -> None:
        """The early stop hears of each item once: its first result, or that it had none."""
        if self.early is None:
            return
        with self._gate_lock:
            if instance_id in self._fed:
                return
            self._fed.add(instance_id)
            decided = self.early.add(instance_id, result)
        if decided:
            n, total = self.early.decided_after, len(self.early.order)
            self.stop.request(
                Skip(
                    SkipCause.EARLY_STOP,
                    f"--pau-early-stop: every gate was decided after {n} of {total} items",
                )
            )
        else:
            self.look_ahead()

    def look_ahead(self) -> None:
        """Let items start only as far into the seeded order as the next decision could
        need: the fed prefix plus the fewest further items that could decide every gate
        (at most what the run keeps in flight)."""
        if self.early is None:
            return
        try:
            workers = max(1, int(getattr(self.config.option, "numprocesses", 0) or 1))
        except (TypeError, ValueError):  # "auto" before xdist resolved it
            workers = 1
        limit = max(1, self.settings.episodes_in_flight() * workers)
        with self._gate_lock:
            allowed = self.early.fed + self.early.window(limit)
        self.stop.allow(allowed)

    def count_selected(self, ids: list[str]) -> None:
        """The distinct instances among the selected item ids, in the order they run."""
        found = [i for nodeid in ids if (i := self.instance_id(nodeid)) is not None]
        self.selected_ids = list(dict.fromkeys(found))
        self.position = {i: k for k, i in enumerate(self.selected_ids)}
        self.selected = len(self.selected_ids)
        s = self.settings
        if s.early_stop and self.early is None and not self.is_worker:
            from pytest_pau.stats.early_stop import EarlyStopTracker

            self.early = EarlyStopTracker(
                self.selected_ids,
                levels=s.level_gates(),
                margins=s.regression_margins(),
                baseline={r.id: r for r in self.baseline.instances} if self.baseline else None,
                confidence=s.gate_confidence,
                on_ci=s.gate_on_ci,
                protocol=s.protocol,
            )
            self.look_ahead()


def refused_result(data: str, exc: ValidationError) -> InstanceResult:
    """An errored result in place of one whose scores do not validate (named, with values)."""
    import json

    raw = json.loads(data)  # Python's reader takes NaN, which the report carries as such
    problems = "; ".join(
        f"{'.'.join(str(x) for x in e.get('loc', ()))} {e.get('input')!r}: {e.get('msg')}"
        for e in exc.errors()
    )
    return InstanceResult(
        id=str(raw.get("id", "?")),
        source=str(raw.get("source", "?")),
        arity=int(raw.get("arity", 0) or 0),
        tags=[str(t) for t in raw.get("tags", [])],
        error=f"ScoreError: the item's result was refused: {problems}",
        cost_usd=float(raw.get("cost_usd", 0.0) or 0.0),
    )
