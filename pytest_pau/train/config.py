"""The settings of one ``pau train`` run (every command-line flag, as one pydantic model)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from pytest_pau.llm.caps import DEFAULT_CAPS, TokenCaps
from pytest_pau.settings import DEFAULTS
from pytest_pau.train.rewards import RewardConfig, RewardVariant


class TrainSpec(BaseModel):
    """What ``pau train`` does; written to ``DIR/config.json`` at the start of a run."""

    model_config = ConfigDict(protected_namespaces=())

    policy: str = "tiny-random"
    """``--policy``: tiny-random, smollm2, local, local-small, a .gguf, an HF dir or an adapter dir."""
    critic: str = "local"
    """``--critic``: any model the llm client accepts (the code-match variant's coder too)."""
    critic_api_base: str | None = None
    dataset: str = DEFAULTS.dataset
    split: str = DEFAULTS.split
    select: str | None = None
    """``--select``: keep instances whose id or tags contain this text (like a simple ``-k``)."""
    limit: int | None = Field(None, ge=1)
    """``--limit``: the first N instances after ``--select``."""
    reward: RewardVariant = "aac"
    steps: int | None = Field(None, ge=1)
    """``--steps`` (alias ``--max-steps``): optimisation steps; None runs ``epochs`` passes."""
    epochs: int = Field(5, ge=1)
    samples_per_prompt: int = Field(8, ge=1)
    grad_accum: int = Field(1, ge=1)
    """Instances (groups) whose gradients are summed into one optimisation step."""
    lr: float = Field(1e-4, gt=0)
    lora_rank: int = Field(16, ge=1)
    lora_alpha: int = Field(16, ge=1)
    seed: int = DEFAULTS.seed
    max_iterations: int = Field(DEFAULTS.max_iterations, ge=1)
    """Iterations per episode (reason, act, reflect each): ``--pau-max-iterations``'s."""
    caps: TokenCaps = DEFAULT_CAPS
    """Token caps of the policy's turns (reason, act, reflect) and of the critic's answers."""
    temperature: float = Field(1.0, ge=0)
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
    sandbox: str = DEFAULTS.sandbox
    cache_dir: Path | None = None
    """The model-call cache; None: ``.pau_cache`` in the current folder."""
    no_cache: bool = DEFAULTS.no_cache
    rewards: RewardConfig = Field(default_factory=RewardConfig)

    def max_new_tokens(self) -> dict[str, int]:
        """Token caps per turn kind."""
        return {"reason": self.caps.reason, "act": self.caps.act, "reflect": self.caps.reflect}

    @property
    def model_cache_dir(self) -> Path:
        """Where model answers are cached: ``--cache-dir``, else ``./.pau_cache`` as the plugin's."""
        return self.cache_dir if self.cache_dir is not None else Path(".pau_cache")

    @property
    def privileged(self) -> bool:
        """Whether the critic sees the gold source and description."""
        return self.reward in ("aac", "final")
