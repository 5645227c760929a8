"""The PAU paper's footing: the two scoring protocols, the paper's scorers, its statistics.

``--pau-protocol`` names how a run counts: ``pytest-pau`` (the default: an item whose
judge gave no rating, or that errored, has no value and is listed as an error) or
``paper`` (as the PAU reference implementation counts: a missing judge rating is 1 and a
missing code match 0 in every mean, gate and interval; the items are still listed). The
rule itself is :func:`pytest_pau.stats.metrics.counted`; the paper's statistics block is
:func:`pytest_pau.stats.paper_stats.paper_statistics`, whose result is :class:`PaperStats`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ScoringProtocol = Literal["pytest-pau", "paper"]
#: The values of ``--pau-protocol`` (``RunInfo.protocol``), the default first.
PROTOCOLS: tuple[str, ...] = ("pytest-pau", "paper")
DEFAULT_PROTOCOL: ScoringProtocol = "pytest-pau"
PAPER: ScoringProtocol = "paper"
#: The values of ``--pau-coder``: ``self`` also lets the model under test write the code.
CODERS: tuple[str, ...] = ("fixed", "self")

#: The paper's judge and coder (the reference's ``configs/project_vars.yaml``), as their
#: Hugging Face ids: what vLLM or llama.cpp's OpenAI server answers to.
PAPER_JUDGE = "meta-llama/Llama-3.1-70B-Instruct"
PAPER_CODER = "Qwen/Qwen3-Coder-30B-A3B-Instruct"

#: Model names as the paper's tables print them (the reference's ``see.py`` alias table),
#: keyed by the last part of the model string.
PAPER_ALIASES: dict[str, str] = {
    "Llama-3.2-1B": "Llama3-1B",
    "Llama-3.1-8B-Instruct": "Llama3-8B",
    "Meta-Llama-3-8B-Instruct": "Llama3-8B",
    "Qwen3-1.7B": "Qwen3-1.7B",
    "Qwen3-8B": "Qwen3-8B",
    "Qwen3-32B": "Qwen3-32B",
    "gpt-4o-mini": "GPT-4o-mini",
    "gpt-4o": "GPT-4o",
    "gpt-5.4-mini": "GPT-5-mini",
    "Qwen3-Coder-30B-A3B-Instruct": "Qwen3-Coder-30B",
    "granite-8b-code-instruct-128k": "Granite-8B",
    "glm-5-turbo": "GLM-5-Turbo",
    "deepseek-v3.2": "Deepseek-v3.2",
    "gemini-3.1-flash-lite-preview": "Gemini-3-Flash",
    "claude-opus-4.6": "Opus-4",
    "gemma-3-4b-it": "Gemma-3-4B",
    "claude-sonnet-4.6": "Sonnet-4",
    "gpt-oss-20b": "GPT-OSS-20B",
    "gpt-oss-120b": "GPT-OSS-120B",
}

#: The paper's code-match bins: (label, low inclusive, high exclusive); the last is closed.
MATCH_BINS: tuple[tuple[str, float, float], ...] = (
    ("0-19%", 0.0, 0.2),
    ("20-39%", 0.2, 0.4),
    ("40-59%", 0.4, 0.6),
    ("60-79%", 0.6, 0.8),
    ("80-100%", 0.8, 1.0),
)


def paper_name(model: str) -> str:
    """The paper's name for a model string: ``openai/gpt-5.4-mini`` -> ``GPT-5-mini``."""
    last = model.rsplit("/", 1)[-1]
    return PAPER_ALIASES.get(last, last)


class PaperJudgeStats(BaseModel):
    """The description block of the paper's table (``see.py`` ``Stats.description``)."""

    model_config = ConfigDict(extra="ignore")

    n: int = 0
    """Rows counted: every item that ran (errors included, filled)."""
    filled: int = 0
    """Rows without a judge rating, counted as 1."""
    mean: float | None = None
    std: float | None = None
    """Sample standard deviation (``ddof=1``, as pandas); None below two rows."""
    shares: dict[str, float] = Field(default_factory=dict)
    """``"1"``..``"5"`` -> share of rows whose score is exactly that level."""
    share_3_plus: float | None = None
    """Share of rows scored 3 or more."""


class PaperMatchStats(BaseModel):
    """A code-match block of the paper's table (``see.py`` ``Stats.exact_match_metric``)."""

    model_config = ConfigDict(extra="ignore")

    n: int = 0
    filled: int = 0
    """Rows without a code match, counted as 0."""
    mean: float | None = None
    std: float | None = None
    """``ddof=1``; None below two rows."""
    share_exact: float | None = None
    """Share of rows with code match 1 (every test output equal)."""
    share_half: float | None = None
    """Share of rows with code match 0.5 or more."""
    share_zero: float | None = None
    bins: dict[str, float] = Field(default_factory=dict)
    """:data:`MATCH_BINS` label -> share of rows in that bin."""


class PaperStats(BaseModel):
    """The paper's statistics of one run (one row of its table, per coder)."""

    model_config = ConfigDict(extra="ignore")

    n: int = 0
    """Rows counted (items that ran)."""
    not_run: int = 0
    """Items skipped (budget, early stop...): no row; the reference has no such items."""
    errors: int = 0
    """Rows that errored, counted with the fill values; the reference would have stopped
    on an API failure, so it has no number for those."""
    judge: PaperJudgeStats = Field(default_factory=PaperJudgeStats)
    queries_mean: float | None = None
    """Mean queries per row, rows without a trustworthy count (errors) skipped."""
    queries_std: float | None = None
    concluded_share: float | None = None
    match: PaperMatchStats = Field(default_factory=PaperMatchStats)
    """The fixed coder's code match."""
    self_match: PaperMatchStats | None = None
    """``--pau-coder=self``: the model under test as its own coder (the reference's
    "judge-self" variant); None when the run has no such scores."""
