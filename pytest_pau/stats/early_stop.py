"""``--pau-early-stop``: feed the gates' confidence sequences, and say when all are decided.

The run's items go in a seeded random order (:func:`~pytest_pau.stats.sequential.early_stop_order`),
so the first t results are a uniform sample without replacement of the N selected items,
which is what the anytime-valid monitors of :mod:`pytest_pau.stats.sequential` assume.
Results *arrive* in another order (episodes run in parallel, and a slow item, perhaps a
hard one, finishes late): feeding them as they arrive would make the sample depend on
the scores. :class:`EarlyStopTracker` therefore holds results back and feeds the monitors
only the longest complete prefix of the seeded order. An item without a score (an
infrastructure error, a skip mark, an unparseable judge answer for the judge gate)
leaves that gate's population.

Once every gate is decided the tracker is frozen: its verdicts are the ones the run
reports (results of episodes still in flight are reported, but do not reopen a decided
verdict, since the guarantee is for the first decision).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_pau.models import GateVerdict, InstanceResult, RegressionVerdict, Scored
from pytest_pau.models.paper import DEFAULT_PROTOCOL
from pytest_pau.stats.gates import GATE_TABLE
from pytest_pau.stats.metrics import BOUNDS, METRICS, counted, value_getter
from pytest_pau.stats.sequential import GateMonitor, PairedGateMonitor


@dataclass
class _Gate:
    monitor: GateMonitor | None
    """None: nothing to measure (an empty population), which fails."""
    metric: str
    bar: float
    """The level gate's threshold, or the baseline gate's margin."""
    excluded: int = 0


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
    """

    def __init__(
        self,
        order: Sequence[str],
        *,
        levels: Mapping[str, float],
        margins: Mapping[str, float] | None = None,
        baseline: Mapping[str, Scored] | None = None,
        confidence: float = 0.95,
        protocol: str = DEFAULT_PROTOCOL,
    ) -> None:
        self.order = list(dict.fromkeys(order))
        self.confidence = confidence
        self.protocol = protocol
        self.baseline = dict(baseline or {})
        self._pending: dict[str, InstanceResult | None] = {}
        self._pos = 0
        self.decided_after: int | None = None
        """Items fed when every gate was first decided."""
        n = len(self.order)
        self.levels: dict[str, _Gate] = {}
        for name, threshold in levels.items():
            metric = GATE_TABLE[name][2]
            monitor = (
                GateMonitor(threshold, bounds=BOUNDS[metric], population=n, confidence=confidence)
                if n
                else None
            )
            self.levels[name] = _Gate(monitor, metric, threshold)
        self.pairs: dict[str, _Gate] = {}
        for metric, margin in (margins or {}).items():
            getter = value_getter(metric, protocol)
            paired = sum(
                1 for i in self.order if i in self.baseline and getter(self.baseline[i]) is not None
            )
            monitor = (
                PairedGateMonitor(
                    margin, bounds=BOUNDS[metric], population=paired, confidence=confidence
                )
                if paired
                else None
            )
            self.pairs[metric] = _Gate(monitor, metric, margin)

    # -- feeding -------------------------------------------------------------------------

    @property
    def decided(self) -> bool:
        """Every gate has a verdict (an unmeasurable gate counts as a failed one)."""
        gates = [*self.levels.values(), *self.pairs.values()]
        return bool(gates) and all(
            g.monitor is None or g.monitor.verdict != "undecided" for g in gates
        )

    @property
    def fed(self) -> int:
        """Items of the seeded order fed so far (the complete prefix)."""
        return self._pos

    def add(self, item_id: str, result: InstanceResult | None) -> bool:
        """Take one item's result (None: it ended without one); True when this decided all.

        Ids outside the order (not selected) are ignored; after the decision, nothing is fed.
        """
        if self.decided_after is not None or item_id in self._pending:
            return False
        self._pending[item_id] = result
        while self._pos < len(self.order) and self.order[self._pos] in self._pending:
            self._feed(self.order[self._pos], self._pending[self.order[self._pos]])
            self._pos += 1
            if self.decided:
                self.decided_after = self._pos
                return True
        return False

    def finish(self, *, complete: bool) -> None:
        """The run ended: feed what is held back.

        Args:
            complete: Every selected item was run (not interrupted): an id that never
                reported ended without a result and leaves the populations. Otherwise
                feeding stops at the first id that never reported, and undecided gates
                stay undecided (and fail).
        """
        while self.decided_after is None and self._pos < len(self.order):
            item_id = self.order[self._pos]
            if item_id not in self._pending and not complete:
                return
            self._feed(item_id, self._pending.get(item_id))
            self._pos += 1
            if self.decided:
                self.decided_after = self._pos

    def _feed(self, item_id: str, result: InstanceResult | None) -> None:
        for gate in self.levels.values():
            value = None if result is None else counted(result, gate.metric, self.protocol)
            self._give(gate, value)
        for metric, gate in self.pairs.items():
            getter = value_getter(metric, self.protocol)
            base = self.baseline.get(item_id)
            base_value = None if base is None else getter(base)
            if base_value is None:
                continue  # not part of the paired population
            new = None if result is None else getter(result)
            if gate.monitor is None:
                continue
            if new is None:
                self._exclude(gate)
            else:
                assert isinstance(gate.monitor, PairedGateMonitor)
                gate.monitor.update_pair(new, base_value)

    def _give(self, gate: _Gate, value: float | None) -> None:
        if gate.monitor is None:
            return
        if value is None:
            self._exclude(gate)
        else:
            gate.monitor.update(value)

    @staticmethod
    def _exclude(gate: _Gate) -> None:
        assert gate.monitor is not None
        gate.excluded += 1
        try:
            gate.monitor.exclude()
        except ValueError:  # every item of its population left it: nothing to measure
            gate.monitor = None

    # -- verdicts ------------------------------------------------------------------------

    def level_verdicts(self, *, finished: bool) -> list[GateVerdict]:
        """The level gates' verdicts; ``finished``: the run went to its end."""
        out = []
        for name, gate in self.levels.items():
            label, option, _ = GATE_TABLE[name]
            m = gate.monitor
            if m is None:
                out.append(
                    GateVerdict(
                        name=name,
                        label=label,
                        option=option,
                        threshold=gate.bar,
                        statistic="sequential",
                        detail="no scored item",
                    )
                )
                continue
            st = m.state()
            out.append(
                GateVerdict(
                    name=name,
                    label=label,
                    option=option,
                    threshold=st.threshold,
                    statistic="sequential",
                    value=st.mean,
                    margin=None if st.mean is None else st.mean - st.threshold,
                    passed=st.verdict == "pass",
                    detail=self._detail(st.verdict, st.seen, st.population, finished),
                )
            )
        return out

    def regression_verdicts(self, *, finished: bool) -> dict[str, RegressionVerdict]:
        """The baseline gates' verdicts, by metric."""
        out: dict[str, RegressionVerdict] = {}
        for metric, gate in self.pairs.items():
            m = gate.monitor
            if m is None:
                out[metric] = RegressionVerdict(
                    metric=metric,
                    label=METRICS[metric][0],
                    margin=gate.bar,
                    method="sequential",
                    detail="no instance scored in both runs",
                )
                continue
            st = m.state()
            low, high = st.low, st.high
            out[metric] = RegressionVerdict(
                metric=metric,
                label=METRICS[metric][0],
                margin=gate.bar,
                n=st.seen,
                mean_diff=st.mean,
                low=low,
                high=high,
                method="sequential",
                passed=st.verdict == "pass",
                detail=self._detail(st.verdict, st.seen, st.population, finished),
            )
        return out

    def _detail(self, verdict: str, seen: int, population: int | None, finished: bool) -> str:
        if verdict == "undecided":
            return f"undecided after {seen} of {population} items" + (
                "" if finished else ": the run stopped before the verdict was known"
            )
        if self.decided_after is not None and self.decided_after < len(self.order):
            return f"decided after {self.decided_after} of {len(self.order)} items"
        return f"exact: all {population} items seen"
