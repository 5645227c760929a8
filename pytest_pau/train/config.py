"""The settings of one ``pau train`` run: the training flags, and the benchmark's settings.

The benchmark settings an episode shares with ``pytest --pau-model`` (dataset, split,
sandbox, seed, max iterations, cache, and the judge, coder and pass rule of
``--eval-every``) are one :class:`~pytest_pau.settings.PauSettings`, resolved by pytest
from the arguments after ``--`` and the ini file: they have no second home here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pytest_pau.llm.caps import DEFAULT_CAPS, TokenCaps
from pytest_pau.settings import DEFAULTS, PauSettings
from pytest_pau.train.rewards import PRIVILEGED_VARIANTS, RewardConfig, RewardVariant
from pytest_pau.train.sources import TINY_RANDOM

DEFAULT_LR = 1e-4
"""``--lr`` of a real policy (``smollm2``, ``local``, a GGUF or Hugging Face model: LoRA on every
linear layer). Measured (benchmarks/README.md, "Training"): on SmolLM2-135M three updates at
1e-4 already move the rewarded replies 0.31 nats a token away from the penalised ones; 1e-3
moves them 3.7, an overshoot."""

TINY_LR = 1e-2
"""``--lr`` of ``tiny-random``: a random model whose adapter touches only attention moves ~30x
less per step (0.01 nats a token after five updates at 1e-4, 0.8 at 1e-2, divergence at 1e-1);
at 1e-4 forty steps left a rewarded behaviour where it was."""


def default_lr(policy: str) -> float:
    """The ``--lr`` a run gets when it names none."""
    return TINY_LR if policy == TINY_RANDOM else DEFAULT_LR


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
    """Peak AdamW learning rate of the adapter; when not given, :func:`default_lr` of the
    policy (1e-2 for ``tiny-random``, 1e-4 otherwise)."""
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

    @model_validator(mode="before")
    @classmethod
    def _lr_of_the_policy(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("lr") is None:
            data = {**data, "lr": default_lr(str(data.get("policy") or "tiny-random"))}
        return data

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
