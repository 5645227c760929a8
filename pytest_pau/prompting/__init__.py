"""Text utilities every stage shares: prompt templates, their version, markers, reply parsing.

This package sits below the stages (agent, scoring, train) and imports nothing of them:

* :mod:`~pytest_pau.prompting.templates` renders the prompt files in ``templates/<stage>/``
  and computes :data:`PROMPTS_VERSION` over all of them;
* :mod:`~pytest_pau.prompting.prompt_kinds` holds :data:`MARKERS`, one regex per kind of prompt
  (for :class:`pytest_pau.testing.ScriptedLLM` rules);
* :mod:`~pytest_pau.prompting.replies` reads what models answer: ``<think>`` blocks, the
  ``Rating: N`` line of judges and critics.

The completion protocol the stages call models through is
:class:`pytest_pau.llm.protocol.SupportsComplete`.
"""

from __future__ import annotations

from pytest_pau.prompting.prompt_kinds import MARKERS
from pytest_pau.prompting.replies import RATING_PATTERN, explanation_of, parse_rating, strip_think
from pytest_pau.prompting.templates import PROMPTS_VERSION, TEMPLATE_NAMES, render

__all__ = [
    "MARKERS",
    "PROMPTS_VERSION",
    "RATING_PATTERN",
    "TEMPLATE_NAMES",
    "explanation_of",
    "parse_rating",
    "render",
    "strip_think",
]
