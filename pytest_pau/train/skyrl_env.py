"""The PAU environment for SkyRL: a ``skyrl_gym`` ``BaseTextEnv`` around :class:`PauEnv`.

SkyRL (Ray + vLLM, GPUs) plays many episodes in parallel, one environment per
trajectory. Each dataset row (written by ``pau train --backend skyrl``, see
:mod:`pytest_pau.train.skyrl_launch`) carries the whole instance in ``extra_info``, so
workers need neither the dataset nor network: ``init`` returns the first turn's prompt,
each ``step(reply)`` returns the next turn's prompt as the observation, the step reward
(sum of the components, which are in ``metadata``) and ``done``.

Registration: :func:`register` adds ``pau`` to ``skyrl_gym``'s registry (the SkyRL entry
point :mod:`pytest_pau.train.skyrl_main` calls it in every Ray worker); the package also
declares ``pau = pytest_pau.train.skyrl_env:PauTextEnv`` under the ``skyrl_gym.envs``
entry-point group for tools that discover environments.
"""

from __future__ import annotations

from typing import Any

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from pytest_pau.errors import ConfigError
from pytest_pau.models import Instance
from pytest_pau.settings import DEFAULTS
from pytest_pau.train.rewards import COMPONENTS, PRIVILEGED_VARIANTS

ENV_ID = "pau"
ENTRY_POINT = "pytest_pau.train.skyrl_env:PauTextEnv"


def _get(key: str, extra: dict[str, Any], config: Any, default: Any = None) -> Any:
    """``extra_info[key]``, else the env config's ``key``, else ``default``."""
    if key in extra and extra[key] is not None:
        return extra[key]
    if config is not None:
        value = config.get(key, None) if hasattr(config, "get") else getattr(config, key, None)
        if value is not None:
            return value
    return default


class PauTextEnv(BaseTextEnv):  # type: ignore[misc]
    """One PAU episode as a SkyRL text environment.

    Args:
        env_config: SkyRL's ``environment.skyrl_gym.pau`` section (optional): defaults for
            ``critic``, ``critic_api_base``, ``reward``, ``max_iterations``, ``sandbox``.
        extras: The dataset row: ``extra_info`` holds ``instance`` (the Instance as JSON text or a dict)
            and may override any of the settings above; ``reward_spec`` holds the gold
            description (kept for SkyRL's conventions; the critic reads the instance).
    """

    def __init__(self, env_config: Any = None, extras: dict[str, Any] | None = None) -> None:
        super().__init__()
        from pytest_pau.train.critic import CodeMatchCritic, Critic
        from pytest_pau.train.env import PauEnv

        extras = extras or {}
        extra = dict(extras.get("extra_info") or {})
        if "instance" not in extra:
            raise ConfigError(
                "PauTextEnv: the dataset row's extra_info has no 'instance'; write the dataset "
                "with `pau train --backend skyrl` (it embeds each instance)"
            )
        raw = extra["instance"]
        # Rows store the instance as JSON text: one string column keeps parquet schemas simple.
        self.instance = (
            Instance.model_validate_json(raw)
            if isinstance(raw, str)
            else Instance.model_validate(raw)
        )
        variant = str(_get("reward", extra, env_config, "aac"))
        iterations = int(_get("max_iterations", extra, env_config, DEFAULTS.max_iterations))
        critic_model = str(_get("critic", extra, env_config, "local"))
        api_base = _get("critic_api_base", extra, env_config)
        from pytest_pau.llm import make_client

        client = make_client(
            critic_model, api_base=api_base, cache_dir=_get("cache_dir", extra, env_config)
        )
        if variant == "code-match":
            from pytest_pau.scoring import Coder

            critic: Any = CodeMatchCritic(
                Coder(client), backend=str(_get("sandbox", extra, env_config, "wasm"))
            )
        else:
            critic = Critic(client, privileged=variant in PRIVILEGED_VARIANTS)
        self.env = PauEnv(
            self.instance,
            critic=critic,
            variant=variant,
            max_iterations=iterations,
            backend=str(_get("sandbox", extra, env_config, "wasm")),
        )
        # SkyRL counts model turns; each benchmark iteration has up to three.
        self.max_turns = 3 * iterations

    def init(self, prompt: list[dict[str, str]]) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """Start the episode; the prompt is the benchmark's first reasoning turn."""
        first = self.env.reset()
        return (prompt or first), {"instance_id": self.instance.id, "phase": self.env.phase}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Apply one model reply; the observation is the next turn's user message."""
        self.turns += 1
        out = self.env.step(action)
        observations = [] if out.done or not out.messages else [out.messages[-1]]
        metadata = {
            "kind": out.info.get("kind"),
            "iteration": out.info.get("iteration"),
            "components": dict(out.reward.components),
            "critic_rating": out.reward.critic_rating,
            "parsed_input": out.info.get("parsed_input"),
            "result": out.info.get("result"),
            "concluded": out.info.get("concluded"),
        }
        return BaseTextEnvStepOutput(
            observations=observations, reward=out.reward.total, done=out.done, metadata=metadata
        )

    def get_metrics(self) -> dict[str, Any]:
        """Episode totals of each reward component, and how the episode ended."""
        totals = {f"reward_{name}": 0.0 for name in COMPONENTS}
        for reward in self.env.rewards:
            for name, value in reward.components.items():
                totals[f"reward_{name}"] += value
        totals.update(
            reward_total=self.env.total_reward,
            concluded=float(self.env.state.concluded),
            turn_limit=float(self.env.turn_limit),
            turns=float(len(self.env.rewards)),
        )
        return totals

    def close(self) -> None:
        self.env.close()


def register() -> None:
    """Register ``pau`` in ``skyrl_gym`` (idempotent)."""
    from skyrl_gym.envs import register as gym_register
    from skyrl_gym.envs.registration import registry

    if ENV_ID not in registry:
        gym_register(id=ENV_ID, entry_point=ENTRY_POINT)
