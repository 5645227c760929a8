"""``--pau-early-stop``: feed the gates' anytime-valid tests, and say when all are decided.

The run's items go in a seeded random order (:func:`~pytest_pau.stats.anytime.early_stop_order`),
so the first t results are a uniform sample without replacement of the N selected items.
Results *arrive* in another order (episodes run in parallel, and a slow item, perhaps a
hard one, finishes late): feeding them as they arrive would make the sample depend on
the scores. :class:`EarlyStopTracker` therefore holds results back and feeds the gates
only the longest complete prefix of the seeded order.

Each gate keeps its meaning (:mod:`pytest_pau.stats.anytime`):

* a plain level gate (``--pau-min-*``) asks about the mean over the N selected items:
  the without-replacement test, ``statistic="sequential"``;
* with ``--pau-gate-on-ci`` a level gate asks about the model's mean beyond noise: the
  i.i.d. anytime test, ``statistic="anytime_bound"`` (it stops when the anytime lower
  bound clears the threshold or the upper bound falls below it; undecided after all N
  items, none unknown, it fails: not shown);
* the baseline gate asks the non-inferiority question on paired differences: the i.i.d.
  anytime test (``method="sequential"``), likewise.

The population stays the selection. An item without a score (errored, not run for a
budget, a failure streak or an interruption, no result) is fed as *unknown*: the interval
of its possible values, which can only make a verdict harder to reach, never wrong. Once
every gate is decided the tracker is frozen; the items the early stop then skips are the
one kind of missing item it covers itself. A run that ends before every gate is decided
leaves the undecided ones ``not decided`` (the run fails closed, saying why).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pytest_pau.models import GateVerdict, InstanceResult, RegressionVerdict, Scored
from pytest_pau.models.metrics import LEVEL_GATES
from pytest_pau.models.paper import DEFAULT_PROTOCOL
from pytest_pau.models.summary import Decision
from pytest_pau.stats import missing
from pytest_pau.stats.anytime import FAIL, PASS, AnytimeMonitor
from pytest_pau.stats.describe import mean
from pytest_pau.stats.metrics import BOUNDS, METRICS, counted, value_getter

_STATUS: dict[int, Decision] = {PASS: "passed", FAIL: "failed", 0: "not decided"}


@dataclass
class _Gate:
    monitor: AnytimeMonitor | None
    """None: nothing to measure (an empty population), which fails."""
    metric: str
    bar: float
    """The level gate's threshold, or the baseline gate's margin."""
    population: int
    shown: bool
    """An i.i.d. gate: undecided after every item, none unknown, means "not shown" (fail)."""
    seen: list[float] = field(default_factory=list)
    """Values of the scored items fed (differences for a baseline gate)."""
    causes: Counter[str] = field(default_factory=Counter)
    """Why the unknown items fed had no score."""


class EarlyStopTracker:
    """The early-stopping gates of one run, fed in the seeded order.

    Args:
        order: The selected instance ids in the seeded random order the items run in.
        levels: ``{gate key: threshold}`` of the level gates (``min_mean_judge``...).
        margins: ``{metric: allowed regression}`` of the baseline gate.
        baseline: The baseline's results by instance id (with ``margins``).
        confidence: ``1 - alpha`` of every verdict.
        protocol: How items count (``--pau-protocol``): under ``paper`` an item that ran
            and errored is a known value (:func:`~pytest_pau.stats.metrics.counted`).
        on_ci: ``--pau-gate-on-ci``: the level gates ask about the model's mean (i.i.d.
            anytime test) instead of the selection's.
    """

    def __init__(
        self,
        order: Sequence[str],
        *,
        levels: Mapping[str, float],
        margins: Mapping[str, float] | None = None,
        baseline: Mapping[str, Scored] | None = None,
        confidence: float = 0.95,
        on_ci: bool = False,
        protocol: str = DEFAULT_PROTOCOL,
    ) -> None:
        self.order = list(dict.fromkeys(order))
        self.confidence = confidence
        self.on_ci = on_ci
        self.protocol = protocol
        self.baseline = dict(baseline or {})
        self._pending: dict[str, InstanceResult | None] = {}
        self._pos = 0
        self.decided_after: int | None = None
        """Items fed when every gate was first decided."""
        alpha = 1.0 - confidence
        n = len(self.order)
        self.levels: dict[str, _Gate] = {}
        for name, threshold in levels.items():
            metric = LEVEL_GATES[name].metric
            lo, hi = BOUNDS[metric]
            monitor = (
                AnytimeMonitor((threshold - lo) / (hi - lo), None if on_ci else n, alpha)
                if n
                else None
            )
            self.levels[name] = _Gate(monitor, metric, threshold, n, shown=on_ci)
        self.pairs: dict[str, _Gate] = {}
        for metric, margin in (margins or {}).items():
            paired = sum(1 for i in self.order if i in self.baseline)
            span = BOUNDS[metric][1] - BOUNDS[metric][0]
            monitor = AnytimeMonitor((span - margin) / (2 * span), None, alpha) if paired else None
            self.pairs[metric] = _Gate(monitor, metric, margin, paired, shown=True)

    # -- feeding -------------------------------------------------------------------------

    def _gates(self) -> list[_Gate]:
        return [*self.levels.values(), *self.pairs.values()]

    @property
    def decided(self) -> bool:
        """Every gate has a verdict (an unmeasurable gate counts as a failed one)."""
        gates = self._gates()
        return bool(gates) and all(g.monitor is None or g.monitor.code != 0 for g in gates)

    @property
    def fed(self) -> int:
        """Items of the seeded order fed so far (the complete prefix)."""
        return self._pos

    def window(self, limit: int) -> int:
        """The most items beyond the fed prefix worth having in flight: the fewest further
        items after which every gate could be decided (at least 1, at most ``limit``).

        Items past that cannot be needed for the next decision, so a run that keeps no
        more in flight wastes no more than that many when it stops.
        """
        undecided = [g.monitor for g in self._gates() if g.monitor is not None]
        steps = [m.steps_to_decide(limit) for m in undecided if m.code == 0]
        return max(1, min(limit, max(steps, default=1)))

    def add(self, item_id: str, result: InstanceResult | None) -> bool:
        """Take one item's result (None: it ended without one); True when this decided all.

        Each item is fed once (the run's ``take`` sees to it). Ids outside the order (not
        selected) are ignored; after the decision, nothing is fed.
        """
        if self.decided_after is not None:
            return False
        self._pending[item_id] = result
        while self._pos < len(self.order) and self.order[self._pos] in self._pending:
            self._feed(self.order[self._pos], self._pending[self.order[self._pos]])
            self._pos += 1
            if self.decided:
                self.decided_after = self._pos
                return True
        return False

    def finish(self) -> None:
        """The run ended: feed what is held back, an id that never reported as unknown.

        Valid whatever the reason an item has no result (the verdicts hold for any
        values of the unknown items); undecided gates stay ``not decided``.
        """
        while self.decided_after is None and self._pos < len(self.order):
            item_id = self.order[self._pos]
            self._feed(item_id, self._pending.get(item_id))
            self._pos += 1
            if self.decided:
                self.decided_after = self._pos

    def _feed(self, item_id: str, result: InstanceResult | None) -> None:
        for gate in self.levels.values():
            value = None if result is None else counted(result, gate.metric, self.protocol)
            if gate.monitor is None:
                continue
            lo, hi = BOUNDS[gate.metric]
            if value is None:
                gate.causes[missing.cause(result, None) or "unscored"] += 1
                gate.monitor.update(0.0, 1.0)
            else:
                gate.seen.append(value)
                gate.monitor.update((value - lo) / (hi - lo))
        for metric, gate in self.pairs.items():
            getter = value_getter(metric, self.protocol)
            base = self.baseline.get(item_id)
            if base is None or gate.monitor is None:
                continue  # not listed by the baseline: not part of the paired population
            b = getter(base)
            lo, hi = BOUNDS[metric]
            span = hi - lo
            new = None if result is None else getter(result)
            if new is None or b is None:
                # Either side without a score: the difference is anything in its range.
                why = "unscored" if new is None else "unscored in the baseline"
                if new is None:
                    why = missing.cause(result, None) or why
                gate.causes[why] += 1
                worst = (lo if new is None else new) - (hi if b is None else b)
                best = (hi if new is None else new) - (lo if b is None else b)
                gate.monitor.update((worst + span) / (2 * span), (best + span) / (2 * span))
            else:
                gate.seen.append(new - b)
                gate.monitor.update((new - b + span) / (2 * span))

    # -- verdicts ------------------------------------------------------------------------

    def _status(self, gate: _Gate) -> Decision:
        if gate.monitor is None:
            return "failed"
        return _STATUS[
            gate.monitor.final(selection=gate.population, fail_when_undecided=gate.shown)
        ]

    def _detail(self, gate: _Gate, status: Decision) -> str:
        n = len(self.order)
        if gate.monitor is None:
            return "no scored item" if not gate.population else "nothing to measure"
        if status == "not decided":
            causes = gate.causes.copy()
            unfed = gate.population - gate.monitor.t
            if unfed > 0:
                causes["not run (the run ended first)"] += unfed
            why = "; ".join(missing.describe(causes, gate.population))
            return f"not decided after {gate.monitor.t} of {gate.population} items: {why}"
        if self.decided_after is not None and self.decided_after < n:
            return f"decided after {self.decided_after} of {n} items"
        if status == "failed" and gate.shown and gate.monitor.code == 0:
            return f"not shown after all {gate.population} items"
        return f"exact: all {gate.population} items seen"

    def level_verdicts(self) -> list[GateVerdict]:
        """The level gates' verdicts (call :meth:`finish` first)."""
        out = []
        for name, gate in self.levels.items():
            label, option = LEVEL_GATES[name].label, LEVEL_GATES[name].option
            status = self._status(gate)
            observed = mean(gate.seen)
            out.append(
                GateVerdict(
                    name=name,
                    label=label,
                    option=option,
                    threshold=gate.bar,
                    statistic="anytime_bound" if gate.shown else "sequential",
                    status=status,
                    value=observed,
                    observed=observed,
                    scored=len(gate.seen),
                    population=gate.population,
                    confidence=self.confidence,
                    margin=None if observed is None else observed - gate.bar,
                    passed=status == "passed",
                    detail=self._detail(gate, status),
                )
            )
        return out

    def regression_verdicts(self) -> dict[str, RegressionVerdict]:
        """The baseline gates' verdicts, by metric (call :meth:`finish` first)."""
        out: dict[str, RegressionVerdict] = {}
        for metric, gate in self.pairs.items():
            status = self._status(gate)
            out[metric] = RegressionVerdict(
                metric=metric,
                label=METRICS[metric][0],
                margin=gate.bar,
                n=len(gate.seen),
                mean_diff=mean(gate.seen),
                method="sequential",
                status=status,
                population=gate.population,
                passed=status == "passed",
                detail=(
                    "no instance scored in both runs"
                    if gate.monitor is None
                    else self._detail(gate, status)
                ),
            )
        return out
