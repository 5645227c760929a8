"""SkyRL's generator for PAU: each turn is sampled on the benchmark's own fresh prompt.

SkyRL's stock generator (``SkyRLGymGenerator``) keeps one chat per trajectory and appends
each observation to it, so the policy's later turns would see a transcript the benchmark
never shows. ``pytest --pau-model`` (and the local trainer) build every turn's prompt afresh
from the episode state: header, recent evidence, hypothesis, the turn's instruction. This
generator does the same on SkyRL's inference engines, and hands SkyRL one training sample
per turn:

- ``prompt_token_ids``: the turn's own prompt (the chat template applied to
  :meth:`PauEnv.messages`), ``response_ids`` the reply;
- ``rewards``: the turn's return-to-go (its reward plus every later reward of the episode);
- ``trajectory_ids``: ``TrajectoryID("<row uid>/turn-<t>", repetition)`` with
  ``is_last_step`` true for every sample, so SkyRL's step-wise GRPO
  (``generator.step_wise_trajectories=true``, outcome estimator ``grpo``) normalises each
  turn's return-to-go against the other rollouts' at the same turn index: exactly the local
  trainer's per-turn advantage (:func:`pytest_pau.train.rollout.group_advantages`).

The paper's own run (the reference's ``run_rl.sh``) also trained step-wise on fresh prompts
(``step_wise_trajectories`` with its fork's ``previous_observation_only``), but with SkyRL's
step-wise GRPO, which broadcasts the *last* step's reward to every step of a trajectory; the
per-step rewards of AAC then never reach the earlier turns. The return-to-go grouping above is
our choice, the one ``pau train`` makes locally.

The episode loop (:func:`play_episode`) and the conversion (:func:`stepwise_output`) need
neither Ray nor GPUs and are tested here; :class:`PauStepGenerator` only adds SkyRL's
``generate`` signature around them (``skyrl_main`` registers it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_pau.train.rollout import group_advantages

#: ``engine(prompt_token_ids, sampling_params) -> (text, response_ids, logprobs or None, stop)``
Engine = Callable[[list[int], dict[str, Any] | None], Awaitable[tuple[str, list[int], Any, str]]]


@dataclass
class StepSample:
    """One turn of one episode, as SkyRL will train on it."""

    turn: int
    prompt_ids: list[int]
    response_ids: list[int]
    reward: float
    """The turn's own reward (return-to-go is computed per episode)."""
    logprobs: list[float] | None = None
    stop_reason: str = "stop"


@dataclass
class Episode:
    """The turns of one trajectory and the row it came from."""

    uid: str
    """The dataset row's instance id (SkyRL's ``TrajectoryID.instance_id``)."""
    repetition: int
    steps: list[StepSample] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)


def returns_to_go(rewards: Sequence[float]) -> list[float]:
    """Each turn's reward plus every later one (undiscounted, as the local trainer)."""
    out, acc = [], 0.0
    for r in reversed(rewards):
        acc += r
        out.append(acc)
    return out[::-1]


async def play_episode(
    env: Any,
    tokenize: Callable[[list[dict[str, str]]], list[int]],
    engine: Engine,
    *,
    uid: str,
    repetition: int,
    sampling_params: dict[str, Any] | None = None,
) -> Episode:
    """Play one PAU episode, each turn on its fresh benchmark prompt.

    Args:
        env: A :class:`~pytest_pau.train.skyrl_env.PauTextEnv` (or anything with ``env`` a
            :class:`PauEnv`, ``step(text)`` and ``get_metrics()``).
        tokenize: Messages to prompt token ids (the chat template, generation prompt added).
        engine: One generation: prompt ids -> (text, response ids, logprobs, stop reason).
        uid: The row's instance id; repetition: which sample of the row.
        sampling_params: Passed to the engine as SkyRL passes them (None: its defaults).
    """
    episode = Episode(uid=uid, repetition=repetition)
    env.init([])
    turn = 0
    while True:
        prompt_ids = tokenize(env.env.messages())
        text, response_ids, logprobs, stop = await engine(prompt_ids, sampling_params)
        # The environment calls the critic and the sandbox: off the event loop, so the
        # other episodes' generations go on meanwhile.
        out = await asyncio.to_thread(env.step, text)
        episode.steps.append(
            StepSample(turn, prompt_ids, list(response_ids), float(out["reward"]), logprobs, stop)
        )
        turn += 1
        if out["done"]:
            break
    episode.metrics = env.get_metrics()
    return episode


def stepwise_output(episodes: Sequence[Episode]) -> dict[str, Any]:
    """SkyRL's ``GeneratorOutput`` fields for step-wise training, one sample per turn.

    Samples are ordered by (row, turn index, repetition) so each GRPO group (same
    ``instance_id``) is contiguous. ``trajectory_ids`` holds ``(instance_id, repetition)``
    pairs; :class:`PauStepGenerator` turns them into SkyRL's ``TrajectoryID``.

    Returns:
        ``prompt_token_ids``, ``response_ids``, ``rewards`` (per-token lists, the
        return-to-go on the last token), ``loss_masks``, ``stop_reasons``,
        ``rollout_logprobs`` (None unless every sample has them), ``trajectory_ids``,
        ``is_last_step``, ``rollout_metrics``; and ``advantages_preview``: the per-turn
        advantages SkyRL's grouping yields (the local trainer's; for checks and logs).
    """
    rows: list[tuple[str, int, int, StepSample, float]] = []
    for ep in episodes:
        for step, g in zip(ep.steps, returns_to_go([s.reward for s in ep.steps]), strict=True):
            rows.append((ep.uid, step.turn, ep.repetition, step, g))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    by_row: dict[str, list[Episode]] = {}
    for ep in episodes:
        by_row.setdefault(ep.uid, []).append(ep)
    preview: dict[tuple[str, int, int], float] = {}
    for uid, group in by_row.items():
        adv = group_advantages([[s.reward for s in ep.steps] for ep in group])
        for ep, values in zip(group, adv, strict=True):
            for step, a in zip(ep.steps, values, strict=True):
                preview[(uid, step.turn, ep.repetition)] = a
    logprobs = [r[3].logprobs for r in rows]
    n_turns = [len(ep.steps) for ep in episodes]
    return {
        "prompt_token_ids": [r[3].prompt_ids for r in rows],
        "response_ids": [r[3].response_ids for r in rows],
        "rewards": [[0.0] * (len(r[3].response_ids) - 1) + [r[4]] for r in rows],
        "loss_masks": [[1] * len(r[3].response_ids) for r in rows],
        "stop_reasons": [r[3].stop_reason for r in rows],
        "rollout_logprobs": logprobs if all(lp is not None for lp in logprobs) else None,
        "trajectory_ids": [(f"{r[0]}/turn-{r[1]}", r[2]) for r in rows],
        "is_last_step": [True] * len(rows),
        "rollout_metrics": {
            "pau/turns_mean": sum(n_turns) / max(1, len(n_turns)),
            "pau/return_mean": sum(sum(s.reward for s in ep.steps) for ep in episodes)
            / max(1, len(episodes)),
        },
        "advantages_preview": [preview[(r[0], r[1], r[2])] for r in rows],
    }


class PauStepGenerator:
    """SkyRL ``GeneratorInterface`` implementation (``skyrl_main`` mixes the interface in).

    Args:
        generator_cfg: SkyRL's ``generator`` config (``sampling_params``, ...).
        skyrl_gym_cfg: SkyRL's ``environment.skyrl_gym`` config (the ``pau`` section).
        inference_engine_client: SkyRL's client of the inference engines.
        tokenizer: The policy's tokenizer (its chat template builds each turn's prompt).
    """

    def __init__(
        self,
        generator_cfg: Any,
        skyrl_gym_cfg: Any,
        inference_engine_client: Any,
        tokenizer: Any,
        *_: Any,
        max_prompt_length: int = 2048,
        **__: Any,
    ) -> None:
        self.generator_cfg = generator_cfg
        self.skyrl_gym_cfg = skyrl_gym_cfg
        self.client = inference_engine_client
        self.tokenizer = tokenizer
        self.max_prompt_length = max_prompt_length

    def _tokenize(self, messages: list[dict[str, str]]) -> list[int]:
        ids = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=True
        )
        # as the local policy does: a prompt too long loses its head first
        return list(ids)[-self.max_prompt_length :]

    async def _engine(
        self, prompt_ids: list[int], sampling_params: dict[str, Any] | None
    ) -> tuple[str, list[int], Any, str]:  # pragma: no cover - needs SkyRL's engines
        out = await self.client.generate(
            {"prompt_token_ids": [prompt_ids], "sampling_params": sampling_params}
        )
        logprobs = out.get("response_logprobs")
        return (
            out["responses"][0],
            list(out["response_ids"][0]),
            logprobs[0] if logprobs else None,
            out["stop_reasons"][0],
        )

    async def generate(self, input_batch: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover
        from pytest_pau.train.skyrl_env import PauTextEnv

        config = getattr(self.skyrl_gym_cfg, "pau", None)
        ids = input_batch.get("trajectory_ids") or [
            (f"row-{i}", 0) for i in range(len(input_batch["prompts"]))
        ]
        tasks = []
        for extras, tid in zip(input_batch["env_extras"], ids, strict=True):
            uid, rep = (tid.instance_id, tid.repetition_id) if hasattr(tid, "instance_id") else tid
            env = PauTextEnv(config, extras)
            tasks.append(
                play_episode(
                    env,
                    self._tokenize,
                    self._engine,
                    uid=uid,
                    repetition=rep,
                    sampling_params=input_batch.get("sampling_params"),
                )
            )
        episodes = await asyncio.gather(*tasks)
        output = stepwise_output(episodes)
        output.pop("advantages_preview")
        from skyrl_train.generators.base import TrajectoryID

        output["trajectory_ids"] = [TrajectoryID(u, r) for u, r in output["trajectory_ids"]]
        return output
