"""The SkyRL environment against the real ``skyrl_gym`` package, and the dataset it reads."""

from __future__ import annotations

import json
import re
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


def resolved_config(stdout: str) -> dict[str, str]:
    """The ``key=value`` lines ``--dry-run`` prints under "SkyRL config (resolved":"."""
    config: dict[str, str] = {}
    for line in stdout.split("SkyRL config (resolved", 1)[1].splitlines()[1:]:
        key, eq, value = line.strip().partition("=")
        if not (line.startswith("  ") and eq and re.fullmatch(r"[\w.]+", key)):
            break
        config[key] = value
    return config


def test_backend_skyrl_dry_run_prints_a_config_that_fits_pau(
    tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 6 of issue 38: the launcher inherited SkyRL's max_prompt_length 512 (one PAU
    turn's prompt alone is 237-282 tokens), a KL loss, train_batch_size 1024, 4 GPUs a node and
    wandb, and one growing chat per trajectory."""
    from pytest_pau.agent import EpisodeState, build_reason_messages
    from pytest_pau.dataset import load_dataset

    out = tmp_path / "run"
    code = main(
        [
            "train", "--backend", "skyrl", "--dry-run", "--policy", "Qwen/Qwen3-8B",
            "--output", str(out), "--", "-m", "smoke", "--pau-limit=5",
        ]
    )  # fmt: skip
    assert code == 0
    config = resolved_config(capsys.readouterr().out)
    smoke = [i for i in load_dataset("builtin") if "smoke" in i.tags][:5]
    longest = max(
        len(
            "".join(
                m["content"] for m in build_reason_messages(EpisodeState.from_instance(i))
            ).encode()
        )
        for i in smoke
    )
    # bytes bound tokens from above under any byte-level BPE: the longest first prompt fits
    assert int(config["trainer.max_prompt_length"]) >= longest
    assert int(config["generator.max_input_length"]) >= longest
    assert int(config["generator.sampling_params.max_generate_length"]) == 384  # the reflect cap
    assert config["trainer.algorithm.use_kl_loss"] == "false"
    assert config["trainer.algorithm.use_kl_in_reward"] == "false"
    assert config["trainer.logger"] == "console"
    assert int(config["trainer.train_batch_size"]) == 3  # 5 selected, 2 held out for validation
    assert int(config["trainer.policy_mini_batch_size"]) <= int(config["trainer.train_batch_size"])
    assert config["trainer.placement.policy_num_gpus_per_node"] == "1"
    assert config["generator.num_inference_engines"] == "1"
    assert config["generator.step_wise_trajectories"] == "true"
    assert config["trainer.algorithm.advantage_estimator"] == "grpo"
    assert config["generator.n_samples_per_prompt"] == "8"
    # a real policy's default lr (tiny-random's is 1e-2)
    assert float(config["trainer.policy.optimizer_config.lr"]) == pytest.approx(1e-4)
    # the command runs the same config
    command = (out / "skyrl" / "command.sh").read_text()
    assert all(f"{k}={v}" in command for k, v in config.items() if "'" not in v)


def test_backend_skyrl_kl_wandb_and_gpus_only_when_asked(
    tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "train", "--backend", "skyrl", "--dry-run", "--kl-coef", "0.01", "--logger", "wandb",
            "--gpus", "4", "--output", str(tmp_path / "run"), "--", "-m", "smoke", "--pau-limit=3",
        ]
    )  # fmt: skip
    assert code == 0
    config = resolved_config(capsys.readouterr().out)
    assert config["trainer.algorithm.use_kl_loss"] == "true"
    assert float(config["trainer.algorithm.kl_loss_coef"]) == 0.01
    assert config["trainer.logger"] == "wandb"
    assert config["trainer.placement.policy_num_gpus_per_node"] == "4"


class Tokenizer:
    """A chat template that is the plain text of the messages, one byte a token."""

    @staticmethod
    def apply_chat_template(messages: list[dict[str, str]], **_: object) -> list[int]:
        return list("".join(f"<{m['role']}>{m['content']}" for m in messages).encode())


def test_the_generator_prompts_every_turn_afresh_and_groups_turns(
    double: Instance, critic_server: ScriptedLLM
) -> None:
    """Each turn is sampled on the benchmark's own prompt for that turn (never a chat that
    grows with the earlier replies), and each turn's sample is grouped with the other
    rollouts' same turn, rewarded by its return-to-go: the local trainer's advantages."""
    import asyncio

    from pytest_pau.train.rollout import group_advantages
    from pytest_pau.train.skyrl_env import PauTextEnv
    from pytest_pau.train.skyrl_generator import Episode, play_episode, stepwise_output

    scripts = [
        ["Try 3.", "INPUT: (3,)", "CONCLUDE: YES\nSUMMARY: The argument doubled."],
        ["Try 'a'.", "INPUT: ('a',)", "CONCLUDE: NO\nSUMMARY: Maybe adds one.", "Try 5.",
         "INPUT: (5,)", "CONCLUDE: YES\nSUMMARY: Doubles an int."],
    ]  # fmt: skip
    seen: list[list[int]] = []

    def engine_for(replies: list[str]):  # type: ignore[no-untyped-def]
        it = iter(replies)

        async def engine(prompt_ids: list[int], params: object) -> tuple[str, list[int], None, str]:
            seen.append(prompt_ids)
            text = next(it)
            return text, list(text.encode()), None, "stop"

        return engine

    async def both() -> list[Episode]:
        out = []
        for rep, replies in enumerate(scripts):
            env = PauTextEnv(extras=extras_for(double, critic_server))
            out.append(
                await play_episode(
                    env, Tokenizer.apply_chat_template, engine_for(replies), uid="t/double",
                    repetition=rep,
                )
            )  # fmt: skip
            env.close()
        return out

    episodes = asyncio.run(both())
    assert [len(e.steps) for e in episodes] == [3, 6]
    for prompt in seen:
        text = bytes(prompt).decode()
        # the benchmark's turn prompt alone: no assistant message, one user message
        assert "<assistant>" not in text
        assert text.count("<user>") == 1
    # the second episode's new plan (its 4th turn) sees the evidence, not the transcript
    fourth = bytes(seen[3 + 3]).decode()
    assert re.search(MARKERS["reason"], fourth)
    assert "Maybe adds one." in fourth  # its running hypothesis, as the benchmark shows it
    assert "CONCLUDE: NO" not in fourth  # ...and not its reply
    out = stepwise_output(episodes)
    ids = out["trajectory_ids"]
    assert ids == sorted(ids, key=lambda t: (t[0], t[1]))  # each group contiguous
    assert ids[:2] == [("t/double/turn-0", 0), ("t/double/turn-0", 1)]
    assert out["is_last_step"] == [True] * 9
    rewards = [[s.reward for s in e.steps] for e in episodes]
    expected = group_advantages(rewards)
    by_key = dict(zip(ids, out["advantages_preview"], strict=True))
    for rep, values in enumerate(expected):
        for turn, a in enumerate(values):
            assert by_key[(f"t/double/turn-{turn}", rep)] == pytest.approx(a)
    # rewards: the return-to-go on the last token of each reply
    first = out["rewards"][0]
    assert first[-1] == pytest.approx(sum(rewards[0]))
    assert all(r == 0.0 for r in first[:-1])


def test_the_docs_show_the_resolved_config_this_command_prints(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util
    import shlex

    from tests.docs.pages import page

    text = page("training.md")
    command = next(
        ln for ln in text.splitlines() if ln.startswith("pau train --backend skyrl --dry-run")
    )
    assert main(shlex.split(command)[1:]) == 0
    printed = resolved_config(capsys.readouterr().out)
    block = text.split("<!-- skyrl-config:start -->", 1)[1].split("<!-- skyrl-config:end -->")[0]
    shown = resolved_config(block)
    if importlib.util.find_spec("pyarrow") is None:  # the page shows parquet files
        shown = {k: v for k, v in shown.items() if not k.startswith("data.")}
        printed = {k: v for k, v in printed.items() if not k.startswith("data.")}
    assert shown == printed
