"""The one model client every part of pytest-pau uses: litellm plus cache, retries, cost, budget."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest_pau.llm.litellm_setup as litellm_setup
from pytest_pau._version import __version__
from pytest_pau.errors import LLMConfigError, LLMResponseError, ReasoningBudgetError
from pytest_pau.llm import attempt, tiers
from pytest_pau.llm.accounting import charge
from pytest_pau.llm.budget import Budget
from pytest_pau.llm.cache import ResponseCache, cache_key
from pytest_pau.llm.cache.answer_format import stored as stored_value
from pytest_pau.llm.completion import to_completion
from pytest_pau.llm.failures import final_error
from pytest_pau.llm.limits import SENDING, Cancelled, endpoint_of
from pytest_pau.llm.litellm_setup import get_litellm
from pytest_pau.llm.prices import worst_case
from pytest_pau.llm.reasoning import (
    DEFAULT_REASONING,
    MAX_ATTEMPTS,
    ReasoningSpec,
    known_to_reason,
    starved_message,
)
from pytest_pau.llm.response import (
    answer_problem,
)
from pytest_pau.llm.retry import RetryPolicy, tenacity_kwargs
from pytest_pau.models import Completion, Usage
from pytest_pau.prompting import PROMPTS_VERSION
from pytest_pau.settings.env_vars import env_number


class LLMClient:
    """A client for one model: ``complete(messages) -> Completion``.

    Args:
        model: A litellm model string (``gpt-5-mini``, ``openai/x`` with ``api_base``,
            ``ollama/qwen3:8b``), or ``local`` / ``local-small`` for the embedded models.
        api_base: Base URL of an OpenAI-compatible or self-hosted server.
        api_key: The key; by default litellm reads the provider's environment variable.
            With ``api_base`` and no key anywhere, a placeholder is sent (local servers
            accept any key, and the OpenAI SDK refuses to send none).
        cache: Response cache; None disables caching.
        budget: The run's shared :class:`Budget`; None means no cap.
        retry: Backoff policy; defaults read ``PAU_RETRY_*``.
        timeout_s: Per-attempt HTTP timeout (default ``PAU_LLM_TIMEOUT_S`` or 600 s).
        reasoning: How this client's calls treat hidden reasoning
            (:mod:`pytest_pau.llm.reasoning`): a budget on top of each visible cap for a
            model that reasons, and ``reasoning_effort``.
        cancel: The run's cancel event (Ctrl-C): requests stop starting once it is set.
        service_tier: ``"flex"``: ask for the provider's flex tier, falling back to the
            default tier when it cannot serve (:mod:`pytest_pau.llm.tiers`); None or
            ``"default"``: the default tier (nothing is sent).

    Requests to one endpoint share its :class:`~pytest_pau.llm.limits.AdaptiveLimiter`
    (``--pau-max-connections``) whatever client sends them, and requests for one model
    there its :class:`~pytest_pau.llm.pacing.Pacer` (the provider's quota).
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        cache: ResponseCache | None = None,
        budget: Budget | None = None,
        retry: RetryPolicy | None = None,
        timeout_s: float | None = None,
        reasoning: ReasoningSpec = DEFAULT_REASONING,
        cancel: threading.Event | None = None,
        service_tier: str | None = None,
    ) -> None:
        from pytest_pau.llm.local.provider import PROVIDER, is_local

        if not model or not isinstance(model, str):
            raise LLMConfigError(
                f"model={model!r}: expected a litellm model string such as 'openai/gpt-4o-mini'."
            )
        self.model = model
        self.local = is_local(model)
        self.litellm_model = (
            f"{PROVIDER}/{model.removeprefix(PROVIDER + '/')}" if self.local else model
        )
        self.api_base = api_base
        self.api_key = api_key
        self.cache = cache
        self.budget = budget
        # The embedded model has no network to be flaky; an error there is final.
        self.retry = retry or (RetryPolicy(max_attempts=1) if self.local else RetryPolicy())
        self.timeout_s = timeout_s or env_number("PAU_LLM_TIMEOUT_S")
        self.usage = Usage()
        """Tokens, cost, calls and cache hits of this client so far."""
        self._usage_lock = threading.Lock()
        self._local_checked = False
        self._unpriced = False
        self.reasoning = reasoning
        self.cancel = cancel
        """Set when the run is cancelled: no new request starts, retry waits end at once."""
        self.endpoint = endpoint_of(self.litellm_model, None if self.local else api_base)
        self._reasons: bool | None = None if reasoning.mode == "auto" else reasoning.mode == "on"
        if service_tier not in (None, *tiers.SERVICE_TIERS):
            raise LLMConfigError(
                f"service_tier={service_tier!r}: expected one of {tiers.SERVICE_TIERS}."
            )
        self.flex = tiers.FlexTier(model) if service_tier == "flex" and not self.local else None
        """The flex tier's state (``--pau-service-tier=flex``), or None."""

    def __repr__(self) -> str:
        return f"LLMClient({self.model!r}, api_base={self.api_base!r})"

    def _record(self, completion: Completion) -> Completion:
        used = completion.usage()
        with self._usage_lock:
            self.usage.add(used)
        charge(used)  # the current episode's scope, if any (llm/accounting.py)
        return completion

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int = 0,
        stop: list[str] | None = None,
        logprobs: int | None = None,
    ) -> Completion:
        """One chat completion, from the cache when it has the answer.

        Args:
            messages: OpenAI-style ``{"role", "content"}`` dicts.
            logprobs: Ask for this many top alternatives per generated token.

        A model that reasons gets its reasoning budget on top of ``max_tokens``; an answer
        that is still empty because the cap ran out during the reasoning is asked again with
        a larger budget (see :mod:`pytest_pau.llm.reasoning`).

        Raises:
            BudgetExceeded: the run's budget is spent (checked after the cache).
            LLMConfigError: not retryable (bad key, unknown model, bad request).
            LLMUnavailableError: retryable errors outlasted the retry policy.
            ReasoningBudgetError: no visible answer even with the largest budget.
            LocalModelError: an embedded model is not installed or is corrupt.
        """
        budget = self.reasoning.budget if self._model_reasons() else 0
        attempts: list[Completion] = []
        while True:
            params: dict[str, Any] = {
                "temperature": temperature,
                "max_tokens": max_tokens + budget,
                "seed": seed,
                "stop": list(stop) if stop else None,
                "logprobs": logprobs,
            }
            if self.reasoning.effort is not None:
                # Only then: a model without reasoning settings sends what it always sent,
                # so its cache keys and requests are unchanged.
                params["reasoning_effort"] = self.reasoning.effort
            completion = self._complete_once(messages, params)
            attempts.append(completion)
            if not completion.starved or self.reasoning.mode == "off":
                break
            if len(attempts) >= MAX_ATTEMPTS:
                break
            # No visible answer: the model reasons (whatever the map said) and the cap was
            # too small. Ask again with room for the reasoning, then with twice as much.
            self._reasons = True
            budget = budget * 2 if budget else self.reasoning.budget
        final = completion
        if len(attempts) > 1:
            spent = Usage()
            for attempt in attempts:
                spent.add(attempt.usage())
            final = completion.model_copy(update={"attempts": len(attempts), "spent": spent})
        if final.starved:
            raise ReasoningBudgetError(
                starved_message(
                    self.model,
                    cap=max_tokens + budget,
                    visible=max_tokens,
                    reasoning_tokens=final.reasoning_tokens,
                    attempts=len(attempts),
                    mode=self.reasoning.mode,
                ),
                spent=final.usage(),
            )
        return final

    def _model_reasons(self) -> bool:
        """Whether calls get a reasoning budget: the setting, else litellm's model map."""
        if self._reasons is None:
            self._reasons = not self.local and known_to_reason(self.litellm_model)
        return self._reasons

    def _complete_once(self, messages: list[dict[str, str]], params: dict[str, Any]) -> Completion:
        """One request (or cache hit) with exactly ``params``; counted in :attr:`usage`."""
        start = time.perf_counter()
        key = ""
        if self.cache is not None:
            key = cache_key(self.model, messages, params, server=self._server_key())
            hit = self.cache.lookup(key)
            stored = None if hit is None else self.cache.completion(hit)  # None: a miss
            if hit is not None and stored is not None:
                other = hit.plugin_version != __version__ or (
                    hit.prompts_version is not None and hit.prompts_version != PROMPTS_VERSION
                )
                update = {"cached": True, "cached_other_version": other, "cost_usd": 0.0}
                update["latency_s"] = time.perf_counter() - start
                return self._record(stored.model_copy(update=update))
        if self.local and not self._local_checked:
            from pytest_pau.llm.local.provider import check_available

            check_available(self.litellm_model.split("/", 1)[1])
            self._local_checked = True
        # The call's worst case is reserved before it is sent (llm/budget.py): the cap
        # holds however many calls are in flight.
        reservation = (
            None
            if self.budget is None
            else self.budget.reserve(self.worst_case(messages, params), self.model, self.cancel)
        )
        try:
            response = self._call_with_retries(messages, params)
            completion, self._unpriced = to_completion(
                response,
                time.perf_counter() - start,
                model=self.model,
                litellm_model=self.litellm_model,
                local=self.local,
                unpriced=self._unpriced,
            )
        except BaseException:
            if self.budget is not None and reservation is not None:
                self.budget.settle(reservation, 0.0)  # no answer: nothing billed
            raise
        # Paid for: count it before storing it (a failed put warns, never raises).
        if self.budget is not None and reservation is not None:
            self.budget.settle(reservation, completion.cost_usd)
        problem = answer_problem(response, completion.text, completion.reasoning)
        if problem is not None:  # never cached: counted, then an error naming the server
            self._record(completion.model_copy(update={"text": "", "reasoning": None}))
            where = f" at {self.api_base}" if self.api_base else ""
            raise LLMResponseError(
                f"Model {self.model!r}{where}: {problem}", spent=completion.usage()
            )
        if self.cache is not None:
            self.cache.put(
                key,
                self.model,
                stored_value(
                    completion.model_dump(
                        exclude={"cached", "cached_other_version", "latency_s", "spent"}
                    )
                ),
                prompts_version=PROMPTS_VERSION,
            )
        return self._record(completion)

    def worst_case(self, messages: list[dict[str, str]], params: dict[str, Any]) -> float:
        """The most this call can cost (:func:`pytest_pau.llm.prices.worst_case`); 0 for
        the embedded models and models litellm has no price for."""
        if self.local or self._unpriced:
            return 0.0
        return worst_case(self.litellm_model, messages, int(params["max_tokens"]))

    def _server_key(self) -> dict[str, str | None] | None:
        """What identifies the model behind ``api_base`` in the cache key (None: hosted)."""
        if not self.api_base or self.local:
            return None
        from pytest_pau.llm.endpoint import identity

        return identity(self.api_base, self.model, self.api_key).key()

    def _call_with_retries(self, messages: list[dict[str, str]], params: dict[str, Any]) -> Any:
        import tenacity

        litellm = get_litellm()
        kwargs: dict[str, Any] = {
            "model": self.litellm_model,
            "messages": messages,
            "temperature": params["temperature"],
            "max_tokens": params["max_tokens"],
            "seed": params["seed"],
            "timeout": self.timeout_s,
            "max_retries": 0,  # the retries are ours (see retry.py)
            "num_retries": 0,
            "drop_params": True,  # a provider without seed/stop support still answers
        }
        if params["stop"]:
            kwargs["stop"] = params["stop"]
        if params["logprobs"] is not None:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = int(params["logprobs"])
        if params.get("reasoning_effort") is not None:
            kwargs["reasoning_effort"] = params["reasoning_effort"]
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self._unpriced:
            # litellm has no price for this model (see llm/completion.py) and would search its
            # price map again on every call (0.2 ms); a per-call price of 0, which is what
            # we report for it anyway, ends the search. It never touches litellm.model_cost.
            kwargs["input_cost_per_token"] = 0.0
            kwargs["output_cost_per_token"] = 0.0
        api_key = self.api_key
        if api_key is None and self.api_base and not self.local:
            missing = litellm.validate_environment(self.model).get("missing_keys") or []
            if missing:
                api_key = "sk-no-key-needed"
        if api_key:
            kwargs["api_key"] = api_key

        retrying = tenacity.Retrying(
            **tenacity_kwargs(self.retry), sleep=self._sleep, before_sleep=attempt.count_retry_wait
        )
        started = time.monotonic()
        # litellm's own switch for calls whose caller does the logging and billing: the
        # cost still lands in _hidden_params, only the background success log is skipped.
        quiet = (
            litellm_setup.internal_call.set(True)
            if litellm_setup.internal_call and litellm_setup.success_logging_unused(litellm)
            else None
        )
        try:
            return retrying(self._send, litellm.completion, kwargs)
        except Cancelled:
            raise
        except Exception as exc:
            attempts = retrying.statistics.get("attempt_number", 1)
            raise self._final_error(exc, attempts, time.monotonic() - started) from exc
        finally:
            if quiet is not None:
                litellm_setup.internal_call.reset(quiet)

    def _send(self, completion: Any, kwargs: dict[str, Any]) -> Any:
        """One attempt: the embedded model directly, else through the endpoint's limiter and
        pacer (:func:`pytest_pau.llm.attempt.send`), at the flex tier when asked for."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled(f"the run was cancelled before a request to {self.model!r}")
        if self.local:
            return completion(**kwargs)

        def one(sent: dict[str, Any]) -> Any:
            return attempt.send(
                completion,
                sent,
                endpoint=self.endpoint,
                model=self.litellm_model,
                cancel=self.cancel,
            )

        sending = SENDING.set(self.cancel)  # the transport's last look before it sends
        try:
            return one(kwargs) if self.flex is None else self.flex.send(one, kwargs)
        except Cancelled:
            raise
        except Exception as exc:
            if self.cancel is not None and self.cancel.is_set():
                # Stopped by the transport (or cancelled meanwhile): not an outage to retry.
                raise Cancelled(
                    f"the run was cancelled during a request to {self.model!r}"
                ) from exc
            raise
        finally:
            SENDING.reset(sending)

    def _sleep(self, seconds: float) -> None:
        """tenacity's wait between attempts, cut short by the run's cancel event."""
        if self.cancel is None:
            time.sleep(seconds)
        elif self.cancel.wait(seconds):
            raise Cancelled(f"the run was cancelled while {self.model!r} waited to retry")

    def _final_error(self, exc: BaseException, attempts: int, elapsed: float) -> Exception:
        return final_error(
            exc,
            model=self.model,
            api_base=self.api_base,
            api_key_given=self.api_key is not None,
            attempts=attempts,
            elapsed=elapsed,
            validate=get_litellm().validate_environment,
            max_total_wait_s=self.retry.max_total_wait_s,
            max_attempts=self.retry.max_attempts,
        )
