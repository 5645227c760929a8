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


def trainer_command(spec: TrainSpec, files: dict[str, Path], policy_path: str) -> list[str]:
    """SkyRL's trainer command with our settings mapped onto its config keys.

    ``--steps`` has no SkyRL twin (SkyRL trains for ``trainer.epochs``), so it is not passed.
    """
    out = Path(spec.output) / "skyrl"
    overrides = {
        "data.train_data": f"['{files['train']}']",
        "data.val_data": f"['{files['validation']}']",
        "trainer.policy.model.path": policy_path,
        "trainer.policy.model.lora.rank": spec.lora_rank,
        "trainer.policy.model.lora.alpha": spec.lora_alpha,
        "trainer.policy.optimizer_config.lr": spec.lr,
        "trainer.algorithm.advantage_estimator": "grpo",
        "trainer.epochs": spec.epochs,
        "trainer.seed": spec.settings.seed,
        "trainer.ckpt_path": str(out / "ckpt"),
        "trainer.export_path": str(out / "export"),
        "trainer.bf16": "true",
        "generator.n_samples_per_prompt": spec.samples_per_prompt,
        "generator.max_turns": 3 * spec.settings.max_iterations,
        "generator.batched": "false",
        "generator.use_conversation_multi_turn": "true",
        "generator.sampling_params.temperature": spec.temperature,
        "generator.sampling_params.max_generate_length": max(spec.max_new_tokens().values()),
        "environment.env_class": ENV_ID,
    }
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
    policy_path = spec.policy
    command = trainer_command(spec, files, policy_path)
    script = Path(spec.output) / "skyrl" / "command.sh"
    script.write_text("#!/bin/sh\n" + " \\\n  ".join(shlex.quote(c) for c in command) + "\n")
    print(f"SkyRL dataset: {files['train']} ({len(train)} rows), {files['validation']}")
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
