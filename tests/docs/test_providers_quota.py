"""The commands and the example of docs/providers.md and docs/extending.md (quotas, flex), run.

Each ``pytest`` command runs as the page shows it, with the hosted model swapped for a
scripted one (``--pau-api-base`` added, the judge and coder pointed at it, a two-item
dataset), and must print what the page says it prints.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pytest_pau.testing import ScriptedLLM
from tests.plugin.test_concurrency import RULES, write_dataset

ROOT = Path(__file__).resolve().parents[2]
PROVIDERS = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
EXTENDING = (ROOT / "docs" / "extending.md").read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    return text.split(title, 1)[1].split("\n## ", 1)[0]


def commands(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, re.S)]


def swapped(command: str, llm: ScriptedLLM) -> list[str]:
    """The command's arguments, with the hosted model served by ``llm``."""
    argv = shlex.split(command)
    assert argv[0] == "pytest"
    return [
        *argv[1:],
        f"--pau-api-base={llm.api_base}",
        f"--pau-judge-model={llm.model}",
        f"--pau-judge-api-base={llm.api_base}",
        f"--pau-coder-model={llm.model}",
        f"--pau-coder-api-base={llm.api_base}",
        "--pau-dataset=many.jsonl",
        "--pau-no-cache",
    ]


def test_the_flex_command(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.plugin.conftest import USER_CACHE

    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)
    (command,) = commands(section(PROVIDERS, "## Cheaper tiers"))
    assert command == "pytest --pau-model=gpt-5-mini --pau-service-tier=flex"
    write_dataset(pytester.path, 2)
    with ScriptedLLM(RULES, model="openai/gpt-5-mini") as llm:
        result = pytester.runpytest(*swapped(command, llm))
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["flex tier: * of * answers, $* saved against the default tier's price"]
    )


@pytest.mark.slow
def test_the_known_quota_command(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.plugin.conftest import USER_CACHE

    monkeypatch.setenv("PAU_USER_CACHE", USER_CACHE)
    (command,) = commands(section(PROVIDERS, "## Running at the provider's limit"))
    assert command.startswith("pytest --pau-model=gpt-5-mini --pau-max-rpm=500")
    write_dataset(pytester.path, 4)
    with ScriptedLLM(RULES, model="openai/gpt-5-mini") as llm:
        result = pytester.runpytest_subprocess(*swapped(command, llm))
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(
        ["paced: * 500 RPM, 200,000 TPM (--pau-max-rpm/tpm; each of 2 workers paces at 1/2)"]
    )


@pytest.mark.slow
def test_the_scripted_quota_example_runs() -> None:
    (example,) = re.findall(r"```python\n(.*?)```", section(EXTENDING, "## ScriptedLLM"), re.S)
    exec(compile(example, "docs/extending.md", "exec"), {})
