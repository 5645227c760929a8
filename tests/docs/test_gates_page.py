"""The ini file docs/gates.md shows is one pytest reads, to the settings its lines name."""

from __future__ import annotations

import json

import pytest

from tests.docs.pages import fenced, section

CONFTEST = """
import json
from pytest_pau.plugin.config import settings_from_config

def pytest_collection_finish(session):
    settings = settings_from_config(session.config)
    with open("settings.json", "w") as f:
        f.write(settings.model_dump_json())
"""


def test_the_ini_example_resolves_to_its_settings(docs_pytester: pytest.Pytester) -> None:
    (block,) = fenced(section("gates.md", "## Gates in the ini file"), "ini")
    assert block.startswith("# pytest.ini")
    (docs_pytester.path / "pytest.ini").write_text(block, encoding="utf-8")
    docs_pytester.makeconftest(CONFTEST)
    result = docs_pytester.runpytest("--pau-model=oracle", "--collect-only", "-q")
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    settings = json.loads((docs_pytester.path / "settings.json").read_text())
    # Every key of the block, as it reads (an inline comment is no part of a value).
    keys = [ln.split("=", 1)[0].strip() for ln in block.splitlines() if "=" in ln]
    assert {k.removeprefix("pau_") for k in keys} <= set(settings)
    assert settings["judge_model"] == settings["coder_model"] == "gpt-5"
    assert settings["min_mean_judge"] == 3.0
    assert settings["min_pass_rate"] == 0.6
    assert settings["min_mean_match"] == 0.7
    assert settings["gate_on_ci"] is True
    assert settings["baseline"].endswith("pau-baseline.json")
    assert settings["max_regression"] == "judge:0.2"
    assert settings["early_stop"] is True
    assert settings["report"].endswith("pau-report.json")
    assert settings["max_cost_usd"] == 10
