"""Test helpers for people who test with pytest-pau: the scripted model server and its fixture.

``ScriptedLLM`` is an OpenAI-compatible chat server on 127.0.0.1 that answers from a
script, so conftest files and plugins can be tested without network or API keys::

    from pytest_pau.testing import MARKERS, ScriptedLLM

    def test_my_judge(scripted_llm):
        llm = scripted_llm([(MARKERS["judge"], "Close enough. Rating: 4")])
        ...  # point --pau-judge-model=llm.model, --pau-judge-api-base=llm.api_base

``MARKERS[kind]`` is a regex matching each kind of prompt (reason, act, reflect, incontext,
judge, judge_retry, coder, classify, critic_reason, critic_reflect). The ``scripted_llm`` fixture is a factory; every server it starts is closed after the test.
The pytest-pau plugin registers this module, so the fixture is available everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pytest_pau.llm.scripted import FAULT_KINDS, ScriptedLLM, scripted_llm_factory
from pytest_pau.prompting import MARKERS

__all__ = ["FAULT_KINDS", "MARKERS", "ScriptedLLM", "scripted_llm"]


@pytest.fixture
def scripted_llm() -> Iterator[Callable[..., ScriptedLLM]]:
    """A factory ``scripted_llm(rules, **kwargs) -> ScriptedLLM`` of started servers."""
    yield from scripted_llm_factory()
