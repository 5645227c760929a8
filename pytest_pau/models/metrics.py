"""The metrics a gate or a comparison reads (keys, names, scales, margins) and the level gates.

One vocabulary for the option parsers (:mod:`pytest_pau.settings.values`), the statistics
(:mod:`pytest_pau.stats`) and ``pau compare``. The parsers raise ``ValueError`` with a
message for people; the option layer turns it into its own error type.

:data:`LEVEL_GATES` is the one table of the level gates (``--pau-min-*``): the settings'
fields and option rows (:mod:`pytest_pau.settings`), the gates' verdicts
(:mod:`pytest_pau.stats.gates`, the early stop), the judge check's list of judge-based
gates, the summary's formats and the option table of ``docs/options.md`` are read from it.
Adding a level gate is one row here, plus its metric's value in
:mod:`pytest_pau.stats.metrics` when the metric is new.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The metrics a gate or a comparison reads: key -> (name for people, (low, high) of its scale).
METRICS: dict[str, tuple[str, tuple[float, float]]] = {
    "judge": ("judge score", (1.0, 5.0)),
    "match": ("code match", (0.0, 1.0)),
    "pass": ("pass rate", (0.0, 1.0)),
}


@dataclass(frozen=True)
class LevelGate:
    """One level gate: the mean of a metric over the selection against a threshold."""

    key: str
    """The setting (``min_mean_judge``: ``--pau-min-mean-judge``, ini ``pau_min_mean_judge``)
    and the gate's ``name`` in the JSON report."""
    metric: str
    """The metric whose mean it bounds (a key of :data:`METRICS`)."""
    label: str
    """What it measures, for people: ``mean judge score``."""
    explained: str
    """How its option's help text names it: ``the mean judge score``."""
    percent: bool = False
    """Whether its value is shown as a percentage."""

    @property
    def option(self) -> str:
        """The option that sets it: ``--pau-min-mean-judge``."""
        return "--pau-" + self.key.replace("_", "-")


#: The level gates, by key, in the order ``--help``, the summary and the report list them.
LEVEL_GATES: dict[str, LevelGate] = {
    g.key: g
    for g in (
        LevelGate("min_mean_judge", "judge", "mean judge score", "the mean judge score"),
        LevelGate("min_pass_rate", "pass", "pass rate", "the share of passed items", True),
        LevelGate("min_mean_match", "match", "mean code match", "the mean code match"),
    )
}

#: Other spellings of the metric keys (``--fail-if-worse``, ``--pau-max-regression``).
METRIC_ALIASES = {
    "judge_score": "judge",
    "code_match": "match",
    "pass_rate": "pass",
    "passed": "pass",
}


def metric_key(text: str) -> str:
    """The canonical metric key (``judge``, ``match``, ``pass``) for ``text`` or an alias."""
    key = METRIC_ALIASES.get(text.strip().lower(), text.strip().lower())
    if key not in METRICS:
        raise ValueError(
            f"unknown metric {text.strip()!r}; expected one of {', '.join(METRICS)} "
            f"(or {', '.join(METRIC_ALIASES)})"
        )
    return key


def parse_margin(text: str) -> tuple[str, float]:
    """One ``METRIC:DELTA`` (``judge:0.2``): an allowed regression on the metric's scale."""
    metric, sep, delta_text = str(text).strip().partition(":")
    if not sep:
        raise ValueError(f"expected METRIC:DELTA such as 'judge:0.2', got {str(text).strip()!r}")
    key = metric_key(metric)
    try:
        delta = float(delta_text)
    except ValueError:
        raise ValueError(
            f"{str(text).strip()!r}: DELTA must be a number such as 0.2, got {delta_text!r}"
        ) from None
    low, high = METRICS[key][1]
    if not 0 <= delta < high - low:
        raise ValueError(
            f"{str(text).strip()!r}: DELTA must be >= 0 and below {high - low:g} "
            f"(the range of the {METRICS[key][0]}), got {delta!r}"
        )
    return key, delta


def margins_of(text: str) -> dict[str, float]:
    """``judge:0.2,match:0.05`` as ``{metric: margin}``; a metric named twice is refused."""
    out: dict[str, float] = {}
    for part in str(text).split(","):
        key, delta = parse_margin(part)
        if key in out:
            raise ValueError(f"{text!r} names {key!r} twice")
        out[key] = delta
    return out
