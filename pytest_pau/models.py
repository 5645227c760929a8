"""The data that flows through pytest-pau, one pydantic model per thing.

Data moves one way: ``dataset`` makes :class:`Instance` objects, ``sandbox`` returns
:class:`CallResult` objects, ``agent`` records :class:`Step` objects into a
:class:`Trajectory`, ``scoring`` produces :class:`JudgeResult` and
:class:`CodeMatchResult`, and the plugin folds them into one :class:`InstanceResult`
per item, which ``report`` aggregates into a :class:`Report`.

Every stage imports this module and the stages before it, never the ones after.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

FailureMode = Literal[
    "none",
    "insufficient_exploration",
    "reasoning_error",
    "format_following",
    "hallucination",
    "self_contradiction",
    "judge_manipulation",
    "infrastructure",
]
"""Why an item failed; ``none`` for a passing item. ``judge_manipulation``: the prediction
addressed the grader (``scoring/integrity.py``) and was scored without that text."""

FAILURE_MODES: tuple[str, ...] = (
    "none",
    "insufficient_exploration",
    "reasoning_error",
    "format_following",
    "hallucination",
    "self_contradiction",
    "judge_manipulation",
    "infrastructure",
)


class Example(BaseModel):
    """One input/output pair of a method."""

    model_config = ConfigDict(frozen=True)

    input: str
    """The arguments as a Python tuple literal, e.g. ``"([1, 2], 3)"``."""
    output: str
    """``repr`` of the return value; the exception message when ``raises`` is set."""
    raises: str | None = None
    """Exception type name (``"ValueError"``) when the call raised, else ``None``."""


class Instance(BaseModel):
    """One PAU benchmark instance: a hidden method and what is known about it."""

    model_config = ConfigDict(frozen=True)

    id: str
    """Stable id, ``<source>/<local id>`` (``builtin/count_vowels``); the pytest item id."""
    source: str
    """Where it comes from: ``builtin``, ``humaneval``, a file stem, ``hf``..."""
    code: str
    """Full source: ``test_func`` plus its ``validate_input_args`` guard and helpers."""
    header: str
    """What the model sees of the method: ``def test_func(arg0, arg1):``."""
    description: str
    """The gold description."""
    train_examples: list[Example] = Field(default_factory=list)
    """Starting examples shown to the model."""
    test_examples: list[Example] = Field(default_factory=list)
    """Held-back examples that code match runs."""
    arity: int
    """Number of arguments of ``test_func``."""
    tags: list[str] = Field(default_factory=list)
    """Free tags (``easy``, ``smoke``, ``strings``...); each becomes a pytest marker."""

    @property
    def local_id(self) -> str:
        """The id without its ``<source>/`` prefix."""
        return self.id.split("/", 1)[1] if "/" in self.id else self.id


class CallResult(BaseModel):
    """The outcome of one call of a method in a sandbox."""

    ok: bool
    """True when the method returned; False when it raised or a limit stopped it."""
    value: str | None = None
    """``repr`` of the return value when ``ok``."""
    literal: bool = False
    """Whether ``value`` is a Python literal (``ast.literal_eval`` reads it back)."""
    error_type: str | None = None
    """Exception type name, or ``Timeout``/``MemoryError``/``InputError``/``SandboxError``."""
    message: str | None = None
    """Exception message or the limit that was hit."""
    traceback: str | None = None
    """A short traceback of the method's own frames, when it raised."""
    truncated: bool = False
    """Whether ``value`` was cut at the output cap."""
    fuel: int | None = None
    """Wasm fuel the call consumed (wasm backend only)."""
    duration_s: float = 0.0
    """Wall time of the call."""

    def observation(self) -> str:
        """The text the agent sees for this call."""
        if self.ok:
            return str(self.value)
        return f"{self.error_type}: {self.message}"


class Usage(BaseModel):
    """Tokens and money one or many model calls used."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    cache_hits: int = 0

    def add(self, other: Usage) -> None:
        """Accumulate ``other`` into this object."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost_usd += other.cost_usd
        self.calls += other.calls
        self.cache_hits += other.cache_hits


class Completion(BaseModel):
    """One model answer, as the llm client returns it."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    cached: bool = False
    logprobs: list[dict[str, Any]] | None = None
    """Per generated token: ``{"token": str, "logprob": float, "top": {token: logprob}}``."""

    def usage(self) -> Usage:
        """This call as a :class:`Usage`."""
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cost_usd=self.cost_usd,
            calls=1,
            cache_hits=int(self.cached),
        )


StepKind = Literal["reason", "act", "reflect", "incontext", "oracle", "null"]


class Step(BaseModel):
    """One model turn of an episode (and the sandbox call it caused, for ``act``)."""

    kind: StepKind
    iteration: int
    prompt: str
    """The last user message sent for this step."""
    response: str
    """The model's raw reply."""
    parsed_input: str | None = None
    """``act``: the tuple literal taken from the reply, or None on a format failure."""
    format_error: str | None = None
    """Why the reply could not be parsed, when it could not."""
    result: CallResult | None = None
    """``act``: what the sandbox returned."""
    concluded: bool | None = None
    """``reflect``: the YES/NO answer."""
    tokens: Usage = Field(default_factory=Usage)


class Trajectory(BaseModel):
    """Everything one episode did."""

    steps: list[Step] = Field(default_factory=list)
    prediction: str = ""
    """The final description."""
    concluded: bool = False
    """Whether the model said YES before the iteration limit."""
    n_queries: int = 0
    """Sandbox calls the model made (format failures do not count)."""
    usage: Usage = Field(default_factory=Usage)

    def observed(self) -> list[tuple[str, CallResult]]:
        """The (input, result) pairs the model saw from its own queries."""
        return [
            (s.parsed_input, s.result)
            for s in self.steps
            if s.kind == "act" and s.parsed_input is not None and s.result is not None
        ]


class JudgeResult(BaseModel):
    """The judge's verdict on one prediction."""

    score: float | None
    """Mean of the parsed ratings (1-5), None when no rating could be parsed."""
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
    """What ``scoring/integrity.py`` found in the prediction that addresses the grader
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

    id: str
    source: str
    arity: int
    tags: list[str] = Field(default_factory=list)
    passed: bool = False
    judge_score: float | None = None
    judge_explanation: str = ""
    judge_ratings: list[int | None] = Field(default_factory=list)
    judge_spread: float | None = None
    judge_logprob_score: float | None = None
    judge_unparseable: int = 0
    judge_manipulation: list[str] = Field(default_factory=list)
    """Text of the prediction addressed to the grader (see ``JudgeResult.manipulation``)."""
    judge_raw_score: float | None = None
    """When the prediction addressed the grader: its score as written (``judge_score`` is
    the lower of this and the score without that text)."""
    code_match: float | None = None
    code: str = ""
    mismatches: list[Mismatch] = Field(default_factory=list)
    gold_code_match: float | None = None
    """``--pau-gold-control``: code match of the coder on the gold description."""
    concluded: bool = False
    overconfident: bool = False
    """Concluded YES and failed."""
    n_queries: int = 0
    failure_mode: FailureMode = "none"
    failure_detail: str = ""
    """How ``failure_mode`` was decided (``self-contradiction on (3,): saw 6, code gives 9``,
    ``classifier``, ``classifier answer unparseable: default``, ``hook``...)."""
    prediction: str = ""
    gold: str = ""
    trajectory: list[Step] = Field(default_factory=list)
    tokens: dict[str, int] = Field(default_factory=lambda: {"prompt": 0, "completion": 0})
    cost_usd: float = 0.0
    cache_hits: int = 0
    model_calls: int = 0
    duration_s: float = 0.0
    error: str | None = None
    """Infrastructure error text, when the item could not be run."""
    skipped: str | None = None
    """Why the item was not run (budget spent...)."""


class RunInfo(BaseModel):
    """The ``run`` block of the JSON report: what produced it."""

    plugin_version: str
    model: str
    judge_model: str
    coder_model: str
    dataset: str
    split: str
    mode: str
    seed: int
    max_iterations: int
    prompts_version: str = ""
    thresholds: dict[str, float | None] = Field(default_factory=dict)
    started: str = ""
    finished: str = ""
    python: str = ""
    host: str = ""
    interrupted: bool = False


class Report(BaseModel):
    """The JSON report written by ``--pau-report``."""

    run: RunInfo
    instances: list[InstanceResult] = Field(default_factory=list)
    summary: dict[str, Any] = Field(default_factory=dict)
