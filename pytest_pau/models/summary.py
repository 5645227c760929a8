"""The run summary and the release-gate verdicts, as the renderer, the HTML, the plots,
``pau compare`` and ``pau train`` read them (the JSON report's ``summary`` block).

Conventions (computed by :func:`pytest_pau.report.summary.build_summary`):
    * An item that errored (infrastructure) or was skipped is counted but never scored:
      pass rate, means and histograms use the *scored* items only.
    * A judge score that could not be parsed is a missing value, never a number.
    * Under ``--pau-protocol=paper`` (:mod:`pytest_pau.models.paper`) an item that ran and
      errored counts too, as the reference counts it: a missing judge rating is 1, a
      missing code match 0, a pass 0 (:func:`pytest_pau.stats.metrics.counted`).
    * Intervals are 95% and may be None (no value, or none computed).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, computed_field

from pytest_pau.models.judge_check import JudgeCheck
from pytest_pau.models.paper import PaperStats
from pytest_pau.models.verdicts import (
    BaselineSummary,
    Decision,
    EarlyStop,
    GateVerdict,
    RegressionVerdict,
    Verdict,
)

__all__ = [
    "BaselineSummary",
    "Calibration",
    "Counts",
    "Decision",
    "EarlyStop",
    "FlaggedItem",
    "GateVerdict",
    "GoldStats",
    "GroupStats",
    "ItemError",
    "JudgeStats",
    "MatchStats",
    "RegressionVerdict",
    "Summary",
    "TokenCounts",
    "Verdict",
]

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
    counted: int = 0
    """Items the means, intervals and gates count: the scored ones, or under
    ``--pau-protocol=paper`` every item that ran (errors with the fill values)."""
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


class FlaggedItem(BaseModel):
    """An item whose prediction addressed the grader (``InstanceResult.judge_manipulation``).

    Judge and code match side by side: the code runs on held-back inputs, so a note to
    the grader cannot lift it; a code match that agrees with the defended score says the
    defence, not the model's talk, decided.
    """

    model_config = _TOLERANT

    id: str
    judge_raw: float | None = None
    """The judge's score of the prediction as written."""
    judge_defended: float | None = None
    """The judge's score without the flagged text."""
    judge_score: float | None = None
    """The score the item got (the lower of the two)."""
    code_match: float | None = None
    passed: bool = False


class TokenCounts(BaseModel):
    """Tokens over every model call of the run."""

    model_config = _TOLERANT

    prompt: int = 0
    completion: int = 0
    """Tokens of the visible answers."""
    reasoning: int = 0
    """Hidden reasoning tokens of reasoning models (billed; in ``cost_usd``)."""


class Calibration(BaseModel):
    """How far ``oracle`` and ``null`` are apart on this run's selection, with its scorers.

    Shown when the judge or the coder is embedded (low fidelity): the distance between
    the gold description and none at all says how much room this judge and coder leave
    for a model. Figures come only from oracle/null runs with the same judge, coder,
    prompts version and instance contents (``report/calibration.py``); none is borrowed.
    """

    model_config = _TOLERANT

    scorers: str
    """The judge and coder the figures are for, in words (``judge local, coder local``)."""
    selected: int = 0
    """Instances this run selected."""
    known: int = 0
    """Of those, instances both ``oracle`` and ``null`` have scores for."""
    oracle_judge: float | None = None
    null_judge: float | None = None
    oracle_match: float | None = None
    null_match: float | None = None
    run_judge: float | None = None
    """This run's mean judge score on the same ``known`` instances."""
    run_match: float | None = None
    commands: list[str] = Field(default_factory=list)
    """Commands that measure what is not known (the same selection, oracle then null)."""
    store_error: str | None = None
    """Why the calibration store could not be read or written, when it could not."""

    @property
    def judge_gap(self) -> float | None:
        """``oracle - null`` mean judge score (None when either is unknown)."""
        if self.oracle_judge is None or self.null_judge is None:
            return None
        return self.oracle_judge - self.null_judge

    @property
    def match_gap(self) -> float | None:
        """``oracle - null`` mean code match (None when either is unknown)."""
        if self.oracle_match is None or self.null_match is None:
            return None
        return self.oracle_match - self.null_match


class Summary(BaseModel):
    """Everything the terminal block and the JSON report's ``summary`` show."""

    model_config = _TOLERANT

    counts: Counts = Field(default_factory=Counts)
    pass_rate: float | None = None
    pass_rate_ci: list[float] | None = None
    judge: JudgeStats = Field(default_factory=JudgeStats)
    code_match: MatchStats = Field(default_factory=MatchStats)
    gold_code_match: GoldStats | None = None
    self_code_match: GoldStats | None = None
    """``--pau-coder=self``: the model under test's own code match (mean over the items
    counted, as the fixed coder's mean)."""
    protocol: str = "pytest-pau"
    """How missing scores counted (``--pau-protocol``); under ``paper`` the means, the
    intervals and the gates count every item that ran (a missing rating as 1, a missing
    code match as 0)."""
    paper: PaperStats | None = None
    """Under ``--pau-protocol=paper``: the paper's statistics block."""
    failure_modes: dict[str, int] = Field(default_factory=dict)
    """Failed items per model failure mode (``unclassified`` for a failed item without one)."""
    coder_errors: int = 0
    """Failed items the coder could not reach from the gold description either
    (``coder_error``): the scorer's limitation, not counted in :attr:`failure_modes`."""
    infrastructure_errors: int = 0
    errors: list[ItemError] = Field(default_factory=list)
    flagged: list[FlaggedItem] = Field(default_factory=list)
    """Items whose prediction addressed the grader, scored without that text."""
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
    waits: dict[str, int] = Field(default_factory=dict)
    """Requests that waited before they were sent, by reason (the quota's ``requests`` or
    ``tokens``, ``429``, ``congestion``, ``connections``, ``first answer``)."""
    wait_s: dict[str, float] = Field(default_factory=dict)
    """Seconds they waited, by reason (summed over requests that waited at once)."""
    quotas: dict[str, str] = Field(default_factory=dict)
    """The provider quotas requests were paced at, per endpoint and model."""
    local_prompt: dict[str, int] = Field(default_factory=dict)
    """An embedded model's prompt tokens ``sent`` and ``evaluated`` (the rest reused)."""
    flex: dict[str, float] = Field(default_factory=dict)
    """Flex tier: ``calls``, ``fallbacks``, ``saved_usd``; empty without flex."""
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
    baseline: BaselineSummary | None = None
    early_stop: EarlyStop | None = None
    calibration: Calibration | None = None
    """Oracle and null on this selection, when the judge or coder is embedded."""
    judge_check: JudgeCheck | None = None
    """``--pau-judge-check``: whether the judge rated the gold above a decoy (None: off)."""
    unknown: dict[str, int] = Field(default_factory=dict)
    """Selected items without a score, by cause (``not run (budget spent)``, ``errored``,
    ``no result``, ``not run (early stop)``...)."""
    verdict: Verdict | None = None
    """The release verdict and the exit status (None only in a summary built outside a run)."""
    gates_passed: bool = True
    """With a gate set: ``verdict.status == "passed"`` (kept for older readers; never true
    beside a non-zero exit status). True when no gate is set."""

    @property
    def failed_gates(self) -> list[GateVerdict]:
        """The gates that are not met (failed or not decided)."""
        return [g for g in self.gates if not g.passed]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def requests(self) -> int:
        """Requests really made to a provider or local model (what ``cost_usd`` paid for).

        Serialized beside ``cache_hits`` and ``cost_usd`` so a reader of the JSON report
        needs no arithmetic; computed, never stored, so it cannot disagree with
        ``model_calls - cache_hits`` (a report written before it existed reads the same).
        """
        return self.model_calls - self.cache_hits
