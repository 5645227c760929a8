"""Cheaper service tiers: ``--pau-service-tier=flex`` for the model under test, with a way back.

OpenAI's flex tier serves the same model at the Batch API's price (half the list price for
gpt-5, gpt-5-mini, gpt-5-nano, o3, o4-mini), slower, and now and then without capacity.
:class:`FlexTier` sends each request with ``service_tier="flex"`` (litellm passes it on) and,
when the flex tier cannot serve it, sends the same request again at the default tier at
once, which is not counted as a retry:

* a 429 ``resource_unavailable`` (flex has no capacity now; not a quota signal);
* a timeout of the flex attempt (``PAU_FLEX_TIMEOUT_S``, default 900 s: OpenAI advises
  15 minutes for flex);
* a 400 that names ``service_tier`` (a model or deployment without flex): then flex is not
  asked for again for this model in this run.

litellm prices each answer at the tier the provider says it served (``service_tier`` in the
answer), so ``cost_usd`` is right by itself; :func:`saved_usd` adds what it saved.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from pytest_pau.llm.accounting import charge
from pytest_pau.llm.signals import is_flex_unavailable, is_timeout, names_service_tier
from pytest_pau.models import Usage
from pytest_pau.settings.env_vars import ENV_NUMBERS, env_number
from pytest_pau.settings.values import SERVICE_TIERS

__all__ = ["SERVICE_TIERS", "FlexTier", "fallback_reason", "flex_timeout_s", "saved_usd"]
#: OpenAI's advice for flex requests: a 15-minute timeout (the row of ``PAU_FLEX_TIMEOUT_S``).
DEFAULT_FLEX_TIMEOUT_S = ENV_NUMBERS["PAU_FLEX_TIMEOUT_S"].default


def flex_timeout_s() -> float:
    """``PAU_FLEX_TIMEOUT_S`` or :data:`DEFAULT_FLEX_TIMEOUT_S`.

    Raises:
        ConfigError: the variable is no positive number (``abc``, ``nan``, ``0``), naming
            it, as every numeric ``PAU_*`` variable (:mod:`pytest_pau.settings.env_vars`).
    """
    return env_number("PAU_FLEX_TIMEOUT_S")


def fallback_reason(exc: BaseException) -> str | None:
    """Why a flex attempt's failure sends the request to the default tier (None: it does not)."""
    if is_flex_unavailable(exc):
        return "unavailable"
    if is_timeout(exc):
        return "timeout"
    if names_service_tier(exc):
        return "unsupported"
    return None


class FlexTier:
    """Sends one client's requests at the flex tier, falling back to the default tier.

    Args:
        model: The client's model, for messages.
        timeout_s: The timeout of a flex attempt (default: ``PAU_FLEX_TIMEOUT_S``).
    """

    def __init__(self, model: str, *, timeout_s: float | None = None) -> None:
        self.model = model
        self.timeout_s = timeout_s if timeout_s is not None else flex_timeout_s()
        self.refused: str | None = None
        """The provider's refusal of flex for this model; then flex is no longer asked for."""
        self.fallbacks = 0
        self._lock = threading.Lock()

    def send(self, attempt: Callable[[dict[str, Any]], Any], kwargs: dict[str, Any]) -> Any:
        """``attempt(kwargs)`` at the flex tier, or again at the default tier when it cannot."""
        if self.refused is not None:
            return attempt(kwargs)
        flex = {**kwargs, "service_tier": "flex", "timeout": self.timeout_s}
        try:
            return attempt(flex)
        except Exception as exc:
            reason = fallback_reason(exc)
            if reason is None:
                raise
            with self._lock:
                self.fallbacks += 1
                if reason == "unsupported":
                    self.refused = str(exc)[:300]
        charge(Usage(flex_fallbacks=1))
        return attempt(kwargs)


def saved_usd(model: str, prompt_tokens: int, completion_tokens: int, cost_usd: float) -> float:
    """What an answer served at flex would have cost more at the default tier (0 if unknown)."""
    from pytest_pau.llm.litellm_setup import get_litellm

    try:
        prompt, completion = get_litellm().cost_per_token(
            model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
        )
    except Exception:  # litellm has no price for this model: nothing to compare with
        return 0.0
    return max(0.0, float(prompt) + float(completion) - cost_usd)
