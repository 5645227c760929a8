"""Speed of ``pau train`` on this CPU: seconds per step, rollouts per second, where time goes.

    python benchmarks/train_bench.py                       # tiny-random and smollm2, scripted critic
    python benchmarks/train_bench.py --critic local-small  # the embedded 0.5B model as critic
    python benchmarks/train_bench.py --policies tiny-random --steps 5

Each policy trains ``--steps`` optimisation steps of ``--samples`` rollouts on builtin smoke
instances; the first step (imports, sandbox build, litellm import, caches) is reported apart and
left out of the averages. The baseline, measured in the same run, is one bare policy turn: a
single generation of the act turn's token cap for one prompt, so "step / turn" says how many
policy turns' worth of time one GRPO step costs. Shares: sandbox (the method's calls), critic
(model calls incl. HTTP/litellm), policy (generation + the update), other (env, prompts, I/O).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


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


def run(policy: str, args: argparse.Namespace, critic: Any, client: Any) -> dict[str, Any]:
    from pytest_pau.llm.caps import TokenCaps
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.trainer import Trainer

    with tempfile.TemporaryDirectory() as tmp:
        spec = TrainSpec(
            policy=policy,
            critic=critic,
            select="smoke",
            steps=args.steps,
            samples_per_prompt=args.samples,
            max_iterations=args.turns,
            caps=TokenCaps(critic=24, reason=args.tokens, act=args.tokens, reflect=args.tokens),
            output=Path(tmp),
            no_cache=True,
        )
        history = Trainer(spec, critic_client=client, progress=False).train()
    warm = history[1:] or history
    step = statistics.fmean(r["step_time_s"] for r in warm)
    total = sum(r["step_time_s"] for r in warm)

    def share(key: str) -> float:
        return sum(r[key] for r in warm) / total

    return {
        "policy": policy,
        "first_step_s": history[0]["step_time_s"],
        "step_s": step,
        "rollouts_per_s": statistics.fmean(r["rollouts"] / r["step_time_s"] for r in warm),
        "turns_per_rollout": statistics.fmean(r["turns_mean"] for r in warm),
        "share_sandbox": share("time_sandbox_s"),
        "share_critic": share("time_critic_s"),
        "share_policy": share("time_policy_s"),
        "share_policy_update": share("time_update_s"),
        "bare_turn_s": bare_turn_seconds(policy, args.tokens),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--policies", default="tiny-random,smollm2")
    parser.add_argument(
        "--critic", default="scripted", help="scripted (a fixed-rating server) or any model string"
    )
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--turns", type=int, default=2, help="iterations per episode")
    parser.add_argument("--tokens", type=int, default=16, help="token cap of every turn")
    args = parser.parse_args()

    from pytest_pau.llm import LLMClient, RetryPolicy
    from pytest_pau.llm.scripted import ScriptedLLM

    server = None
    critic, client = args.critic, None
    if args.critic == "scripted":
        server = ScriptedLLM(lambda msgs: "Plausible. Rating: 5").start()
        critic = server.model
        client = LLMClient(
            server.model, api_base=server.api_base, retry=RetryPolicy(max_attempts=1)
        )
    rows = []
    try:
        for policy in args.policies.split(","):
            row = run(policy, args, critic, client)
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        if server is not None:
            server.close()
    print(
        f"\ncritic: {args.critic}; {args.samples} rollouts x {args.turns} iterations, {args.tokens} tokens a turn"
    )
    print(
        "| policy | s / step | step / bare turn | rollouts / s | sandbox | critic | policy (update) | first step s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['policy']} | {r['step_s']:.2f} | {r['step_s'] / r['bare_turn_s']:.0f}x "
            f"| {r['rollouts_per_s']:.2f} | {r['share_sandbox']:.1%} | {r['share_critic']:.1%} "
            f"| {r['share_policy']:.1%} ({r['share_policy_update']:.1%}) | {r['first_step_s']:.1f} |"
        )


if __name__ == "__main__":
    main()
