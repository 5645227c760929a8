"""The arguments of ``pau train`` (see :mod:`pytest_pau.cli.train` for what it does).

Options the command had before it selected through pytest are still recognised, and each
says what replaces it.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.train.config import DEFAULT_LR, DEFAULT_WARMUP, TINY_LR
from pytest_pau.train.rewards import REWARD_VARIANTS

#: Options ``pau train`` had before it selected through pytest, and what replaces them:
#: pytest-pau's own option (one definition: name, parser, help, default), or ``-k``.
REMOVED: dict[str, str] = {
    "--dataset": "--pau-dataset",
    "--split": "--pau-split",
    "--limit": "--pau-limit",
    "--seed": "--pau-seed",
    "--max-iterations": "--pau-max-iterations",
    "--max-turns": "--pau-max-iterations",
    "--sandbox": "--pau-sandbox",
    "--cache-dir": "--pau-cache-dir",
    "--no-cache": "--pau-no-cache",
    "--select": "-k",
}

#: TrainSpec fields that come straight from a flag of the same name.
SPEC_FLAGS = (
    "policy", "critic", "critic_api_base", "reward", "steps", "epochs", "samples_per_prompt",
    "grad_accum", "lr", "warmup_steps", "lora_rank", "lora_alpha", "temperature", "eval_every",
    "eval_instances", "save_every", "output", "resume", "threads", "kl_coef", "logger", "gpus",
)  # fmt: skip


class _Removed(argparse.Action):
    """A removed option: remembered, then reported by :func:`run` with its replacement."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        option = option_string or self.option_strings[0]
        new = REMOVED[option]
        if new == "-k":
            hint = f"-- -k {shlex.quote(str(values))}" if values else "-- -k TEXT"
            message = (
                f"{option} was removed: pytest selects the instances now; pass {hint} "
                "(or -- -m TAG: instance tags are markers)"
            )
        else:
            value = f"={shlex.quote(str(values))}" if isinstance(values, str) else ""
            ini = "pau_" + new.removeprefix("--pau-").replace("-", "_")
            message = (
                f"{option} was removed: the setting is pytest-pau's {new}; pass "
                f"-- {new}{value} (or set {ini} in the ini file)"
            )
        removed: list[str] = getattr(namespace, "removed_options", None) or []
        namespace.removed_options = [*removed, message]


def add_parser(subparsers: Any, description: str | None = None) -> argparse.ArgumentParser:
    """Register ``pau train`` (``description``: its long help, the command module's docstring)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help="Post-train a model with Asymmetric Actor Critic on PAU instances.",
        description=description,
        usage="%(prog)s [options] [-- PYTEST_ARGS ...]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = p.add_argument
    add(
        "pytest_args",
        nargs="*",
        metavar="PYTEST_ARGS",
        help="pytest's arguments, after `--`: -k, -m, --lf, paths, --pau-* options "
        "(default: none: every instance `pytest --pau-model=oracle` collects here).",
    )
    add(
        "--policy",
        default="tiny-random",
        help="Policy: tiny-random, smollm2, local, local-small, a .gguf, a Hugging Face model dir, or an adapter dir (default: tiny-random).",
    )
    add(
        "--critic",
        default="local",
        help="Critic model, any model the llm client accepts (default: local).",
    )
    add("--critic-api-base", default=None, help="API base URL of the critic (default: none).")
    add(
        "--critic-tokens",
        type=int,
        default=None,
        help=f"Cap on each critic answer in tokens (default: {DEFAULT_CAPS.critic}).",
    )
    add(
        "--reward",
        choices=REWARD_VARIANTS,
        default="aac",
        help="Reward variant: aac (AAC, a schedule that stalling cannot farm), paper (AAC as "
        "the reference code pays it), final, sym-info, code-match (default: aac).",
    )
    add(
        "--steps",
        "--max-steps",
        dest="steps",
        type=int,
        default=None,
        help="Optimisation steps; --max-steps is an alias (default: --epochs passes).",
    )
    add(
        "--epochs",
        type=int,
        default=5,
        help="Passes over the instances when --steps is not given (default: 5).",
    )
    add(
        "--samples-per-prompt",
        type=int,
        default=8,
        help="Episodes per instance, the group of the baseline; 2 or more (default: 8).",
    )
    add(
        "--grad-accum",
        type=int,
        default=1,
        help="Instances whose gradients make one step (default: 1).",
    )
    add(
        "--lr",
        type=float,
        default=None,
        help="Peak AdamW learning rate of the LoRA adapter (default: "
        f"{TINY_LR:g} for tiny-random, {DEFAULT_LR:g} for a real policy).",
    )
    add(
        "--warmup-steps",
        type=int,
        default=None,
        help=f"Linear lr warm-up over the first N steps (default: {DEFAULT_WARMUP}; 0: none).",
    )
    add("--lora-rank", type=int, default=16, help="LoRA rank (default: 16).")
    add("--lora-alpha", type=int, default=16, help="LoRA alpha (default: 16).")
    add(
        "--max-new-tokens",
        type=int,
        default=None,
        help=(
            "Cap every turn's reply at N tokens (default: "
            f"{DEFAULT_CAPS.reason}/{DEFAULT_CAPS.act}/{DEFAULT_CAPS.reflect} for reason/act/reflect)."
        ),
    )
    add(
        "--temperature",
        type=float,
        default=1.0,
        help="Sampling temperature of rollouts, above 0; the update scores replies at it "
        "(default: 1.0).",
    )
    add(
        "--eval-every",
        type=int,
        default=0,
        help="Every N steps, score the held-out instances as pytest --pau-model does and print the PAU summary (default: 0, never).",
    )
    add(
        "--eval-instances",
        type=int,
        default=2,
        help="Instances held out for --eval-every: the last N selected (default: 2).",
    )
    add(
        "--save-every",
        type=int,
        default=10,
        help="Checkpoint every N steps; the last step is always saved (default: 10).",
    )
    add(
        "--output",
        type=Path,
        default=Path("pau-train"),
        help="Run directory (default: ./pau-train).",
    )
    add(
        "--resume",
        action="store_true",
        help="Continue from the newest checkpoint in --output (on the same selection).",
    )
    add(
        "--backend",
        choices=("local", "skyrl"),
        default="local",
        help="local: train here on CPU; skyrl: write SkyRL's dataset and start its trainer (default: local).",
    )
    add(
        "--kl-coef",
        type=float,
        default=None,
        help="SkyRL backend: KL loss coefficient against the reference policy (default: 0, off).",
    )
    add(
        "--logger",
        choices=("console", "wandb"),
        default=None,
        help="SkyRL backend: where its trainer logs (default: console).",
    )
    add(
        "--gpus",
        type=int,
        default=None,
        help="SkyRL backend: GPUs per node for policy, reference and inference (default: 1).",
    )
    add(
        "--dry-run",
        action="store_true",
        help="List the selection and the resolved settings; with --backend skyrl also write its files; train nothing.",
    )
    add(
        "--threads",
        type=int,
        default=None,
        help="torch CPU threads (default: torch's choice; tiny-random uses 1).",
    )
    add(
        "--no-progress",
        action="store_true",
        help="No progress bar; print one JSON line per step instead.",
    )
    add(
        "--serve",
        metavar="ADAPTER",
        default=None,
        help="Serve a trained adapter on 127.0.0.1 (OpenAI-compatible) until interrupted.",
    )
    for option, new in REMOVED.items():
        flag = new == "--pau-no-cache"
        add(option, action=_Removed, nargs=0 if flag else None, help=argparse.SUPPRESS)
    return p
