"""pau train [options] -- [pytest args]: post-train a policy with Asymmetric Actor Critic.

Selection: the arguments after ``--`` are pytest's. pau train runs pytest's collection in
this folder (your ini file, your conftest.py hooks such as pytest_pau_load_dataset, and
pytest-pau), runs no test, and trains on exactly the instances that

  pytest --pau-model=oracle --collect-only -q [pytest args]

lists, in that order: -k, -m, paths, --pau-dataset, --pau-limit, and --lf / --ff (pytest's
cache of your last benchmark run: train on what failed). Without --pau-model (or ini
pau_model) the collection runs as --pau-model=oracle: that only switches the plugin's
collection on; no model is called.

Benchmark settings come from there too, one definition each: --pau-dataset, --pau-split,
--pau-sandbox, --pau-seed (also training's data order, sampling and LoRA init),
--pau-max-iterations (iterations per episode), --pau-cache-dir / --pau-no-cache (the
critic's cache), and the judge, coder and thresholds of --eval-every (judge and coder:
--pau-judge-model / --pau-coder-model when set, else --critic), or their pau_* ini keys.
pau train has no copies of them; --select is gone too: use -- -k TEXT or -- -m TAG.

--dry-run lists the selection (one <source>/<id> per line) and the resolved settings,
writes SkyRL's files with --backend skyrl, and trains nothing.

Locally (--backend local, the default): LoRA on a Hugging Face causal LM, a policy-gradient
update with a group baseline over --samples-per-prompt episodes of the same instance,
checkpoints, --resume (on the same selection), metrics in DIR/metrics.jsonl, the adapter in
DIR/adapter/. --eval-every N scores the last --eval-instances (held out) as pytest
--pau-model does and prints the PAU summary (also in DIR/eval.txt). At scale (--backend
skyrl): writes SkyRL's dataset and runs its trainer (GPUs). --serve ADAPTER puts a trained
adapter behind an OpenAI-compatible endpoint for pytest --pau-model.

Steps: --steps N (alias --max-steps) is the number of optimisation steps; without it the
run makes --epochs passes over the instances (--grad-accum instances a step).

Examples:
  pau train --dry-run -- -m "arity2 and hard" -k "not legacy"
  pau train --policy tiny-random --critic local-small --steps 3 --samples-per-prompt 2 --output runs/smoke -- -m smoke --pau-max-iterations=2
  pau train --policy smollm2 --critic local --reward aac --output runs/aac -- -m smoke
  pau train --policy smollm2 --output runs/lf -- --lf      # what failed in the last benchmark run
  pau train --policy smollm2 --output runs/aac --resume -- -m smoke
  pau train --serve runs/aac/adapter
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.llm.caps import DEFAULT_CAPS
from pytest_pau.train.config import DEFAULT_LR, DEFAULT_WARMUP, TINY_LR
from pytest_pau.train.rewards import REWARD_VARIANTS

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.plugin.train_collection import Selection
    from pytest_pau.train.config import TrainSpec


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


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``pau train`` (its long help: this module's docstring)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train",
        help="Post-train a model with Asymmetric Actor Critic on PAU instances.",
        description=__doc__,
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


def spec_from_args(args: argparse.Namespace) -> TrainSpec:
    """The :class:`~pytest_pau.train.config.TrainSpec` of the training flags.

    Its ``settings`` stay at their defaults until :func:`with_selection` fills them in
    from what pytest resolved.

    Raises:
        ConfigError: a value out of range, naming the flag.
    """
    from pydantic import ValidationError

    from pytest_pau.train.config import TrainSpec

    values: dict[str, Any] = {k: getattr(args, k) for k in SPEC_FLAGS}
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
            f"--{str(e['loc'][0]).replace('_', '-')}: {e['msg'].removeprefix('Value error, ')} "
            f"(got {e.get('input')!r})"
            for e in exc.errors()
        )
        raise ConfigError(problems) from None


def with_selection(spec: TrainSpec, selection: Selection) -> TrainSpec:
    """``spec`` with the benchmark settings pytest resolved for ``selection``.

    The judge and coder of ``--eval-every`` are the settings' when the pytest arguments
    or the ini file name them, else the critic (the one model a training run must have).

    Raises:
        ConfigError: the settings ask for something training cannot do (``incontext``).
    """
    settings = selection.settings
    if settings.mode != "interactive":
        raise ConfigError(
            f"--pau-mode={settings.mode!r} (from the pytest arguments or the ini file): pau "
            "train trains the interactive reason-act-reflect loop; pass -- --pau-mode=interactive"
        )
    # The model pau train supplied only to switch collection on is no model under test.
    update: dict[str, Any] = {"model": None} if selection.model_added else {}
    for role in ("judge", "coder"):
        if f"{role}_model" not in selection.given:
            update[f"{role}_model"] = spec.critic
            update[f"{role}_api_base"] = spec.critic_api_base
    return spec.model_copy(
        update={
            "settings": settings.model_copy(update=update),
            "pytest_args": list(selection.pytest_args),
        }
    )


def run(args: argparse.Namespace) -> int:
    """Run ``pau train``."""
    removed = getattr(args, "removed_options", None)
    if removed:
        raise ConfigError("; ".join(removed))
    if args.serve:
        return _serve(args.serve)
    from pytest_pau.plugin.train_collection import collect_selection

    spec = spec_from_args(args)  # the training flags fail before pytest runs
    selection = collect_selection(args.pytest_args)
    spec = with_selection(spec, selection)
    from pytest_pau.train.trainer import split_heldout

    if args.backend == "skyrl":
        # SkyRL's validation set: the last --eval-instances, when enough remain to train on.
        instances = selection.instances
        n_val = spec.eval_instances if len(instances) > spec.eval_instances else 0
        train, heldout = instances[: len(instances) - n_val], instances[len(instances) - n_val :]
    else:
        train, heldout = split_heldout(spec, selection.instances)
    if args.dry_run:
        print_selection(selection, spec, heldout)
    if args.backend == "skyrl":
        from pytest_pau.train.skyrl_launch import launch

        return launch(spec, train, heldout, dry_run=args.dry_run)
    if args.dry_run:
        return 0
    check_output(spec)
    from pytest_pau.train.trainer import Trainer

    print(
        f"pau train: {len(train)} instance(s) to train on, {len(heldout)} held out, "
        f"selected by `{selection.command()}`",
        flush=True,
    )
    history = Trainer(spec, selection.instances, progress=not args.no_progress).train()
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


#: The files ``pau train`` writes into ``--output`` (beside its adapter/ and checkpoints/).
RUN_FILES = ("metrics.jsonl", "eval.txt", "config.json", "selection.json")


def check_output(spec: TrainSpec) -> None:
    """The one guard over outputs, for ``--output``: a folder (no file, FIFO or device)
    where files can be written, that holds no dataset file the run reads.

    Raises:
        ConfigError: naming ``--output``, the path and the problem, before the policy loads.
    """
    from pytest_pau.files.guard import RUN_CHECKED, check_outputs, output_arg

    inputs = []
    dataset = Path(spec.settings.dataset).expanduser()
    if dataset.is_file():
        inputs.append(output_arg("--pau-dataset", spec.settings.dataset, what="the dataset"))
    check_outputs(
        [output_arg("--output", spec.output, folder=True, writes=RUN_FILES)],
        inputs,
        checked=RUN_CHECKED,
    )


def print_selection(selection: Selection, spec: TrainSpec, heldout: list[Instance]) -> None:
    """``--dry-run``: the instance ids (one per line), then the settings as ``#`` lines."""
    print("\n".join(selection.describe(spec.settings)))
    train = spec.model_dump(mode="json", exclude={"settings", "pytest_args"})
    print(f"# train spec: {json.dumps(train, sort_keys=True)}")
    if heldout:
        print(f"# held out (--eval-every / SkyRL validation): {' '.join(i.id for i in heldout)}")


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
