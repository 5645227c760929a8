"""The update learns from what was sampled: settings without a gradient are refused, replies
are scored at the sampling temperature, and every step says what it had to learn from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pau import load_dataset
from pytest_pau.cli.main import main
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM
from pytest_pau.train.config import TrainSpec
from pytest_pau.train.trainer import Trainer

from .conftest import CRITIC

pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")

SMOKE: list[Instance] = [i for i in load_dataset("builtin") if "smoke" in i.tags][:1]


@pytest.mark.parametrize(
    ("flag", "value", "words"),
    [
        ("--temperature", "0", "greedy sampling (temperature 0) makes every episode"),
        ("--samples-per-prompt", "1", "the group baseline compares the episodes"),
    ],
)
def test_settings_that_cannot_produce_a_gradient_are_refused(
    project: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, words: str
) -> None:
    assert main(["train", flag, value, "--output", "run"]) == 2
    err = capsys.readouterr().err
    assert f"{flag}: {words}" in err
    assert "no step has a gradient" in err
    assert not (project / "run").exists()  # refused before anything ran


@pytest.fixture(scope="module")
def tiny():  # type: ignore[no-untyped-def]
    from pytest_pau.train.policy import Policy

    return Policy.load("tiny-random", seed=3)


@pytest.mark.parametrize("temperature", [0.5, 1.0, 1.7])
def test_the_update_scores_replies_as_the_sampler_drew_them(tiny, temperature: float) -> None:  # type: ignore[no-untyped-def]
    prompts = [tiny.encode_chat([{"role": "user", "content": f"Say {w}."}]) for w in ("a", "bb")]
    samples = tiny.sample(prompts, max_new_tokens=12, temperature=temperature, seed=5)
    scored = tiny.sequence_logprobs(
        [(p, s.ids) for p, s in zip(prompts, samples, strict=True)], temperature=temperature
    )
    for sample, value in zip(samples, scored.tolist(), strict=True):
        assert sample.logprobs is not None
        assert len(sample.logprobs) == len(sample.ids)
        assert value == pytest.approx(sum(sample.logprobs), abs=1e-3)
    if temperature != 1.0:
        # what the update scored before: the temperature-1 distribution, another one
        at_one = tiny.sequence_logprobs([(p, s.ids) for p, s in zip(prompts, samples, strict=True)])
        assert (
            max(
                abs(a - sum(s.logprobs or []))
                for a, s in zip(at_one.tolist(), samples, strict=True)
            )
            > 0.1
        )


def test_entropy_and_cap_of_samples(tiny) -> None:  # type: ignore[no-untyped-def]
    prompt = tiny.encode_chat([{"role": "user", "content": "Go."}])
    hot, cold = (
        tiny.sample([prompt], max_new_tokens=8, temperature=t, seed=1)[0] for t in (2.0, 0.3)
    )
    assert hot.entropy is not None
    assert cold.entropy is not None
    # a hotter distribution has more entropy, token for token (a random model rarely ends:
    # both replies run to the cap)
    assert sum(hot.entropy) / len(hot.entropy) > sum(cold.entropy) / len(cold.entropy)
    assert hot.capped
    assert len(hot.ids) == 8


def test_lr_warms_up_linearly_then_stays() -> None:
    spec = TrainSpec(lr=1e-3, warmup_steps=4)
    assert [spec.lr_at(s) for s in (1, 2, 3, 4, 5, 9)] == pytest.approx(
        [2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3, 1e-3]
    )
    assert TrainSpec(lr=1e-3, warmup_steps=0).lr_at(1) == 1e-3


def constant(messages: list[dict[str, str]]) -> str:
    return "Rating: 4"


def varied(messages: list[dict[str, str]]) -> str:
    step = messages[-1]["content"].rsplit("Grade this", 1)[0]
    return f"Rating: {sum(map(ord, step)) % 10}"


@pytest.fixture(scope="module")
def critics() -> Iterator[dict[str, ScriptedLLM]]:
    with ScriptedLLM([(CRITIC, constant)]) as flat, ScriptedLLM([(CRITIC, varied)]) as spread:
        yield {"flat": flat, "spread": spread}


def run(critic: ScriptedLLM, out: Path, **overrides: object) -> list[dict[str, object]]:
    spec = TrainSpec.model_validate(
        {
            "policy": "tiny-random",
            "critic": critic.model,
            "critic_api_base": critic.api_base,
            "steps": 2,
            "samples_per_prompt": 3,
            "settings": PauSettings(max_iterations=1, no_cache=True),
            "caps": {"reason": 6, "act": 6, "reflect": 6},
            "output": out,
            **overrides,
        }
    )
    client = LLMClient(critic.model, api_base=critic.api_base, retry=RetryPolicy(max_attempts=1))
    Trainer(spec, SMOKE, critic_client=client, progress=False).train()
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]


DIAGNOSTICS = (
    "lr",
    "frac_reward_zero_std",
    "adv_std",
    "adv_abs_mean",
    "adv_nonzero_frac",
    "completion_tokens_mean",
    "cap_hit_rate",
    "entropy_mean",
    "logprob_mismatch",
)


def test_a_step_without_reward_spread_says_so(
    critics: dict[str, ScriptedLLM], tmp_path: Path
) -> None:
    """The tiny policy never writes a readable input; with a critic that rates every step
    alike, every episode earns the same: the loss is 0 because nothing differs, and the
    metrics say it (finding 4 of issue 38: "loss 0.0000" with nothing to tell why)."""
    rows = run(critics["flat"], tmp_path / "flat")
    for row in rows:
        assert set(DIAGNOSTICS) <= set(row)
        assert row["frac_reward_zero_std"] == 1.0
        assert row["adv_nonzero_frac"] == 0.0
        assert row["adv_std"] == 0.0
        assert row["loss"] == 0.0
        assert row["cap_hit_rate"] == 1.0  # 6-token caps: every reply cut
        assert row["completion_tokens_mean"] == 6.0
        assert isinstance(row["entropy_mean"], float)
        assert row["entropy_mean"] > 0
    spread = run(critics["spread"], tmp_path / "spread")
    assert all(row["frac_reward_zero_std"] == 0.0 for row in spread)
    assert all(float(row["adv_nonzero_frac"]) > 0 for row in spread)  # type: ignore[arg-type]


def test_sampler_and_trainer_agree_at_any_temperature(
    critics: dict[str, ScriptedLLM], tmp_path: Path
) -> None:
    """The update's log-probabilities of the sampled replies equal the sampler's (per token,
    before the step), at a temperature other than 1 too; the lr warms up over the steps."""
    rows = run(critics["spread"], tmp_path / "t07", temperature=0.7, lr=1e-3, warmup_steps=2)
    for row in rows:
        assert row["logprob_mismatch"] is not None
        assert float(row["logprob_mismatch"]) < 1e-4  # type: ignore[arg-type]
    assert [row["lr"] for row in rows] == pytest.approx([5e-4, 1e-3])
