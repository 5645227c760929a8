"""The three metrics runs are compared on, read from instance results.

Their keys, names for people, scales and the ``METRIC:DELTA`` syntax are in
:mod:`pytest_pau.models.metrics` (``METRICS``, ``METRIC_ALIASES``, ``parse_margin``), which
the option rows share; this module adds how to read each from a result (errors and skips
have no value) and the ``ConfigError`` versions of the parsers for ``pau compare``.
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_pau.errors import ConfigError
from pytest_pau.models import Scored
from pytest_pau.models import metrics as vocabulary

Getter = Callable[[Scored], "float | None"]


def is_scored(r: Scored) -> bool:
    """Scored: neither an infrastructure error nor skipped."""
    return r.error is None and r.skipped is None


#: metric key -> (display name, value getter). Errors and skips are missing values.
METRICS: dict[str, tuple[str, Getter]] = {
    "judge": (vocabulary.METRICS["judge"][0], lambda r: r.judge_score if is_scored(r) else None),
    "match": (vocabulary.METRICS["match"][0], lambda r: r.code_match if is_scored(r) else None),
    "pass": (vocabulary.METRICS["pass"][0], lambda r: float(r.passed) if is_scored(r) else None),
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
