"""One builtin smoke instance end to end on the real embedded ``local-small`` model."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.llm.caps import TokenCaps
from pytest_pau.scoring import Evaluator
from pytest_pau.settings import PauSettings


@pytest.mark.local_model
@pytest.mark.slow
def test_smoke_instance_end_to_end_on_local_small(tmp_path: Path) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip('needs the local-small extra: pip install "pytest-pau[local-small]"')
    instance = sorted(
        (i for i in load_dataset("builtin") if "smoke" in i.tags), key=lambda i: i.id
    )[0]
    settings = PauSettings(
        model="local-small",
        judge_model="local-small",
        coder_model="local-small",
        max_iterations=2,
        cache_dir=tmp_path,
    )
    # Small caps keep this at well under a minute at ~24-38 tokens/s.
    caps = TokenCaps(reason=40, act=32, reflect=64, judge=64, coder=160)
    phases: list[str] = []
    result = Evaluator(settings, caps=caps).evaluate(instance, progress=phases.append)

    assert result.skipped is None
    # The phases, with the exploration's iterations as they started (1/2, then 2).
    marks = [p for p in phases if p not in ("explore", "judge", "code", "classify")]
    assert marks in (["1/2"], ["1/2", "2"])
    assert [p for p in phases if p not in marks][:3] == ["explore", "judge", "code"]
    assert phases[1] == "1/2"
    kinds = [s.kind for s in result.trajectory]
    assert kinds[:2] == ["reason", "act"]
    assert kinds.count("reason") <= 2
    assert all(s.response for s in result.trajectory)
    assert result.model_calls >= len(kinds) + 2  # agent turns, judge, coder
    assert result.tokens["completion"] > 0
    if result.error is not None:  # a 0.5B judge may give no rating: that is the only excuse
        assert "no parseable 'Rating: N'" in result.error
    else:
        assert 1 <= (result.judge_score or 0) <= 5
    assert result.code_match is not None
    assert 0.0 <= result.code_match <= 1.0
    assert result.passed == (result.failure_mode == "none")

    # Same settings, same cache: every call is a hit and the result is identical.
    again = Evaluator(settings, caps=caps).evaluate(instance)
    assert again.cache_hits == again.model_calls == result.model_calls
    assert again.prediction == result.prediction
    assert (again.judge_score, again.code_match) == (result.judge_score, result.code_match)
