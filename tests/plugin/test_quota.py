"""A run at a provider's quota, and at its flex tier, as users run them (pytester).

Every role is one scripted server (the items of ``test_concurrency.py``); this one enforces
a quota and says so in its headers, or serves the flex tier.
"""

from __future__ import annotations

import re

import pytest

from pytest_pau.prompting import MARKERS
from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

from .test_concurrency import RULES, args, write_dataset


def test_a_run_keeps_under_the_announced_quota_and_says_how_it_waited(
    pau_pytester: pytest.Pytester,
) -> None:
    write_dataset(pau_pytester.path, 4)
    # 300 RPM, enforced per second: 5 requests a second, 5 at once at most.
    with ScriptedLLM(RULES, delay_s=0.1, rpm=300, burst_s=1) as llm:
        result = pau_pytester.runpytest(
            *args(llm, "--pau-concurrency=4", "--pau-report=r.json", "--pau-no-cache")
        )
        refused = llm.refused
        requests = llm.requests
    result.assert_outcomes(failed=4)
    # Unpaced, 4 episodes at 0.1 s an answer offer ~40 requests a second against 5: most
    # would be refused. Paced, none should be; a few may be, when the machine is so loaded
    # that requests reach the server later than the pacer let them go by more than the
    # 0.2 s it keeps in hand (the bound itself is shown in tests/llm/test_pacing.py).
    assert refused <= max(1, requests // 20), f"{refused} of {requests} requests were refused"
    result.stdout.fnmatch_lines(
        [
            "paced: 127.0.0.1:* openai/scripted 300 RPM (headers)",
            "waited before sending: * requests, * s in all: requests *",
        ]
    )
    summary = read_report(pau_pytester.path / "r.json").summary
    assert summary.waits["requests"] >= 5
    assert summary.wait_s["requests"] > 1.0
    [(key, quota)] = summary.quotas.items()
    assert key.endswith("openai/scripted")
    assert quota == "300 RPM (headers)"


@pytest.mark.slow
def test_a_known_quota_is_split_between_workers(pau_pytester: pytest.Pytester) -> None:
    # (The pacing itself is shown in tests/llm/test_pacing.py; this is the plugin's wiring.)
    write_dataset(pau_pytester.path, 4)
    with ScriptedLLM(RULES, delay_s=0.05) as llm:  # announces nothing: --pau-max-rpm paces
        result = pau_pytester.runpytest_subprocess(
            *args(llm, "-n", "2", "--pau-max-rpm=240", "--pau-no-cache", "--pau-report=r.json")
        )
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(
        ["paced: * 240 RPM (--pau-max-rpm/tpm; each of 2 workers paces at 1/2)"]
    )
    quotas = read_report(pau_pytester.path / "r.json").summary.quotas
    assert list(quotas.values()) == ["240 RPM (--pau-max-rpm/tpm; each of 2 workers paces at 1/2)"]


def test_flex_serves_the_model_under_test_and_falls_back_when_it_cannot(
    pau_pytester: pytest.Pytester,
) -> None:
    write_dataset(pau_pytester.path, 2)
    with ScriptedLLM(RULES, model="openai/gpt-5-mini", flex_unavailable={2}) as llm:
        result = pau_pytester.runpytest(
            *args(llm, "--pau-service-tier=flex", "--pau-report=r.json", "--pau-no-cache")
        )
        tiers = [(e.service_tier, e.status) for e in llm.exchanges]
        asked = [str(b["messages"][-1]["content"]) for b in llm.log]
    result.assert_outcomes(failed=2)
    agent = re.compile("|".join(MARKERS[k] for k in ("reason", "act", "reflect")))
    roles = ["agent" if agent.search(text) else "scorer" for text in asked]
    assert {t for (t, _), r in zip(tiers, roles, strict=True) if r == "scorer"} == {None}
    agent_tiers = [t for t, r in zip(tiers, roles, strict=True) if r == "agent"]
    assert agent_tiers.count(("flex", 429)) == 1
    assert agent_tiers.count((None, 200)) == 1, "the refused request, at the default tier"
    flex = read_report(pau_pytester.path / "r.json").summary.flex
    assert flex["fallbacks"] == 1
    assert flex["calls"] == agent_tiers.count(("flex", 200))
    assert flex["saved_usd"] > 0
    result.stdout.fnmatch_lines(
        [
            "flex tier: * of * answers, $* saved against the default tier's price; "
            "1 sent again at the default tier (no flex capacity, timeout)"
        ]
    )


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (
            "--pau-service-tier=cheap",
            "*--pau-service-tier: expected one of default, flex, got 'cheap'*",
        ),
        ("--pau-max-rpm=0", "*--pau-max-rpm: expected a whole number >= 1, got '0'*"),
        ("--pau-max-tpm=lots", "*--pau-max-tpm: expected a whole number >= 1, got 'lots'*"),
    ],
)
def test_bad_quota_and_tier_values_are_refused_before_any_call(
    pau_pytester: pytest.Pytester, option: str, expected: str
) -> None:
    result = pau_pytester.runpytest("--pau-model=oracle", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([expected])
