"""``pau train`` on this CPU: what a step costs, and whether a policy learns what it is paid for.

    python benchmarks/train_bench.py speed                         # s / step, where time goes
    python benchmarks/train_bench.py speed --policies tiny-random --steps 5
    python benchmarks/train_bench.py curve                         # tiny-random learning curve
    python benchmarks/train_bench.py curve --policy smollm2 --behaviour digit --steps 12
    python benchmarks/train_bench.py lr-probe --policy smollm2 --lr 1e-4 1e-3 1e-2

``speed``: each policy trains ``--steps`` optimisation steps of ``--samples`` rollouts on
builtin smoke instances with a scripted critic over real HTTP; the first step (imports,
sandbox build, caches) is reported apart and left out of the averages. The baseline is one
bare policy turn (one generation of the turn cap for one prompt).

``curve``: the real trainer (:class:`~pytest_pau.train.trainer.Trainer`, the real environment
and sandbox, the default ``aac`` reward) with a scripted critic that rates a plan 9 when it
shows ``--behaviour`` and 0 otherwise (hypotheses: 0), against a same-seed control that samples
exactly as the trained run does but never updates (no backward, so AdamW skips every weight).
Per step: reward_mean and the behaviour's rate among the step's plans, both runs. Summary: the
paired difference (trained - control) over the second half of the steps, its t-statistic
(paired over steps), and the wall time. One torch thread (the machine is shared).

``lr-probe``: how far one lr moves a fresh LoRA adapter. The policy samples ``--samples``
plans for one smoke instance; half get advantage +1, half -1; ``--updates`` AdamW steps of the
trainer's own loss (:meth:`Trainer._accumulate`, warm-up off) follow. Reported per lr: the
change of the mean per-token log-probability of the +1 replies minus that of the -1 replies
(nats per token; what the update is for), the adapter's weight norm, and the seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: Behaviours a scripted critic can pay for: name -> (test on the plan text, what it means).
BEHAVIOURS: dict[str, tuple[Callable[[str], bool], str]] = {
    "printable-start": (
        lambda text: bool(text) and " " <= text[0] <= "~",
        "the plan starts with a printable ASCII character",
    ),
    "mostly-printable": (
        lambda text: bool(text) and sum(" " <= c <= "~" for c in text) * 2 >= len(text),
        "at least half of the plan's characters are printable ASCII",
    ),
    "digit": (lambda text: any(c.isdigit() for c in text), "the plan names a number (a digit)"),
    "question": (lambda text: "?" in text, "the plan asks a question ('?')"),
}


# -- speed ------------------------------------------------------------------------------------
def bare_turn_seconds(policy_name: str, tokens: int) -> float:
    """Median time of one generation of ``tokens`` tokens for one benchmark prompt."""
    from pytest_pau.agent import EpisodeState, build_act_messages
    from pytest_pau.dataset import load_dataset
    from pytest_pau.train.policy import Policy

    policy = Policy.load(policy_name)
    instance = next(i for i in load_dataset("builtin") if "smoke" in i.tags)
    prompt = policy.encode_chat(build_act_messages(EpisodeState.from_instance(instance)))
    times = []
    for seed in range(4):
        start = time.perf_counter()
        policy.generate([prompt], max_new_tokens=tokens, temperature=1.0, seed=seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def smoke(n: int) -> list[Any]:
    from pytest_pau.dataset import load_dataset

    return [i for i in load_dataset("builtin") if "smoke" in i.tags][:n]


def speed_run(policy: str, args: argparse.Namespace, client: Any, model: str) -> dict[str, Any]:
    from pytest_pau.llm.caps import TokenCaps
    from pytest_pau.settings import PauSettings
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.trainer import Trainer

    with tempfile.TemporaryDirectory() as tmp:
        spec = TrainSpec(
            policy=policy,
            critic=model,
            steps=args.steps,
            samples_per_prompt=args.samples,
            settings=PauSettings(max_iterations=args.turns, no_cache=True),
            caps=TokenCaps(critic=24, reason=args.tokens, act=args.tokens, reflect=args.tokens),
            output=Path(tmp),
            threads=1,
        )
        history = Trainer(spec, smoke(2), critic_client=client, progress=False).train()
    warm = history[1:] or history
    total = sum(r["step_time_s"] for r in warm)

    def share(key: str) -> float:
        return float(sum(r[key] for r in warm) / total)

    return {
        "policy": policy,
        "first_step_s": history[0]["step_time_s"],
        "step_s": statistics.fmean(r["step_time_s"] for r in warm),
        "rollouts_per_s": statistics.fmean(r["rollouts"] / r["step_time_s"] for r in warm),
        "share_sandbox": share("time_sandbox_s"),
        "share_critic": share("time_critic_s"),
        "share_policy": share("time_policy_s"),
        "share_policy_update": share("time_update_s"),
        "bare_turn_s": bare_turn_seconds(policy, args.tokens),
    }


def speed(args: argparse.Namespace) -> None:
    from pytest_pau.llm import LLMClient, RetryPolicy
    from pytest_pau.testing import ScriptedLLM

    rows = []
    with ScriptedLLM(lambda msgs: "Plausible. Rating: 5") as server:
        client = LLMClient(
            server.model, api_base=server.api_base, retry=RetryPolicy(max_attempts=1)
        )
        for policy in args.policies.split(","):
            row = speed_run(policy, args, client, server.model)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"\n{args.samples} rollouts x {args.turns} iterations, {args.tokens} tokens a turn")
    print("| policy | s / step | step / bare turn | rollouts / s | critic | policy (update) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['policy']} | {r['step_s']:.2f} | {r['step_s'] / r['bare_turn_s']:.0f}x "
            f"| {r['rollouts_per_s']:.2f} | {r['share_critic']:.1%} "
            f"| {r['share_policy']:.1%} ({r['share_policy_update']:.1%}) |"
        )


# -- learning curve ------------------------------------------------------------------------------
class BehaviourCritic:
    """The environment's critic protocol, scripted: a plan showing the behaviour is rated 9,
    any other 0; every hypothesis 0. Remembers what it saw since the last :meth:`take`."""

    def __init__(self, test: Callable[[str], bool]) -> None:
        self.test = test
        self.seen: list[bool] = []

    def rate_reasoning(self, instance: Any, state: Any, plan: str) -> Any:
        from pytest_pau.train.critic import Verdict

        shown = self.test(plan)
        self.seen.append(shown)
        return Verdict(score=1.0 if shown else 0.0, rating=9 if shown else 0)

    def rate_hypothesis(self, *args: Any, **kwargs: Any) -> Any:
        from pytest_pau.train.critic import Verdict

        return Verdict(score=0.0, rating=0)

    def take(self) -> list[bool]:
        seen, self.seen = self.seen, []
        return seen


def curve_trainer(
    spec: Any, instances: list[Any], test: Callable[[str], bool], update: bool
) -> Any:
    """A :class:`Trainer` whose critic is :class:`BehaviourCritic`; ``update=False``: the
    same loop (same seeds, same sampling) with no backward pass, so the policy never moves."""
    from pytest_pau.train.trainer import Trainer

    class CurveTrainer(Trainer):
        critic_ = BehaviourCritic(test)

        def make_critic(self) -> Any:
            return self.critic_

        def _step(self, *a: Any, **k: Any) -> dict[str, Any]:
            record = super()._step(*a, **k)
            seen = self.critic_.take()
            record["behaviour_rate"] = sum(seen) / max(1, len(seen))
            record["plans"] = len(seen)
            return record

        def _accumulate(self, *a: Any, **k: Any) -> float:
            if update:
                return super()._accumulate(*a, **k)
            return 0.0

    return CurveTrainer(spec, instances, progress=False)


def paired_t(diffs: Sequence[float]) -> float:
    """t-statistic of the mean of paired differences (nan with fewer than 2 or no spread)."""
    if len(diffs) < 2:
        return math.nan
    sd = statistics.stdev(diffs)
    return statistics.fmean(diffs) / (sd / math.sqrt(len(diffs))) if sd > 0 else math.nan


def curve_run(
    args: argparse.Namespace, lr: float, update: bool
) -> tuple[list[dict[str, Any]], float]:
    """One run of the curve: its per-step records and its wall time."""
    from pytest_pau.llm.caps import TokenCaps
    from pytest_pau.settings import PauSettings
    from pytest_pau.train.config import TrainSpec

    test = BEHAVIOURS[args.behaviour][0]
    with tempfile.TemporaryDirectory() as tmp:
        spec = TrainSpec(
            policy=args.policy,
            critic="scripted",
            steps=args.steps,
            samples_per_prompt=args.samples,
            grad_accum=args.grad_accum,
            lr=lr,
            warmup_steps=args.warmup,
            settings=PauSettings(max_iterations=1, no_cache=True, seed=args.seed),
            caps=TokenCaps(reason=args.tokens, act=args.act_tokens, reflect=args.act_tokens),
            output=Path(tmp),
            threads=1,
            save_every=10_000,
        )
        start = time.perf_counter()
        rows = curve_trainer(spec, smoke(args.instances), test, update).train()
        return rows, time.perf_counter() - start


def compare(
    trained: list[dict[str, Any]], control: list[dict[str, Any]], key: str, half: int
) -> dict[str, float]:
    diffs = [t[key] - c[key] for t, c in zip(trained[half:], control[half:], strict=True)]
    return {
        "control_first_half": statistics.fmean(c[key] for c in control[:half]),
        "control_second_half": statistics.fmean(c[key] for c in control[half:]),
        "trained_first_half": statistics.fmean(t[key] for t in trained[:half]),
        "trained_second_half": statistics.fmean(t[key] for t in trained[half:]),
        "diff_second_half": statistics.fmean(diffs),
        "t_paired_second_half": paired_t(diffs),
    }


def curve(args: argparse.Namespace) -> dict[str, Any]:
    """The control once (it never updates, so no lr changes it), then one trained run per lr."""
    import torch

    torch.set_num_threads(1)
    control, control_s = curve_run(args, args.lr[0], update=False)
    half = args.steps // 2
    summary: dict[str, Any] = {
        "policy": args.policy,
        "behaviour": BEHAVIOURS[args.behaviour][1],
        "steps": args.steps,
        "samples": args.samples,
        "grad_accum": args.grad_accum,
        "instances": args.instances,
        "plan_tokens": args.tokens,
        "warmup": args.warmup,
        "seed": args.seed,
        "cpu_threads": 1,
        "control": {
            "wall_s": control_s,
            "behaviour_rate": [round(c["behaviour_rate"], 3) for c in control],
            "reward_mean": [round(c["reward_mean"], 3) for c in control],
        },
        "runs": [],
    }
    for lr in args.lr:
        trained, wall = curve_run(args, lr, update=True)
        summary["runs"].append(
            {
                "lr": lr,
                "wall_s": wall,
                "step_s_mean": statistics.fmean(t["step_time_s"] for t in trained),
                "behaviour_rate": compare(trained, control, "behaviour_rate", half),
                "reward_mean": compare(trained, control, "reward_mean", half),
                "per_step": {
                    "behaviour_rate": [round(t["behaviour_rate"], 3) for t in trained],
                    "reward_mean": [round(t["reward_mean"], 3) for t in trained],
                    "frac_reward_zero_std": [t["frac_reward_zero_std"] for t in trained],
                    "entropy_mean": [round(t["entropy_mean"] or 0, 3) for t in trained],
                    "logprob_mismatch_max": max(t["logprob_mismatch"] or 0 for t in trained),
                    "completion_tokens_mean": [t["completion_tokens_mean"] for t in trained],
                },
            }
        )
        print(json.dumps(summary["runs"][-1]["behaviour_rate"]), lr, flush=True)
    return summary


def mean_logp(policy: Any, turns: list[Any], sign: float) -> float:
    """Mean per-token log-probability of the replies whose advantage is ``sign``."""
    import torch

    chosen = [t for t in turns if t.advantage == sign]
    with torch.no_grad():
        logp = policy.sequence_logprobs([(t.prompt_ids, t.completion_ids) for t in chosen])
    return float(logp.sum()) / sum(len(t.completion_ids) for t in chosen)


def lr_probe(args: argparse.Namespace) -> list[dict[str, Any]]:
    import torch

    from pytest_pau.agent import EpisodeState, build_reason_messages
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.policy import Policy
    from pytest_pau.train.rollout import Rollout, Turn
    from pytest_pau.train.trainer import Trainer

    torch.set_num_threads(1)
    instance = smoke(1)[0]
    rows = []
    for lr in args.lr:
        policy = Policy.load(args.policy, seed=args.seed)
        prompt = policy.encode_chat(build_reason_messages(EpisodeState.from_instance(instance)))
        samples = policy.sample(
            [prompt] * args.samples, max_new_tokens=args.tokens, temperature=1.0, seed=args.seed
        )
        turns = [
            Turn("reason", prompt, s.ids, "", 0.0, {}, advantage=1.0 if i % 2 == 0 else -1.0)
            for i, s in enumerate(samples)
        ]
        group = [Rollout(turns=[t]) for t in turns]
        spec = TrainSpec(policy=args.policy, lr=lr, warmup_steps=0, samples_per_prompt=2)
        trainer = Trainer(spec, [instance], progress=False)

        before = (mean_logp(policy, turns, 1.0), mean_logp(policy, turns, -1.0))
        optimizer = torch.optim.AdamW(policy.trainable_parameters(), lr=lr)
        start = time.perf_counter()
        for _ in range(args.updates):
            optimizer.zero_grad(set_to_none=True)
            trainer._accumulate(policy, group, scale=1.0)
            torch.nn.utils.clip_grad_norm_(policy.trainable_parameters(), spec.max_grad_norm)
            optimizer.step()
        seconds = time.perf_counter() - start
        after = (mean_logp(policy, turns, 1.0), mean_logp(policy, turns, -1.0))
        norm = math.sqrt(sum(float((p.detach() ** 2).sum()) for p in policy.trainable_parameters()))
        row = {
            "policy": args.policy,
            "lr": lr,
            "updates": args.updates,
            "delta_pos": after[0] - before[0],
            "delta_neg": after[1] - before[1],
            "separation": (after[0] - before[0]) - (after[1] - before[1]),
            "adapter_norm": norm,
            "update_s": seconds,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="mode", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--policies", default="tiny-random,smollm2")
    sp.add_argument("--steps", type=int, default=4)
    sp.add_argument("--samples", type=int, default=4)
    sp.add_argument("--turns", type=int, default=2, help="iterations per episode")
    sp.add_argument("--tokens", type=int, default=16, help="token cap of every turn")
    cp = sub.add_parser("curve")
    cp.add_argument("--policy", default="tiny-random")
    cp.add_argument("--behaviour", choices=sorted(BEHAVIOURS), default="mostly-printable")
    cp.add_argument("--steps", type=int, default=40)
    cp.add_argument("--samples", type=int, default=8)
    cp.add_argument("--grad-accum", type=int, default=1)
    cp.add_argument("--instances", type=int, default=2)
    cp.add_argument("--lr", type=float, nargs="+", default=[1e-3], help="one trained run each")
    cp.add_argument("--warmup", type=int, default=5)
    cp.add_argument("--tokens", type=int, default=8, help="token cap of the plan")
    cp.add_argument("--act-tokens", type=int, default=8, help="token cap of act and reflect")
    cp.add_argument("--seed", type=int, default=0)
    cp.add_argument("--json", type=Path, default=None, help="also write the summary here")
    lp = sub.add_parser("lr-probe")
    lp.add_argument("--policy", default="tiny-random")
    lp.add_argument("--lr", type=float, nargs="+", default=[1e-4, 1e-3, 1e-2])
    lp.add_argument("--samples", type=int, default=8)
    lp.add_argument("--updates", type=int, default=5)
    lp.add_argument("--tokens", type=int, default=24)
    lp.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.mode == "lr-probe":
        lr_probe(args)
        return
    if args.mode == "speed":
        speed(args)
        return
    summary = curve(args)
    text = json.dumps(summary, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
