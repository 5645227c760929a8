"""What runs a process's items (an xdist worker, or the single process): the budget, the
Evaluator, and whether an episode may start.

Each function takes the :class:`~pytest_pau.plugin.state.PauRun` and keeps what it builds
in its :class:`~pytest_pau.plugin.state.EpisodePart` (``run.episodes``): the budget ledger
(:func:`budget_of`, made once), the Evaluator (:func:`evaluator_of`, built on first use),
each instance's result (:func:`evaluate`, once per process). :func:`admission` says whether
an episode may start now: :func:`stop_reason` (a decided gate, Ctrl-C, an unfixable error,
a spent budget), :func:`ahead_of_window` (the early stop's look-ahead), the budget's
running items.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError, PauError
from pytest_pau.llm.budget import WAIT, Wait
from pytest_pau.models import Instance, InstanceResult, Skip, SkipCause

#: ``workerinput`` key of the budget ledger's path (in the controller's cache folder).
LEDGER_KEY = "pau_budget_ledger"

if TYPE_CHECKING:
    import pytest

    from pytest_pau.llm import Budget
    from pytest_pau.plugin.state import PauRun
    from pytest_pau.scoring import Evaluator
    from pytest_pau.settings import PauSettings


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


def ledger_path(run: PauRun, run_id: str) -> Path:
    """The budget ledger the controller hands its workers: one file per run, named after
    xdist's test-run id, in the controller's cache folder (an absolute path, so workers
    started in other folders of this machine, ``--tx popen//chdir=...``, share it)."""
    s = run.settings
    base = Path(s.cache_dir) if s.cache_dir is not None else Path(tempfile.gettempdir())
    return run.resolve(base.expanduser()).absolute() / "budget" / f"run-{run_id}.usd"


def budget_of(run: PauRun) -> Budget | None:
    """The run's budget, made once: one ledger shared by every process of the run on
    this machine.

    Under xdist every worker charges the same file under a file lock, so
    ``--pau-max-cost-usd`` caps the whole run, not a share per worker; its reservations
    and running items are shared too (``llm/budget.py``). The controller names the file
    (:func:`ledger_path`) and hands it to every worker it starts, in whatever folder of
    this machine; workers on other hosts are refused up front
    (:func:`check_remote_budget`). A shard (``--pau-shard=K/N``) gets ``1/N`` of the
    cap: shards share no ledger. None without a cap.
    """
    s = run.settings
    cap = s.budget_share()
    if cap is None:
        return None
    if run.episodes.budget is None:
        from pytest_pau.llm import Budget

        part = s.shard_part
        name = None
        if part is not None:
            name = (
                f"shard {part[0]}/{part[1]}'s share ${cap:g} of "
                f"--pau-max-cost-usd={s.max_cost_usd:g}"
            )
        workerinput = getattr(run.config, "workerinput", None)
        ledger = None
        if workerinput is not None:
            ledger = workerinput.get(LEDGER_KEY)
            if ledger is None:  # a controller of another pytest-pau version
                base = s.cache_dir if s.cache_dir is not None else Path(tempfile.gettempdir())
                ledger = Path(base) / "budget" / f"run-{workerinput['testrunuid']}.usd"
        run.episodes.budget = Budget(cap, ledger=ledger, name=name)
    return run.episodes.budget


def evaluator_of(run: PauRun) -> Evaluator:
    """The process's Evaluator, built on first use with the agent from the hook."""
    if run.episodes.evaluator is None:
        from pytest_pau.agent import PSEUDO_MODELS
        from pytest_pau.scoring import Evaluator
        from pytest_pau.scoring.decoy import sample_decoys

        config = run.config

        def classify(**kw: Any) -> str | None:
            label: str | None = config.hook.pytest_pau_classify_failure(config=config, **kw)
            return label

        s = run.settings
        evaluator = Evaluator(
            s, budget=budget_of(run), classify_hook=classify, cancel=run.episodes.cancel
        )
        # The judge check's items and decoys: the same on every xdist worker.
        evaluator.decoys = sample_decoys(run.selected_ids, run.instances, s)
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
        run.episodes.evaluator = evaluator
    return run.episodes.evaluator


def evaluate(
    run: PauRun, instance: Instance, progress: Callable[[str], None] | None
) -> InstanceResult:
    """Evaluate once per process and instance (several tests may share one instance).

    With a pool, the episode may have run (or be running) ahead of pytest already.
    """
    if instance.id not in run.episodes.results:
        if run.episodes.pool is not None:
            from pytest_pau.plugin.episodes import NotStarted

            try:
                result = run.episodes.pool.result(instance, progress)
            except NotStarted as exc:
                result = InstanceResult.not_run(instance, exc.skip)
        else:
            stop = admission(run, instance)
            while isinstance(stop, Wait):  # other workers' items may free the budget
                time.sleep(0.05)
                stop = admission(run, instance)
            if stop is not None:
                result = InstanceResult.not_run(instance, stop)
            else:
                result = evaluate_one(run, instance, progress)
        run.episodes.results[instance.id] = result
    return run.episodes.results[instance.id]


def evaluate_one(
    run: PauRun, instance: Instance, progress: Callable[[str], None] | None
) -> InstanceResult:
    """One admitted episode, scored, counted for the streak of unfixable errors and
    for the budget's estimate of what an item costs."""
    budget = budget_of(run)
    try:
        result = evaluator_of(run).evaluate(instance, progress=progress)
    except BaseException:
        if budget is not None:
            budget.finished(0.0)
        raise
    if budget is not None:
        budget.finished(result.cost_usd)
    run.episodes.streak.observe(result)
    from pytest_pau.plugin.shard import record_finished

    record_finished(run.settings, instance, result)
    return result


def admission(run: PauRun, instance: Instance) -> Skip | Wait | None:
    """Whether ``instance``'s episode may start now: None (it is admitted), a reason
    not to start it (:func:`stop_reason`; the budget left cannot pay for an item), or
    :data:`~pytest_pau.llm.budget.WAIT` (once items in flight finish: the early stop's
    look-ahead, the budget's running items). Admitting counts the item as running."""
    stop = stop_reason(run)
    if stop is not None:
        return stop
    if ahead_of_window(run, instance):
        return WAIT
    budget = budget_of(run)
    answer = None if budget is None else budget.admit()
    return Skip(SkipCause.BUDGET, answer) if isinstance(answer, str) else answer


def ahead_of_window(run: PauRun, instance: Instance) -> bool:
    """``--pau-early-stop``: the item lies past what the next decision could need."""
    position = run.position.get(instance.id)
    allowed = run.stop.allowed()
    return position is not None and allowed is not None and position >= allowed


def stop_reason(run: PauRun) -> Skip | None:
    """Why no further episode may start (a decided gate, Ctrl-C, an unfixable error,
    a spent budget), or None."""
    stop = run.stop.reason()
    if stop is not None:
        return Skip(stop.cause, f"not run: {stop.reason}")
    if run.episodes.streak.reason is not None:
        return Skip(SkipCause.STREAK, run.episodes.streak.reason)
    budget = budget_of(run)
    if budget is not None and budget.exhausted:
        spent = f"${budget.spent:.4f} of ${budget.max_cost_usd:g}"
        return Skip(SkipCause.BUDGET, f"budget {budget.name} spent ({spent})")
    return None
