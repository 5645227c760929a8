"""Fixtures of the plugin tests: a toy dataset, a scripted judge/coder, pytester helpers.

The toy dataset (``toy.jsonl``, source ``toy``) has five instances whose outcome with the
``oracle`` agent is known in advance:

* ``double`` (arity 1, easy smoke), ``add`` (arity 2, easy smoke numbers) and ``clamp``
  (arity 3, medium) pass: the judge rates an exact match 5 and the coder writes the true
  code;
* ``tricky`` (arity 1, hard) fails: the scripted judge rates its gold text 2;
* ``boom`` (arity 1, medium) errors: the judge never answers with a rating, which the
  Evaluator reports as an infrastructure error (E).

With ``null`` every scored item fails (rating 1, code that returns None).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

# pytester restores sys.modules after each in-process run: importing the heavy modules
# here keeps them loaded across the many runs instead of re-importing litellm each time.
import pytest_pau.plugin
import pytest_pau.sandbox
import pytest_pau.scoring
import pytest_pau.stats.describe  # numpy: it cannot be imported twice in one process
from pytest_pau.llm import get_litellm
from pytest_pau.paths import user_cache_dir
from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES, scoring_args, write_toy

get_litellm()

# pytester points HOME at a fresh folder per test, which would move the per-user cache (the
# built Wasm sandbox, ~13 s to rebuild) with it: pin it to the real one.
USER_CACHE = str(user_cache_dir())
_PRELOADED = (pytest_pau.plugin, pytest_pau.sandbox, pytest_pau.scoring)


@pytest.fixture(scope="session")
def scoring_llm() -> Iterator[ScriptedLLM]:
    """One scripted judge + coder + classifier for the whole session (it is stateless)."""
    with ScriptedLLM(SCORING_RULES) as llm:
        yield llm


@pytest.fixture
def pau_pytester(
    pytester: pytest.Pytester, scoring_llm: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A pytester folder holding ``toy.jsonl``; ``run_pau(*args)`` runs the plugin on it."""
    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)
    write_toy(pytester.path)
    return pytester


@pytest.fixture
def run_pau(
    pau_pytester: pytest.Pytester, scoring_llm: ScriptedLLM
) -> Callable[..., pytest.RunResult]:
    """``run_pau(*args, model="oracle", subprocess=False)``: pytest on the toy dataset."""

    def run(
        *args: str,
        model: str = "oracle",
        subprocess: bool = False,
        dataset: str = "toy.jsonl",
        **kwargs: object,
    ) -> pytest.RunResult:
        argv = [f"--pau-model={model}", f"--pau-dataset={dataset}", *scoring_args(scoring_llm)]
        argv += args
        if subprocess:
            return pau_pytester.runpytest_subprocess(*argv)
        return pau_pytester.runpytest(*argv, **kwargs)

    return run
