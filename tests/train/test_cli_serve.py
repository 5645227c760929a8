"""``pau train`` end to end on the tiny policy, ``--eval-every``, and serving the adapter."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.testing import ScriptedLLM

from .conftest import CRITIC

pytest.importorskip("peft", reason="needs the 'train' extra (torch, transformers, peft)")


@pytest.fixture
def scripted() -> ScriptedLLM:
    """Critic, judge and coder at once: every role the run needs."""
    from pytest_pau.prompting import MARKERS

    rules = [
        (CRITIC, "Fine. Rating: 5"),
        (MARKERS["judge"], "Unrelated. Rating: 1"),
        (MARKERS["coder"], "```python\ndef test_func(*args):\n    return None\n```"),
        (MARKERS["classify"], "Label: insufficient_exploration"),
    ]
    with ScriptedLLM(rules) as server:
        yield server


@pytest.mark.slow
def test_pau_train_cli_with_eval(
    tmp_path: Path, project: Path, scripted: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "train", "--policy", "tiny-random", "--critic", scripted.model,
            "--critic-api-base", scripted.api_base,
            "--max-steps", "2", "--samples-per-prompt", "2",
            "--max-new-tokens", "4", "--eval-every", "2", "--eval-instances", "1",
            "--output", str(out), "--no-progress",
            "--", "-m", "smoke", "--pau-limit=3", "--pau-max-iterations=1", "--pau-no-cache",
        ]
    )  # fmt: skip
    assert code == 0
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    assert "eval_judge_mean" not in rows[0]
    assert rows[1]["eval_instances"] == 1
    assert rows[1]["eval_judge_mean"] == 1.0  # the benchmark's judge scored the held-out one
    assert rows[1]["eval_code_match_mean"] is not None
    assert rows[1]["eval_pass_rate"] == 0.0
    # the held-out instance is never trained on
    trained = {i for r in rows for i in r["instances"]}
    assert "builtin/digits_moved_to_end" not in trained
    assert rows[1]["eval_failed"] == 1
    assert rows[1]["eval_errors"] == 0
    config = json.loads((out / "config.json").read_text())
    assert config["steps"] == 2
    assert config["reward"] == "aac"
    assert config["settings"]["max_iterations"] == 1  # from --pau-max-iterations
    assert config["settings"]["judge_model"] == scripted.model  # no --pau-judge-model: the critic
    assert config["pytest_args"] == [
        "-m",
        "smoke",
        "--pau-limit=3",
        "--pau-max-iterations=1",
        "--pau-no-cache",
    ]
    stdout = capsys.readouterr().out
    assert "evaluate it: pau train --serve" in stdout
    # the benchmark's summary block, once per evaluation, on stdout and in DIR/eval.txt
    assert stdout.count("PAU summary") == 1
    assert "items 1: 0 passed, 1 failed" in stdout
    assert "model pau-policy (pau train step 2)" in stdout
    assert (out / "eval.txt").read_text().count("PAU summary") == 1


def test_bad_flag_value_names_the_flag(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--samples-per-prompt", "0"]) == 2
    assert "--samples-per-prompt" in capsys.readouterr().err


def test_serve_a_trained_adapter(tmp_path: Path) -> None:
    from pytest_pau.train.policy import Policy
    from pytest_pau.train.serve import serve, served_model_name

    adapter = tmp_path / "adapter"
    Policy.load("tiny-random", lora_rank=4, lora_alpha=8).save_adapter(adapter)
    server = serve(str(adapter), max_tokens=5)
    try:
        client = LLMClient(
            server.model, api_base=server.api_base, retry=RetryPolicy(max_attempts=1)
        )
        reply = client.complete([{"role": "user", "content": "Plan your next call."}], max_tokens=5)
        assert isinstance(reply.text, str)
        assert server.model == served_model_name(adapter)
        assert server.requests == 1
    finally:
        server.close()


def test_two_different_adapters_are_served_under_two_names(tmp_path: Path) -> None:
    from pytest_pau.train.policy import Policy
    from pytest_pau.train.serve import served_model_name

    names = []
    for seed in (0, 1):
        adapter = tmp_path / f"adapter-{seed}"
        Policy.load("tiny-random", lora_rank=4, lora_alpha=8, seed=seed).save_adapter(adapter)
        names.append(served_model_name(adapter))
    assert names[0] != names[1]
    assert all(re.fullmatch(r"openai/pau-policy-[0-9a-f]{8}", n) for n in names)
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "adapter-0", copy)
    assert served_model_name(copy) == names[0]  # the same adapter keeps its name


def test_serve_refuses_a_non_adapter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--serve", str(tmp_path)]) == 2
    assert "expected a trained adapter directory" in capsys.readouterr().err
