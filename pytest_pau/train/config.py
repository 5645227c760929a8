"""The settings of one ``pau train`` run: the training flags, and the benchmark's settings.

The benchmark settings an episode shares with ``pytest --pau-model`` (dataset, split,
sandbox, seed, max iterations, cache, and the judge, coder and pass rule of
``--eval-every``) are one :class:`~pytest_pau.settings.PauSettings`, resolved by pytest
from the arguments after ``--`` and the ini file: they have no second home here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pytest_pau.llm.caps import DEFAULT_CAPS, TokenCaps
from pytest_pau.settings import DEFAULTS, PauSettings
from pytest_pau.train.rewards import PRIVILEGED_VARIANTS, RewardConfig, RewardVariant

DEFAULT_LR = 1e-3
"""``--lr``. LoRA's B matrices start at 0 and AdamW moves each weight about lr a step, so the
adapter's change grows as (steps x lr)^2 at first: at 1e-4 forty steps left a rewarded
behaviour of the tiny policy where it was; benchmarks/README.md ("Training") has the
measurement behind this value."""

DEFAULT_WARMUP = 5
"""``--warmup-steps``."""


class TrainSpec(BaseModel):
    """What ``pau train`` does; written to ``DIR/config.json`` at the start of a run."""

    model_config = ConfigDict(protected_namespaces=())

    policy: str = "tiny-random"
    """``--policy``: tiny-random, smollm2, local, local-small, a .gguf, an HF dir or an adapter dir."""
    critic: str = "local"
    """``--critic``: any model the llm client accepts (the code-match variant's coder too)."""
    critic_api_base: str | None = None
    settings: PauSettings = DEFAULTS
    """The benchmark's settings, as pytest resolved them from the arguments after ``--``
    and the ini file: ``max_iterations`` (iterations per episode), ``seed`` (data order,
    sampling and LoRA init, as every model call's seed), ``sandbox``, ``cache_dir`` /
    ``no_cache`` (the critic's cache), and the judge, coder and thresholds of ``--eval-every``."""
    pytest_args: list[str] = Field(default_factory=list)
    """The pytest arguments that selected the instances (recorded; ``--resume`` re-selects)."""
    reward: RewardVariant = "aac"
    steps: int | None = Field(None, ge=1)
    """``--steps`` (alias ``--max-steps``): optimisation steps; None runs ``epochs`` passes."""
    epochs: int = Field(5, ge=1)
    samples_per_prompt: int = 8
    """Episodes per instance (the group of the baseline): at least 2."""
    grad_accum: int = Field(1, ge=1)
    """Instances (groups) whose gradients are summed into one optimisation step."""
    lr: float = Field(DEFAULT_LR, gt=0)
    """Peak AdamW learning rate of the adapter (see :data:`DEFAULT_LR`)."""
    warmup_steps: int = Field(DEFAULT_WARMUP, ge=0)
    """Linear warm-up: step s of the first ``warmup_steps`` uses ``lr * s / warmup_steps``."""
    lora_rank: int = Field(16, ge=1)
    lora_alpha: int = Field(16, ge=1)
    caps: TokenCaps = DEFAULT_CAPS
    """Token caps of the policy's turns (reason, act, reflect) and of the critic's answers."""
    temperature: float = 1.0
    """Sampling temperature of rollouts; the update scores replies at the same temperature.
    Above 0: greedy groups have no spread."""
    micro_batch: int = Field(4, ge=1)
    """Sequences per forward/backward pass of the update (memory vs speed)."""
    max_grad_norm: float = 1.0
    eval_every: int = Field(0, ge=0)
    """Run the benchmark's scoring on held-out instances every N steps (0: never)."""
    eval_instances: int = Field(2, ge=1)
    """How many instances (the last ones after selection) are held out when ``eval_every``."""
    save_every: int = Field(10, ge=1)
    output: Path = Path("pau-train")
    resume: bool = False
    threads: int | None = Field(None, ge=1)
    """torch CPU threads (``torch.set_num_threads``); None keeps torch's default
    (``tiny-random`` always uses one)."""
    rewards: RewardConfig = Field(default_factory=RewardConfig)
    kl_coef: float = Field(0.0, ge=0)
    """``--kl-coef`` (SkyRL backend): KL loss against the reference policy; 0 turns it off."""
    logger: Literal["console", "wandb"] = "console"
    """``--logger`` (SkyRL backend): where SkyRL's trainer logs."""
    gpus: int = Field(1, ge=1)
    """``--gpus`` (SkyRL backend): GPUs per node for the policy, reference and inference engines."""

    def lr_at(self, step: int) -> float:
        """The learning rate of optimisation step ``step`` (1-based): a linear warm-up from
        ``lr / warmup_steps`` to ``lr`` over the first ``warmup_steps`` steps, then ``lr``.

        A pure function of the step, so ``--resume`` continues the schedule exactly.
        """
        if self.warmup_steps <= 0:
            return self.lr
        return self.lr * min(1.0, step / self.warmup_steps)

    def max_new_tokens(self) -> dict[str, int]:
        """Token caps per turn kind."""
        return {"reason": self.caps.reason, "act": self.caps.act, "reflect": self.caps.reflect}

    @field_validator("temperature")
    @classmethod
    def _sampling_must_vary(cls, value: float) -> float:
        if value <= 0:
            raise ValueError(
                "greedy sampling (temperature 0) makes every episode of a group the same, so "
                "every advantage is 0 and no step has a gradient; use a temperature > 0 "
                "(default 1.0)"
            )
        return value

    @field_validator("samples_per_prompt")
    @classmethod
    def _group_needs_two(cls, value: int) -> int:
        if value < 2:
            raise ValueError(
                "the group baseline compares the episodes of one instance, and one episode has "
                "nothing to compare with: every advantage is 0 and no step has a gradient; use "
                "2 or more (default 8)"
            )
        return value

    @property
    def model_cache_dir(self) -> Path:
        """Where model answers are cached: the plugin's (``--pau-cache-dir``, resolved by pytest
        to ``.pau_cache`` in the rootdir), else ``./.pau_cache``."""
        c = self.settings.cache_dir
        return c if c is not None else Path(".pau_cache")

    @property
    def privileged(self) -> bool:
        """Whether the critic sees the gold source and description."""
        return self.reward in PRIVILEGED_VARIANTS
