"""Fixtures of the docs tests: a pytester folder that runs the pages' commands offline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# pytester restores sys.modules after each in-process run: keep the heavy modules loaded
# across runs (as tests/plugin/conftest.py does) instead of importing litellm each time.
import pytest_pau.plugin
import pytest_pau.sandbox
import pytest_pau.scoring
import pytest_pau.stats.describe  # noqa: F401  (numpy: it cannot be imported twice)
from pytest_pau.llm import get_litellm
from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM
from tests.firstrun.scripted import RULES

get_litellm()

# pytester points HOME at a fresh folder, which would move the built Wasm sandbox with it.
USER_CACHE = str(user_cache_dir())


@pytest.fixture
def docs_pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """An empty project (its own ini file) with the per-user cache pinned to the real one."""
    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)
    pytester.makeini("[pytest]\n")
    return pytester


@pytest.fixture
def weak_model() -> Iterator[ScriptedLLM]:
    """A weak model under test, a fair judge and coder (``tests/firstrun/scripted.py``)."""
    with ScriptedLLM(RULES) as llm:
        yield llm
