"""The agent under test: explores a hidden method in the sandbox and describes it.

``make_agent`` builds one from a model name; ``oracle`` and ``null`` are pseudo-agents
that need no model. The single-turn pieces (``EpisodeState``, ``build_*_messages``,
``parse_input``, ``parse_reflection``) are public so ``pau train`` drives the same loop
with its own policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pau.agent.base import Agent, SupportsCall
from pytest_pau.agent.episode_state import (
    EpisodeState,
    build_act_messages,
    build_incontext_messages,
    build_reason_messages,
    build_reflect_messages,
)
from pytest_pau.agent.interactive import InContextAgent, InteractiveAgent
from pytest_pau.agent.parsing import parse_description, parse_input, parse_reflection
from pytest_pau.agent.pseudo import NULL_DESCRIPTION, NullAgent, OracleAgent
from pytest_pau.errors import ConfigError
from pytest_pau.llm.caps import DEFAULT_CAPS, TokenCaps
from pytest_pau.models import Observation
from pytest_pau.settings import DEFAULTS
from pytest_pau.settings.values import MODES

if TYPE_CHECKING:
    from pytest_pau.llm.protocol import SupportsComplete

__all__ = [
    "MODES",
    "NULL_DESCRIPTION",
    "PSEUDO_MODELS",
    "Agent",
    "EpisodeState",
    "InContextAgent",
    "InteractiveAgent",
    "NullAgent",
    "Observation",
    "OracleAgent",
    "SupportsCall",
    "build_act_messages",
    "build_incontext_messages",
    "build_reason_messages",
    "build_reflect_messages",
    "make_agent",
    "parse_description",
    "parse_input",
    "parse_reflection",
]

PSEUDO_MODELS = ("oracle", "null")


def make_agent(
    model: str,
    *,
    client: SupportsComplete | None = None,
    mode: str = DEFAULTS.mode,
    max_iterations: int = DEFAULTS.max_iterations,
    seed: int = DEFAULTS.seed,
    caps: TokenCaps = DEFAULT_CAPS,
    protocol: str = DEFAULTS.protocol,
) -> Agent:
    """Build the agent for ``model``.

    Args:
        model: A litellm model string, ``local``/``local-small``, or a pseudo-model
            (``oracle``, ``null``), which needs no client.
        client: The LLM client of ``model`` (:func:`pytest_pau.llm.make_client`).
        mode: ``interactive`` (reason/act/reflect loop) or ``incontext`` (one call).
        max_iterations: The iteration limit of interactive mode (``--pau-max-iterations``).
        seed: Passed to every model call (``--pau-seed``).
        caps: Visible-answer token caps of each turn.
        protocol: ``paper`` runs the interactive loop as the reference does where our
            prompts leave room: the starting examples share the window of the last 10
            entries with the agent's calls, and the prediction is lower-cased.

    Raises:
        ConfigError: an unknown mode, an iteration limit below 1, or no client for a
            real model.
    """
    if mode not in MODES:
        raise ConfigError(f"make_agent(mode={mode!r}): expected one of {', '.join(MODES)}")
    if max_iterations < 1:
        raise ConfigError(f"make_agent(max_iterations={max_iterations!r}): expected at least 1")
    if model == "oracle":
        return OracleAgent()
    if model == "null":
        return NullAgent()
    if client is None:
        raise ConfigError(
            f"make_agent({model!r}): a model needs an LLM client; pass "
            "client=pytest_pau.llm.make_client(model), or use a pseudo-model (oracle, null)"
        )
    cls = InteractiveAgent if mode == "interactive" else InContextAgent
    return cls(client, max_iterations=max_iterations, seed=seed, caps=caps, protocol=protocol)
