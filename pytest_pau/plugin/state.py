"""The run: one :class:`PauRun` per process, plain data its stages read and write.

Kept in ``config.stash`` under :data:`pau_run_key` (never on ``config``). It holds what the
run knows (settings, instances, gathered results, the summary, outputs) and nothing that
runs a stage: the stages are functions that take a ``PauRun`` (:mod:`.begin`,
:mod:`.intake`, :mod:`.evaluate`, :mod:`.finish`, preflight, outputs, gates, calibration,
crash...), and this module imports none of them, so no stage imports another through it.
Its data is split by owner: :class:`EpisodePart` (``run.episodes``: what runs this
process's items, :mod:`.evaluate`), :class:`ShardPart` (``run.shard``: ``--pau-shard``'s
part of the selection, :mod:`.shard`), :class:`IntakePart` (``run.intake``: the results
that entered the run, :mod:`.intake`) and :class:`OutputsPart` (``run.outputs``: what the
end of the run wrote, :mod:`.finish`); the rest is what the run was given and found at its
start (settings, instances, the selection, the baseline, the stop request).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_pau.models import Instance, InstanceResult, Report, RunInfo, Summary
from pytest_pau.plugin.markers import MarkerNames
from pytest_pau.plugin.stop import STOP_FILE_KEY, RunStop
from pytest_pau.plugin.streak import FailureStreak
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau.dataset import DatasetInfo
    from pytest_pau.llm import Budget
    from pytest_pau.models import ScoresReport
    from pytest_pau.plugin.episodes import EpisodePool
    from pytest_pau.scoring import Evaluator
    from pytest_pau.stats.early_stop import EarlyStopTracker

result_key = pytest.StashKey[InstanceResult]()
sent_key = pytest.StashKey[bool]()
pau_run_key = pytest.StashKey["PauRun"]()
"""Where the process's :class:`PauRun` is kept in ``config.stash`` (while the run is active)."""


@dataclass
class EpisodePart:
    """What runs a process's items (an xdist worker, or the single process):
    :mod:`~pytest_pau.plugin.evaluate` builds and uses it."""

    cancel: threading.Event = field(default_factory=threading.Event)
    """Set on Ctrl-C: no episode and no model request starts any more."""
    streak: FailureStreak = field(default_factory=FailureStreak)
    """Stops starting items after several identical errors that no retry fixes."""
    pool: EpisodePool | None = None
    """Runs upcoming items' episodes ahead of pytest (``--pau-concurrency`` > 1)."""
    evaluator: Evaluator | None = None
    """The process's Evaluator, built on first use (:func:`~pytest_pau.plugin.evaluate.evaluator_of`)."""
    budget: Budget | None = None
    """The run's budget ledger, made once (:func:`~pytest_pau.plugin.evaluate.budget_of`)."""
    results: dict[str, InstanceResult] = field(default_factory=dict)
    """This process's result of each instance it evaluated (several tests may share one)."""


@dataclass
class ShardPart:
    """``--pau-shard``: which part of the selection this shard runs, as
    :mod:`~pytest_pau.plugin.shard` found it (the controller's, or a worker's report)."""

    cached: list[str] = field(default_factory=list)
    """Instances with a finished-item row, as the controller found them."""
    plan: list[str] | None = None
    """The instances the partition counted as cached (the stored plan)."""
    selection: list[str] | None = None
    """Every selected instance of the whole run, in order (None until collection, or under
    xdist until a worker reports it)."""
    own: list[str] | None = None
    """This shard's part of :attr:`selection`."""


@dataclass
class IntakePart:
    """The results that entered the run (the controller, or the single process):
    :mod:`~pytest_pau.plugin.intake` writes it (the crash hook and the episodes ahead too)."""

    results: dict[str, InstanceResult] = field(default_factory=dict)
    """Results gathered from reports (and episodes ahead of pytest), by instance id."""
    user_skipped: set[str] = field(default_factory=set)
    """Instances whose item a skip mark (or the user's own fixture) skipped before it was
    evaluated: not part of the selection the gates are about."""
    blocking: list[str] = field(default_factory=list)
    """Node ids of failed reports that fail a gated run (not a model below its thresholds:
    errors, other tests, collection errors)."""
    below_threshold: list[str] = field(default_factory=list)
    """Node ids of items whose model fell below a threshold (for JUnit)."""
    crashes: list[tuple[str, str]] = field(default_factory=list)
    """``(instance id, worker id)`` of items whose xdist worker died."""
    ahead: int = 0
    """Results kept from episodes that finished before pytest, which stopped, reached them."""
    early: EarlyStopTracker | None = None
    """``--pau-early-stop``: the gates' confidence sequences (controller)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Serialises results entering the run (episode threads and pytest's thread)."""
    fed: set[str] = field(default_factory=set)
    """Instances the early stop has heard of (each once)."""
    taken_all: bool = False
    """The run has ended: results stop entering it."""


@dataclass
class OutputsPart:
    """What the end of the run wrote (the controller): :mod:`~pytest_pau.plugin.finish`
    writes it; the terminal summary and :mod:`~pytest_pau.plugin.ci` read it."""

    report_written: Path | None = None
    """Where the ``--pau-report`` file was written, once it was."""
    report_error: str | None = None
    """Why the ``--pau-report`` file could not be written, when it could not."""
    written: list[str] = field(default_factory=list)
    """One line per other output written (HTML, plots, Markdown, the users' own)."""
    errors: list[str] = field(default_factory=list)
    """Why ``--pau-html`` / ``--pau-plots`` (or another output) could not be written, when
    they could not."""
    final_report: Report | None = None
    """The report the run wrote (or would have), once :func:`pytest_pau.plugin.finish.finish` ran."""


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


class PauRun:
    """The run: settings, instances and the gathered results (plain data)."""

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
        self.selected = 0
        self.started = now_utc()
        self.t0 = time.perf_counter()
        self.summary: Summary | None = None
        self.run_info: RunInfo | None = None
        self.interrupted = False
        """The run really stopped early (Ctrl-C, ``-x``/``--maxfail``, ``session.shouldstop``)."""
        self.endpoint_notes: list[str] = []
        """Models behind an ``api_base`` their server does not identify (cached by alias)."""
        self.cache_warning: str | None = None
        """Why the model cache was set aside at the start, when it was."""
        self.episodes = EpisodePart()
        """What runs this process's items (an xdist worker, or the single process)."""
        self.selected_ids: list[str] = []
        """The selected instances, in the order their items run."""
        self.position: dict[str, int] = {}
        """Each selected instance's place in that order (the early stop's look-ahead)."""
        self.retry_selection: str | None = None
        """Why a narrowed retry (``--lf``/``--sw``) decides no gate (:mod:`~pytest_pau.plugin.narrowed_retry`)."""
        self.deselected: int = 0
        """PAU items deselected during collection (by ``-k``, ``-m``, ``--lf``...)."""
        self.baseline: ScoresReport | None = None
        """``--pau-baseline``, read before any item."""
        self.run_dir: Path | None = None
        """Controller: the run's private folder (the stop file for xdist workers)."""
        workerinput = getattr(config, "workerinput", None) or {}
        stop_file = workerinput.get(STOP_FILE_KEY)
        self.stop = RunStop(Path(stop_file) if stop_file else None)
        """A stop request every process sees (early stop, Ctrl-C on the controller)."""
        self.marker_names = MarkerNames()
        """Which marker each tag and source name is (set once every plugin is configured)."""
        self.restore_signals: Callable[[], None] = lambda: None
        """Undoes :func:`~pytest_pau.plugin.stop.interrupt_on_signals` (at unconfigure)."""
        self.interrupted_by: str | None = None
        """``SIGTERM``/``SIGHUP`` when a signal interrupted the run (else Ctrl-C or none)."""
        self.shard = ShardPart()
        """``--pau-shard``: which part of the selection this shard runs."""
        self.intake = IntakePart()
        """The results that entered the run, and what the early stop heard of them."""
        self.outputs = OutputsPart()
        """What the end of the run wrote, and what it could not."""

    def resolve(self, path: Path) -> Path:
        """Relative output paths are taken from the invocation folder, as pytest does."""
        return path if path.is_absolute() else Path(self.config.invocation_params.dir) / path

    def instance_id(self, nodeid: str) -> str | None:
        """The instance of a PAU item id (``...[<instance id>]``), or None."""
        if nodeid.endswith("]") and "[" in nodeid:
            param = nodeid[nodeid.index("[") + 1 : -1]
            if param in self.order:
                return param
        return None

    def instance_of_nodeid(self, nodeid: str) -> Instance | None:
        """The instance a PAU item id (``...[<instance id>]``) runs, or None for other tests."""
        found = self.instance_id(nodeid)
        return None if found is None else self.instances[self.order[found]]

    def ordered_results(self) -> list[InstanceResult]:
        return sorted(
            self.intake.results.values(),
            key=lambda r: (self.order.get(r.id, len(self.order)), r.id),
        )
