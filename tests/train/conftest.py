"""Fixtures of the training tests: a small instance and a scripted critic server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Instance
from pytest_pau.prompting import MARKERS
from pytest_pau.testing import ScriptedLLM

#: Both critic prompts (``prompting/templates/train/critic_*.md``): what scripted rules match.
CRITIC = f"{MARKERS['critic_reason']}|{MARKERS['critic_reflect']}"


@pytest.fixture
def double(double: Instance) -> Instance:
    """The shared ``double`` instance with a single starting example."""
    return double.model_copy(update={"train_examples": double.train_examples[:1]})


def critic_reply(messages: list[dict[str, str]]) -> str:
    """Scripted critic: 3 for plans, 8 for hypotheses that say 'doubled', else 1."""
    user = messages[-1]["content"]
    if "plan for its next call" in user:
        return "A reasonable plan. Rating: 3"
    step = user.split("(it answered CONCLUDE:", 1)[1]
    return "Right. Rating: 8" if re.search(r"doubl", step, re.IGNORECASE) else "Wrong. Rating: 1"


@pytest.fixture
def critic_server() -> Iterator[ScriptedLLM]:
    """A scripted critic (see :func:`critic_reply`) that also writes code for code match."""
    rules = [
        (CRITIC, critic_reply),
        (MARKERS["coder"], "```python\ndef test_func(arg0):\n    return arg0 * 2\n```"),
    ]
    with ScriptedLLM(rules) as server:
        yield server


@pytest.fixture
def critic_client(critic_server: ScriptedLLM) -> LLMClient:
    """A real litellm client of the scripted critic, no cache, no retries."""
    return LLMClient(
        critic_server.model,
        api_base=critic_server.api_base,
        api_key=critic_server.api_key,
        retry=RetryPolicy(max_attempts=1),
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty pytest project (an ini file, no tests) as the current folder.

    ``pau train`` collects with pytest in the current folder: in the repository it would
    collect this test suite (its ``testpaths``).
    """
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.chdir(folder)
    return folder
