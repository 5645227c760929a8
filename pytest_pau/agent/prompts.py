"""The prompt templates of the agent and the scoring, and their version string.

Prompts are plain Markdown files (``agent/prompts/*.md``, ``scoring/prompts/*.md``) with
``$name`` placeholders (:class:`string.Template`), so they can be read, reviewed and
versioned like code. ``$`` was chosen over ``{}`` because prompts quote Python code and
literals full of braces.

:data:`PROMPTS_VERSION` is a human version plus a short hash of every prompt file's text
(agent and scoring), recorded in each report so two runs can tell whether they used the
same prompts.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from string import Template

#: Bump by hand when the prompts change meaning; the hash catches every other edit.
PROMPTS_HUMAN_VERSION = "1.0"

AGENT_PROMPTS_DIR = Path(__file__).with_name("prompts")
# Read as files, not imported: the agent stage must not import the scoring stage.
SCORING_PROMPTS_DIR = Path(__file__).parent.parent / "scoring" / "prompts"


@cache
def _template(folder: str, name: str) -> Template:
    path = Path(folder) / f"{name}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"prompt template {name!r} not found at {path}; expected one of "
            f"{sorted(p.stem for p in Path(folder).glob('*.md'))}; reinstall pytest-pau"
        ) from None
    return Template(text.strip())


def render(name: str, folder: Path = AGENT_PROMPTS_DIR, **values: object) -> str:
    """Fill the template ``folder/name.md`` with ``values``.

    Args:
        name: Template file stem (``reason``, ``judge``...).
        folder: The prompts folder (agent's by default).
        **values: One value per ``$placeholder``; a missing one raises ``KeyError``.

    Returns:
        The prompt text.
    """
    return _template(str(folder), name).substitute({k: str(v) for k, v in values.items()})


def _compute_version() -> str:
    digest = hashlib.sha256()
    for folder in (AGENT_PROMPTS_DIR, SCORING_PROMPTS_DIR):
        for path in sorted(folder.glob("*.md")):
            digest.update(f"{folder.name}/{path.name}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return f"{PROMPTS_HUMAN_VERSION}+{digest.hexdigest()[:8]}"


PROMPTS_VERSION: str = _compute_version()
"""``"<human version>+<sha256 prefix of all prompt files>"``, e.g. ``"1.0+3fa2c1d9"``."""

#: A regex that matches the last user message of each kind of turn and of no other kind:
#: handy for :class:`pytest_pau.testing.ScriptedLLM` rules (``[(MARKERS["act"], "INPUT: (1,)")]``).
MARKERS: dict[str, str] = {
    "reason": r"Plan your next call\.",
    "act": r"on one line that starts with INPUT:",
    "reflect": r"Answer exactly in this form:\nCONCLUDE:",
    "incontext": r"Begin your answer with DESCRIPTION:",
    "judge": r"finish with one line of the form\nRating: N",
    "judge_retry": r"did not end with a rating line",
    "coder": r"Reply with a single ```python code block",
    "classify": r"Answer with one line: Label:",
}
