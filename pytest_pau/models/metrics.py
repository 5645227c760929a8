"""The three metrics a gate or a comparison reads: keys, names, scales, margins.

One vocabulary for the option parsers (:mod:`pytest_pau.settings.values`), the statistics
(:mod:`pytest_pau.stats`) and ``pau compare``. The parsers raise ``ValueError`` with a
message for people; the option layer turns it into its own error type.
"""

from __future__ import annotations

#: The metrics a gate or a comparison reads: key -> (name for people, (low, high) of its scale).
METRICS: dict[str, tuple[str, tuple[float, float]]] = {
    "judge": ("judge score", (1.0, 5.0)),
    "match": ("code match", (0.0, 1.0)),
    "pass": ("pass rate", (0.0, 1.0)),
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
