"""``pau train``: Asymmetric Actor Critic post-training on PAU instances.

The pieces, lightest first (importing this package loads neither torch nor skyrl_gym):

- :mod:`~pytest_pau.train.rewards`: the AAC reward schedule, one function per component;
- :mod:`~pytest_pau.train.critic`: the privileged judge (:class:`Critic`) and the code-match critic;
- :mod:`~pytest_pau.train.env`: :class:`PauEnv`, the benchmark's episode with rewards;
- :mod:`~pytest_pau.train.policy`, :mod:`~pytest_pau.train.rollout`, :mod:`~pytest_pau.train.trainer`:
  the local LoRA trainer (``train`` extra);
- :mod:`~pytest_pau.train.skyrl_env`, :mod:`~pytest_pau.train.skyrl_launch`: SkyRL (``skyrl`` extra);
- :mod:`~pytest_pau.train.serve`: a trained adapter as a model the benchmark evaluates.

Nothing else in pytest-pau imports this package, and it never imports pytest.
"""

from __future__ import annotations

from pytest_pau.train.config import TrainSpec
from pytest_pau.train.critic import CodeMatchCritic, Critic, Verdict, parse_critic_rating
from pytest_pau.train.env import EnvStep, PauEnv
from pytest_pau.train.rewards import (
    COMPONENTS,
    REWARD_VARIANTS,
    RewardConfig,
    StepReward,
    length_penalty,
    termination_bonus,
)

__all__ = [
    "COMPONENTS",
    "REWARD_VARIANTS",
    "CodeMatchCritic",
    "Critic",
    "EnvStep",
    "PauEnv",
    "RewardConfig",
    "StepReward",
    "TrainSpec",
    "Verdict",
    "length_penalty",
    "parse_critic_rating",
    "termination_bonus",
]
