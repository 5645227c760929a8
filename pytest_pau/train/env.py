"""One PAU instance as a multi-turn environment: the benchmark's episode, with rewards.

The turns are the benchmark's own (reason -> act -> reflect, per iteration), built by the
agent stage's single-turn helpers (:class:`~pytest_pau.agent.EpisodeState`,
``build_*_messages``, ``parse_input``, ``parse_reflection``), so a policy is trained on
exactly the prompts ``pytest --pau-model`` will show it. The hidden method runs in the
plugin's sandbox; the critic is any model the llm client accepts.

    env = PauEnv(instance, critic=Critic(make_client("local")), variant="aac")
    messages = env.reset()
    while True:
        out = env.step(policy(messages))       # out.reward.components: one per component
        if out.done:
            break
        messages = out.messages
    env.close()
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pytest_pau.agent import (
    EpisodeState,
    build_act_messages,
    build_reason_messages,
    build_reflect_messages,
    parse_input,
    parse_reflection,
)
from pytest_pau.errors import ConfigError
from pytest_pau.prompting import strip_think
from pytest_pau.settings import DEFAULTS
from pytest_pau.train.rewards import (
    REWARD_VARIANTS,
    RewardConfig,
    StepReward,
    act_reward,
    final_reward,
    reason_reward,
    reflect_reward,
    schedule_of,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pytest_pau.agent.base import SupportsCall
    from pytest_pau.models import CallResult, Example, Instance
    from pytest_pau.train.critic import Verdict

Phase = Literal["reason", "act", "reflect"]


class SupportsCritic(Protocol):
    """What the environment needs of a critic (:class:`~pytest_pau.train.critic.Critic`)."""

    def rate_reasoning(self, instance: Instance, state: EpisodeState, plan: str) -> Verdict: ...

    def rate_hypothesis(
        self,
        instance: Instance,
        state: EpisodeState,
        summary: str,
        concluded: bool | None,
        observed: Sequence[Example | tuple[str, CallResult]] = (),
    ) -> Verdict: ...


@dataclass
class EnvStep:
    """What one :meth:`PauEnv.step` returns."""

    reward: StepReward
    done: bool
    messages: list[dict[str, str]] | None
    """The next turn's prompt; None when the episode is over."""
    info: dict[str, Any] = field(default_factory=dict)


class PauEnv:
    """The benchmark's interactive episode over one instance, with the AAC reward schedule.

    Args:
        instance: The hidden method and its gold information (the critic's privilege).
        critic: Rates plans and hypotheses (:class:`Critic` or :class:`CodeMatchCritic`).
        variant: ``aac``, ``paper``, ``final``, ``sym-info`` or ``code-match`` (the critic
            passed in must match: privileged for aac/paper/final, not for sym-info, code
            match for code-match). ``paper`` pays the reference code's schedule, the others
            the one that cannot be farmed (:mod:`pytest_pau.train.rewards`).
        max_iterations: The iteration limit (each iteration is reason, act and reflect).
        config: The reward constants.
        sandbox: A sandbox to share (K rollouts of one instance can use one); by default
            the environment opens its own and closes it in :meth:`close`.
        backend: Sandbox backend when the environment opens its own.
    """

    def __init__(
        self,
        instance: Instance,
        *,
        critic: SupportsCritic,
        variant: str = "aac",
        max_iterations: int = DEFAULTS.max_iterations,
        config: RewardConfig | None = None,
        sandbox: SupportsCall | None = None,
        backend: str = "wasm",
    ) -> None:
        if variant not in REWARD_VARIANTS:
            raise ConfigError(
                f"--reward: expected one of {', '.join(REWARD_VARIANTS)}, got {variant!r}"
            )
        if max_iterations < 1:
            raise ConfigError(
                f"PauEnv(max_iterations={max_iterations!r}): expected a positive integer"
            )
        self.instance = instance
        self.critic = critic
        self.variant = variant
        self.schedule = schedule_of(variant)
        self.max_iterations = max_iterations
        self.config = config or RewardConfig()
        if self.schedule == "aac" and self.config.stall_margin(max_iterations) <= 0:
            raise ConfigError(
                f"--pau-max-iterations={max_iterations}: with --reward {variant} the clean-"
                f"execution reward ({self.config.clean_execution:g} a query) summed over that "
                "many iterations would let an episode that never concludes out-earn one that "
                "concludes right; use fewer iterations"
            )
        self.backend = backend
        self._sandbox = sandbox
        self._owns_sandbox = sandbox is None
        self.timings: dict[str, float] = {"sandbox": 0.0, "critic": 0.0}
        self.reset()

    # -- episode --------------------------------------------------------------------------
    def reset(self) -> list[dict[str, str]]:
        """Start a fresh episode; returns the first prompt (a reasoning turn)."""
        self.state = EpisodeState.from_instance(self.instance, max_iterations=self.max_iterations)
        self.phase: Phase = "reason"
        self.rewards: list[StepReward] = []
        self.observed: list[tuple[str, CallResult]] = []
        self.done = False
        self.turn_limit = False
        self.potential = 0.0
        """The score of the latest rated hypothesis (the ``aac`` schedule pays its changes)."""
        self.critic_unparseable = 0
        # critic ratings whose step addressed the critic (``Verdict.manipulation``)
        self.critic_manipulation = 0
        return self.messages()

    def messages(self) -> list[dict[str, str]]:
        """The prompt of the turn in progress."""
        builders = {
            "reason": build_reason_messages,
            "act": build_act_messages,
            "reflect": build_reflect_messages,
        }
        return builders[self.phase](self.state)

    @property
    def prediction(self) -> str:
        """The latest hypothesis: the description when the episode is over."""
        return self.state.hypothesis

    @property
    def sandbox(self) -> SupportsCall:
        if self._sandbox is None:
            from pytest_pau.sandbox import Sandbox

            self._sandbox = Sandbox(self.instance.code, backend=self.backend)
        return self._sandbox

    def close(self) -> None:
        """Close the sandbox the environment opened (a shared one is left open)."""
        if self._owns_sandbox and self._sandbox is not None:
            self._sandbox.close()  # type: ignore[attr-defined]
            self._sandbox = None

    def _critic(self, verdict: Verdict) -> Verdict:
        self.timings["critic"] += verdict.seconds
        self.critic_unparseable += int(verdict.unparseable)
        self.critic_manipulation += int(bool(verdict.manipulation))
        return verdict

    def step(self, action: str) -> EnvStep:
        """Apply the policy's reply to the turn in progress.

        Raises:
            RuntimeError: the episode is already over (call :meth:`reset`).
        """
        if self.done:
            raise RuntimeError("PauEnv.step() after the episode ended; call reset() first")
        kind = self.phase
        info: dict[str, Any] = {"kind": kind, "iteration": self.state.iteration}
        per_step = self.variant != "final"
        if kind == "reason":
            plan = strip_think(action)
            verdict = (
                self._critic(self.critic.rate_reasoning(self.instance, self.state, plan))
                if per_step
                else None
            )
            reward = reason_reward(
                action,
                verdict.rating if verdict else None,
                self.config,
                self.schedule,
                iterations=self.max_iterations,
            )
            if verdict is not None and verdict.rating is None and not verdict.unparseable:
                # code match gives no rating to plans: no signal, no cost
                reward.components["critic"] = verdict.score
            reward.critic_unparseable = bool(verdict and verdict.unparseable)
            self.state.record_plan(plan)
            self.phase = "act"
        elif kind == "act":
            literal, error = parse_input(action, arity=self.instance.arity)
            info["parsed_input"] = literal
            if literal is None:
                info["format_error"] = error
                reward = act_reward(action, parsed=False, ran_ok=False, config=self.config)
                self.state.record_format_failure(error)
                self.phase = "reason"
            else:
                start = time.perf_counter()
                result = self.sandbox.call_literal(literal)
                self.timings["sandbox"] += time.perf_counter() - start
                info["result"] = result.observation()
                self.observed.append((literal, result))
                self.state.record_call(literal, result.observation())
                reward = act_reward(action, parsed=True, ran_ok=result.ok, config=self.config)
                self.phase = "reflect"
        else:
            concluded, summary = parse_reflection(action)
            info["concluded"] = concluded
            self.state.record_reflection(concluded, summary)
            if per_step:
                observed: list[Example | tuple[str, CallResult]] = [
                    *self.instance.train_examples,
                    *self.observed,
                ]
                verdict = self._critic(
                    self.critic.rate_hypothesis(
                        self.instance, self.state, self.state.hypothesis, concluded, observed
                    )
                )
                reward = reflect_reward(
                    action,
                    concluded=concluded,
                    score=verdict.score,
                    rating=verdict.rating,
                    config=self.config,
                    previous=self.potential,
                    schedule=self.schedule,
                    unrated=verdict.unparseable,
                )
                self.potential = verdict.score
                reward.critic_unparseable = verdict.unparseable
            else:
                reward = StepReward(kind="reflect")
            self.phase = "reason"
        self.done = self.state.done
        if self.done:
            self.turn_limit = not self.state.concluded
            reward = self._finish(reward)
        elif not per_step:
            reward = StepReward(kind=kind)
        self.rewards.append(reward)
        info["reward"] = reward.total
        return EnvStep(reward, self.done, None if self.done else self.messages(), info)

    def _finish(self, reward: StepReward) -> StepReward:
        if self.variant == "final":
            observed: list[Example | tuple[str, CallResult]] = [
                *self.instance.train_examples,
                *self.observed,
            ]
            verdict = self._critic(
                self.critic.rate_hypothesis(
                    self.instance, self.state, self.state.hypothesis, self.state.concluded, observed
                )
            )
            return final_reward(reward.kind, verdict.score, self.turn_limit, self.config)
        if self.turn_limit:
            reward.add("turn_limit", self.config.turn_limit_penalty)
        return reward

    # -- summaries --------------------------------------------------------------------------
    @property
    def total_reward(self) -> float:
        """The episode's return so far (sum of step rewards)."""
        return sum(r.total for r in self.rewards)
