"""``--eval-every``: the benchmark's own scoring of the policy on held-out instances.

The policy plays the benchmark's :class:`~pytest_pau.agent.InteractiveAgent` (greedy, as
``pytest --pau-model`` runs models) and the :class:`~pytest_pau.scoring.Evaluator` scores
it with the run's settings (``TrainSpec.settings``, resolved by pytest from the arguments
after ``--`` and the ini file): the same judge (1-5), code match, thresholds and pass rule.
:func:`~pytest_pau.report.summary.build_summary` counts the results as the benchmark's
summary does (errors and skips apart, never in the pass rate or the means), and
:func:`~pytest_pau.report.render.render` draws the same PAU summary block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_pau.models import Instance, Summary
    from pytest_pau.train.config import TrainSpec
    from pytest_pau.train.policy import Policy

#: The model name the evaluated policy has in the settings and the summary header.
POLICY_MODEL = "pau-policy"


@dataclass(frozen=True)
class Evaluation:
    """One ``--eval-every`` evaluation: the metrics of the step's record and the summary."""

    metrics: dict[str, Any]
    summary: Summary
    text: str
    """The PAU summary block, as ``pytest --pau-model`` prints it."""


def evaluate_policy(
    policy: Policy,
    heldout: list[Instance],
    spec: TrainSpec,
    *,
    step: int = 0,
    critic_client: Any = None,
) -> Evaluation:
    """Score ``policy`` on ``heldout`` as the benchmark scores a model.

    Args:
        policy: The policy being trained (put in eval mode for the duration).
        heldout: The held-out instances.
        spec: The run's settings; ``spec.settings`` decides judge, coder and pass rule.
        step: The optimisation step, for the summary's header line.
        critic_client: The critic's client, reused when judge or coder is the critic model.
    """
    from pytest_pau.agent import InteractiveAgent
    from pytest_pau.llm import Budget, make_client
    from pytest_pau.report.json_report import run_info_of
    from pytest_pau.report.render import TextWriter, render
    from pytest_pau.report.summary import build_summary
    from pytest_pau.scoring import Evaluator
    from pytest_pau.train.serve import PolicyClient

    s = spec.settings.model_copy(update={"model": POLICY_MODEL, "mode": "interactive"})
    agent = InteractiveAgent(
        PolicyClient(policy), max_iterations=s.max_iterations, seed=s.seed, caps=spec.caps
    )

    # As the Evaluator's own clients: the settings' cache and --pau-max-cost-usd cap (per
    # evaluation), and the critic's client when judge or coder is the critic.
    budget = Budget(s.max_cost_usd) if s.max_cost_usd is not None else None

    def client_for(model: str, api_base: str | None) -> Any:
        if critic_client is not None and (model, api_base) == (spec.critic, spec.critic_api_base):
            return critic_client
        return make_client(
            model, api_base=api_base, cache_dir=s.cache_dir, no_cache=s.no_cache, budget=budget
        )

    evaluator = Evaluator(s, caps=spec.caps, agent=agent, client_factory=client_for)
    was_training = policy.model.training
    policy.model.eval()
    try:
        results = [evaluator.evaluate(instance) for instance in heldout]
    finally:
        policy.model.train(was_training)
    summary = build_summary(results, selected=len(heldout))
    run = run_info_of(s, model=f"{POLICY_MODEL} (pau train step {step})")
    writer = TextWriter()
    render(summary, writer, run=run)
    metrics = {
        "eval_instances": len(results),
        "eval_judge_mean": summary.judge.mean,
        "eval_code_match_mean": summary.code_match.mean,
        "eval_pass_rate": summary.pass_rate,
        "eval_passed": summary.counts.passed,
        "eval_failed": summary.counts.failed,
        "eval_errors": summary.counts.errors,
        "eval_skipped": summary.counts.skipped,
        # held-out descriptions the judge flagged as addressing it (scored without that text)
        "eval_judge_manipulation": sum(bool(r.judge_manipulation) for r in results),
    }
    return Evaluation(metrics=metrics, summary=summary, text=writer.getvalue())
