"""The AAC reward schedules of PAU, one pure function per component.

Two schedules share the components of the protocol's reward table
(``shared/PAU_PROTOCOL.md``); :class:`RewardConfig` holds their constants so a run can
change one and record it. Each step of an episode gets a :class:`StepReward` whose
``components`` always carry every key of :data:`COMPONENTS` (zero where a component does
not apply), so per-step means over a batch are well defined and each is logged on its own.

``paper`` (``--reward paper``): the reference environment's schedule, as its code runs it::

    reason   critic/9 + length(100 words, 0.05/word)
    act      parse failure -0.5 | runtime error -0.5 | clean +lambda_H/(2 T_max)
             + length(30 words, 0.5/word)
    reflect  critic/9 + lambda_H * bonus + parse failure -0.5 + length
             bonus: stop above 0.7 +1, stop at or below it -1, go on below 0.3 +1, else 0
    end      turn limit reached: -1

Every term of it is paid again on every iteration, undiscounted, so a policy that never
concludes collects them without end: going on with a hypothesis rated below 0.3 earns
+lambda_H (+2) per iteration, more than concluding right ever does, and a missing
``CONCLUDE:`` line counts as going on (docs/training.md, "Which reward").

``aac`` (the default, and the schedule of ``sym-info`` and ``code-match``): the same
signals, arranged so that stalling cannot be farmed::

    reason   (critic/9 - 1) / N, N the iteration limit (a cost: a better plan costs less,
             all the plans of an episode together at most 1) + length
    act      as paper
    reflect  lambda_H * (score - previous score)   (potential-based: sums to lambda_H * final score)
             + lambda_H * (+1 stop at or above 0.7 | -1 stop below it | 0 go on)
             + parse failure -0.5 (no CONCLUDE line: a format failure, no bonus) + length
    end      turn limit reached: -1

An episode that concludes at iteration k with a hypothesis rated >= 0.7 out-earns every
continuation that does not conclude (same first k iterations) by at least
``lambda_H * stop_high + 1 - (N - k) * lambda_H / (2 T_max)`` (2.4 - 0.025 (N - k) with the
table's constants), positive up to N = 96 iterations (:meth:`RewardConfig.stall_margin`;
:class:`~pytest_pau.train.env.PauEnv` refuses more). It out-earns every episode that
concludes wrong, at any iteration, by more than ``2 lambda_H - 1`` (the termination terms
differ by ``2 lambda_H``, the plans cost at most 1). The return is non-decreasing in every
critic rating.

Length penalties are clipped to [-1, 0] in both: the protocol's table states the range; the
reference code's ``max`` makes every over-long reply cost at least 1, without a floor.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_pau.settings import DEFAULTS

RewardVariant = Literal["aac", "paper", "final", "sym-info", "code-match"]
"""``--reward``: AAC with the schedule that cannot be farmed (default); AAC with the reference
code's schedule (``paper``); FINAL (end reward only); SYM-INFO (critic without the gold
information); the unsupervised code-match reward (critic replaced by code match)."""

REWARD_VARIANTS: tuple[str, ...] = ("aac", "paper", "final", "sym-info", "code-match")

Schedule = Literal["aac", "paper"]
"""How per-step ratings and the termination bonus are paid (see the module docstring)."""

PRIVILEGED_VARIANTS: tuple[str, ...] = ("aac", "paper", "final")
"""Variants whose critic reads the gold source and description."""


def schedule_of(variant: str) -> Schedule:
    """The schedule a ``--reward`` variant pays its per-step rewards with."""
    return "paper" if variant == "paper" else "aac"


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
    """Stopping with a normalised hypothesis rating at or above this earns +1 (below it: -1);
    ``paper`` asks for strictly above (the same on the 0-9 scale: 6/9 < 0.7 < 7/9)."""
    continue_low: float = 0.3
    """``paper`` only: going on while the rating is below this earns +1."""

    @property
    def clean_execution(self) -> float:
        """The reward of an input that ran cleanly: lambda_H / (2 T_max)."""
        return self.lambda_h / (2 * self.t_max)

    def stall_margin(self, iterations: int) -> float:
        """The least by which concluding right out-earns stalling, over ``iterations``.

        Under the ``aac`` schedule, concluding at iteration k with a score >= ``stop_high``
        beats any continuation that never concludes by at least
        ``lambda_H * stop_high + 1 - (iterations - k) * clean_execution`` (plans cost, the
        hypothesis potential can rise by at most ``lambda_H * (1 - score)``, the turn limit
        costs 1); the worst case is k = 1.
        """
        return (
            self.lambda_h * self.stop_high
            - self.turn_limit_penalty
            - (iterations - 1) * self.clean_execution
        )


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


def termination_bonus(
    concluded: bool | None, score: float, config: RewardConfig, schedule: Schedule = "aac"
) -> float:
    """The reflection's termination bonus before the lambda_H scale.

    ``aac``: +1 for stopping with ``score`` at or above ``stop_high``, -1 for stopping below
    it, 0 for going on (and for a reflection without a CONCLUDE line: ``concluded`` None).
    ``paper``: +1 for stopping above ``stop_high``, -1 at or below it, +1 for going on
    (a missing line included, as the reference reads it) while ``score`` is below
    ``continue_low``, else 0.
    """
    if schedule == "paper":
        if concluded:
            return 1.0 if score > config.stop_high else -1.0
        return 1.0 if score < config.continue_low else 0.0
    if concluded:
        return 1.0 if score >= config.stop_high else -1.0
    return 0.0


def reason_reward(
    text: str,
    rating: int | None,
    config: RewardConfig,
    schedule: Schedule = "aac",
    iterations: int = DEFAULTS.max_iterations,
) -> StepReward:
    """Reward of a reasoning turn: the critic's term plus the length penalty.

    ``paper``: rating / 9. ``aac``: ``(rating / 9 - 1) / iterations``, a cost in
    [-1/iterations, 0], so that the plans of a whole episode cost at most 1: a better plan
    costs less, and no number of plans adds up to a reason not to conclude.
    """
    reward = StepReward(kind="reason", critic_rating=rating)
    if schedule == "paper":
        reward.add("critic", normalised_rating(rating))
    else:
        reward.add("critic", (normalised_rating(rating) - 1.0) / max(1, iterations))
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
    previous: float = 0.0,
    schedule: Schedule = "aac",
    unrated: bool = False,
) -> StepReward:
    """Reward of a reflection.

    Args:
        text: The reflection reply.
        concluded: The parsed YES/NO; None (no CONCLUDE line) costs the parse penalty. The
            benchmark's loop goes on as after NO; ``aac`` pays it no bonus, ``paper`` the
            going-on bonus as the reference does.
        score: The hypothesis score in [0, 1] (critic rating / 9, or code match).
        rating: The critic's raw rating, for the record (None for code match).
        config: The schedule's constants.
        previous: ``aac``: the score of the episode's previous hypothesis (0 before the
            first): the critic term is ``lambda_H * (score - previous)``.
        schedule: ``aac`` or ``paper`` (see the module docstring).
        unrated: The critic's answer had no rating. ``paper`` then pays no hypothesis reward
            at all (the reference returns 0); ``aac`` counts it as score 0, the worst, so
            that an unrateable hypothesis is never a way out.
    """
    reward = StepReward(kind="reflect", critic_rating=rating)
    if schedule == "paper":
        if not unrated:
            reward.add("critic", score)
            reward.add(
                "termination",
                config.lambda_h * termination_bonus(concluded, score, config, schedule),
            )
    else:
        reward.add("critic", config.lambda_h * (score - previous))
        reward.add(
            "termination", config.lambda_h * termination_bonus(concluded, score, config, schedule)
        )
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
