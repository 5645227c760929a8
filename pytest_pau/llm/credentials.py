"""Which API keys the remote models of a run need, checked before its first item.

A missing key must not look like an outage: litellm 1.110 reports one as an HTTP 500, so
without this check every item would retry for half a minute before failing. litellm's
``validate_environment(model)`` names the environment variables a provider reads its key
from; a role whose model has none of them set fails the run at configure time.

Not checked, because the key can come from somewhere other than those variables or is
not needed at all:

* a role with its own server (``--pau-*-api-base``): the client sends a placeholder key
  when none is set (local servers take any), so a server that wants a real one says so
  with a 401 on the first call;
* providers whose SDKs find credentials outside the environment (AWS profiles and
  instance roles, Google application-default credentials, Azure AD tokens);
* a model string litellm cannot place with a provider (a name a ``pytest_pau_make_agent``
  hook's agent understands);
* variables that are no secret (``OLLAMA_API_BASE``: Ollama answers on localhost).
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Providers whose credentials may come from files, instance metadata or token helpers.
AMBIENT_PROVIDERS = frozenset(
    {
        "bedrock",
        "bedrock_converse",
        "sagemaker",
        "sagemaker_chat",
        "vertex_ai",
        "vertex_ai_beta",
        "azure",
        "azure_ai",
        "azure_text",
        "watsonx",
        "oci",
    }
)
_SECRET_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET")

Validate = Callable[[str], dict[str, Any]]
ProviderOf = Callable[[str], str | None]


@dataclass(frozen=True)
class Role:
    """One role a model plays in the run."""

    name: str
    """``the model under test``, ``the judge``, ``the coder``."""
    option: str
    """The option that names its model: ``--pau-model``."""
    model: str
    api_base: str | None = None
    """The role's own server (then no key is checked)."""


@dataclass(frozen=True)
class MissingKey:
    """A model none of whose key variables is set, and the roles it plays."""

    model: str
    variables: tuple[str, ...]
    roles: tuple[Role, ...]

    def message(self) -> str:
        """``--pau-model=gpt-5-mini (the model under test): OPENAI_API_KEY is not set ...``."""
        who = " and ".join(f"{r.option}={r.model}" for r in self.roles)
        names = " and ".join(r.name for r in self.roles)
        if len(self.variables) == 1:
            unset = f"{self.variables[0]} is not set"
        else:
            unset = f"none of {', '.join(self.variables)} is set"
        base = self.roles[0].option.replace("-model", "-api-base")
        return (
            f"{who} ({names}): {unset}, and litellm reads this provider's API key from it. "
            f"Export the key (export {self.variables[0]}=...), or point the role at an "
            f"OpenAI-compatible server with {base}=URL"
        )


def _litellm_validate(model: str) -> dict[str, Any]:
    from pytest_pau.llm.litellm_setup import get_litellm

    litellm = get_litellm()
    # litellm prints a provider list to stdout for a model string it cannot place.
    with contextlib.redirect_stdout(io.StringIO()):
        result: dict[str, Any] = litellm.validate_environment(model=model)
    return result


def _litellm_provider(model: str) -> str | None:
    from pytest_pau.llm.litellm_setup import get_litellm

    litellm = get_litellm()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            provider = litellm.get_llm_provider(model)[1]
    except Exception:  # litellm raises BadRequestError for a name it cannot place
        return None
    return str(provider) if provider else None


def missing_key_variables(
    model: str,
    *,
    validate: Validate = _litellm_validate,
    provider_of: ProviderOf = _litellm_provider,
) -> tuple[str, ...]:
    """The secret variables litellm would read ``model``'s key from, when none is set.

    Empty when the key is set, when the provider finds credentials elsewhere, or when
    litellm does not know the model string.
    """
    provider = provider_of(model)
    if provider is None or provider in AMBIENT_PROVIDERS:
        return ()
    try:
        missing = validate(model).get("missing_keys") or []
    except Exception:  # a litellm that cannot tell: the first call will say it
        return ()
    secrets = [str(v) for v in missing if str(v).upper().endswith(_SECRET_SUFFIXES)]
    return tuple(secrets)


def missing_keys(
    roles: Sequence[Role],
    *,
    validate: Validate = _litellm_validate,
    provider_of: ProviderOf = _litellm_provider,
) -> list[MissingKey]:
    """Each model among ``roles`` (without an ``api_base``) whose key is not set.

    One entry per model, naming every role it plays; litellm is imported only when some
    role needs checking.
    """
    by_model: dict[str, list[Role]] = {}
    for role in roles:
        if role.api_base:
            continue
        by_model.setdefault(role.model, []).append(role)
    out = []
    for model, played in by_model.items():
        variables = missing_key_variables(model, validate=validate, provider_of=provider_of)
        if variables and not any(os.environ.get(v) for v in variables):
            out.append(MissingKey(model, variables, tuple(played)))
    return out
