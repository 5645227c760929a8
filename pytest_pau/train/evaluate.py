"""``--eval-every``: the benchmark's own scoring of the policy on held-out instances.

The policy plays the benchmark's :class:`~pytest_pau.agent.InteractiveAgent` (greedy, as
``pytest --pau-model`` runs models) and the :class:`~pytest_pau.scoring.Evaluator` scores
it with the judge (1-5) and code match, so progress reads in PAU's own terms. The critic
model serves as judge and coder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_pau.models import Instance
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.policy import Policy


def evaluate_policy(
    policy: Policy, heldout: list[Instance], spec: TrainSpec, *, critic_client: Any = None
) -> dict[str, Any]:
    """Score ``policy`` on ``heldout``; returns ``eval_*`` metrics for the step's record.

    The numbers are the benchmark summary's own (:func:`pytest_pau.report.summary.build_summary`):
    errors and skips are counted apart and never enter the pass rate or the means.
    """
    from pytest_pau.agent import InteractiveAgent
    from pytest_pau.report.summary import build_summary
    from pytest_pau.scoring import Evaluator
    from pytest_pau.settings import PauSettings
    from pytest_pau.train.serve import PolicyClient

    agent = InteractiveAgent(
        PolicyClient(policy), max_iterations=spec.max_iterations, seed=spec.seed, caps=spec.caps
    )
    settings = PauSettings(
        model="pau-policy",
        judge_model=spec.critic,
        judge_api_base=spec.critic_api_base,
        coder_model=spec.critic,
        coder_api_base=spec.critic_api_base,
        max_iterations=spec.max_iterations,
        seed=spec.seed,
        sandbox=spec.sandbox,
        cache_dir=spec.model_cache_dir,
        no_cache=spec.no_cache,
    )
    factory = (lambda _model, _base: critic_client) if critic_client is not None else None
    evaluator = Evaluator(settings, caps=spec.caps, agent=agent, client_factory=factory)
    was_training = policy.model.training
    policy.model.eval()
    try:
        results = [evaluator.evaluate(instance) for instance in heldout]
    finally:
        policy.model.train(was_training)
    summary = build_summary(results, resamples=0)
    return {
        "eval_instances": len(results),
        "eval_judge_mean": summary.judge.mean,
        "eval_code_match_mean": summary.code_match.mean,
        "eval_pass_rate": summary.pass_rate,
        "eval_errors": summary.counts.errors,
    }
