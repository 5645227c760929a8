"""The settings of one ``pau train`` run (every command-line flag, as one pydantic model)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from pytest_pau.train.rewards import RewardConfig, RewardVariant


class TrainSpec(BaseModel):
    """What ``pau train`` does; written to ``DIR/config.json`` at the start of a run."""

    model_config = ConfigDict(protected_namespaces=())

    policy: str = "tiny-random"
    """``--policy``: tiny-random, smollm2, local, local-small, a .gguf, an HF dir or an adapter dir."""
    critic: str = "local"
    """``--critic``: any model the llm client accepts (the code-match variant's coder too)."""
    critic_api_base: str | None = None
    critic_tokens: int = Field(96, ge=8)
    """Cap on each critic answer: a short justification and the ``Rating: N`` line."""
    dataset: str = "builtin"
    split: str = "test"
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
    seed: int = 0
    max_turns: int = Field(20, ge=1)
    """Iterations per episode (reason, act, reflect each): the benchmark's 20 by default."""
    reason_tokens: int = Field(256, ge=1)
    act_tokens: int = Field(128, ge=1)
    reflect_tokens: int = Field(384, ge=1)
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
    sandbox: str = "wasm"
    cache_dir: Path | None = None
    no_cache: bool = False
    rewards: RewardConfig = Field(default_factory=RewardConfig)

    def max_new_tokens(self) -> dict[str, int]:
        """Token caps per turn kind."""
        return {
            "reason": self.reason_tokens,
            "act": self.act_tokens,
            "reflect": self.reflect_tokens,
        }

    @property
    def privileged(self) -> bool:
        """Whether the critic sees the gold source and description."""
        return self.reward in ("aac", "final")
