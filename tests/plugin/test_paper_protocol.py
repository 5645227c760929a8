"""``--pau-protocol=paper`` through real pytest: the paper's counting in the mean and the
gates, its statistics block, its default scorers, and what it refuses to mix.

The toy dataset's scripted judge grades each instance differently (``double``, ``add``,
``clamp`` 5 for the oracle's exact answer, ``tricky`` 2, ``boom`` no rating at all).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pytest_pau.cli.main import main
from pytest_pau.testing import ScriptedLLM

from .toy import SCORING_RULES

Run = Callable[..., pytest.RunResult]


def _report(pytester: pytest.Pytester, name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((pytester.path / name).read_text())


def test_an_unrated_item_counts_1_in_the_mean_and_the_gate_under_paper_only(
    run_pau: Run, pau_pytester: pytest.Pytester
) -> None:
    paper = run_pau(
        "--pau-protocol=paper",
        "--pau-min-mean-judge=3.9",
        "--pau-report=paper.json",
        "--pau-html=paper.html",
    )
    default = run_pau("--pau-min-mean-judge=3.9", "--pau-report=default.json")
    p, d = _report(pau_pytester, "paper.json"), _report(pau_pytester, "default.json")
    assert (p["run"]["protocol"], d["run"]["protocol"]) == ("paper", "pytest-pau")
    # Default: toy/boom has no value (17 / 4); paper: it counts 1 ((5+5+5+2+1) / 5).
    assert d["summary"]["judge"]["mean"] == pytest.approx(4.25)
    assert p["summary"]["judge"]["mean"] == pytest.approx(3.6)
    d_gate, p_gate = d["summary"]["gates"][0], p["summary"]["gates"][0]
    # Default: toy/boom is unknown, anything from 1 to 5: 3.60 to 4.40 over the selection,
    # so the gate is not decided; paper: it counts 1, and the gate fails at 3.60.
    assert (d_gate["value"], d_gate["best"], d_gate["status"]) == (
        pytest.approx(3.6),
        pytest.approx(4.4),
        "not decided",
    )
    assert (p_gate["value"], p_gate["status"]) == (pytest.approx(3.6), "failed")
    assert (p["summary"]["verdict"]["status"], d["summary"]["verdict"]["status"]) == (
        "failed",
        "not decided",
    )
    for rep in (p, d):  # still listed as an error, with no judge score of its own
        assert [e["id"] for e in rep["summary"]["errors"]] == ["toy/boom"]
        boom = next(r for r in rep["instances"] if r["id"] == "toy/boom")
        assert boom["judge_score"] is None
        assert "no parseable" in boom["error"]
    paper.assert_outcomes(passed=3, failed=1, errors=1)
    default.assert_outcomes(passed=3, failed=1, errors=1)
    paper.stdout.fnmatch_lines(
        [
            "pau: --pau-protocol=paper: a missing judge rating counts 1*",
            "*coder openai/scripted; protocol paper",
            "pass rate *(3/5 run, errors counted as the paper does)",
            "judge score  mean 3.60 *n=5  unparseable 1",
            "paper statistics (--pau-protocol=paper: every item that ran, n=5)",
            "judge score  3.60 ± 1.95  >= 3: 60.0%  (1 without a rating counted as 1)",
            "  levels  1: 20.0%  2: 20.0%  3: 0.0%  4: 0.0%  5: 60.0%",
            "code match    1.00 ± 0.00  = 1: 100.0%  >= 0.5: 100.0%  = 0: 0.0%",
            "  1 errored item counted with these fill values (still listed as errors)*",
            "infrastructure errors 1 (not the model's fault; counted above with the paper's*",
        ]
    )
    assert "paper statistics" not in default.stdout.str()
    html = (pau_pytester.path / "paper.html").read_text()
    assert "paper statistics (--pau-protocol=paper: every item that ran, n=5)" in html
    assert "judge score  3.60 ± 1.95  &gt;= 3: 60.0%" in html


def test_paper_takes_the_papers_scorers_and_caps_unless_given(
    pau_pytester: pytest.Pytester,
) -> None:
    base = ["--pau-model=oracle", "--pau-dataset=toy.jsonl", "--pau-protocol=paper"]
    with ScriptedLLM(SCORING_RULES) as llm:
        # No server for either scorer: nothing is asked of any model.
        refused = pau_pytester.runpytest(*base)
        assert refused.ret == pytest.ExitCode.USAGE_ERROR
        refused.stderr.fnmatch_lines(
            [
                "*--pau-protocol=paper scores with the paper's judge "
                "meta-llama/Llama-3.1-70B-Instruct and coder Qwen/Qwen3-Coder-30B-A3B-Instruct;"
                " no server was named for the judge and the coder, so no item was run.*",
                "*judge: vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8001*"
                "--pau-judge-api-base=http://127.0.0.1:8001/v1",
                "*coder: vllm serve Qwen/Qwen3-Coder-30B-A3B-Instruct --port 8002*",
            ]
        )
        assert llm.requests == 0
        # The judge's server named: only the coder is missing.
        half = pau_pytester.runpytest(*base, f"--pau-judge-api-base={llm.api_base}")
        assert half.ret == pytest.ExitCode.USAGE_ERROR
        half.stderr.fnmatch_lines(["*no server was named for the coder, so*"])
        # Both served: the paper's models are asked there, with the reference's caps.
        served = pau_pytester.runpytest(
            *base,
            f"--pau-judge-api-base={llm.api_base}",
            f"--pau-coder-api-base={llm.api_base}",
            "--pau-report=r.json",
        )
        served.assert_outcomes(passed=3, failed=1, errors=1)
        run = _report(pau_pytester, "r.json")["run"]
        assert run["judge_model"] == "openai/meta-llama/Llama-3.1-70B-Instruct"
        assert run["coder_model"] == "openai/Qwen/Qwen3-Coder-30B-A3B-Instruct"
        caps = {e.cap for e in llm.exchanges}
    # The judge's answers get 300 tokens, the coder's 600 (the failure classifier is ours).
    assert {300, 600} <= caps
    assert not caps & {256, 768}


def test_compare_and_the_baseline_refuse_another_protocol(
    run_pau: Run, pau_pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    run_pau("--pau-report=default.json").assert_outcomes(passed=3, failed=1, errors=1)
    run_pau("--pau-protocol=paper", "--pau-report=paper.json")
    capsys.readouterr()
    assert main(["compare", "default.json", "paper.json"]) == 2
    assert (
        "different protocols (A (default.json) 'pytest-pau', B (paper.json) 'paper')"
        in capsys.readouterr().err
    )
    gated = run_pau("--pau-protocol=paper", "--pau-baseline=default.json")
    assert gated.ret == pytest.ExitCode.USAGE_ERROR
    gated.stderr.fnmatch_lines(
        ["*--pau-baseline=default.json: runs differ in protocol (baseline 'pytest-pau', "
         "this run 'paper')*"]
    )  # fmt: skip
