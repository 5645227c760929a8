"""One item end to end: agent -> judge -> coder -> failure mode, as an InstanceResult;
and the parts an Evaluator is built from (clients, agent, judge, coder), made once on first
use and shared by every episode."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_pau.agent import PSEUDO_MODELS, Agent, make_agent
from pytest_pau.errors import BudgetExceeded, ConfigError, PauError, SandboxError, ScoreError
from pytest_pau.llm import pacing
from pytest_pau.llm.accounting import usage_scope
from pytest_pau.llm.caps import TokenCaps, caps_for
from pytest_pau.llm.limits import all_stats
from pytest_pau.llm.reasoning import ReasoningSpec
from pytest_pau.models import (
    CallResult,
    CodeMatchResult,
    Example,
    FailureMode,
    InstanceResult,
    PassRule,
    SkipCause,
    Usage,
)
from pytest_pau.models.outcome import score_problem
from pytest_pau.scoring.attribution import GoldControl, attribute
from pytest_pau.scoring.coder import Coder, CodeRunner, Observed, run_code
from pytest_pau.scoring.decoy import decoy_code_match, no_decoy, rate_check
from pytest_pau.scoring.failure import classify_failure
from pytest_pau.scoring.judge import Judge

if TYPE_CHECKING:
    from pytest_pau.llm import Budget
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Instance, Trajectory
    from pytest_pau.settings import PauSettings

ClientFactory = Callable[[str, "str | None"], "SupportsComplete"]
"""``(model, api_base) -> client``; the default builds :func:`pytest_pau.llm.make_client`."""
ClassifyHook = Callable[..., "str | None"]
"""Called as ``hook(instance=..., trajectory=..., result=...)`` for a failed item; returns a
failure-mode label or None to let the built-in classification decide."""


class ScoringParts:
    """The clients, agent, judge and coder of a run, built lazily and once (thread-safe):
    what an :class:`Evaluator` is built from, shared by every episode.

    See :class:`Evaluator` for the arguments.
    """

    def __init__(
        self,
        settings: PauSettings,
        *,
        budget: Budget | None = None,
        caps: TokenCaps | None = None,
        agent: Agent | None = None,
        classify_hook: ClassifyHook | None = None,
        client_factory: ClientFactory | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        if settings.model is None:
            raise ConfigError("Evaluator: settings.model is None; name the model under test")
        self.settings = settings
        # The protocol's caps (the paper's are the reference's) unless the caller sets them.
        self.caps = caps if caps is not None else caps_for(settings.protocol)
        self._agent = agent
        self.classify_hook = classify_hook
        self._factory = client_factory
        self._clients: dict[tuple[str, str | None, object, str], SupportsComplete] = {}
        self._judge: Judge | None = None
        self._coder: Coder | None = None
        self._self_coder: Coder | None = None
        self._budget = budget
        self.cancel = cancel
        self.decoys: dict[str, Instance | None] = {}
        """``--pau-judge-check``: the checked items' decoys by instance id, None for a
        sampled item without one (set by the run)."""
        self._lock = threading.RLock()  # lazily built parts, from many episode threads

    @property
    def budget(self) -> Budget | None:
        """The run's budget (shared by every client), once a client has been made."""
        return self._budget

    # -- lazily built parts ------------------------------------------------------------
    def client(
        self, model: str, api_base: str | None = None, role: str = "model"
    ) -> SupportsComplete:
        """The client of ``model`` in ``role`` (``model``, ``judge``, ``coder``).

        Roles with the same model and the same reasoning settings share one client; only
        the model under test gets ``--pau-service-tier``.
        """
        mode, budget, effort = self.settings.reasoning_for(role)
        reasoning = ReasoningSpec(mode=mode, budget=budget, effort=effort)
        tier = self.settings.service_tier if role == "model" else "default"
        key = (model, api_base, reasoning, tier)
        with self._lock:
            return self._client(key, model, api_base, reasoning, tier)

    def _client(
        self,
        key: tuple[str, str | None, object, str],
        model: str,
        api_base: str | None,
        reasoning: ReasoningSpec,
        tier: str = "default",
    ) -> SupportsComplete:
        if key not in self._clients:
            if self._factory is not None:
                self._clients[key] = self._factory(model, api_base)
            else:
                from pytest_pau.llm import Budget, make_client

                s = self.settings
                if self._budget is None and s.max_cost_usd is not None:
                    self._budget = Budget(s.max_cost_usd)
                self._clients[key] = make_client(
                    model,
                    api_base=api_base,
                    cache_dir=s.cache_dir,
                    no_cache=s.no_cache,
                    budget=self._budget,
                    reasoning=reasoning,
                    cancel=self.cancel,
                    service_tier=tier,
                )
        return self._clients[key]

    @property
    def agent(self) -> Agent:
        """The agent under test."""
        with self._lock:
            if self._agent is None:
                s = self.settings
                model = s.model or ""
                client = None if model in PSEUDO_MODELS else self.client(model, s.api_base)
                self._agent = make_agent(
                    model,
                    client=client,
                    mode=s.mode,
                    max_iterations=s.max_iterations,
                    seed=s.seed,
                    caps=self.caps,
                    protocol=s.protocol,
                )
            return self._agent

    @agent.setter
    def agent(self, agent: Agent) -> None:
        """Use ``agent`` (e.g. one from the ``pytest_pau_make_agent`` hook) from now on."""
        self._agent = agent

    @property
    def judge(self) -> Judge:
        """The judge."""
        with self._lock:
            return self._make_judge()

    def _make_judge(self) -> Judge:
        if self._judge is None:
            s = self.settings
            self._judge = Judge(
                self.client(s.judge_model, s.judge_api_base, "judge"),
                samples=s.judge_samples,
                use_logprobs=s.judge_logprobs,
                seed=s.seed,
                max_tokens=self.caps.judge,
            )
        return self._judge

    @property
    def coder(self) -> Coder:
        """The coder."""
        with self._lock:
            return self._make_coder()

    def _make_coder(self) -> Coder:
        if self._coder is None:
            s = self.settings
            self._coder = Coder(
                self.client(s.coder_model, s.coder_api_base, "coder"),
                seed=s.seed,
                max_tokens=self.caps.coder,
            )
        return self._coder

    @property
    def self_coder(self) -> Coder:
        """``--pau-coder=self``: the model under test as a coder, with the coder's prompt.

        Raises:
            ConfigError: the model under test is a pseudo-model (it writes no code).
        """
        with self._lock:
            if self._self_coder is None:
                s = self.settings
                model = s.model or ""
                if model in PSEUDO_MODELS:
                    raise ConfigError(
                        f"--pau-coder=self: the pseudo-model {model!r} writes no code; use "
                        "--pau-coder=fixed, or a real --pau-model"
                    )
                self._self_coder = Coder(
                    self.client(model, s.api_base), seed=s.seed, max_tokens=self.caps.coder
                )
            return self._self_coder


#: The stage named in an error, by the progress phase it happened in.
STAGES = {
    "explore": "agent",
    "judge": "judge",
    "code": "coder",
    "self_code": "self coder",
    "classify": "classifier",
}


class Evaluator(ScoringParts):
    """Runs and scores items; clients and the agent are built lazily, once per Evaluator.

    ``evaluate`` never raises for what a model did. Pass/fail rule: the judge score is at
    least ``judge_threshold`` and code match at least ``match_threshold``. A judge that
    gives no parseable rating even after its retry leaves the item unscored: it is
    reported as an ``infrastructure`` error (the judge, not the model under test, failed)
    and counted in ``judge_unparseable``; it is never turned into a score or a failure.

    Args:
        settings: The run's ``--pau-*`` settings (``model`` is the model under test).
        budget: The run's shared :class:`pytest_pau.llm.Budget` (under xdist, one ledger
            for all workers); one is made from ``settings.max_cost_usd`` when None.
        caps: Visible-answer token caps of every kind of call.
        agent: An agent to use instead of ``make_agent(settings.model, ...)`` (the plugin's
            ``pytest_pau_make_agent`` hook).
        classify_hook: Consulted first for failed items (``pytest_pau_classify_failure``).
        client_factory: Builds model clients; tests and benchmarks inject fakes here.
        cancel: The run's cancel event (Ctrl-C): the clients start no request once set.

    Thread-safe: many episodes may be evaluated at once (``--pau-concurrency``); the clients,
    the agent, the judge and the coder are built once and shared.
    """

    # -- one item ------------------------------------------------------------------------
    def evaluate(
        self, instance: Instance, *, progress: Callable[[str], None] | None = None
    ) -> InstanceResult:
        """Run the agent on ``instance``, score it and classify a failure.

        Args:
            instance: The item.
            progress: Called with ``explore``, ``judge``, ``code``, ``classify`` as each
                phase starts, and during ``explore`` with each iteration as it starts
                (``1/5`` for the first, then ``2``, ``3``...).

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
        # The phase an error happened in: judge, coder and agent may share one model, and
        # its error message alone would not say which of them failed.
        phase = ["explore"]
        report = progress or (lambda _phase: None)

        def track(name: str) -> None:
            phase[0] = name
            report(name)

        # Every answer of this episode's clients lands in this scope (llm/accounting.py),
        # those of an episode that ends in an error too.
        with usage_scope() as usage:
            try:
                self._run(instance, result, usage, track, report)
            except BudgetExceeded as exc:
                result.skipped = f"budget --pau-max-cost-usd spent: {exc}"
                result.skip_cause = SkipCause.BUDGET
            except ConfigError:
                raise
            except PauError as exc:
                result.passed = False
                result.overconfident = False
                result.failure_mode = FailureMode.INFRASTRUCTURE
                stage = STAGES.get(phase[0], phase[0])
                result.error = f"{type(exc).__name__} in the {stage} stage: {exc}"
        result.tokens = {
            "prompt": usage.prompt_tokens,
            "completion": usage.completion_tokens,
            "reasoning": usage.reasoning_tokens,
        }
        result.cost_usd = usage.cost_usd
        result.cache_hits = usage.cache_hits
        result.cache_hits_other_version = usage.cache_hits_other_version
        result.model_calls = usage.calls
        result.rate_limited = usage.rate_limited
        limiters = all_stats()
        result.connection_caps = {s.endpoint: s.limit for s in limiters}
        result.connection_caps_lowest = {s.endpoint: s.lowest for s in limiters}
        _add_provider_usage(result, usage)
        result.duration_s = time.perf_counter() - start
        result.ended_at = time.time()
        return result

    def _run(
        self,
        instance: Instance,
        result: InstanceResult,
        usage: Usage,
        progress: Callable[[str], None],
        mark: Callable[[str], None],
    ) -> None:
        from pytest_pau.agent.watch import watching
        from pytest_pau.sandbox import Sandbox

        s = self.settings
        progress("explore")
        seen = usage.calls

        def iteration(k: int, n: int) -> None:
            mark(f"{k}/{n}" if k == 1 else str(k))

        with Sandbox(instance.code, backend=s.sandbox) as box, watching(iteration):
            traj = self.agent.run(instance, box)
        _account(usage, seen, traj.usage)
        result.prediction = traj.prediction
        result.trajectory = list(traj.steps)
        result.concluded = traj.concluded
        result.n_queries = traj.n_queries
        _check_memory(box.bound_refusals, "the method's")

        progress("judge")
        seen = usage.calls
        judged = self.judge.score(instance, traj.prediction)
        _account(usage, seen, judged.usage)
        _check_score("judge score", judged.score, (1.0, 5.0))
        result.judge_score = judged.score
        result.judge_explanation = judged.explanation
        result.judge_ratings = list(judged.ratings)
        result.judge_spread = judged.spread
        result.judge_logprob_score = judged.logprob_score
        result.judge_unparseable = judged.unparseable
        result.judge_manipulation = list(judged.manipulation)
        result.judge_raw_score = judged.raw_score
        result.judge_defended_score = judged.defended_score
        decoy = self.decoys.get(instance.id)
        if instance.id in self.decoys and judged.score is not None:
            # The judge check (--pau-judge-check): gold and a decoy rated against the gold
            # (not on an item the judge left unrated: it errors, and the retry is paid).
            if decoy is None:
                result.judge_check = no_decoy()
            else:
                same = traj.prediction.strip() == instance.description.strip()
                seen = usage.calls
                result.judge_check, used = rate_check(
                    self.judge, instance, decoy, gold_score=judged.score if same else None
                )
                _account(usage, seen, used)

        progress("code")
        observed: list[Example | tuple[str, CallResult]] = [
            *instance.train_examples,
            *traj.observed(),
        ]
        seen = usage.calls
        code, used = self.coder.write(instance, traj.prediction, observed)
        _account(usage, seen, used)
        # One live sandbox for the coder's code serves code match and, for a failed
        # item, the self-contradiction check.
        with CodeRunner(code, backend=s.sandbox) as runner:
            matched = run_code(code, instance.test_examples, runner=runner)
            _check_memory(runner.bound_refusals, "the coder's code's")
            _check_score("code match", matched.score, (0.0, 1.0))
            result.code_match = matched.score
            result.code = matched.code
            result.mismatches = list(matched.mismatches)
            if matched.error:
                result.failure_detail = f"code match 0: {matched.error}"
            gold = self._gold_control(instance, traj, observed, matched, usage)
            if s.gold_control or gold.result is not None:
                # Asked for, or known for free (the model answered the gold description).
                _check_score("gold code match", gold.score(), (0.0, 1.0))
                result.gold_code_match = gold.score()
            if decoy is not None and result.judge_check is not None:
                # The judge check's code side: code written from the decoy should not match.
                seen = usage.calls
                check = result.judge_check
                check.decoy_code_match, error, used = decoy_code_match(
                    self.coder, instance, decoy, observed, backend=s.sandbox
                )
                _account(usage, seen, used)
                if error:
                    check.error = "; ".join(e for e in (check.error, error) if e)
                    check.decoy_code_failed = True
            if s.coder == "self":
                progress("self_code")
                self._self_code(instance, traj.prediction, observed, result, usage)

            if judged.score is None:
                result.failure_mode = FailureMode.INFRASTRUCTURE
                result.error = (
                    f"the judge ({s.judge_model}) gave no parseable 'Rating: N' in "
                    f"{judged.unparseable} of {len(judged.ratings)} answers, even after a "
                    "retry; the item is left unscored. Use a stronger --pau-judge-model."
                )
                return
            rule = PassRule(s.judge_threshold, s.match_threshold)
            result.passed = rule.passes(judged.score, matched.score)
            if result.passed:
                result.failure_mode = FailureMode.NONE
                return
            result.overconfident = traj.concluded
            if judged.manipulation:
                # The model talked to the grader: that, not its exploration, is the
                # failure to report (and no classifier call is spent on it).
                mode: str = FailureMode.JUDGE_MANIPULATION
                detail = (
                    f"the prediction addresses the grader ({len(judged.manipulation)} "
                    f"finding(s), first: {judged.manipulation[0]}); judge score "
                    f"{_g(judged.raw_score)} as written, {_g(judged.defended_score)} without it"
                )
            else:
                progress("classify")
                # Each model call of the attribution (gold control, classifier) is counted
                # where it is made: the item's usage is complete whatever runs.
                mode, detail, _used = self._classify(instance, traj, result, runner, gold, usage)
        result.failure_mode = FailureMode(mode)
        result.failure_detail = "; ".join(x for x in (detail, result.failure_detail) if x)

    def _self_code(
        self,
        instance: Instance,
        prediction: str,
        observed: Observed,
        result: InstanceResult,
        usage: Usage,
    ) -> None:
        """``--pau-coder=self``: the model under test writes code from its own description.

        Its call failing leaves the item's other scores standing: the reason is kept in
        ``self_code_error`` and its code match is missing (0 under the paper protocol).
        """
        seen = usage.calls
        try:
            code, used = self.self_coder.write(instance, prediction, observed)
        except (BudgetExceeded, ConfigError):
            raise
        except PauError as exc:
            result.self_code_error = f"{type(exc).__name__}: {exc}"
            return
        _account(usage, seen, used)
        matched = run_code(code, instance.test_examples, backend=self.settings.sandbox)
        result.self_code_match = matched.score
        result.self_code = matched.code

    def _gold_control(
        self,
        instance: Instance,
        traj: Trajectory,
        observed: Observed,
        matched: CodeMatchResult,
        usage: Usage,
    ) -> GoldControl:
        """The item's gold control, run on demand (reused when the prediction is the gold)."""
        same = traj.prediction.strip() == instance.description.strip()
        return GoldControl(
            self.coder,
            instance,
            observed,
            backend=self.settings.sandbox,
            reuse=matched if same else None,
            usage=usage,
        )

    def _classify(
        self,
        instance: Instance,
        traj: Trajectory,
        result: InstanceResult,
        runner: CodeRunner,
        gold: GoldControl,
        usage: Usage,
    ) -> tuple[str, str, Usage]:
        s = self.settings

        def classifier() -> tuple[str, bool, Usage]:
            seen = usage.calls
            label, parsed, used = classify_failure(
                self.client(s.judge_model, s.judge_api_base, "judge"),
                instance,
                traj,
                traj.prediction,
                seed=s.seed,
                max_tokens=self.caps.classify,
            )
            _account(usage, seen, used)
            return label, parsed, used

        return attribute(
            instance,
            traj,
            result,
            runner=runner,
            gold=gold,
            match_threshold=s.match_threshold,
            hook=self.classify_hook,
            classifier=classifier,
        )


def _account(usage: Usage, seen: int, reported: Usage) -> None:
    """Count a phase's ``reported`` usage when its calls did not reach the scope.

    Our clients add every answer to the episode's scope (``usage``); a model reached by
    other means (an agent from a hook, the training policy, a test's fake client) only
    says what it used in its result.
    """
    if usage.calls == seen and reported.calls:
        usage.add(reported)


def _g(score: float | None) -> str:
    """A judge score for a message: ``5``, ``3.5``, or ``n/a`` when there was no rating."""
    return "n/a" if score is None else f"{score:g}"


def _check_memory(refused: int, whose: str) -> None:
    """An item whose calls the run's memory bound refused is not scored on them."""
    if refused:
        raise SandboxError(
            f"{refused} of {whose} calls failed because the run's sandbox memory bound was "
            "reached (their results are the run's MemoryError, not the method's); set "
            "PAU_SANDBOX_MEMORY_MB higher (0: 40% of memory), or lower --pau-concurrency"
        )


def _check_score(name: str, value: float | None, bounds: tuple[float, float]) -> None:
    """Refuse a score that is none (NaN, out of range) where it enters the result."""
    problem = score_problem(name, value, bounds)
    if problem is not None:
        raise ScoreError(problem)


def _add_provider_usage(result: InstanceResult, usage: Usage) -> None:
    """What the item's requests waited for, the quotas paced at, local prefix reuse, flex."""
    result.waits = dict(usage.waits)
    result.wait_s = {k: round(v, 3) for k, v in usage.wait_s.items()}
    result.quotas = {p.key: pacing.describe(p) for p in pacing.all_stats()}
    if usage.local_prompt_sent:
        result.local_prompt = {
            "sent": usage.local_prompt_sent,
            "evaluated": usage.local_prompt_evaluated,
            "answer_tokens": usage.local_answer_tokens,
            "ms": usage.local_ms,
        }
    if usage.flex_calls or usage.flex_fallbacks:
        result.flex = {
            "calls": usage.flex_calls,
            "fallbacks": usage.flex_fallbacks,
            "saved_usd": usage.flex_saved_usd,
        }
