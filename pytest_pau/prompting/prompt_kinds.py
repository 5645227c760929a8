"""One regex per kind of prompt, matching its last user message and no other kind's.

Handy for :class:`pytest_pau.testing.ScriptedLLM` rules::

    from pytest_pau.testing import MARKERS, ScriptedLLM

    ScriptedLLM([(MARKERS["act"], "INPUT: (1,)"), (MARKERS["judge"], "Same.\\nRating: 5")])

A test (``tests/prompting``) checks each marker against the rendered templates, so a
prompt edit that breaks a marker fails there, not in a user's conftest.
"""

from __future__ import annotations

MARKERS: dict[str, str] = {
    "reason": r"Plan your next call\.",
    "act": r"on one line that starts with INPUT:",
    "reflect": r"Answer exactly in this form:\nCONCLUDE:",
    "incontext": r"Begin your answer with DESCRIPTION:",
    "judge": r"finish with one line of the form\nRating: N\nwhere N is an integer from 1 to 5",
    "judge_retry": r"did not end with a rating line",
    "coder": r"Reply with a single ```python code block",
    "classify": r"Answer with one line: Label:",
    "critic_reason": r"Grade this plan\.",
    "critic_reflect": r"Grade this description:",
}
