"""The local trainer: LoRA policy gradient with a group baseline (GRPO-style), on CPU.

One optimisation step takes ``grad_accum`` instances; for each it plays
``samples_per_prompt`` episodes (:func:`~pytest_pau.train.rollout.run_group`), turns the
step rewards into per-turn advantages, and accumulates the gradient of
``-sum(A * log p(reply | prompt)) / tokens``. Then one AdamW step on the adapter.

Outputs under ``--output DIR``::

    config.json                 the run's TrainSpec (its ``settings``: the benchmark's)
    selection.json              the pytest arguments and the selected instance ids, in order
    metrics.jsonl               one object per step (step, loss, lr, reward_mean,
                                reward_<component>, frac_reward_zero_std, adv_std,
                                completion_tokens_mean, cap_hit_rate, entropy_mean,
                                logprob_mismatch, critic_manipulation...)
    adapter/                    the latest adapter (plugs back into the benchmark)
    checkpoints/step-N/         adapter/, optimizer.pt, rng.pt, state.json (for --resume)

The instances are given (``pau train`` collects them with pytest: :mod:`pytest_pau.plugin.train_collection`).
The instance order is a pure function of ``(seed, step)``: step ``s`` takes positions
``(s-1)*grad_accum ...`` of a stream of per-epoch permutations, so ``--resume`` continues
exactly where the checkpoint stopped without storing a data cursor.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_pau.errors import ConfigError
from pytest_pau.paths import write_text_atomic
from pytest_pau.train.config import TrainSpec
from pytest_pau.train.rollout import GroupTimings, Rollout, run_group, summarise, update_stats

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.train.policy import Policy

_STEP_DIR = re.compile(r"^step-(\d+)$")


def split_heldout(
    spec: TrainSpec, instances: list[Instance]
) -> tuple[list[Instance], list[Instance]]:
    """(train, held-out): the last ``eval_instances`` are held out when ``--eval-every`` is on."""
    if not spec.eval_every:
        return instances, []
    if len(instances) <= spec.eval_instances:
        raise ConfigError(
            f"--eval-every needs held-out instances: {len(instances)} selected, "
            f"--eval-instances {spec.eval_instances}; select more or lower --eval-instances"
        )
    return instances[: -spec.eval_instances], instances[-spec.eval_instances :]


def instances_for_step(step: int, n: int, grad_accum: int, seed: int) -> list[int]:
    """Indices (into the training list) of the groups of optimisation step ``step`` (1-based)."""
    out = []
    for g in range((step - 1) * grad_accum, step * grad_accum):
        epoch, pos = divmod(g, n)
        order = list(range(n))
        random.Random(seed * 1_000_003 + epoch).shuffle(order)
        out.append(order[pos])
    return out


def latest_checkpoint(output: Path) -> tuple[int, Path] | None:
    """The newest ``checkpoints/step-N`` with a complete state file, if any."""
    found = []
    for path in (output / "checkpoints").glob("step-*"):
        match = _STEP_DIR.match(path.name)
        if match and (path / "state.json").is_file():
            found.append((int(match.group(1)), path))
    return max(found) if found else None


class Trainer:
    """Runs ``pau train --backend local``.

    Args:
        spec: The settings.
        instances: What to train on, in selection order (the last ``spec.eval_instances``
            are held out when ``spec.eval_every``).
        critic_client: The critic's client; by default ``make_client(spec.critic, ...)``.
        progress: Show a tqdm bar (off in tests).
    """

    def __init__(
        self,
        spec: TrainSpec,
        instances: list[Instance],
        *,
        critic_client: Any = None,
        progress: bool = True,
    ) -> None:
        if not instances:
            raise ConfigError("Trainer: no instance to train on; select some (pau train -- -k ...)")
        self.spec = spec
        self.instances = list(instances)
        self.progress = progress
        self._critic_client = critic_client
        self.output = Path(spec.output)

    # -- parts -------------------------------------------------------------------------------
    def critic_client(self) -> Any:
        if self._critic_client is None:
            from pytest_pau.llm import make_client

            s = self.spec
            self._critic_client = make_client(
                s.critic,
                api_base=s.critic_api_base,
                cache_dir=s.model_cache_dir,
                no_cache=s.settings.no_cache,
            )
        return self._critic_client

    def make_critic(self) -> Any:
        from pytest_pau.train.critic import CodeMatchCritic, Critic

        s = self.spec
        seed = s.settings.seed
        if s.reward == "code-match":
            from pytest_pau.scoring import Coder

            return CodeMatchCritic(
                Coder(self.critic_client(), seed=seed), backend=s.settings.sandbox
            )
        return Critic(
            self.critic_client(), privileged=s.privileged, seed=seed, max_tokens=s.caps.critic
        )

    def total_steps(self, n_train: int) -> int:
        """``--steps`` when given, else ``epochs`` passes of ``grad_accum`` groups per step."""
        if self.spec.steps is not None:
            return self.spec.steps
        return self.spec.epochs * math.ceil(n_train / self.spec.grad_accum)

    # -- the loop ----------------------------------------------------------------------------
    def train(self) -> list[dict[str, Any]]:
        """Train; returns the metrics of the steps run by this call.

        Raises:
            ConfigError: bad settings, or ``--resume`` without a checkpoint in ``--output``.
        """
        import torch

        from pytest_pau.train.policy import Policy

        s = self.spec
        seed = s.settings.seed
        if s.threads:
            torch.set_num_threads(s.threads)
        train_set, heldout = split_heldout(s, self.instances)
        total = self.total_steps(len(train_set))
        self.output.mkdir(parents=True, exist_ok=True)
        start_step = 0
        checkpoint = latest_checkpoint(self.output) if s.resume else None
        if s.resume and checkpoint is None:
            raise ConfigError(
                f"--resume: no checkpoint under {self.output / 'checkpoints'}; run without "
                "--resume to start, or point --output at the run to continue"
            )
        if checkpoint is not None:
            self._check_selection()
            start_step, ck_dir = checkpoint
            policy = Policy.load(s.policy, seed=seed, adapter=ck_dir / "adapter")
        else:
            policy = Policy.load(
                s.policy, lora_rank=s.lora_rank, lora_alpha=s.lora_alpha, seed=seed
            )
        optimizer = torch.optim.AdamW(policy.trainable_parameters(), lr=s.lr)
        if checkpoint is not None:
            self._restore(checkpoint[1], optimizer)
            self._truncate_metrics(start_step)
        else:
            (self.output / "metrics.jsonl").write_text("")
            (self.output / "eval.txt").unlink(missing_ok=True)
        write_text_atomic(self.output / "config.json", s.model_dump_json(indent=2) + "\n")
        selection = {"pytest_args": s.pytest_args, "instances": [i.id for i in self.instances]}
        write_text_atomic(self.output / "selection.json", json.dumps(selection, indent=2) + "\n")

        critic = self.make_critic()
        boxes: dict[str, Any] = {}
        history: list[dict[str, Any]] = []
        bar = self._bar(start_step, total)
        try:
            for step in range(start_step + 1, total + 1):
                picks = [
                    train_set[i]
                    for i in instances_for_step(step, len(train_set), s.grad_accum, seed)
                ]
                record = self._step(step, policy, optimizer, critic, picks, boxes)
                if s.eval_every and step % s.eval_every == 0:
                    record.update(self.evaluate(policy, heldout, step))
                with (self.output / "metrics.jsonl").open("a") as fh:
                    fh.write(json.dumps(record) + "\n")
                history.append(record)
                if step % s.save_every == 0 or step == total:
                    self._save(step, policy, optimizer)
                if bar is not None:
                    bar.set_postfix(
                        reward=f"{record['reward_mean']:.3f}",
                        loss=f"{record['loss']:.4f}",
                        step_s=f"{record['step_time_s']:.1f}",
                    )
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
            for box in boxes.values():
                box.close()
        if start_step >= total and not history:
            policy.save_adapter(self.output / "adapter")
        return history

    def _bar(self, start: int, total: int) -> Any:
        if not self.progress:
            return None
        from tqdm import tqdm

        return tqdm(total=total, initial=start, desc="pau train", unit="step")

    def _step(
        self,
        step: int,
        policy: Policy,
        optimizer: Any,
        critic: Any,
        picks: list[Instance],
        boxes: dict[str, Any],
    ) -> dict[str, Any]:
        import torch

        from pytest_pau.sandbox import Sandbox

        s = self.spec
        started = time.perf_counter()
        torch.manual_seed(s.settings.seed * 1_000_003 + step)
        timings = GroupTimings()
        rollouts: list[Rollout] = []
        groups: list[list[Rollout]] = []
        loss_total = 0.0
        update_s = 0.0
        lr = s.lr_at(step)
        for group_ in optimizer.param_groups:
            group_["lr"] = lr
        optimizer.zero_grad(set_to_none=True)
        for instance in picks:
            box = boxes.get(instance.id)
            if box is None:
                box = boxes[instance.id] = Sandbox(instance.code, backend=s.settings.sandbox)
            group = run_group(
                policy,
                instance,
                critic=critic,
                variant=s.reward,
                samples=s.samples_per_prompt,
                max_iterations=s.settings.max_iterations,
                config=s.rewards,
                sandbox=box,
                max_new_tokens=s.max_new_tokens(),
                temperature=s.temperature,
                timings=timings,
            )
            rollouts.extend(group)
            groups.append(group)
            t0 = time.perf_counter()
            loss_total += self._accumulate(policy, group, scale=1.0 / len(picks))
            update_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        grad_norm = torch.nn.utils.clip_grad_norm_(policy.trainable_parameters(), s.max_grad_norm)
        optimizer.step()
        update_s += time.perf_counter() - t0
        record: dict[str, Any] = {"step": step, "loss": loss_total, "lr": lr}
        record.update(summarise(rollouts))
        record.update(update_stats(groups))
        record.update(
            grad_norm=float(grad_norm),
            rollouts=len(rollouts),
            instances=[i.id for i in picks],
            step_time_s=time.perf_counter() - started,
            time_policy_s=timings.policy + update_s,
            time_generate_s=timings.policy,
            time_update_s=update_s,
            time_sandbox_s=timings.sandbox,
            time_critic_s=timings.critic,
        )
        return record

    def _accumulate(self, policy: Policy, group: list[Rollout], *, scale: float) -> float:
        """Backward of one group's policy-gradient loss; returns the loss value.

        The replies are scored at the sampling temperature; each turn keeps the score
        (``Turn.trainer_logprob``, before the step) for the sampler/trainer comparison.
        """
        import torch

        turns = [t for r in group for t in r.turns if t.completion_ids]
        tokens = sum(len(t.completion_ids) for t in turns)
        if not turns or tokens == 0:
            return 0.0
        total = 0.0
        mb = self.spec.micro_batch
        for i in range(0, len(turns), mb):
            chunk = turns[i : i + mb]
            logp = policy.sequence_logprobs(
                [(t.prompt_ids, t.completion_ids) for t in chunk],
                temperature=self.spec.temperature,
            )
            for turn, value in zip(chunk, logp.detach().tolist(), strict=True):
                turn.trainer_logprob = value
            adv = torch.tensor([t.advantage for t in chunk], dtype=logp.dtype)
            loss = -(adv * logp).sum() / tokens * scale
            if loss.requires_grad:
                loss.backward()
            total += float(loss.detach())
        return total

    # -- checkpoints ---------------------------------------------------------------------------
    def _save(self, step: int, policy: Policy, optimizer: Any) -> None:
        import torch

        folder = self.output / "checkpoints" / f"step-{step}"
        policy.save_adapter(folder / "adapter")
        torch.save(optimizer.state_dict(), folder / "optimizer.pt")
        torch.save({"torch": torch.get_rng_state(), "python": random.getstate()}, folder / "rng.pt")
        (folder / "state.json").write_text(
            json.dumps({"step": step, "policy": self.spec.policy}) + "\n"
        )
        policy.save_adapter(self.output / "adapter")

    def _check_selection(self) -> None:
        """``--resume`` must continue on the instances the run started with, in that order.

        The step's instances are positions in the selection: a different selection (a new
        ``--lf`` state, another ``-k``) would silently train on other instances.
        """
        path = self.output / "selection.json"
        if not path.is_file():
            return  # a run from before selection.json existed
        before = json.loads(path.read_text())
        now = [i.id for i in self.instances]
        old = before.get("instances") or []
        if old != now:
            at = next((k for k, (a, b) in enumerate(zip(old, now, strict=False)) if a != b), None)
            if at is None:
                at = min(len(old), len(now))
            was = old[at] if at < len(old) else "(end)"
            got = now[at] if at < len(now) else "(end)"
            raise ConfigError(
                f"--resume: {self.output} started on {len(old)} instances selected by pytest "
                f"arguments {before.get('pytest_args')!r}; {self.spec.pytest_args!r} now select "
                f"{len(now)}, differing at position {at + 1} (was {was!r}, now {got!r}); resume "
                "with the same selection (a benchmark run since then changes what --lf "
                "selects), or start a new --output"
            )

    def _restore(self, folder: Path, optimizer: Any) -> None:
        import torch

        optimizer.load_state_dict(torch.load(folder / "optimizer.pt", weights_only=False))
        rng = torch.load(folder / "rng.pt", weights_only=False)
        torch.set_rng_state(rng["torch"])
        random.setstate(rng["python"])

    def _truncate_metrics(self, step: int) -> None:
        """Drop metric lines written after the checkpoint (a run stopped between saves)."""
        path = self.output / "metrics.jsonl"
        if not path.is_file():
            return
        kept = [
            ln
            for ln in path.read_text().splitlines()
            if ln.strip() and json.loads(ln)["step"] <= step
        ]
        path.write_text("".join(ln + "\n" for ln in kept))

    # -- evaluation ------------------------------------------------------------------------------
    def evaluate(self, policy: Policy, heldout: list[Instance], step: int = 0) -> dict[str, Any]:
        """The benchmark's scoring (agent, judge, code match) of the policy on ``heldout``.

        Prints the PAU summary block (above the progress bar) and appends it to
        ``DIR/eval.txt``; returns the ``eval_*`` metrics of the step's record.
        """
        from pytest_pau.train.evaluate import evaluate_policy

        done = evaluate_policy(
            policy, heldout, self.spec, step=step, critic_client=self._critic_client
        )
        with (self.output / "eval.txt").open("a", encoding="utf-8") as fh:
            fh.write(done.text + "\n")
        if self.progress:
            from tqdm import tqdm

            tqdm.write(done.text)
        else:
            print(done.text, flush=True)
        return done.metrics
