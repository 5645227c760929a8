"""The embedded local models (``local``, ``local-small``): weights and the litellm provider."""

from __future__ import annotations

from pytest_pau.llm.local.weights import SPECS, LocalModelSpec, resolve_weights

__all__ = ["SPECS", "LocalModelSpec", "resolve_weights"]
