"""``--pau-shard=K/N``: one deterministic part of the selection, and what ``pau merge`` needs.

**The partition.** After ``-k``/``-m``, ``--lf`` and ``--pau-limit``, the selected instances
are split into N parts by :func:`partition`, a pure function of the selection (in run order)
and of which instances the response cache already answers. Every machine that sees the same
selection and the same cache computes the same parts, whatever order its xdist workers come
up in: the controller reads the cache once and hands the list to its workers, so every
process of one shard partitions alike.

**Expected cost.** An instance whose whole episode is in the cache costs nearly nothing (a
few sandbox calls); any other costs a full episode of model calls. Each finished item leaves
a *finished-item* row in the response cache (:func:`record_finished`: a key made from the
settings that decide its requests and the instance's whole content), so a later run knows
which items a re-run answers from the cache (:func:`cached_ids`). The parts are balanced
greedily on that cost (uncached items first, dealt to the least-loaded part), so a re-run
after adding 50 instances gives each shard a fair share of the 50, not whichever part they
fall in. The cost is an estimate for the balance only: results never depend on it.

**One plan per selection.** The shards write finished-item rows as they run, so a shard
started later on the same cache (shards run one after another on one machine, or a failed
shard re-run after the others) would see more of the selection cached and partition it
differently: some items would run twice and others never. So the first shard to partition
a selection stores its plan (which instances it counted as cached) in the response cache,
keyed by the settings, N and the selected instances' contents (:func:`plan_key`), and every
later shard of that selection reads the plan instead of the finished-item rows. The plan is a
bookkeeping row like the others: it travels with ``pau cache export``/``import``, and a new
selection, new settings or another N make a new one. Shards that start from different caches
(no plan, other rows) can still partition differently: each report records the selection and
the plan, and ``pau merge`` refuses shards that disagree, naming the items. Restore the same
cache in every shard (``docs/ci.md``).

Tests that are not PAU items run in shard 1 only, so each runs once over the N shards.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import warnings
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.plugin import collect
from pytest_pau.settings.gates_and_outputs import REPORT_OPTIONS

if TYPE_CHECKING:
    import pytest

    from pytest_pau.models import Instance, InstanceResult, ShardInfo
    from pytest_pau.plugin.state import PauRun
    from pytest_pau.settings import PauSettings

#: ``workerinput`` key of the instances the controller found in the cache.
CACHED_KEY = "pau_shard_cached"
#: The model name of finished-item rows in the response cache (``pau cache info`` lists it).
MARKER_MODEL = "pytest-pau/finished-items"
#: The model name of shard plans in the response cache.
PLAN_MODEL = "pytest-pau/shard-plans"
#: Expected cost of an item answered by the cache, and of one that is not (integers, so
#: every machine adds them up exactly alike).
CACHED_COST, UNCACHED_COST = 1, 20
#: Settings that may differ between the machines of one run: where outputs and the cache
#: go, how many episodes and connections run at once, which shard it is. Every other
#: setting must be the same in every shard (``pau merge`` compares them all). The outputs
#: are every row of ``REPORT_OPTIONS``.
PER_MACHINE = frozenset(
    {"cache_dir", "no_cache", "concurrency", "max_connections", "shard"}
    | {spec.field for spec in REPORT_OPTIONS}
)


def shard_part(ids: Sequence[str], cached: Collection[str], count: int, index: int) -> list[str]:
    """The ``index``-th (from 1) of :func:`partition`'s ``count`` parts: empty past the
    selection, in time and memory bounded by the selection whatever ``count`` is
    (``--pau-shard=1/1000000000000`` deals 3 instances, not 10^12 parts)."""
    parts = partition(ids, cached, count)
    return parts[index - 1] if index <= len(parts) else []


def partition(ids: Sequence[str], cached: Collection[str], count: int) -> list[list[str]]:
    """Split ``ids`` into ``count`` parts of about equal expected cost, deterministically.

    Parts past the selection (``count`` above ``len(ids)``) are empty and not returned: at
    most ``len(ids)`` parts are (use :func:`shard_part` for one part).

    Uncached items are dealt first (in selection order, each to the part with the least
    expected cost so far, ties to the part with fewer items, then the lower index), then
    the cached ones the same way. Each part keeps the selection's order.

    Args:
        ids: The selected instances, in run order (no duplicates).
        cached: Those whose answers are all in the cache.
        count: N, at least 1.
    """
    if count < 1:
        raise ValueError(f"partition(count={count!r}): expected at least 1 part")
    cached = set(cached)
    position = {i: n for n, i in enumerate(ids)}
    order = sorted(ids, key=lambda i: (i in cached, position[i]))
    # With more parts than items every item starts a part of its own, in dealing order: the
    # parts past the selection would stay empty whatever their number.
    dealt = min(count, max(len(ids), 1))
    loads = [0] * dealt
    parts: list[list[str]] = [[] for _ in range(dealt)]
    for instance_id in order:
        k = min(range(dealt), key=lambda j: (loads[j], len(parts[j]), j))
        parts[k].append(instance_id)
        loads[k] += CACHED_COST if instance_id in cached else UNCACHED_COST
    return [sorted(p, key=position.__getitem__) for p in parts]


# -- finished-item rows ------------------------------------------------------------------


_identities: dict[PauSettings, str] = {}


def _identity(settings: PauSettings) -> str:
    """Everything besides the instance that decides an item's model requests, in words."""
    if settings not in _identities:
        from pytest_pau.prompting import PROMPTS_VERSION
        from pytest_pau.report.calibration import scorer_identity

        mode, budget, effort = settings.reasoning_for("model")
        _identities[settings] = "; ".join(
            [
                f"model {settings.model} at {settings.api_base or '-'} "
                f"reasoning {mode}/{budget}/{effort or '-'}",
                f"{settings.mode} mode, {settings.max_iterations} iterations, gold control "
                f"{settings.gold_control}, outputs {settings.dataset_outputs}",
                scorer_identity(settings, prompts_version=PROMPTS_VERSION),
            ]
        )
    return _identities[settings]


def marker_key(settings: PauSettings, instance: Instance) -> str:
    """The response-cache key of ``instance``'s finished-item row under ``settings``."""
    text = f"pytest-pau finished item 1\n{_identity(settings)}\n{instance.model_dump_json()}"
    return hashlib.sha256(text.encode()).hexdigest()


def record_finished(settings: PauSettings, instance: Instance, result: InstanceResult) -> None:
    """Leave a finished-item row once an item's answers are all in the cache (not on error)."""
    if settings.no_cache or settings.cache_dir is None:
        return
    if result.error is not None or result.skipped is not None:
        return
    from pytest_pau.errors import CacheError
    from pytest_pau.llm.factory import shared_cache

    try:
        cache = shared_cache(Path(settings.cache_dir))
    except CacheError:
        return  # the run's clients report an unusable cache themselves
    requests = result.model_calls - result.cache_hits
    value = {"instance": instance.id, "requests": requests, "cost_usd": result.cost_usd}
    cache.put(marker_key(settings, instance), MARKER_MODEL, value)


def cached_ids(
    settings: PauSettings, instances: Sequence[Instance]
) -> tuple[list[str], str | None]:
    """The instances whose finished-item row the cache holds, and why none could be read.

    Never raises: a cache that cannot be read makes every item count as uncached (the
    balance only), and the reason is returned for a note.
    """
    if settings.no_cache or settings.cache_dir is None:
        return [], None
    from pytest_pau.llm.cache.transfer import keys_present

    keys = {marker_key(settings, inst): inst.id for inst in instances}
    try:
        found = keys_present(Path(settings.cache_dir), list(keys))
    except (sqlite3.Error, OSError) as exc:
        return [], (
            f"--pau-shard: the model cache could not be read to balance the shards "
            f"({type(exc).__name__}: {exc}); every item counted as uncached"
        )
    return [keys[k] for k in keys if k in found], None


# -- pytest glue -------------------------------------------------------------------------


def plan_key(settings: PauSettings, selected: Sequence[Instance], count: int) -> str:
    """The response-cache key of the shard plan of ``selected`` split in ``count`` parts."""
    text = f"pytest-pau shard plan 1\n{_identity(settings)}\n{count}\n{instances_digest(selected)}"
    return hashlib.sha256(text.encode()).hexdigest()


def _plan(state: PauRun, ids: list[str], count: int) -> list[str]:
    """The instances the partition counts as cached: the stored plan's, else a new plan.

    A new plan takes the controller's finished-item list (``state.shard.cached``) and is
    stored for the later shards of this selection (not by ``--collect-only``).
    """
    s = state.settings
    found = set(state.shard.cached)
    fresh = [i for i in ids if i in found]
    if s.no_cache or s.cache_dir is None:
        return fresh
    from pytest_pau.llm.cache.transfer import read_values

    by_id = {inst.id: inst for inst in state.instances}
    key = plan_key(s, [by_id[i] for i in ids if i in by_id], count)
    try:
        stored = read_values(Path(s.cache_dir), [key]).get(key)
    except (sqlite3.Error, OSError):
        stored = None
    selected = set(ids)
    if isinstance(stored, dict) and isinstance(stored.get("cached"), list):
        plan = [str(i) for i in stored["cached"]]
        if set(plan) <= selected:
            return plan
    if not state.config.option.collectonly:
        from pytest_pau.errors import CacheError
        from pytest_pau.llm.factory import shared_cache

        # An unusable cache: the run's clients report it themselves.
        with contextlib.suppress(CacheError):
            shared_cache(Path(s.cache_dir)).put(key, PLAN_MODEL, {"count": count, "cached": fresh})
    return fresh


def apply_shard(items: list[pytest.Item], state: PauRun) -> list[pytest.Item]:
    """Keep the items of this shard's instances (and, in shard 1, every other test).

    Records the whole selection, the plan and this shard's part on ``state``.

    Returns:
        The deselected items.
    """
    part = state.settings.shard_part
    assert part is not None
    index, count = part
    ids = list(dict.fromkeys(inst.id for item in items if (inst := collect.instance_of(item))))
    state.shard.plan = _plan(state, ids, count)
    own = set(shard_part(ids, state.shard.plan, count, index))
    state.shard.selection = ids
    state.shard.own = [i for i in ids if i in own]
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        inst = collect.instance_of(item)
        mine = index == 1 if inst is None else inst.id in own
        (kept if mine else dropped).append(item)
    items[:] = kept
    return dropped


def prepare_shard(state: PauRun) -> None:
    """What the partition needs before collection: which instances the cache answers.

    The controller (or the single process) reads the cache once; an xdist worker takes the
    controller's list from its ``workerinput``, so all of them partition alike.
    """
    workerinput = getattr(state.config, "workerinput", None)
    if workerinput is not None:
        state.shard.cached = [str(i) for i in workerinput.get(CACHED_KEY) or ()]
        return
    state.shard.cached, problem = cached_ids(state.settings, state.instances)
    if problem is not None:
        state.endpoint_notes.append(problem)  # shown under the summary
        warnings.warn(problem, stacklevel=2)


def empty_part(state: PauRun) -> str | None:
    """Why this shard ran nothing, when the selection has items but none fell in its part.

    More shards than selected instances leave some shards empty: that is no failure (pytest
    would exit 5, "no tests ran"), and the merge still needs this shard's report.
    """
    part = state.settings.shard_part
    if part is None or not state.shard.selection or state.shard.own:
        return None
    n = len(state.shard.selection)
    return (
        f"PAU shard {part[0]}/{part[1]}: none of the {n} selected instance{'s' if n != 1 else ''} "
        f"falls in this part ({part[1]} shards for {n}): exit status 0"
    )


def payload_json(state: PauRun) -> str:
    """What a worker tells the controller of the shard (it does not collect under xdist)."""
    return json.dumps(
        {"selection": state.shard.selection, "own": state.shard.own, "plan": state.shard.plan}
    )


def tell_controller(config: pytest.Config, state: PauRun) -> None:
    """On an xdist worker: the shard's selection in the output it sends when it finishes."""
    output = getattr(config, "workeroutput", None)
    if isinstance(output, dict):
        output["pau_shard"] = payload_json(state)


def take_payload_json(state: PauRun, text: str) -> None:
    """The controller's side of :func:`payload_json` (the first one that arrives wins)."""
    if state.shard.selection is not None:
        return
    try:
        payload: Any = json.loads(text)
    except ValueError:
        return
    if isinstance(payload, dict) and isinstance(payload.get("selection"), list):
        state.shard.selection = [str(i) for i in payload["selection"]]
        state.shard.own = [str(i) for i in payload.get("own") or []]
        state.shard.plan = [str(i) for i in payload.get("plan") or []]


def instances_digest(instances: Sequence[Instance]) -> str:
    """SHA-256 of the instances' whole contents, in order."""
    digest = hashlib.sha256()
    for inst in instances:
        digest.update(inst.model_dump_json().encode())
        digest.update(b"\n")
    return digest.hexdigest()


def shard_info(state: PauRun, machine_notes: list[str]) -> ShardInfo | None:
    """The report's ``shard`` block (controller, at the end); None for a whole run.

    Args:
        state: The run.
        machine_notes: The notes of this machine only (not those every run computes from
            its figures, :func:`pytest_pau.plugin.finish.run_notes`).
    """
    part = state.settings.shard_part
    if part is None:
        return None
    from pytest_pau.models import ShardInfo

    selection = state.shard.selection
    by_id = {inst.id: inst for inst in state.instances}
    chosen = [by_id[i] for i in selection or () if i in by_id]
    cached = set(state.shard.plan or ())
    rows, commands = _calibration(state, chosen)
    return ShardInfo(
        index=part[0],
        count=part[1],
        selection=selection,
        own=state.shard.own if state.shard.own is not None else list(state.selected_ids),
        user_skipped=[i for i in state.selected_ids if i in state.intake.user_skipped],
        cached=[i for i in selection or () if i in cached],
        instances_digest=instances_digest(chosen),
        settings=state.settings.model_dump(mode="json", exclude=set(PER_MACHINE)),
        calibration=rows,
        calibration_commands=commands,
        notes=machine_notes,
    )


def _calibration(state: PauRun, chosen: Sequence[Instance]) -> tuple[list[Any], dict[str, str]]:
    """The stored oracle/null scores of the whole selection, and the measuring commands."""
    s = state.settings
    from pytest_pau.plugin.calibration import measure_command
    from pytest_pau.report.calibration import REFERENCES

    commands = {m: measure_command(state.config, m) for m in REFERENCES}
    if s.cache_dir is None or not (s.low_fidelity_roles() or s.model in REFERENCES):
        return [], commands
    from pytest_pau.models import CalibrationRow
    from pytest_pau.prompting import PROMPTS_VERSION
    from pytest_pau.report.calibration import CalibrationStore, item_keys, scorer_identity

    keys = item_keys(chosen, dataset=s.dataset, split=s.split)
    try:
        found = CalibrationStore(s.cache_dir).lookup(
            scorer_identity(s, prompts_version=PROMPTS_VERSION), list(keys.values())
        )
    except (sqlite3.Error, OSError):
        return [], commands  # the shard's own calibration line says why
    rows = [
        CalibrationRow(instance=key.instance, model=model, judge=judge, match=match)
        for (key, model), (judge, match) in sorted(
            found.items(), key=lambda kv: (kv[0][0].instance, kv[0][1])
        )
    ]
    return rows, commands
