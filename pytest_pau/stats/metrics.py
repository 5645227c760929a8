"""The three metrics runs are compared on, read from instance results.

Their keys, names for people, scales and the ``METRIC:DELTA`` syntax are in
:mod:`pytest_pau.models.metrics` (``METRICS``, ``METRIC_ALIASES``, ``parse_margin``), which
the option rows share; this module adds how to read each from a result and the
``ConfigError`` versions of the parsers for ``pau compare``.

**What an item counts as** is one rule, :func:`counted`, read by the summary, the gates,
the early stop, ``pau compare``, ``--pau-baseline`` and the calibration store. Under the
default protocol (``pytest-pau``) an item that errored or was skipped has no value. Under
``--pau-protocol=paper`` an item that ran counts as the PAU reference counts its rows
(``see.py``: ``fillna(1)`` on the judge score, ``fillna(0)`` on code match): a missing
judge rating is 1, a missing code match 0, a pass 0, errors included; a skipped item (not
run: budget, early stop) has no value under either protocol, the reference having no row
for it.
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_pau.errors import ConfigError
from pytest_pau.models import Scored
from pytest_pau.models import metrics as vocabulary
from pytest_pau.models.paper import DEFAULT_PROTOCOL, PAPER

Getter = Callable[[Scored], "float | None"]


def is_scored(r: Scored) -> bool:
    """Scored: neither an infrastructure error nor skipped."""
    return r.error is None and r.skipped is None


#: Under ``--pau-protocol=paper``: what a missing value of each metric counts as.
PAPER_FILL: dict[str, float] = {"judge": 1.0, "match": 0.0, "pass": 0.0}


def _raw(r: Scored, metric: str) -> float | None:
    if metric == "judge":
        return r.judge_score
    if metric == "match":
        return r.code_match
    return float(r.passed)


def counted(r: Scored, metric: str, protocol: str = DEFAULT_PROTOCOL) -> float | None:
    """The value ``r`` counts as for ``metric`` (``judge``, ``match``, ``pass``).

    None means the item has no value (it is left out, or a gate bounds it as unseen):
    a skipped item always; an errored one under ``pytest-pau``. Under ``paper`` an item
    that ran always has one: its own where it has it, else :data:`PAPER_FILL` (an
    unparseable judge answer: 1; no code match, e.g. the episode errored: 0; an errored
    item never passed: 0).
    """
    if r.skipped is not None:
        return None
    if protocol == PAPER:
        # What the item has counts (an item whose judge gave no rating keeps its code
        # match); only what is missing takes the fill value. An error never passes.
        value = _raw(r, metric)
        return PAPER_FILL[metric] if value is None else value
    return _raw(r, metric) if r.error is None else None


def counts(r: Scored, protocol: str = DEFAULT_PROTOCOL) -> bool:
    """Whether ``r`` is in the means at all under ``protocol`` (scored, or ran for paper)."""
    return r.skipped is None and (protocol == PAPER or r.error is None)


def value_getter(metric: str, protocol: str = DEFAULT_PROTOCOL) -> Getter:
    """``counted`` of one metric and protocol, as a one-argument getter."""
    return lambda r: counted(r, metric, protocol)


#: metric key -> (display name, value getter under the default protocol: errors and
#: skips are missing values). Other protocols: :func:`value_getter`.
METRICS: dict[str, tuple[str, Getter]] = {
    key: (vocabulary.METRICS[key][0], value_getter(key)) for key in ("judge", "match", "pass")
}
#: metric key -> the (low, high) of its scale, which no interval leaves.
BOUNDS: dict[str, tuple[float, float]] = {k: v[1] for k, v in vocabulary.METRICS.items()}
METRIC_ALIASES = vocabulary.METRIC_ALIASES
#: RunInfo fields that make scores incomparable when they differ, with their names.
CHECKED_FIELDS = {
    "dataset": "dataset",
    "split": "split",
    "mode": "mode",
    "max_iterations": "max iterations",
    "prompts_version": "prompts version",
    "judge_model": "judge model",
    "coder_model": "coder model",
    "protocol": "protocol",
}


def parse_metric(text: str) -> str:
    """The canonical metric key for ``text``.

    Raises:
        ConfigError: ``text`` names no metric.
    """
    try:
        return vocabulary.metric_key(text)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def parse_fail_if_worse(text: str) -> tuple[str, float]:
    """Parse ``--fail-if-worse METRIC:DELTA`` (``judge:0.1``, ``pass:0.02``).

    Raises:
        ConfigError: not ``METRIC:DELTA`` with a known metric and a DELTA in
            ``[0, range of the metric)``.
    """
    try:
        return vocabulary.parse_margin(text)
    except ValueError as exc:
        raise ConfigError(f"--fail-if-worse: {exc}") from None


def parse_margins(text: str) -> dict[str, float]:
    """Parse ``judge:0.2,match:0.05,pass:0.05`` into ``{metric: margin}``.

    Raises:
        ConfigError: a part is not ``METRIC:DELTA``, or a metric is named twice.
    """
    try:
        return vocabulary.margins_of(text)
    except ValueError as exc:
        raise ConfigError(f"--pau-max-regression: {exc}") from None
