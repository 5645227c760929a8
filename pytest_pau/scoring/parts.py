"""What an :class:`~pytest_pau.scoring.evaluator.Evaluator` is built from: the model clients,
the agent, the judge and the coder, each made once on first use and shared by every episode."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_pau.agent import PSEUDO_MODELS, Agent, make_agent
from pytest_pau.errors import ConfigError
from pytest_pau.llm.caps import TokenCaps, caps_for
from pytest_pau.llm.reasoning import ReasoningSpec
from pytest_pau.scoring.coder import Coder
from pytest_pau.scoring.judge import Judge

if TYPE_CHECKING:
    from pytest_pau.llm import Budget
    from pytest_pau.llm.protocol import SupportsComplete
    from pytest_pau.models import Instance
    from pytest_pau.settings import PauSettings

ClientFactory = Callable[[str, "str | None"], "SupportsComplete"]
"""``(model, api_base) -> client``; the default builds :func:`pytest_pau.llm.make_client`."""
ClassifyHook = Callable[..., "str | None"]
"""Called as ``hook(instance=..., trajectory=..., result=...)`` for a failed item; returns a
failure-mode label or None to let the built-in classification decide."""


class ScoringParts:
    """The clients, agent, judge and coder of a run, built lazily and once (thread-safe).

    See :class:`~pytest_pau.scoring.evaluator.Evaluator` for the arguments.
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
        self.decoys: dict[str, Instance] = {}
        """``--pau-judge-check``: the checked items' decoys by instance id (set by the run)."""
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
