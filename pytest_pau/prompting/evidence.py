"""How the evidence of an episode is shown in prompts: calls, their results, examples.

The agent's prompts, the coder's and the failure classifier's show the same lines, so a
call reads the same wherever a model sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_pau.models import Example, Observation

#: Results longer than this are cut in prompts: the local model has little context and speed.
MAX_RESULT_CHARS = 300


def clip(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how many more there were."""
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def example_observation(example: Example) -> str:
    """What the agent is shown for a starting example (same form as a live call)."""
    if example.raises:
        return f"{example.raises}: {example.output}"
    return example.output


def observation_line(observation: Observation) -> str:
    """The line shown in prompts for one piece of evidence."""
    if observation.input is None:
        return f"- {observation.result}"
    return f"- input {clip(observation.input)} -> {clip(observation.result)}"
