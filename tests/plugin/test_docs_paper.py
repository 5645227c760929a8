"""Every command of docs/paper.md and docs/datasets.md, run as the pages show them.

Models, servers and the hub cannot be reached here, so three things are swapped, and only
these: the model under test (``gpt-5.4-mini``) for a scripted one, the two servers' URLs for
a scripted judge and coder, and ``hf:DJ-Research/PAU-Benchmark`` for a file in the
reference's exact layout (``tests/dataset/test_reference_layout.py``). The ``vllm serve``
lines must be the very ones a paper run without servers prints.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from pytest_pau.cli.main import main
from pytest_pau.errors import ConfigError
from pytest_pau.plugin.preflight import check_paper_roles
from pytest_pau.prompting import MARKERS
from pytest_pau.settings import PauSettings
from pytest_pau.testing import ScriptedLLM
from tests.dataset.test_reference_layout import ROWS
from tests.firstrun.scripted import VAGUE, act_reply

DOCS = Path(__file__).resolve().parents[2] / "docs"
HUB = "hf:DJ-Research/PAU-Benchmark"
MODEL_RULES = [
    (MARKERS["reason"], "I will call it with the first example's input."),
    (MARKERS["act"], act_reply),
    (MARKERS["reflect"], f"CONCLUDE: YES\nSUMMARY: {VAGUE}"),
    (MARKERS["incontext"], f"DESCRIPTION: {VAGUE}"),
    (MARKERS["coder"], "```python\ndef test_func(*args):\n    return args[0]\n```"),
]


def commands(page: str) -> list[str]:
    """The lines of a page's ``bash`` blocks."""
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    return [line for block in blocks for line in block.strip().splitlines()]


def test_the_vllm_lines_are_the_ones_a_run_without_servers_prints() -> None:
    serve = [c for c in commands("paper.md") if c.startswith("vllm serve")]
    assert len(serve) == 2
    with pytest.raises(ConfigError) as refused:
        check_paper_roles(PauSettings(model="oracle", protocol="paper"))
    for line in serve:
        assert line in str(refused.value)


@pytest.mark.slow  # three runs, a pau paper with figures: ~10 s
def test_the_paper_pages_commands_run(
    pau_pytester: pytest.Pytester, scoring_llm: ScriptedLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = pau_pytester.path
    (folder / "pau_reference.jsonl").write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    runs = [c for c in commands("paper.md") if c.startswith("pytest ")]
    papers = [c for c in commands("paper.md") if c.startswith("pau paper")]
    assert len(runs) == 3
    assert len(papers) == 1
    with ScriptedLLM(MODEL_RULES, model="openai/gpt-5.4-mini") as model:
        for line in runs:
            swapped = (
                line.replace(
                    "--pau-model=gpt-5.4-mini",
                    f"--pau-model={model.model} --pau-api-base={model.api_base}",
                )
                .replace(HUB, "pau_reference.jsonl")
                .replace("http://127.0.0.1:8001/v1", scoring_llm.api_base)
                .replace("http://127.0.0.1:8002/v1", scoring_llm.api_base)
            )
            result = pau_pytester.runpytest(*shlex.split(swapped)[1:])
            assert result.ret in (0, 1), result.stdout.str()[-3000:]
            if "--collect-only" in line:
                result.stdout.fnmatch_lines(["pau: dataset: outputs recomputed by the gold code*"])
    for name in ("gpt-5.4-mini.json", "gpt-5.4-mini-incontext.json"):
        run = json.loads((folder / name).read_text())["run"]
        assert (run["protocol"], run["coder"]) == ("paper", "self")
        assert run["judge_model"] == "openai/meta-llama/Llama-3.1-70B-Instruct"
    capsys.readouterr()
    assert main(shlex.split(papers[0])[1:]) == 0
    printed = capsys.readouterr().out
    assert "| GPT-5-mini (incontext) | incontext | 6 |" in printed  # the paper's own name
    assert (folder / "paper" / "judge_spread.png").is_file()


def test_the_datasets_page_command_prints_what_the_page_shows(
    pau_pytester: pytest.Pytester,
) -> None:
    folder = pau_pytester.path
    (folder / "pau_reference.jsonl").write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    (line,) = [c for c in commands("datasets.md") if "pau_reference.jsonl" in c]
    text = (DOCS / "datasets.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(pau: dataset: .*?)\n```", text, re.S)
    assert shown is not None
    result = pau_pytester.runpytest(*shlex.split(line)[1:])
    assert result.ret == 0
    # The cache count depends on what earlier loads left in the user cache.
    expected = (
        shown.group(1).replace("[", "[[]").replace("(0 from the cache)", "(* from the cache)")
    )
    result.stdout.fnmatch_lines([expected])
