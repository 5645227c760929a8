"""The run summary and the release-gate verdicts, as the renderer, the HTML, the plots,
``pau compare`` and ``pau train`` read them (the JSON report's ``summary`` block).

Conventions (computed by :func:`pytest_pau.report.summary.build_summary`):
    * An item that errored (infrastructure) or was skipped is counted but never scored:
      pass rate, means and histograms use the *scored* items only.
    * A judge score that could not be parsed is a missing value, never a number.
    * Intervals are 95% and may be None (no value, or none computed).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

#: Readers ignore keys they do not know, so a newer report still loads.
_TOLERANT = ConfigDict(extra="ignore")


class Counts(BaseModel):
    """How many items ended which way."""

    model_config = _TOLERANT

    selected: int = 0
    """Items pytest selected to run (more than ``items`` when some produced no result)."""
    items: int = 0
    """Items with a PAU result."""
    scored: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0


class JudgeStats(BaseModel):
    """Judge scores over the scored items."""

    model_config = _TOLERANT

    mean: float | None = None
    ci: list[float] | None = None
    n: int = 0
    """Scored items with a judge score."""
    unparseable: int = 0
    """Scored items whose judge score is missing."""
    unparseable_answers: int = 0
    """Judge answers without a parseable rating, over all items, retries included."""
    histogram: dict[str, int] = Field(default_factory=dict)
    """``"1"``..``"5"`` -> items (an averaged score in the bucket of its nearest integer)."""


class MatchStats(BaseModel):
    """Code match over the scored items."""

    model_config = _TOLERANT

    mean: float | None = None
    ci: list[float] | None = None
    n: int = 0
    missing: int = 0
    histogram: dict[str, int] = Field(default_factory=dict)
    """Tenths, ``"0.0"`` = [0, 0.1) ... ``"0.9"`` = [0.9, 1), and ``"1.0"`` for perfect."""


class GoldStats(BaseModel):
    """``--pau-gold-control``: the coder on the gold descriptions (its ceiling)."""

    model_config = _TOLERANT

    mean: float | None = None
    n: int = 0


class GroupStats(BaseModel):
    """One row of the by-arity / by-source / by-tag tables."""

    model_config = _TOLERANT

    items: int = 0
    scored: int = 0
    passed: int = 0
    pass_rate: float | None = None
    judge_mean: float | None = None
    match_mean: float | None = None


class ItemError(BaseModel):
    """An infrastructure error of one item."""

    model_config = _TOLERANT

    id: str
    error: str | None = None


class TokenCounts(BaseModel):
    """Tokens over every model call of the run."""

    model_config = _TOLERANT

    prompt: int = 0
    completion: int = 0
    """Tokens of the visible answers."""
    reasoning: int = 0
    """Hidden reasoning tokens of reasoning models (billed; in ``cost_usd``)."""


class GateVerdict(BaseModel):
    """One release gate's verdict."""

    model_config = _TOLERANT

    name: str
    """``min_mean_judge``, ``min_pass_rate`` or ``min_mean_match``."""
    label: str
    """What it measures, for people: ``mean judge score``."""
    option: str
    """The option that set it: ``--pau-min-mean-judge``."""
    threshold: float
    statistic: str = "mean"
    """``mean``, or ``ci_low`` (the lower 95% bound) with ``--pau-gate-on-ci``."""
    value: float | None = None
    """The measured statistic; None when nothing could be measured."""
    margin: float | None = None
    """``value - threshold``."""
    passed: bool = False

    @property
    def is_rate(self) -> bool:
        """Whether the value is a share, shown in percent."""
        return self.name == "min_pass_rate"


class Summary(BaseModel):
    """Everything the terminal block and the JSON report's ``summary`` show."""

    model_config = _TOLERANT

    counts: Counts = Field(default_factory=Counts)
    pass_rate: float | None = None
    pass_rate_ci: list[float] | None = None
    judge: JudgeStats = Field(default_factory=JudgeStats)
    code_match: MatchStats = Field(default_factory=MatchStats)
    gold_code_match: GoldStats | None = None
    failure_modes: dict[str, int] = Field(default_factory=dict)
    """Failed items per model failure mode (``unclassified`` for a failed item without one)."""
    coder_errors: int = 0
    """Failed items the coder could not reach from the gold description either
    (``coder_error``): the scorer's limitation, not counted in :attr:`failure_modes`."""
    infrastructure_errors: int = 0
    errors: list[ItemError] = Field(default_factory=list)
    skipped_reasons: dict[str, int] = Field(default_factory=dict)
    concluded: int = 0
    overconfident: int = 0
    n_queries_mean: float | None = None
    tokens: TokenCounts = Field(default_factory=TokenCounts)
    cost_usd: float = 0.0
    max_cost_usd: float | None = None
    """``--pau-max-cost-usd``, when set: calls already in flight when it is reached finish."""
    rate_limited: int = 0
    """Requests a provider refused with a rate limit (HTTP 429) and that were retried."""
    connection_caps: dict[str, float] = Field(default_factory=dict)
    """Each endpoint's adaptive ``--pau-max-connections`` cap when the last item ended."""
    connection_caps_lowest: dict[str, float] = Field(default_factory=dict)
    """The lowest each endpoint's cap went during the run."""
    model_calls: int = 0
    """Answers of every model call: requests made plus cache hits."""
    cache_hits: int = 0
    """Answers the response cache gave (no request, no cost)."""
    item_time_s: float = 0.0
    wall_s: float | None = None
    by_arity: dict[str, GroupStats] = Field(default_factory=dict)
    by_source: dict[str, GroupStats] = Field(default_factory=dict)
    by_tag: dict[str, GroupStats] = Field(default_factory=dict)
    gates: list[GateVerdict] = Field(default_factory=list)
    gates_passed: bool = True

    @property
    def failed_gates(self) -> list[GateVerdict]:
        """The gates that are not met."""
        return [g for g in self.gates if not g.passed]

    @property
    def requests(self) -> int:
        """Requests really made to a provider or local model (what ``cost_usd`` paid for)."""
        return self.model_calls - self.cache_hits
