"""The README's everyday commands, run in order as a user would, offline.

One folder, one session: the model you ship (gpt-5-mini) is run and reported, a served
candidate (``openai/my-model`` at the README's address) is gated against that report,
the two reports are compared, read and one instance debugged. Hosted and served models
answer from a scripted server through the real litellm path (``tests/docs/offline.py``:
OpenAI's address redirected, the README's served address replaced, two instances a run).
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

from pytest_pau.cli.main import main
from pytest_pau.testing import ScriptedLLM
from tests.docs.offline import offline, pytest_args
from tests.docs.pages import README, commands, fenced, section

EVERYDAY = section(README, "## Everyday commands")
SUBSECTIONS = [
    "Run a model",
    "Gate a release",
    "Compare runs",
    "Read a report",
    "Debug an instance",
]


def _commands(title: str) -> list[str]:
    blocks = fenced(section(README, f"### {title}"), "bash")
    return [c for block in blocks for c in commands(block)]


def test_the_readme_shows_the_five_everyday_things_in_order() -> None:
    found = re.findall(r"^### (.+)$", EVERYDAY, re.M)
    assert found == SUBSECTIONS
    assert all(_commands(title) for title in SUBSECTIONS)


def _pau(argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    args = shlex.split(argv)
    assert args[0] == "pau", argv
    code = main(args[1:])
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_the_everyday_commands_run_in_order(
    docs_pytester: pytest.Pytester,
    weak_model: ScriptedLLM,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = docs_pytester.path
    with offline(monkeypatch, weak_model) as recorder:
        # Run a model: the shipped one, a JSON and an HTML report.
        (run,) = _commands("Run a model")
        result = docs_pytester.runpytest(*pytest_args(run, weak_model))
        result.assert_outcomes(failed=2)  # the scripted model's descriptions are vague
        report = json.loads((folder / "report.json").read_text())
        assert report["run"]["model"] == "gpt-5-mini"
        assert report["run"]["judge_model"] == report["run"]["coder_model"] == "gpt-5"
        assert "<img" in (folder / "report.html").read_text()
        ids = [i["id"] for i in report["instances"]]
        assert len(ids) == 2

        # Gate a release: the served candidate against that report.
        (gate,) = _commands("Gate a release")
        result = docs_pytester.runpytest(*pytest_args(gate, weak_model))
        out = result.stdout.str()
        gates = out[out.index("\nrelease gates\n") :]
        assert "(--pau-min-pass-rate)" in gates, out
        assert "baseline report.json (model gpt-5-mini)" in gates, out
        assert "early stop:" in gates, out
        passed = "PAU release gates passed" in out
        assert result.ret == (0 if passed else 1), out
        candidate = json.loads((folder / "candidate.json").read_text())
        assert candidate["run"]["model"] == "openai/my-model"
        assert [i["id"] for i in candidate["instances"]] == ids
        assert [b["model"] for b in weak_model.log].count("my-model") > 0
        capsys.readouterr()

        # Compare runs.
        (compare,) = _commands("Compare runs")
        code, out = _pau(compare, capsys)
        assert code in (0, 1), out
        assert "report.json" in out, out
        assert "candidate.json" in out, out
        assert "flips A -> B:" in out, out
        assert f"gate --fail-if-worse judge:0.2: {'PASSED' if code == 0 else 'FAILED'}" in out, out

        # Read a report.
        listing, failed = _commands("Read a report")
        code, out = _pau(listing, capsys)
        assert code == 0, out
        assert "status   judge match  failure mode" in out, out
        assert all(i in out for i in ids), out
        code, out = _pau(failed, capsys)
        assert code == 0, out
        assert all(i in out for i in ids), out  # both failed

        # Debug an instance: its trajectory, a call of the method, the item again.
        show, call, again = _commands("Debug an instance")
        code, out = _pau(show, capsys)
        assert code == 0, out
        for part in ("gold:", "predicted:", "judge:", "trajectory:", "code written by the coder:"):
            assert part in out, out
        assert "Function header:" in out, out  # --full: the prompts too
        code, out = _pau(call, capsys)
        assert code == 0, out
        assert re.search(r"^value:  \S", out, re.M), out
        asked = weak_model.requests
        result = docs_pytester.runpytest(*pytest_args(again, weak_model))
        result.assert_outcomes(failed=1)
        assert weak_model.requests == asked, "the item again comes from the cache"
    assert not recorder.requests
