"""The AAC reward schedule of PAU, one pure function per component.

Every number here comes from the protocol's reward table (``shared/PAU_PROTOCOL.md``);
:class:`RewardConfig` holds them so a run can change one and record it. Each step of an
episode gets a :class:`StepReward` whose ``components`` always carry every key of
:data:`COMPONENTS` (zero where a component does not apply), so per-step means over a
batch are well defined and each component is logged on its own.

Summary of the schedule (``aac``)::

    reason   critic/9 + length(100 words, 0.05/word)
    act      parse failure -0.5 | runtime error -0.5 | clean +lambda_H/(2 T_max)
             + length(30 words, 0.5/word)
    reflect  critic/9 + lambda_H * termination bonus + parse failure -0.5
             + length(reflection threshold, rate)
    end      turn limit reached: -1

Length penalties are clipped to [-1, 0]: the protocol's table states the range and its
reference code did not enforce it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

RewardVariant = Literal["aac", "final", "sym-info", "code-match"]
"""``--reward``: the paper's AAC; FINAL (end reward only); SYM-INFO (critic without the gold
information); the unsupervised code-match reward (critic replaced by code match)."""

REWARD_VARIANTS: tuple[str, ...] = ("aac", "final", "sym-info", "code-match")

COMPONENTS: tuple[str, ...] = (
    "critic",
    "length",
    "parse_failure",
    "runtime_error",
    "clean_execution",
    "termination",
    "turn_limit",
    "final",
)
"""Names of the reward components, in the order metrics show them."""


class RewardConfig(BaseModel):
    """The constants of the reward schedule (defaults: the protocol's table)."""

    model_config = ConfigDict(frozen=True)

    lambda_h: float = 2.0
    """Hypothesis-reward scale lambda_H (2 in the reference)."""
    t_max: Annotated[int, Field(ge=1)] = 40
    """T_max of the clean-execution reward lambda_H / (2 T_max) (the reference's 40)."""
    parse_penalty: float = -0.5
    """An act reply with no readable input, or a reflection with no YES/NO."""
    runtime_penalty: float = -0.5
    """The input ran and the method raised (or a sandbox limit stopped it)."""
    turn_limit_penalty: float = -1.0
    """The episode reached its iteration limit without concluding."""
    reason_words: int = 100
    reason_rate: float = 0.05
    act_words: int = 30
    act_rate: float = 0.5
    reflect_words: int = 100
    """The table gives no numbers for the reflection's length penalty; we use the reasoning's."""
    reflect_rate: float = 0.05
    stop_high: float = 0.7
    """Stopping with a normalised hypothesis rating above this earns +1 (below it: -1)."""
    continue_low: float = 0.3
    """Going on while the rating is below this earns +1."""

    @property
    def clean_execution(self) -> float:
        """The reward of an input that ran cleanly: lambda_H / (2 T_max)."""
        return self.lambda_h / (2 * self.t_max)


class StepReward(BaseModel):
    """The reward of one environment step, split into its components."""

    kind: str
    """``reason``, ``act``, ``reflect`` (the turn this reward belongs to)."""
    components: dict[str, float] = Field(default_factory=lambda: dict.fromkeys(COMPONENTS, 0.0))
    """Every key of :data:`COMPONENTS`; the ones that do not apply are 0."""
    critic_rating: int | None = None
    """The critic's raw 0-9 rating, None when none was asked or it was unparseable."""
    critic_unparseable: bool = False

    @property
    def total(self) -> float:
        """The step's reward: the sum of its components."""
        return float(sum(self.components.values()))

    def add(self, name: str, value: float) -> None:
        """Add ``value`` to component ``name`` (one of :data:`COMPONENTS`)."""
        if name not in self.components:
            raise KeyError(f"unknown reward component {name!r}; expected one of {COMPONENTS}")
        self.components[name] += float(value)


def word_count(text: str) -> int:
    """Words of ``text`` as the length penalties count them (whitespace-separated)."""
    return len(text.split())


def length_penalty(text: str, threshold: int, rate: float) -> float:
    """``-rate`` per word beyond ``threshold``, clipped to [-1, 0].

    >>> length_penalty("a " * 110, 100, 0.05)
    -0.5
    """
    excess = max(0, word_count(text) - threshold)
    return max(-1.0, min(0.0, -rate * excess))


def normalised_rating(rating: int | None) -> float:
    """A critic rating 0-9 mapped to [0, 1]; an unparseable rating (None) counts as 0."""
    if rating is None:
        return 0.0
    return max(0, min(9, rating)) / 9.0


def termination_bonus(concluded: bool, score: float, config: RewardConfig) -> float:
    """The reflection's termination bonus before the lambda_H scale.

    +1 for stopping with ``score`` above ``stop_high``, -1 for stopping at or below it,
    +1 for going on while ``score`` is below ``continue_low``, else 0.
    """
    if concluded:
        return 1.0 if score > config.stop_high else -1.0
    return 1.0 if score < config.continue_low else 0.0


def reason_reward(text: str, rating: int | None, config: RewardConfig) -> StepReward:
    """Reward of a reasoning turn: the critic's rating / 9 plus the length penalty."""
    reward = StepReward(kind="reason", critic_rating=rating)
    reward.add("critic", normalised_rating(rating))
    reward.add("length", length_penalty(text, config.reason_words, config.reason_rate))
    return reward


def act_reward(text: str, *, parsed: bool, ran_ok: bool, config: RewardConfig) -> StepReward:
    """Reward of an input proposal.

    Args:
        text: The act reply (its words count for the length penalty).
        parsed: Whether an input could be read from the reply.
        ran_ok: Whether the method returned (ignored when not ``parsed``).
        config: The schedule's constants.
    """
    reward = StepReward(kind="act")
    if not parsed:
        reward.add("parse_failure", config.parse_penalty)
    elif not ran_ok:
        reward.add("runtime_error", config.runtime_penalty)
    else:
        reward.add("clean_execution", config.clean_execution)
    reward.add("length", length_penalty(text, config.act_words, config.act_rate))
    return reward


def reflect_reward(
    text: str,
    *,
    concluded: bool | None,
    score: float,
    rating: int | None,
    config: RewardConfig,
) -> StepReward:
    """Reward of a reflection.

    Args:
        text: The reflection reply.
        concluded: The parsed YES/NO; None (unparseable) costs the parse penalty and counts
            as NO for the termination bonus, as the benchmark's loop treats it.
        score: The hypothesis score in [0, 1] (critic rating / 9, or code match).
        rating: The critic's raw rating, for the record (None for code match).
        config: The schedule's constants.
    """
    reward = StepReward(kind="reflect", critic_rating=rating)
    reward.add("critic", score)
    reward.add("termination", config.lambda_h * termination_bonus(bool(concluded), score, config))
    if concluded is None:
        reward.add("parse_failure", config.parse_penalty)
    reward.add("length", length_penalty(text, config.reflect_words, config.reflect_rate))
    return reward


def final_reward(
    kind: str, final_score: float, turn_limit: bool, config: RewardConfig
) -> StepReward:
    """FINAL's reward of the episode's last step: the score of the final description plus the
    turn-limit penalty when the limit was reached (every other step of FINAL gets 0)."""
    reward = StepReward(kind=kind)
    reward.add("final", final_score)
    if turn_limit:
        reward.add("turn_limit", config.turn_limit_penalty)
    return reward
