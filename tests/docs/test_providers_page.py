"""Every command of docs/providers.md runs: each model string reaches its provider.

The commands run as the page shows them, offline (``tests/docs/offline.py``): OpenAI's
hosted names and the served address answer from a scripted server through the real
litellm path; Anthropic and Ollama model strings are shown to reach those providers' APIs
(a recorder stands in for them and refuses, so those items are errors, never scores).
"""

from __future__ import annotations

import json

import pytest

from pytest_pau.testing import ScriptedLLM
from tests.docs.offline import offline, pytest_args
from tests.docs.pages import commands, fenced, page

#: The page's pytest commands, run offline here; the embedded-model server's two lines are
#: run by tests/llm/test_local_server.py (a real llama.cpp server), the quota and flex
#: sections' commands by tests/docs/test_providers_quota.py (against a quota or a flex tier).
COMMANDS = [
    c
    for block in fenced(page("providers.md"), "bash")
    for c in commands(block)
    if c.startswith("pytest ")
    and "local-small" not in c
    and "--pau-max-rpm" not in c
    and "--pau-service-tier" not in c
]


def test_the_page_shows_hosted_served_local_and_pseudo_models() -> None:
    models = [c.split()[1] for c in COMMANDS]
    assert models == [
        "--pau-model=gpt-5-mini",
        "--pau-model=anthropic/claude-opus-4",
        "--pau-model=ollama/qwen3:8b",
        "--pau-model=openai/my-model",
        "--pau-model=oracle",
        "--pau-model=null",
    ], COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_provider_command_runs(
    command: str,
    docs_pytester: pytest.Pytester,
    weak_model: ScriptedLLM,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = pytest_args(command, weak_model)
    model = args[0].split("=", 1)[1]
    with offline(monkeypatch, weak_model) as recorder:
        result = docs_pytester.runpytest(*args)
    out = result.stdout.str()
    assert "PAU summary" in out, out
    asked = [body.get("model") for body in weak_model.log]
    if model.startswith(("anthropic/", "ollama/")):
        # Another protocol: the request reached the recorder standing in for the provider.
        wanted = "/v1/messages" if model.startswith("anthropic/") else "/api/generate"
        sent = [body for _, path, body in recorder.requests if wanted in path]
        assert sent, recorder.requests
        assert sent[0]["model"] == model.split("/", 1)[1], sent[0]
        result.assert_outcomes(errors=2)
        return
    assert not recorder.requests
    if model in ("oracle", "null"):
        assert set(asked) == {"gpt-5"}, asked  # judge and coder only: no model under test
        result.assert_outcomes(**({"passed": 2} if model == "oracle" else {"failed": 2}))
        return
    assert model.removeprefix("openai/") in asked, asked
    result.assert_outcomes(failed=2)  # the weak model's vague descriptions
    if "--pau-report=gpt-5-mini.json" in args:
        report = json.loads((docs_pytester.path / "gpt-5-mini.json").read_text())
        assert report["run"]["model"] == "gpt-5-mini"
        assert report["run"]["judge_model"] == "gpt-5"
        assert len(report["instances"]) == 2
