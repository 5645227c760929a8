"""The local trainer on a random tiny GPT-2 (no weights): steps, metrics, checkpoints, resume."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pau import load_dataset
from pytest_pau.errors import ConfigError
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM
from pytest_pau.train.config import TrainSpec
from pytest_pau.train.rewards import COMPONENTS
from pytest_pau.train.rollout import group_advantages
from pytest_pau.train.trainer import Trainer, instances_for_step, latest_checkpoint

from .conftest import CRITIC

pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")


def varied_rating(messages: list[dict[str, str]]) -> str:
    """Ratings that differ between rollouts, so advantages (and gradients) are not zero."""
    step = messages[-1]["content"].rsplit("Grade this", 1)[0]
    return f"Rating: {sum(map(ord, step)) % 10}"


@pytest.fixture(scope="module")
def critic() -> Iterator[ScriptedLLM]:
    with ScriptedLLM([(CRITIC, varied_rating)]) as server:
        yield server


#: The first two smoke instances of the builtin set (``pau train -- -m smoke --pau-limit=2``).
SMOKE: list[Instance] = [i for i in load_dataset("builtin") if "smoke" in i.tags][:2]


def spec_for(critic: ScriptedLLM, output: Path, **overrides: object) -> TrainSpec:
    values: dict[str, object] = {
        "policy": "tiny-random",
        "critic": critic.model,
        "critic_api_base": critic.api_base,
        "steps": 3,
        "samples_per_prompt": 2,
        "settings": PauSettings(max_iterations=1, no_cache=True),
        "caps": {"reason": 6, "act": 6, "reflect": 6},
        "save_every": 2,
        "output": output,
        **overrides,
    }
    return TrainSpec.model_validate(values)


def trainer(
    spec: TrainSpec, critic: ScriptedLLM | None = None, instances: list[Instance] | None = None
) -> Trainer:
    client = client_of(critic) if critic is not None else None
    return Trainer(
        spec, SMOKE if instances is None else instances, critic_client=client, progress=False
    )


def client_of(critic: ScriptedLLM) -> LLMClient:
    return LLMClient(critic.model, api_base=critic.api_base, retry=RetryPolicy(max_attempts=1))


def metrics(output: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (output / "metrics.jsonl").read_text().splitlines()]


def test_three_steps_then_resume(tmp_path: Path, critic: ScriptedLLM) -> None:
    out = tmp_path / "run"
    history = trainer(spec_for(critic, out), critic).train()
    assert [r["step"] for r in history] == [1, 2, 3]
    rows = metrics(out)
    assert rows == json.loads(json.dumps(history))
    for row in rows:
        assert math.isfinite(row["loss"])
        parts = sum(row[f"reward_{name}"] for name in COMPONENTS)
        assert row["reward_mean"] == pytest.approx(parts)  # the components add up
        assert row["rollouts"] == 2
        assert row["step_time_s"] > 0
    assert any(row["loss"] != 0 for row in rows), "varied critic ratings must give a gradient"
    # every step's instances come from the two selected smoke instances
    assert {i for row in rows for i in row["instances"]} <= {
        "builtin/word_length_histogram",
        "builtin/nines_complement_digits",
    }
    assert (out / "adapter" / "adapter_config.json").is_file()
    assert (out / "adapter" / "adapter_model.safetensors").is_file()
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["step-2", "step-3"]
    for name in ("optimizer.pt", "rng.pt", "state.json", "adapter/adapter_config.json"):
        assert (out / "checkpoints" / "step-3" / name).is_file()
    assert latest_checkpoint(out) == (3, out / "checkpoints" / "step-3")

    resumed = trainer(spec_for(critic, out, steps=5, resume=True), critic).train()
    assert [r["step"] for r in resumed] == [4, 5]
    assert [r["step"] for r in metrics(out)] == [1, 2, 3, 4, 5]
    assert latest_checkpoint(out) == (5, out / "checkpoints" / "step-5")


def test_resume_drops_metrics_past_the_checkpoint(tmp_path: Path, critic: ScriptedLLM) -> None:
    out = tmp_path / "run"
    trainer(spec_for(critic, out, steps=3, save_every=2), critic).train()
    # pretend the run died after step 3's metrics but before its checkpoint
    import shutil

    shutil.rmtree(out / "checkpoints" / "step-3")
    resumed = trainer(spec_for(critic, out, steps=3, resume=True), critic).train()
    assert [r["step"] for r in resumed] == [3]
    assert [r["step"] for r in metrics(out)] == [1, 2, 3]


def test_resume_without_checkpoint_is_a_clear_error(tmp_path: Path, critic: ScriptedLLM) -> None:
    with pytest.raises(ConfigError, match="--resume: no checkpoint under"):
        trainer(spec_for(critic, tmp_path, resume=True), critic).train()


def test_resume_on_another_selection_is_a_clear_error(tmp_path: Path, critic: ScriptedLLM) -> None:
    out = tmp_path / "run"
    trainer(spec_for(critic, out, steps=1, pytest_args=["-m", "smoke"]), critic).train()
    assert json.loads((out / "selection.json").read_text()) == {
        "pytest_args": ["-m", "smoke"],
        "instances": [i.id for i in SMOKE],
    }
    again = spec_for(critic, out, steps=2, resume=True, pytest_args=["--lf"])
    with pytest.raises(ConfigError, match=r"--resume: .* differing at position 1") as info:
        trainer(again, critic, instances=SMOKE[::-1]).train()
    assert "['--lf']" in str(info.value)
    assert SMOKE[1].id in str(info.value)


def test_no_instances_is_a_clear_error(tmp_path: Path, critic: ScriptedLLM) -> None:
    with pytest.raises(ConfigError, match="no instance to train on"):
        Trainer(spec_for(critic, tmp_path), [], progress=False)


def test_epochs_decide_the_step_count_without_steps(critic: ScriptedLLM, tmp_path: Path) -> None:
    run = trainer(spec_for(critic, tmp_path, steps=None, epochs=3, grad_accum=2))
    assert run.total_steps(5) == 9  # ceil(5 / 2) steps per epoch


def test_instance_order_is_a_permutation_per_epoch() -> None:
    picks = [i for step in range(1, 4) for i in instances_for_step(step, 6, 2, seed=1)]
    assert sorted(picks) == list(range(6))  # steps 1-3 with 2 per step cover epoch 0 once
    assert instances_for_step(2, 6, 2, seed=1) == instances_for_step(2, 6, 2, seed=1)
    assert instances_for_step(1, 6, 6, seed=1) != instances_for_step(1, 6, 6, seed=2)


def test_group_advantages_per_turn_index() -> None:
    adv = group_advantages([[1.0, 1.0], [0.0, 0.0], [0.0]])
    # turn 0 returns: 2, 0, 0 -> mean 2/3, std 0.943
    assert adv[0][0] == pytest.approx((2 - 2 / 3) / 0.9428, rel=1e-3)
    assert adv[1][0] == pytest.approx(adv[2][0])
    # turn 1: rollouts 0 and 1 only: returns 1 and 0 -> +1 / -1
    assert adv[0][1] == pytest.approx(1.0, rel=1e-4)
    assert adv[1][1] == pytest.approx(-1.0, rel=1e-4)
    assert group_advantages([[0.5, 0.1], [0.5, 0.1]]) == [[0.0, 0.0], [0.0, 0.0]]  # no spread
    assert group_advantages([[3.0]]) == [[0.0]]  # a group of one has no baseline


@pytest.mark.slow
def test_resume_reproduces_an_uninterrupted_run(tmp_path: Path, critic: ScriptedLLM) -> None:
    """Data order, sampling seeds, optimiser state and RNG all come back with the checkpoint."""
    from safetensors.torch import load_file

    straight, split = tmp_path / "straight", tmp_path / "split"
    trainer(spec_for(critic, straight, steps=4), critic).train()
    trainer(spec_for(critic, split, steps=2), critic).train()
    trainer(spec_for(critic, split, steps=4, resume=True), critic).train()
    a = load_file(straight / "adapter" / "adapter_model.safetensors")
    b = load_file(split / "adapter" / "adapter_model.safetensors")
    assert a.keys() == b.keys()
    for key in a:
        assert (a[key] - b[key]).abs().max().item() < 1e-6, key
    assert [r["reward_mean"] for r in metrics(straight)] == [
        r["reward_mean"] for r in metrics(split)
    ]
