"""The cache is kept per endpoint: a second server with another model behind the same alias
is never served the first one's cached answers (llama-cpp-python's server lists
``owned_by``/``permissions``, which say nothing about the model)."""

from __future__ import annotations

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

LLAMA_CPP_PYTHON = {"owned_by": "me", "permissions": []}


def test_a_second_server_behind_the_same_alias_answers_for_itself(pau_pytester, run_pau) -> None:
    judges = {"model": "openai/qwen", "models_entry": LLAMA_CPP_PYTHON}
    with (
        ScriptedLLM(default="Close.\nRating: 4", **judges) as four,
        ScriptedLLM(default="Far off.\nRating: 2", **judges) as two,
    ):
        for judge, report in ((four, "a.json"), (two, "b.json")):
            result = run_pau(
                "-m",
                "smoke",
                "--pau-judge-model=openai/qwen",
                f"--pau-judge-api-base={judge.api_base}",
                f"--pau-report={report}",
            )
        # The summary says how these answers are cached, at the address as given.
        result.stdout.fnmatch_lines(
            [
                f"note: answers of openai/qwen at http://127.0.0.1:{two.port}/v1 and * are cached "
                "by alias and address only*"
            ]
        )
    assert two.requests > 0, "the second server was asked, not the cache"
    first = read_report(pau_pytester.path / "a.json").summary
    second = read_report(pau_pytester.path / "b.json").summary
    assert (first.judge.mean, second.judge.mean) == pytest.approx((4.0, 2.0))
