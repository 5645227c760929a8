"""``--eval-every``: the benchmark's own scoring of the policy on held-out instances.

The policy plays the benchmark's :class:`~pytest_pau.agent.InteractiveAgent` (greedy, as
``pytest --pau-model`` runs models) and the :class:`~pytest_pau.scoring.Evaluator` scores
it with the judge (1-5) and code match, so progress reads in PAU's own terms. The critic
model serves as judge and coder.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.policy import Policy


def evaluate_policy(
    policy: Policy, heldout: list[Instance], spec: TrainSpec, *, critic_client: Any = None
) -> dict[str, Any]:
    """Score ``policy`` on ``heldout``; returns ``eval_*`` metrics for the step's record."""
    from pytest_pau.agent import GenerationSettings, InteractiveAgent
    from pytest_pau.scoring import EvalConfig, Evaluator
    from pytest_pau.train.serve import PolicyClient

    settings = GenerationSettings(
        temperature=0.0,
        reason_max_tokens=spec.reason_tokens,
        act_max_tokens=spec.act_tokens,
        reflect_max_tokens=spec.reflect_tokens,
    )
    agent = InteractiveAgent(
        PolicyClient(policy), max_iterations=spec.max_turns, seed=spec.seed, settings=settings
    )
    config = EvalConfig(
        model="pau-policy",
        judge_model=spec.critic,
        judge_api_base=spec.critic_api_base,
        coder_model=spec.critic,
        coder_api_base=spec.critic_api_base,
        max_iterations=spec.max_turns,
        seed=spec.seed,
        sandbox=spec.sandbox,
        cache_dir=spec.cache_dir,
        no_cache=spec.no_cache,
        agent_settings=settings,
    )
    factory = (lambda _model, _base: critic_client) if critic_client is not None else None
    evaluator = Evaluator(config, agent=agent, client_factory=factory)
    was_training = policy.model.training
    policy.model.eval()
    try:
        results = [evaluator.evaluate(instance) for instance in heldout]
    finally:
        policy.model.train(was_training)
    judged = [r.judge_score for r in results if r.judge_score is not None]
    matched = [r.code_match for r in results if r.code_match is not None]
    return {
        "eval_instances": len(results),
        "eval_judge_mean": statistics.fmean(judged) if judged else None,
        "eval_code_match_mean": statistics.fmean(matched) if matched else None,
        "eval_pass_rate": sum(r.passed for r in results) / len(results) if results else None,
        "eval_errors": sum(1 for r in results if r.error),
    }
