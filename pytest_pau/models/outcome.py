"""What scoring makes of an episode: the verdicts, the pass rule, the result vocabulary.

The vocabulary every reader shares lives here: :class:`ItemStatus` (passed / failed /
error / skipped, as :attr:`InstanceResult.status`), :class:`SkipCause` (why a skipped item
was not run, as :attr:`InstanceResult.skip_cause`), :class:`FailureMode`, and
:class:`PassRule`, the one rule that decides whether an item passes and explains why not.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pytest_pau.models.episode import Step, Usage
from pytest_pau.models.instance import Instance
from pytest_pau.models.judge_check import JudgeCheckItem


class ItemStatus(StrEnum):
    """How an item ended."""

    PASSED = "passed"
    FAILED = "failed"
    """Scored and below a threshold: the model's result."""
    ERROR = "error"
    """The infrastructure could not run or score it (E): never counted against the model."""
    SKIPPED = "skipped"
    """Not run (budget spent, an early-stopped gate...)."""


class SkipCause(StrEnum):
    """Why an item was not run: set where the skip is decided, read by every verdict.

    The words of the skip (:attr:`InstanceResult.skipped`) are for people and may change;
    the gates, the early stop's count and the summary's "unknown" causes read this.
    """

    EARLY_STOP = "early_stop"
    """``--pau-early-stop`` decided every gate before the item started."""
    BUDGET = "budget"
    """``--pau-max-cost-usd``: the budget left could not pay for the item."""
    STREAK = "streak"
    """Items in a row failed with the same error that no retry fixes (``plugin/streak.py``)."""
    INTERRUPTED = "interrupted"
    """Ctrl-C, SIGTERM or SIGHUP stopped the run before the item ran."""
    PYTEST_STOPPED = "pytest_stopped"
    """pytest stopped the run (``-x``, ``--maxfail``) before the item started."""
    NOT_RUN = "not_run"
    """Any other reason (a reference row without a judge file, a report written before
    this field whose words name no cause above)."""


@dataclass(frozen=True)
class Skip:
    """Why an item is not run: the cause (what verdicts read) and the words (what people
    read, :attr:`InstanceResult.skipped`)."""

    cause: SkipCause
    reason: str


#: The words reports written before :attr:`InstanceResult.skip_cause` existed used for each
#: cause (first match wins). Frozen: it reads old reports only, a new skip sets its cause.
_LEGACY_SKIP_WORDS: tuple[tuple[str, SkipCause], ...] = (
    ("--pau-early-stop", SkipCause.EARLY_STOP),
    ("--pau-max-cost-usd", SkipCause.BUDGET),
    ("in a row failed with the same error", SkipCause.STREAK),
    ("interrupted", SkipCause.INTERRUPTED),
    ("pytest stopped the run", SkipCause.PYTEST_STOPPED),
)


def legacy_skip_cause(data: Any) -> Any:
    """A result read without ``skip_cause`` (a report of an older version): its cause from
    the words of its ``skipped`` text, as those versions wrote them."""
    if isinstance(data, dict) and data.get("skipped") is not None and "skip_cause" not in data:
        text = str(data["skipped"])
        cause = next((c for words, c in _LEGACY_SKIP_WORDS if words in text), SkipCause.NOT_RUN)
        data = {**data, "skip_cause": cause}
    return data


class FailureMode(StrEnum):
    """Why an item failed; ``none`` for a passing item."""

    NONE = "none"
    INSUFFICIENT_EXPLORATION = "insufficient_exploration"
    REASONING_ERROR = "reasoning_error"
    FORMAT_FOLLOWING = "format_following"
    HALLUCINATION = "hallucination"
    SELF_CONTRADICTION = "self_contradiction"
    JUDGE_MANIPULATION = "judge_manipulation"
    """The prediction addressed the grader (``scoring/integrity/``); it was scored
    without that text."""
    CODER_ERROR = "coder_error"
    """Code match failed, and the coder misses the behaviour from the gold description too
    (gold control below the match threshold): the coder's limitation, not the model's."""
    INFRASTRUCTURE = "infrastructure"

    @classmethod
    def of_the_model(cls) -> tuple[FailureMode, ...]:
        """The modes that blame the model under test (what a classify hook may answer)."""
        return tuple(m for m in cls if m not in (cls.NONE, cls.CODER_ERROR, cls.INFRASTRUCTURE))

    @classmethod
    def of_failed_items(cls) -> tuple[FailureMode, ...]:
        """The modes a failed (scored) item can have: the model's, then ``coder_error``."""
        return (*cls.of_the_model(), cls.CODER_ERROR)


FAILURE_MODES: tuple[str, ...] = tuple(FailureMode)
"""Every failure mode's name, in the enum's order."""


@dataclass(frozen=True)
class PassRule:
    """An item passes when its judge score and its code match both reach their thresholds.

    One rule decides (:meth:`passes`) and explains (:meth:`shortfalls`), so the verdict and
    the message can never disagree.
    """

    judge_threshold: float
    match_threshold: float

    def shortfalls(self, judge_score: float | None, code_match: float | None) -> list[str]:
        """What the item missed: ``["judge score 2 < 3", "code match 0.25 < 0.8"]``."""
        out = []
        if judge_score is None or judge_score < self.judge_threshold:
            shown = "n/a" if judge_score is None else format(judge_score, ".2g")
            out.append(f"judge score {shown} < {self.judge_threshold:g}")
        if code_match is None or code_match < self.match_threshold:
            shown = "n/a" if code_match is None else format(code_match, ".2f")
            out.append(f"code match {shown} < {self.match_threshold:g}")
        return out

    def passes(self, judge_score: float | None, code_match: float | None) -> bool:
        """Whether both scores are present and at or above their thresholds."""
        return not self.shortfalls(judge_score, code_match)


JudgeScore = Annotated[float, Field(ge=1.0, le=5.0, allow_inf_nan=False, strict=True)]
"""A judge score: a number in [1, 5] (NaN refused where a score enters: a result read from
a worker, a report or a baseline; the evaluator checks what the judge gave)."""
UnitScore = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False, strict=True)]
"""A code match: a number in [0, 1], NaN refused. Both are strict: a string (``"5"``) is
refused rather than read as the number it spells (an edited baseline)."""
Finite = Annotated[float, Field(allow_inf_nan=False)]
"""A statistic of scores (a spread, a weighted mean): any finite number."""


def score_problem(name: str, value: float | None, bounds: tuple[float, float]) -> str | None:
    """Why ``value`` is no score on ``bounds`` (None: it is one, or it is missing)."""
    if value is None:
        return None
    if not isinstance(value, (int, float)) or not bounds[0] <= value <= bounds[1]:  # NaN too
        return (
            f"{name} {value!r} is not a number in [{bounds[0]:g}, {bounds[1]:g}]: refused "
            "(a score must be a finite number on its scale)"
        )
    return None


class JudgeResult(BaseModel):
    """The judge's verdict on one prediction."""

    score: float | None
    """Mean of the ratings (1-5), None when any sample's rating could not be parsed."""
    ratings: list[int | None] = Field(default_factory=list)
    """Each sample's parsed rating (``--pau-judge-samples``), None when unparseable."""
    explanation: str = ""
    spread: float | None = None
    """Standard deviation of the parsed ratings when more than one sample was taken."""
    logprob_score: float | None = None
    """Probability-weighted mean rating, where the provider returns logprobs."""
    unparseable: int = 0
    """How many judge answers had no parseable rating even after the retry."""
    usage: Usage = Field(default_factory=Usage)
    manipulation: list[str] = Field(default_factory=list)
    """What ``scoring/integrity/`` found in the prediction that addresses the grader
    (one line per finding); empty for a clean prediction."""
    raw_score: float | None = None
    """When ``manipulation`` is set: the score of the prediction as written."""
    defended_score: float | None = None
    """When ``manipulation`` is set: the score without the flagged text (the second
    opinion); ``score`` is the lower of the two."""


class Mismatch(BaseModel):
    """One test input where the predicted code disagreed with the method."""

    input: str
    expected: str
    got: str


class CodeMatchResult(BaseModel):
    """How well code written from the prediction reproduces the method."""

    score: float | None
    """Fraction of test inputs whose outputs match; None when not computed."""
    code: str = ""
    """The code the coder wrote."""
    n_inputs: int = 0
    n_matched: int = 0
    mismatches: list[Mismatch] = Field(default_factory=list)
    """The first few mismatching inputs."""
    error: str | None = None
    """Why the code scored 0 without running (no ``test_func``, syntax error...)."""
    usage: Usage = Field(default_factory=Usage)


class InstanceResult(BaseModel):
    """The scored outcome of one item: one entry of the JSON report's ``instances``."""

    # NaN is written as NaN (not null), so that a worker's NaN score reaches the
    # controller and is refused there rather than turning silently into "no score".
    model_config = ConfigDict(ser_json_inf_nan="constants")

    id: str
    source: str
    arity: int
    tags: list[str] = Field(default_factory=list)
    passed: bool = False
    judge_score: JudgeScore | None = None
    judge_explanation: str = ""
    judge_ratings: list[int | None] = Field(default_factory=list)
    judge_spread: Finite | None = None
    judge_logprob_score: Finite | None = None
    judge_unparseable: int = 0
    judge_manipulation: list[str] = Field(default_factory=list)
    """Text of the prediction addressed to the grader (see ``JudgeResult.manipulation``)."""
    judge_raw_score: JudgeScore | None = None
    """When the prediction addressed the grader: its score as written (``judge_score`` is
    the lower of this and the score without that text)."""
    judge_defended_score: JudgeScore | None = None
    """When the prediction addressed the grader: its score without that text."""
    code_match: UnitScore | None = None
    code: str = ""
    mismatches: list[Mismatch] = Field(default_factory=list)
    gold_code_match: UnitScore | None = None
    """``--pau-gold-control``: code match of the coder on the gold description."""
    judge_check: JudgeCheckItem | None = None
    """``--pau-judge-check``: the judge's ratings of the gold and of a decoy, when this item
    was in the check's sample."""
    self_code_match: UnitScore | None = None
    """``--pau-coder=self``: code match of code the model under test wrote from its own
    description (the reference's "judge-self" variant), beside the fixed coder's."""
    self_code: str = ""
    """``--pau-coder=self``: the code the model under test wrote."""
    self_code_error: str | None = None
    """``--pau-coder=self``: why the model under test wrote no code to run (its call
    failed); the item's other scores stand."""
    concluded: bool = False
    overconfident: bool = False
    """Concluded YES and failed."""
    n_queries: int = 0
    failure_mode: FailureMode = FailureMode.NONE
    failure_detail: str = ""
    """How ``failure_mode`` was decided (``disagrees with 1 of 2 observed calls; first: input
    (3,): the agent saw 6, the code written from its description gives 9``, ``classifier``, ``classifier answer unparseable: default``, ``hook``...)."""
    prediction: str = ""
    gold: str = ""
    trajectory: list[Step] = Field(default_factory=list)
    tokens: dict[str, int] = Field(
        default_factory=lambda: {"prompt": 0, "completion": 0, "reasoning": 0}
    )
    """``prompt``, ``completion`` (visible answers) and ``reasoning`` (hidden, billed) tokens."""
    cost_usd: float = 0.0
    cache_hits: int = 0
    """Answers of this item that came from the model cache (no cost)."""
    cache_hits_other_version: int = 0
    """Of those, answers stored by another pytest-pau or prompts version."""
    rate_limited: int = 0
    """Requests of this item a provider refused with a rate limit (HTTP 429), then retried."""
    connection_caps: dict[str, float] = Field(default_factory=dict)
    """``--pau-max-connections``: each endpoint's adaptive cap when this item ended."""
    connection_caps_lowest: dict[str, float] = Field(default_factory=dict)
    """The lowest each endpoint's cap went (in this process) before this item ended."""
    waits: dict[str, int] = Field(default_factory=dict)
    """Requests of this item that waited before they were sent, by reason (see
    :attr:`pytest_pau.models.Usage.waits`)."""
    wait_s: dict[str, float] = Field(default_factory=dict)
    """Seconds they waited, by reason."""
    quotas: dict[str, str] = Field(default_factory=dict)
    """The quotas paced at (in this process) when this item ended: ``"<endpoint> <model>"``
    -> ``"500 RPM, 200,000 TPM (headers)"``."""
    local_prompt: dict[str, int] = Field(default_factory=dict)
    """An embedded model's prompt tokens ``sent`` and ``evaluated`` (the rest came from its
    prefix cache), the ``answer_tokens`` it generated and the ``ms`` its answers took
    (prompt evaluation included); empty when no embedded model computed an answer."""
    flex: dict[str, float] = Field(default_factory=dict)
    """``--pau-service-tier=flex``: ``calls`` served at flex, ``fallbacks`` to the default
    tier, ``saved_usd`` against the default tier's price; empty without flex."""
    ended_at: float | None = None
    """When the item's evaluation ended (seconds since the epoch)."""
    model_calls: int = 0
    duration_s: float = 0.0
    error: str | None = None
    """Infrastructure error text, when the item could not be run."""
    skipped: str | None = None
    """Why the item was not run (budget spent...), in words."""
    skip_cause: SkipCause | None = None
    """Why the item was not run, as a :class:`SkipCause` (set with ``skipped``)."""

    _legacy = model_validator(mode="before")(legacy_skip_cause)

    @classmethod
    def not_run(cls, instance: Instance, skip: Skip) -> InstanceResult:
        """The result of an item that was not run, and why."""
        return cls(
            id=instance.id,
            source=instance.source,
            arity=instance.arity,
            tags=list(instance.tags),
            gold=instance.description,
            skipped=skip.reason,
            skip_cause=skip.cause,
        )

    @property
    def status(self) -> ItemStatus:
        """Passed, failed, error (infrastructure) or skipped: the one rule everybody reads."""
        if self.error is not None:
            return ItemStatus.ERROR
        if self.skipped is not None:
            return ItemStatus.SKIPPED
        return ItemStatus.PASSED if self.passed else ItemStatus.FAILED

    @property
    def scored(self) -> bool:
        """Whether the item counts in pass rates, means and histograms (passed or failed)."""
        return self.status in (ItemStatus.PASSED, ItemStatus.FAILED)
