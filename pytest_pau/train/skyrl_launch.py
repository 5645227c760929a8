"""``pau train --backend skyrl``: write the dataset SkyRL reads and start its trainer.

SkyRL's trainer needs GPUs (Ray, vLLM, FSDP); this module only prepares its inputs and
its command line, and runs it when ``skyrl_train`` is importable. Files, under
``--output DIR/skyrl/``::

    train.parquet, validation.parquet   one row per instance (and .jsonl twins):
        data_source  "pau/<source>"
        prompt       the first reasoning turn's messages (the benchmark's own prompt)
        env_class    "pau"
        reward_spec  {"method": "rule", "ground_truth": gold description}
        extra_info   {"instance": Instance JSON, "reward", "critic", "critic_api_base",
                      "max_iterations", "sandbox"}
    command.sh                          the trainer command, runnable on the cluster
"""

from __future__ import annotations

import importlib.util
import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.agent import EpisodeState, build_reason_messages
from pytest_pau.errors import ConfigError
from pytest_pau.train.skyrl_env import ENV_ID

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.train.config import TrainSpec

README_SECTION = 'docs/training.md, "Training at scale on SkyRL"'


def dataset_row(instance: Instance, spec: TrainSpec) -> dict[str, Any]:
    """One SkyRL dataset row for ``instance``."""
    state = EpisodeState.from_instance(instance, max_iterations=spec.settings.max_iterations)
    return {
        "data_source": f"pau/{instance.source}",
        "prompt": build_reason_messages(state),
        "env_class": ENV_ID,
        "reward_spec": {"method": "rule", "ground_truth": instance.description},
        "extra_info": {
            "instance": instance.model_dump_json(),
            "instance_id": instance.id,
            "reward": spec.reward,
            "critic": spec.critic,
            "critic_api_base": spec.critic_api_base,
            "max_iterations": spec.settings.max_iterations,
            "sandbox": spec.settings.sandbox,
        },
    }


def write_dataset(
    spec: TrainSpec, train: list[Instance], validation: list[Instance]
) -> dict[str, Path]:
    """Write ``train``/``validation`` rows as JSONL, and as parquet when pyarrow is installed."""
    folder = Path(spec.output) / "skyrl"
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for name, rows in (("train", train), ("validation", validation or train[-1:])):
        data = [dataset_row(i, spec) for i in rows]
        jsonl = folder / f"{name}.jsonl"
        jsonl.write_text("".join(json.dumps(r) + "\n" for r in data))
        written[f"{name}_jsonl"] = jsonl
        if importlib.util.find_spec("pyarrow") is not None:
            import pyarrow as pa
            import pyarrow.parquet as pq

            path = folder / f"{name}.parquet"
            pq.write_table(pa.Table.from_pylist(data), path)
            written[name] = path
        else:
            written[name] = jsonl
    return written


#: The reference's batch (run_rl.sh: 8 prompts a step, mini-batch 8).
SKYRL_BATCH = 8

#: Tokens of one turn's prompt SkyRL accepts. One PAU turn's prompt is 240-290 tokens with
#: the benchmark's evidence window on common tokenizers; 2048 is the local policy's cut too.
SKYRL_PROMPT_TOKENS = 2048


def longest_first_prompt_bytes(instances: list[Instance], spec: TrainSpec) -> int:
    """UTF-8 bytes of the longest first-turn prompt: an upper bound on its tokens under any
    byte-level BPE tokenizer (a token covers at least one byte)."""
    longest = 0
    for instance in instances:
        state = EpisodeState.from_instance(instance, max_iterations=spec.settings.max_iterations)
        text = "".join(m["content"] for m in build_reason_messages(state))
        longest = max(longest, len(text.encode("utf-8")))
    return longest


def skyrl_config(spec: TrainSpec, files: dict[str, Path], n_train: int) -> dict[str, Any]:
    """SkyRL's config keys, resolved from ``spec`` (what ``--dry-run`` prints).

    The values that make SkyRL train what ``pau train`` trains: step-wise samples on fresh
    prompts (``pytest_pau.train.skyrl_generator``, chosen by ``skyrl_main``), GRPO over
    (instance, turn index) groups, prompt and response lengths that fit a PAU turn, a batch
    that fits the selection, no KL term and no wandb unless asked, one GPU unless asked.
    """
    out = Path(spec.output) / "skyrl"
    batch = max(1, min(SKYRL_BATCH, n_train))
    response = max(spec.max_new_tokens().values())
    gpus = spec.gpus
    return {
        "data.train_data": f"['{files['train']}']",
        "data.val_data": f"['{files['validation']}']",
        "trainer.policy.model.path": spec.policy,
        "trainer.policy.model.lora.rank": spec.lora_rank,
        "trainer.policy.model.lora.alpha": spec.lora_alpha,
        "trainer.policy.optimizer_config.lr": spec.lr,
        "trainer.policy.optimizer_config.num_warmup_steps": spec.warmup_steps,
        "trainer.algorithm.advantage_estimator": "grpo",
        "trainer.algorithm.use_kl_loss": "true" if spec.kl_coef > 0 else "false",
        "trainer.algorithm.kl_loss_coef": spec.kl_coef,
        "trainer.algorithm.use_kl_in_reward": "false",
        "trainer.epochs": spec.epochs,
        "trainer.seed": spec.settings.seed,
        "trainer.train_batch_size": batch,
        "trainer.policy_mini_batch_size": batch,
        "trainer.critic_mini_batch_size": batch,
        "trainer.eval_batch_size": batch,
        "trainer.max_prompt_length": SKYRL_PROMPT_TOKENS,
        "trainer.strategy": "fsdp2",
        "trainer.placement.colocate_all": "true",
        "trainer.placement.policy_num_gpus_per_node": gpus,
        "trainer.placement.ref_num_gpus_per_node": gpus,
        "trainer.logger": spec.logger,
        "trainer.project_name": "pau",
        "trainer.ckpt_path": str(out / "ckpt"),
        "trainer.export_path": str(out / "export"),
        "trainer.bf16": "true",
        "generator.num_inference_engines": gpus,
        "generator.inference_engine_tensor_parallel_size": 1,
        "generator.n_samples_per_prompt": spec.samples_per_prompt,
        "generator.max_turns": 3 * spec.settings.max_iterations,
        "generator.batched": "false",
        "generator.step_wise_trajectories": "true",
        "generator.use_conversation_multi_turn": "true",
        "generator.max_input_length": SKYRL_PROMPT_TOKENS,
        "generator.sampling_params.temperature": spec.temperature,
        "generator.sampling_params.top_p": 1.0,
        "generator.sampling_params.max_generate_length": response,
        "environment.env_class": ENV_ID,
    }


def trainer_command(spec: TrainSpec, files: dict[str, Path], n_train: int) -> list[str]:
    """SkyRL's trainer command with :func:`skyrl_config` as its overrides.

    ``--steps`` has no SkyRL twin (SkyRL trains for ``trainer.epochs``), so it is not passed.
    """
    overrides = skyrl_config(spec, files, n_train)
    return [
        "python",
        "-m",
        "pytest_pau.train.skyrl_main",
        *(f"{k}={v}" for k, v in overrides.items()),
    ]


def launch(
    spec: TrainSpec, train: list[Instance], validation: list[Instance], *, dry_run: bool = False
) -> int:
    """Write the files and the command; run SkyRL when it is installed (unless ``dry_run``).

    Raises:
        ConfigError: ``skyrl_train`` is not installed and ``dry_run`` is off.
    """
    files = write_dataset(spec, train, validation)
    command = trainer_command(spec, files, len(train))
    script = Path(spec.output) / "skyrl" / "command.sh"
    script.write_text("#!/bin/sh\n" + " \\\n  ".join(shlex.quote(c) for c in command) + "\n")
    print(f"SkyRL dataset: {files['train']} ({len(train)} rows), {files['validation']}")
    longest = longest_first_prompt_bytes([*train, *validation], spec)
    print(
        "SkyRL config (resolved; generator: pytest_pau.train.skyrl_generator.PauStepGenerator, "
        "one sample per turn on its fresh prompt, GRPO over (instance, turn) groups of "
        f"returns-to-go; longest first prompt {longest} bytes <= "
        f"trainer.max_prompt_length {SKYRL_PROMPT_TOKENS} tokens):"
    )
    for key, value in skyrl_config(spec, files, len(train)).items():
        print(f"  {key}={value}")
    print(f"SkyRL command (also in {script}):\n  " + " ".join(shlex.quote(c) for c in command))
    if dry_run:
        return 0
    if importlib.util.find_spec("skyrl_train") is None:
        raise ConfigError(
            "--backend skyrl: SkyRL's trainer (skyrl_train) is not installed here. It needs GPUs; "
            f"on the cluster install it next to pytest-pau[skyrl] and run {script} (see {README_SECTION}). "
            "The dataset files above are ready; add --dry-run to only write them."
        )
    import subprocess

    return subprocess.call(command)
