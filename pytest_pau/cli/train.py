"""``pau train``: post-train a policy with Asymmetric Actor Critic on PAU instances.

Locally (``--backend local``, the default): LoRA on a Hugging Face causal LM, a
policy-gradient update with a group baseline over ``--samples-per-prompt`` episodes of
the same instance, checkpoints, ``--resume``, metrics in ``DIR/metrics.jsonl``, the
adapter in ``DIR/adapter/``. At scale (``--backend skyrl``): writes SkyRL's dataset and
runs its trainer (GPUs). ``--serve ADAPTER`` puts a trained adapter behind an
OpenAI-compatible endpoint for ``pytest --pau-model``.

Steps: ``--steps N`` (alias ``--max-steps``) is the number of optimisation steps; without
it the run makes ``--epochs`` passes over the instances (``--grad-accum`` instances a step).

Examples:
  pau train --policy tiny-random --critic local-small --steps 3 --samples-per-prompt 2 --max-iterations 2 --output runs/smoke
  pau train --policy smollm2 --critic local --reward aac --epochs 5 --output runs/aac
  pau train --output runs/aac --resume
  pau train --serve runs/aac/adapter
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pytest_pau.errors import ConfigError
from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.options import parse_positive_int
from pytest_pau.settings import add_options, specs_named


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``pau train``."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help="Post-train a model with Asymmetric Actor Critic on PAU instances.",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = p.add_argument
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
    # The settings an episode shares with the benchmark: the same rows as --pau-*, so the
    # same parsers, help texts and defaults (PauSettings'), named without the prefix.
    add_options(
        add,
        specs_named("dataset", "split", "limit", "seed", "max-iterations", "sandbox"),
        prefix="--",
        dest_prefix="",
    )
    add("--max-turns", dest="max_iterations", type=parse_positive_int, help=argparse.SUPPRESS)
    add_options(add, specs_named("cache-dir", "no-cache"), prefix="--", dest_prefix="")
    add(
        "--select",
        default=None,
        help="Keep instances whose id contains TEXT or that carry tag TEXT (default: all).",
    )
    add(
        "--reward",
        choices=("aac", "final", "sym-info", "code-match"),
        default="aac",
        help="Reward variant (default: aac).",
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
        help="Episodes per instance, the group of the baseline (default: 8).",
    )
    add(
        "--grad-accum",
        type=int,
        default=1,
        help="Instances whose gradients make one step (default: 1).",
    )
    add("--lr", type=float, default=1e-4, help="AdamW learning rate (default: 1e-4).")
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
        help="Sampling temperature of rollouts (default: 1.0).",
    )
    add(
        "--eval-every",
        type=int,
        default=0,
        help="Score held-out instances with the benchmark's judge and code match every N steps (default: 0, never).",
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
    add("--resume", action="store_true", help="Continue from the newest checkpoint in --output.")
    add(
        "--backend",
        choices=("local", "skyrl"),
        default="local",
        help="local: train here on CPU; skyrl: write SkyRL's dataset and start its trainer (default: local).",
    )
    add(
        "--dry-run",
        action="store_true",
        help="With --backend skyrl: write the dataset and command, do not run them.",
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
    return p


def spec_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~pytest_pau.train.config.TrainSpec` of the parsed flags.

    Raises:
        ConfigError: a value out of range, naming the flag.
    """
    from pydantic import ValidationError

    from pytest_pau.train.config import TrainSpec

    values: dict[str, Any] = {
        k: getattr(args, k)
        for k in (
            "policy", "critic", "critic_api_base", "dataset", "split", "select", "limit", "reward",
            "steps", "epochs", "samples_per_prompt", "grad_accum", "lr", "lora_rank", "lora_alpha",
            "seed", "max_iterations", "temperature", "eval_every", "eval_instances", "save_every",
            "output", "resume", "sandbox", "threads", "cache_dir", "no_cache",
        )
    }  # fmt: skip
    values = {k: v for k, v in values.items() if v is not None}  # None: TrainSpec's default
    caps: dict[str, int] = {}
    if args.max_new_tokens is not None:
        caps.update(
            reason=args.max_new_tokens, act=args.max_new_tokens, reflect=args.max_new_tokens
        )
    if args.critic_tokens is not None:
        caps["critic"] = args.critic_tokens
    if caps:
        values["caps"] = {**DEFAULT_CAPS.model_dump(), **caps}
    try:
        return TrainSpec(**values)
    except ValidationError as exc:
        problems = "; ".join(
            f"--{str(e['loc'][0]).replace('_', '-')}: {e['msg']} (got {e.get('input')!r})"
            for e in exc.errors()
        )
        raise ConfigError(f"pau train: {problems}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``pau train``."""
    if args.serve:
        return _serve(args.serve)
    spec = spec_from_args(args)
    if args.backend == "skyrl":
        from pytest_pau.train.skyrl_launch import launch
        from pytest_pau.train.trainer import select_instances

        instances = select_instances(spec)
        # SkyRL's validation set: the last --eval-instances, when enough remain to train on.
        n_val = spec.eval_instances if len(instances) > spec.eval_instances else 0
        train, heldout = instances[: len(instances) - n_val], instances[len(instances) - n_val :]
        return launch(spec, train, heldout, dry_run=args.dry_run)
    from pytest_pau.train.trainer import Trainer

    history = Trainer(spec, progress=not args.no_progress).train()
    if args.no_progress:
        for record in history:
            print(json.dumps(record))
    out = Path(spec.output)
    last = history[-1] if history else {}
    print(
        f"pau train: {len(history)} step(s), last reward_mean {last.get('reward_mean', float('nan')):.3f}; "
        f"adapter: {out / 'adapter'}; metrics: {out / 'metrics.jsonl'}\n"
        f"evaluate it: pau train --serve {out / 'adapter'}  (prints the pytest command)"
    )
    return 0


def _serve(adapter: str) -> int:
    from pytest_pau.train.serve import serve

    if not Path(adapter, "adapter_config.json").is_file():
        raise ConfigError(
            f"--serve {adapter!r}: expected a trained adapter directory (with adapter_config.json), e.g. RUN/adapter"
        )
    server = serve(adapter)
    print(
        f"serving {adapter} at {server.api_base}\nevaluate it with:\n  pytest --pau-model={server.model} --pau-api-base={server.api_base}",
        flush=True,
    )
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(add_parser(argparse.ArgumentParser().add_subparsers()).parse_args()))
