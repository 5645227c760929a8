"""The SkyRL environment against the real ``skyrl_gym`` package, and the dataset it reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM

skyrl_gym = pytest.importorskip("skyrl_gym", reason="needs the 'skyrl' extra (skyrl-gym)")


def extras_for(instance: Instance, server: ScriptedLLM, **extra: object) -> dict[str, object]:
    from pytest_pau.settings import PauSettings
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.skyrl_launch import dataset_row

    spec = TrainSpec(
        critic=server.model,
        critic_api_base=server.api_base,
        settings=PauSettings(max_iterations=2, no_cache=True),
    )
    row = dataset_row(instance, spec)
    row["extra_info"].update(extra, cache_dir=None)
    return row


def test_conformance_with_skyrl_gym(double: Instance, critic_server: ScriptedLLM) -> None:
    from skyrl_gym.envs.base_text_env import BaseTextEnv

    from pytest_pau.train.skyrl_env import ENV_ID, register

    register()
    register()  # idempotent
    row = extras_for(double, critic_server)
    env = skyrl_gym.make(ENV_ID, env_config={}, extras=row)
    assert isinstance(env, BaseTextEnv)
    prompt, meta = env.init(row["prompt"])
    assert prompt == row["prompt"]
    assert meta["instance_id"] == "t/double"
    import re

    assert re.search(MARKERS["reason"], prompt[-1]["content"])
    assert env.max_turns == 6

    out = env.step("Try a negative number.")
    assert set(out) >= {"observations", "reward", "done", "metadata"}
    assert out["reward"] == pytest.approx((3 / 9 - 1) / 2)  # aac: a plan costs, over 2 iterations
    assert out["done"] is False
    assert out["observations"][0]["role"] == "user"
    assert re.search(MARKERS["act"], out["observations"][0]["content"])
    assert set(out["metadata"]["components"]) >= {"critic", "length", "clean_execution"}

    out = env.step("INPUT: (-3,)")
    assert out["reward"] == pytest.approx(0.025)
    assert out["metadata"]["result"] == "-6"
    out = env.step("CONCLUDE: YES\nSUMMARY: The argument doubled.")
    assert out["done"] is True
    assert out["observations"] == []
    assert out["reward"] == pytest.approx(2 * 8 / 9 + 2.0)
    metrics = env.get_metrics()
    assert metrics["concluded"] == 1.0
    assert metrics["reward_total"] == pytest.approx((3 / 9 - 1) / 2 + 0.025 + 2 * 8 / 9 + 2.0)
    assert type(env).aggregate_metrics([metrics, metrics])["turns"] == 3.0
    env.close()


def test_env_config_supplies_defaults_and_row_overrides(
    double: Instance, critic_server: ScriptedLLM
) -> None:
    from pytest_pau.train.skyrl_env import PauTextEnv

    row = extras_for(double, critic_server, reward="final")
    env = PauTextEnv(env_config={"reward": "aac", "max_iterations": 5}, extras=row)
    assert env.env.variant == "final"  # the row wins
    assert env.env.max_iterations == 2
    env.close()


def test_row_without_instance_is_a_clear_error() -> None:
    from pytest_pau.errors import ConfigError
    from pytest_pau.train.skyrl_env import PauTextEnv

    with pytest.raises(ConfigError, match="pau train --backend skyrl"):
        PauTextEnv(extras={"extra_info": {}})


def test_backend_skyrl_dry_run_writes_dataset_and_command(
    tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "train", "--backend", "skyrl", "--dry-run",
            "--policy", "Qwen/Qwen3-8B", "--lora-rank", "8", "--lora-alpha", "32",
            "--samples-per-prompt", "4", "--output", str(out),
            "--", "-m", "smoke", "--pau-limit=4", "--pau-max-iterations=5",
        ]
    )  # fmt: skip
    assert code == 0
    stdout = capsys.readouterr().out
    listed = [ln for ln in stdout.splitlines() if ln.startswith("builtin/")]
    assert len(listed) == 4  # --dry-run lists the selection, then writes SkyRL's files
    folder = out / "skyrl"
    rows = [json.loads(line) for line in (folder / "train.jsonl").read_text().splitlines()]
    assert len(rows) == 2  # 4 selected, the last 2 held out for validation
    assert [r["extra_info"]["instance_id"] for r in rows] == listed[:2]
    validation = (folder / "validation.jsonl").read_text().splitlines()
    assert [json.loads(r)["extra_info"]["instance_id"] for r in validation] == listed[2:]
    row = rows[0]
    assert set(row) == {"data_source", "prompt", "env_class", "reward_spec", "extra_info"}
    assert row["env_class"] == "pau"
    instance = Instance.model_validate_json(row["extra_info"]["instance"])
    assert row["reward_spec"]["ground_truth"] == instance.description
    assert row["extra_info"]["max_iterations"] == 5
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    assert pq.read_table(folder / "train.parquet").num_rows == 2
    command = (folder / "command.sh").read_text()
    for expected in (
        "trainer.policy.model.lora.rank=8",
        "trainer.policy.model.lora.alpha=32",
        "generator.n_samples_per_prompt=4",
        "generator.max_turns=15",
        "environment.env_class=pau",
        "trainer.policy.model.path=Qwen/Qwen3-8B",
    ):
        assert expected in command
    assert "SkyRL command" in stdout


def test_backend_skyrl_without_trainer_names_the_fix(
    tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    if importlib.util.find_spec("skyrl_train") is not None:
        pytest.skip("skyrl_train is installed here")
    code = main(["train", "--backend", "skyrl", "--output", str(tmp_path), "--", "--pau-limit=3"])
    assert code == 2
    err = capsys.readouterr().err
    assert "skyrl_train" in err
    assert "Training at scale on SkyRL" in err
