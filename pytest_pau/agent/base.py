"""What every agent is: something that explores an instance and returns a trajectory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from pytest_pau.models import CallResult, Instance, Trajectory


class SupportsCall(Protocol):
    """The part of :class:`pytest_pau.sandbox.Sandbox` an agent uses."""

    def call_literal(self, text: str) -> CallResult:
        """Run the hidden method on the tuple literal ``text``."""
        ...


@runtime_checkable
class Agent(Protocol):
    """An agent under test. The plugin's ``pytest_pau_make_agent`` hook may return any object
    with this method."""

    def run(self, instance: Instance, sandbox: SupportsCall) -> Trajectory:
        """Explore ``instance`` through ``sandbox`` and describe it.

        Raises:
            LLMUnavailableError, BudgetExceeded, SandboxError: infrastructure failures;
                the Evaluator reports them apart from model failures.
        """
        ...


class GenerationSettings(BaseModel):
    """Sampling settings of the agent's model calls.

    The token caps are small on purpose: the embedded 1.5B model writes ~26 tokens/s,
    and PAU's turns need a few sentences each. Raise them for reasoning models that
    think before answering.
    """

    temperature: float = 0.0
    reason_max_tokens: int = Field(default=256, ge=1)
    act_max_tokens: int = Field(default=128, ge=1)
    reflect_max_tokens: int = Field(default=384, ge=1)
    incontext_max_tokens: int = Field(default=512, ge=1)
