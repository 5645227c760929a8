"""Token caps on the visible answer of every kind of model call: one home for each number.

The caps are small on purpose: PAU's turns need a few sentences each, and the embedded
1.5B model writes ~26 tokens/s. They bound what the model *writes*; a reasoning model's
hidden reasoning is budgeted on top of them by the client.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TokenCaps(BaseModel):
    """The visible-answer cap of each kind of call, in tokens."""

    model_config = ConfigDict(frozen=True)

    reason: int = Field(256, ge=1)
    """The agent's plan for its next call."""
    act: int = Field(128, ge=1)
    """The agent's input (one tuple literal)."""
    reflect: int = Field(384, ge=1)
    """The agent's YES/NO and description or revised hypothesis."""
    incontext: int = Field(512, ge=1)
    """The one answer of in-context mode."""
    judge: int = Field(256, ge=1)
    """A short explanation and the ``Rating: N`` line."""
    coder: int = Field(768, ge=1)
    """One fenced function."""
    classify: int = Field(64, ge=1)
    """The failure classifier's ``Label:`` line."""
    critic: int = Field(96, ge=8)
    """The training critic's justification and ``Rating: N`` line."""


DEFAULT_CAPS = TokenCaps()

PAPER_CAPS = TokenCaps(reason=300, act=300, reflect=300, incontext=300, judge=300, coder=600)
"""``--pau-protocol=paper``: the reference's caps (300 tokens per agent call and judge
answer, 600 for the coder's); the classifier and critic are ours and keep theirs."""


def caps_for(protocol: str) -> TokenCaps:
    """The caps of a run under ``protocol`` (``pytest-pau`` or ``paper``)."""
    return PAPER_CAPS if protocol == "paper" else DEFAULT_CAPS
