"""What every agent is: something that explores an instance and returns a trajectory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

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
