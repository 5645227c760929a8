"""Rollouts of a group (K episodes of one instance) and their group-baseline advantages.

The K environments advance together: at each round, the episodes waiting on the same
kind of turn are generated in one left-padded batch, which on CPU is several times
faster than one sequence at a time. Rollouts share one sandbox (each call is isolated
inside it, so sharing leaks nothing between episodes).

Advantages (GRPO-style, per turn): the return-to-go ``G[i][t]`` of rollout ``i`` from
its ``t``-th turn is compared with the other rollouts at the same turn index,
``A = (G - mean) / (std + eps)``; with one rollout left at that index, or no spread,
the advantage is 0. At ``t = 0`` this is exactly GRPO's episode-level baseline; later
turns get credit for what follows them only, which is what step-wise AAC rewards are for.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_pau.train.env import PauEnv
from pytest_pau.train.rewards import COMPONENTS

if TYPE_CHECKING:
    from pytest_pau.agent.base import SupportsCall
    from pytest_pau.models import Instance
    from pytest_pau.train.env import SupportsCritic
    from pytest_pau.train.policy import Policy
    from pytest_pau.train.rewards import RewardConfig

ADVANTAGE_EPS = 1e-6


@dataclass
class Turn:
    """One generated reply and the reward the environment gave it."""

    kind: str
    prompt_ids: list[int]
    completion_ids: list[int]
    text: str
    reward: float
    components: dict[str, float]
    advantage: float = 0.0
    sampler_logprob: float | None = None
    """Sum of the completion's token log-probabilities as the sampler drew them (None when
    unknown, e.g. greedy or a scripted policy)."""
    entropy: float | None = None
    """Sum of the per-token entropies (nats) of the sampling distribution."""
    capped: bool = False
    """The reply hit its token cap without ending."""
    trainer_logprob: float | None = None
    """The same sum as the update scored it, before its step (None until then)."""


@dataclass
class Rollout:
    """One episode."""

    turns: list[Turn] = field(default_factory=list)
    concluded: bool = False
    turn_limit: bool = False
    critic_unparseable: int = 0
    critic_manipulation: int = 0
    """Steps whose plan or hypothesis addressed the critic (rated on the defended text)."""
    prediction: str = ""

    @property
    def total(self) -> float:
        return sum(t.reward for t in self.turns)


@dataclass
class GroupTimings:
    policy: float = 0.0
    sandbox: float = 0.0
    critic: float = 0.0


def run_group(
    policy: Policy,
    instance: Instance,
    *,
    critic: SupportsCritic,
    variant: str,
    samples: int,
    max_iterations: int,
    config: RewardConfig,
    sandbox: SupportsCall,
    max_new_tokens: dict[str, int],
    temperature: float = 1.0,
    timings: GroupTimings | None = None,
) -> list[Rollout]:
    """Play ``samples`` episodes of ``instance`` with ``policy``; returns them with rewards."""
    timings = timings if timings is not None else GroupTimings()
    envs = [
        PauEnv(
            instance,
            critic=critic,
            variant=variant,
            max_iterations=max_iterations,
            config=config,
            sandbox=sandbox,
        )
        for _ in range(samples)
    ]
    rollouts = [Rollout() for _ in envs]
    messages = [env.messages() for env in envs]
    active = set(range(samples))
    while active:
        for phase in ("reason", "act", "reflect"):
            idx = sorted(i for i in active if envs[i].phase == phase)
            if not idx:
                continue
            prompts = [policy.encode_chat(messages[i]) for i in idx]
            start = time.perf_counter()
            outs = policy.sample(
                prompts, max_new_tokens=max_new_tokens[phase], temperature=temperature
            )
            timings.policy += time.perf_counter() - start
            for i, prompt, out in zip(idx, prompts, outs, strict=True):
                text = policy.decode(out.ids)
                step = envs[i].step(text)
                rollouts[i].turns.append(
                    Turn(
                        phase,
                        prompt,
                        out.ids,
                        text,
                        step.reward.total,
                        dict(step.reward.components),
                        sampler_logprob=None if out.logprobs is None else sum(out.logprobs),
                        entropy=None if out.entropy is None else sum(out.entropy),
                        capped=out.capped,
                    )
                )
                if step.done:
                    active.discard(i)
                else:
                    messages[i] = step.messages or []
    for env, rollout in zip(envs, rollouts, strict=True):
        rollout.concluded = env.state.concluded
        rollout.turn_limit = env.turn_limit
        rollout.critic_unparseable = env.critic_unparseable
        rollout.critic_manipulation = env.critic_manipulation
        rollout.prediction = env.prediction
        timings.sandbox += env.timings["sandbox"]
        timings.critic += env.timings["critic"]
    assign_advantages(rollouts)
    return rollouts


def group_advantages(rewards: list[list[float]]) -> list[list[float]]:
    """Per-turn advantages of a group from each rollout's per-turn rewards (see module doc)."""
    returns = []
    for seq in rewards:
        acc, out = 0.0, []
        for r in reversed(seq):
            acc += r
            out.append(acc)
        returns.append(out[::-1])
    longest = max((len(g) for g in returns), default=0)
    adv = [[0.0] * len(g) for g in returns]
    for t in range(longest):
        rows = [i for i, g in enumerate(returns) if len(g) > t]
        if len(rows) < 2:
            continue
        values = [returns[i][t] for i in rows]
        mean = statistics.fmean(values)
        std = statistics.pstdev(values)
        if std < ADVANTAGE_EPS:
            continue
        for i in rows:
            adv[i][t] = (returns[i][t] - mean) / (std + ADVANTAGE_EPS)
    return adv


def assign_advantages(rollouts: list[Rollout]) -> None:
    """Fill ``Turn.advantage`` of every turn of the group."""
    adv = group_advantages([[t.reward for t in r.turns] for r in rollouts])
    for rollout, values in zip(rollouts, adv, strict=True):
        for turn, a in zip(rollout.turns, values, strict=True):
            turn.advantage = a


def update_stats(groups: list[list[Rollout]]) -> dict[str, float | None]:
    """What the update had to learn from: the diagnostics of one step's groups.

    - ``frac_reward_zero_std``: groups whose episode returns are all equal; their episode-level
      advantages are 0 (a step where this is 1 and ``adv_nonzero_frac`` is 0 has no gradient:
      its loss is exactly 0);
    - ``adv_std``, ``adv_abs_mean``, ``adv_nonzero_frac``: the spread of the per-turn advantages;
    - ``completion_tokens_mean``, ``cap_hit_rate``: reply length in tokens, and the fraction
      of replies cut by their token cap;
    - ``entropy_mean``: the sampling distribution's mean per-token entropy (nats), None when
      the sampler gave none (greedy);
    - ``logprob_mismatch``: mean |sampler - trainer| log-probability per token over the replies
      both scored (before the step): near 0 when the gradient is for the distribution that
      drew the replies; None when none was scored by both.
    """
    zero = sum(statistics.pstdev([r.total for r in g]) < ADVANTAGE_EPS for g in groups if g)
    turns = [t for g in groups for r in g for t in r.turns]
    adv = [t.advantage for t in turns]
    tokens = sum(len(t.completion_ids) for t in turns)
    entropies = [t.entropy for t in turns if t.entropy is not None]
    ent_tokens = sum(len(t.completion_ids) for t in turns if t.entropy is not None)
    both = [t for t in turns if t.sampler_logprob is not None and t.trainer_logprob is not None]
    gap = sum(abs((t.sampler_logprob or 0.0) - (t.trainer_logprob or 0.0)) for t in both)
    gap_tokens = sum(len(t.completion_ids) for t in both)
    n = max(1, len(turns))
    return {
        "frac_reward_zero_std": zero / max(1, len(groups)),
        "adv_std": statistics.pstdev(adv) if adv else 0.0,
        "adv_abs_mean": sum(abs(a) for a in adv) / n,
        "adv_nonzero_frac": sum(abs(a) > 0 for a in adv) / n,
        "completion_tokens_mean": tokens / n,
        "cap_hit_rate": sum(t.capped for t in turns) / n,
        "entropy_mean": sum(entropies) / ent_tokens if ent_tokens else None,
        "logprob_mismatch": gap / gap_tokens if gap_tokens else None,
    }


def summarise(rollouts: list[Rollout]) -> dict[str, float]:
    """Per-episode means of the return and of each reward component, and episode stats.

    ``critic_unparseable`` and ``critic_manipulation`` (critic ratings whose step addressed
    the critic) are counts over all the rollouts, ``manipulation_rollouts`` the rollouts
    with at least one such step.
    """
    n = max(1, len(rollouts))
    out: dict[str, float] = {"reward_mean": sum(r.total for r in rollouts) / n}
    for name in COMPONENTS:
        out[f"reward_{name}"] = (
            sum(t.components.get(name, 0.0) for r in rollouts for t in r.turns) / n
        )
    out["turns_mean"] = sum(len(r.turns) for r in rollouts) / n
    out["concluded_rate"] = sum(r.concluded for r in rollouts) / n
    out["turn_limit_rate"] = sum(r.turn_limit for r in rollouts) / n
    out["critic_unparseable"] = float(sum(r.critic_unparseable for r in rollouts))
    # Reward hacking shows up here first: a policy learning to address the critic.
    out["critic_manipulation"] = float(sum(r.critic_manipulation for r in rollouts))
    out["manipulation_rollouts"] = float(sum(r.critic_manipulation > 0 for r in rollouts))
    return out
