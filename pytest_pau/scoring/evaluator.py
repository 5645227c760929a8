"""One item end to end: agent -> judge -> coder -> failure mode, as an InstanceResult."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_pau.agent import PSEUDO_MODELS, Agent, GenerationSettings, make_agent
from pytest_pau.errors import BudgetExceeded, ConfigError, PauError
from pytest_pau.models import FAILURE_MODES, CallResult, Example, InstanceResult, Usage
from pytest_pau.scoring.coder import Coder, CodeRunner, run_code
from pytest_pau.scoring.failure import classify_failure, mostly_format_failures, self_contradiction
from pytest_pau.scoring.judge import Judge

if TYPE_CHECKING:
    from pytest_pau.agent.base import SupportsComplete
    from pytest_pau.models import Instance, Trajectory

ClientFactory = Callable[[str, "str | None"], "SupportsComplete"]
"""``(model, api_base) -> client``; the default builds :func:`pytest_pau.llm.make_client`."""
ClassifyHook = Callable[..., "str | None"]
"""Called as ``hook(instance=..., trajectory=..., result=...)`` for a failed item; returns a
failure-mode label or None to let the built-in classification decide."""


class EvalConfig(BaseModel):
    """Every ``--pau-*`` setting that affects how one item is run and scored."""

    model_config = ConfigDict(arbitrary_types_allowed=True, protected_namespaces=())

    model: str
    """The model under test (``--pau-model``), or ``oracle``/``null``."""
    api_base: str | None = None
    judge_model: str = "local"
    judge_api_base: str | None = None
    coder_model: str = "local"
    coder_api_base: str | None = None
    mode: Literal["interactive", "incontext"] = "interactive"
    max_iterations: int = Field(default=20, ge=1)
    seed: int = 0
    judge_samples: int = Field(default=1, ge=1)
    judge_logprobs: bool = False
    """Also compute the logprob-weighted judge rating where the provider gives logprobs."""
    gold_control: bool = False
    judge_threshold: float = 3.0
    """An item passes with a judge score at or above this..."""
    match_threshold: float = 0.8
    """...and a code match at or above this."""
    sandbox: str = "wasm"
    cache_dir: Path | None = None
    no_cache: bool = False
    max_cost_usd: float | None = None
    budget: Any = Field(default=None, exclude=True)
    """A shared :class:`pytest_pau.llm.Budget`; one is made from ``max_cost_usd`` if unset."""
    agent_settings: GenerationSettings | None = None
    """Token caps and temperature of the agent's calls (defaults keep turns short)."""
    judge_max_tokens: int = Field(default=256, ge=1)
    coder_max_tokens: int = Field(default=768, ge=1)


class Evaluator:
    """Runs and scores items; clients and the agent are built lazily, once per Evaluator.

    ``evaluate`` never raises for what a model did. Pass/fail rule: the judge score is at
    least ``judge_threshold`` and code match at least ``match_threshold``. A judge that
    gives no parseable rating even after its retry leaves the item unscored: it is
    reported as an ``infrastructure`` error (the judge, not the model under test, failed)
    and counted in ``judge_unparseable``; it is never turned into a score or a failure.

    Args:
        config: The settings.
        agent: An agent to use instead of ``make_agent(config.model, ...)`` (the plugin's
            ``pytest_pau_make_agent`` hook).
        classify_hook: Consulted first for failed items (``pytest_pau_classify_failure``).
        client_factory: Builds model clients; tests and benchmarks inject fakes here.
    """

    def __init__(
        self,
        config: EvalConfig,
        *,
        agent: Agent | None = None,
        classify_hook: ClassifyHook | None = None,
        client_factory: ClientFactory | None = None,
    ) -> None:
        self.config = config
        self._agent = agent
        self.classify_hook = classify_hook
        self._factory = client_factory
        self._clients: dict[tuple[str, str | None], SupportsComplete] = {}
        self._judge: Judge | None = None
        self._coder: Coder | None = None
        self._budget = config.budget

    # -- lazily built parts ------------------------------------------------------------
    def client(self, model: str, api_base: str | None = None) -> SupportsComplete:
        """The client of ``model`` (shared by every role that uses the same model)."""
        key = (model, api_base)
        if key not in self._clients:
            if self._factory is not None:
                self._clients[key] = self._factory(model, api_base)
            else:
                from pytest_pau.llm import Budget, make_client

                if self._budget is None and self.config.max_cost_usd is not None:
                    self._budget = Budget(self.config.max_cost_usd)
                self._clients[key] = make_client(
                    model,
                    api_base=api_base,
                    cache_dir=self.config.cache_dir,
                    no_cache=self.config.no_cache,
                    budget=self._budget,
                )
        return self._clients[key]

    @property
    def agent(self) -> Agent:
        """The agent under test."""
        if self._agent is None:
            c = self.config
            client = None if c.model in PSEUDO_MODELS else self.client(c.model, c.api_base)
            self._agent = make_agent(
                c.model,
                client=client,
                mode=c.mode,
                max_iterations=c.max_iterations,
                seed=c.seed,
                settings=c.agent_settings,
            )
        return self._agent

    @agent.setter
    def agent(self, agent: Agent) -> None:
        """Use ``agent`` (e.g. one from the ``pytest_pau_make_agent`` hook) from now on."""
        self._agent = agent

    @property
    def judge(self) -> Judge:
        """The judge."""
        if self._judge is None:
            c = self.config
            self._judge = Judge(
                self.client(c.judge_model, c.judge_api_base),
                samples=c.judge_samples,
                use_logprobs=c.judge_logprobs,
                seed=c.seed,
                max_tokens=c.judge_max_tokens,
            )
        return self._judge

    @property
    def coder(self) -> Coder:
        """The coder."""
        if self._coder is None:
            c = self.config
            self._coder = Coder(
                self.client(c.coder_model, c.coder_api_base),
                seed=c.seed,
                max_tokens=c.coder_max_tokens,
            )
        return self._coder

    # -- one item ------------------------------------------------------------------------
    def evaluate(
        self, instance: Instance, *, progress: Callable[[str], None] | None = None
    ) -> InstanceResult:
        """Run the agent on ``instance``, score it and classify a failure.

        Args:
            instance: The item.
            progress: Called with ``explore``, ``judge``, ``code``, ``classify`` as each
                phase starts.

        Returns:
            The filled result; ``error`` + ``failure_mode="infrastructure"`` when the
            infrastructure failed; ``skipped`` when the budget is spent.

        Raises:
            ConfigError: a setting is invalid (the plugin turns it into a usage error).
        """
        start = time.perf_counter()
        result = InstanceResult(
            id=instance.id,
            source=instance.source,
            arity=instance.arity,
            tags=list(instance.tags),
            gold=instance.description,
        )
        usage = Usage()
        try:
            self._run(instance, result, usage, progress or (lambda _phase: None))
        except BudgetExceeded as exc:
            result.skipped = f"budget --pau-max-cost-usd spent: {exc}"
        except ConfigError:
            raise
        except PauError as exc:
            if not exc.infrastructure:
                raise
            result.passed = False
            result.overconfident = False
            result.failure_mode = "infrastructure"
            result.error = f"{type(exc).__name__}: {exc}"
        result.tokens = {"prompt": usage.prompt_tokens, "completion": usage.completion_tokens}
        result.cost_usd = usage.cost_usd
        result.cache_hits = usage.cache_hits
        result.model_calls = usage.calls
        result.duration_s = time.perf_counter() - start
        return result

    def _run(
        self,
        instance: Instance,
        result: InstanceResult,
        usage: Usage,
        progress: Callable[[str], None],
    ) -> None:
        from pytest_pau.sandbox import Sandbox

        c = self.config
        progress("explore")
        # The agent's client counts every call; if the episode ends in an exception
        # (budget spent, provider outage) the calls it already made still cost money.
        client_usage = getattr(getattr(self.agent, "client", None), "usage", None)
        before = client_usage.model_copy() if isinstance(client_usage, Usage) else None
        try:
            with Sandbox(instance.code, backend=c.sandbox) as box:
                traj = self.agent.run(instance, box)
        except PauError:
            if before is not None:
                usage.add(_minus(client_usage, before))  # type: ignore[arg-type]
            raise
        usage.add(traj.usage)
        result.prediction = traj.prediction
        result.trajectory = list(traj.steps)
        result.concluded = traj.concluded
        result.n_queries = traj.n_queries

        progress("judge")
        judged = self.judge.score(instance, traj.prediction)
        usage.add(judged.usage)
        result.judge_score = judged.score
        result.judge_explanation = judged.explanation
        result.judge_ratings = list(judged.ratings)
        result.judge_spread = judged.spread
        result.judge_logprob_score = judged.logprob_score
        result.judge_unparseable = judged.unparseable
        result.judge_manipulation = list(judged.manipulation)
        result.judge_raw_score = judged.raw_score

        progress("code")
        observed: list[Example | tuple[str, CallResult]] = [
            *instance.train_examples,
            *traj.observed(),
        ]
        code, used = self.coder.write(instance, traj.prediction, observed)
        usage.add(used)
        # One live sandbox for the coder's code serves code match and, for a failed
        # item, the self-contradiction check.
        with CodeRunner(code, backend=c.sandbox) as runner:
            matched = run_code(code, instance.test_examples, runner=runner)
            result.code_match = matched.score
            result.code = matched.code
            result.mismatches = list(matched.mismatches)
            if matched.error:
                result.failure_detail = f"code match 0: {matched.error}"
            if c.gold_control:
                gold = self.coder.code_match(
                    instance, instance.description, observed, backend=c.sandbox
                )
                usage.add(gold.usage)
                result.gold_code_match = gold.score

            if judged.score is None:
                result.failure_mode = "infrastructure"
                result.error = (
                    f"the judge ({c.judge_model}) gave no parseable 'Rating: N' in "
                    f"{judged.unparseable} of {len(judged.ratings)} answers, even after a "
                    "retry; the item is left unscored. Use a stronger --pau-judge-model."
                )
                return
            result.passed = judged.score >= c.judge_threshold and (
                matched.score is not None and matched.score >= c.match_threshold
            )
            if result.passed:
                result.failure_mode = "none"
                return
            result.overconfident = traj.concluded
            if judged.manipulation:
                # The model talked to the grader: that, not its exploration, is the
                # failure to report (and no classifier call is spent on it).
                mode = "judge_manipulation"
                detail = (
                    f"the prediction addresses the grader ({len(judged.manipulation)} "
                    f"finding(s), first: {judged.manipulation[0]}); judge score "
                    f"{judged.raw_score} as written, {judged.defended_score} without it"
                )
            else:
                progress("classify")
                mode, detail = self._classify(instance, traj, result, usage, runner)
        result.failure_mode = mode  # type: ignore[assignment]
        result.failure_detail = "; ".join(x for x in (detail, result.failure_detail) if x)

    def _classify(
        self,
        instance: Instance,
        traj: Trajectory,
        result: InstanceResult,
        usage: Usage,
        runner: CodeRunner,
    ) -> tuple[str, str]:
        if self.classify_hook is not None:
            label = self.classify_hook(instance=instance, trajectory=traj, result=result)
            if label is not None:
                allowed = [m for m in FAILURE_MODES if m not in ("none", "infrastructure")]
                if label not in allowed:
                    raise ConfigError(
                        f"pytest_pau_classify_failure returned {label!r} for {instance.id}; "
                        f"expected one of {allowed} or None"
                    )
                return label, "from the pytest_pau_classify_failure hook"
        check = self_contradiction(result.code, traj, runner=runner)
        if check.fired:
            return "self_contradiction", check.detail()
        if mostly_format_failures(traj):
            acts = [s for s in traj.steps if s.kind == "act"]
            bad = sum(1 for s in acts if s.format_error is not None)
            return "format_following", f"{bad} of {len(acts)} act replies had no readable input"
        c = self.config
        label, parsed, used = classify_failure(
            self.client(c.judge_model, c.judge_api_base),
            instance,
            traj,
            traj.prediction,
            seed=c.seed,
        )
        usage.add(used)
        if parsed:
            return label, "classifier"
        return label, f"classifier answer unparseable: defaulted to {label}"


def _minus(after: Usage, before: Usage) -> Usage:
    """What a client spent between two snapshots of its usage."""
    return Usage(
        prompt_tokens=after.prompt_tokens - before.prompt_tokens,
        completion_tokens=after.completion_tokens - before.completion_tokens,
        cost_usd=after.cost_usd - before.cost_usd,
        calls=after.calls - before.calls,
        cache_hits=after.cache_hits - before.cache_hits,
    )
