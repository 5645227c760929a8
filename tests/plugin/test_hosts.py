"""Across hosts with pytest-xdist's ``--tx``: the budget is the run's, never one per host.

Two ``popen//chdir=`` gateways stand in for two hosts: each worker runs in its own folder,
so a relative ``--pau-cache-dir`` gives each "host" its own model cache, as ssh hosts would
have. The budget ledger is the controller's (one file every local worker charges); workers
on a real other host cannot see it, so ``--pau-max-cost-usd`` with ``--tx ssh=...`` is
refused before anything starts.
"""

from __future__ import annotations

import json

import pytest

from pytest_pau.report.json_report import read_report
from pytest_pau.testing import ScriptedLLM

from .test_concurrency import RULES, args, write_dataset


@pytest.mark.slow
def test_two_hosts_with_their_own_caches_share_one_budget_and_the_report_is_complete(
    pau_pytester: pytest.Pytester,
) -> None:
    path = pau_pytester.path
    dataset = write_dataset(path, 12)
    for host in ("host-a", "host-b"):
        (path / host).mkdir()
    # A model litellm prices, so every answer costs money.
    with ScriptedLLM(RULES, model="openai/gpt-4o-mini") as llm:
        one = pau_pytester.runpytest(
            *args(llm, f"--pau-dataset={dataset}", "--pau-limit=1", "--pau-report=one.json")
        )
        one.assert_outcomes(failed=1)
        item_cost = read_report(path / "one.json").instances[0].cost_usd
        assert item_cost > 0
        # Room for a few items beside each call's reserved worst case (the coder's cap:
        # about three items' real cost here), so both hosts run some and the rest are not run.
        cap = 8 * item_cost
        result = pau_pytester.runpytest_subprocess(
            *args(llm, f"--pau-dataset={dataset}"),
            "-d",
            "--tx",
            "popen//chdir=host-a",
            "--tx",
            "popen//chdir=host-b",
            "--pau-cache-dir=cache",  # relative: each host's own folder
            "--pau-concurrency=1",
            f"--pau-max-cost-usd={cap}",
            f"--pau-report={path / 'r.json'}",
        )
    assert result.ret in (0, 1), result.stdout.str()[-3000:]
    for host in ("host-a", "host-b"):  # two caches: each host wrote answers to its own
        assert (path / host / "cache" / "llm-cache.sqlite3").is_file()
    report = read_report(path / "r.json")
    counts = report.summary.counts
    # Complete: every selected item has a result (scored, or skipped once the money ran out).
    assert counts.selected == 12
    assert counts.items == 12
    assert [i.id for i in report.instances] == [f"many/add{k:02d}" for k in range(12)]
    skipped = [i for i in report.instances if i.skipped]
    assert skipped, "the budget must stop the run before all 12 items"
    assert all("--pau-max-cost-usd" in (i.skipped or "") for i in skipped)
    # One ledger for both hosts: the spend stays within the cap, plus at most the call in
    # flight on each of the two workers when it was reached (one host's ledger each would
    # let them spend the cap twice).
    assert report.summary.cost_usd <= cap + 2 * item_cost
    ledgers = list((path / "cache" / "budget").glob("run-*.usd"))
    assert len(ledgers) == 1, ledgers  # in the controller's cache folder, not a host's
    spent = json.loads(ledgers[0].read_text())["spent"]
    assert spent == pytest.approx(report.summary.cost_usd, rel=1e-6)


def test_a_budget_with_workers_on_another_host_is_refused_before_anything_starts(
    run_pau,
) -> None:
    result = run_pau(
        "-d", "--tx", "ssh=nobody@example.invalid//python=python3", "--pau-max-cost-usd=5"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--pau-max-cost-usd=5 cannot be kept across hosts: --tx "
            "ssh=nobody@example.invalid//python=python3 starts workers on another machine*"
            "--pau-shard=K/N*pau merge*"
        ]
    )


def test_remote_gateways_are_told_from_local_ones(pytester: pytest.Pytester) -> None:
    from pytest_pau.plugin.xdist import remote_gateways

    config = pytester.parseconfig(
        "-d", "--tx", "2*popen//chdir=a", "--tx", "popen", "--tx", "3*ssh=h//python=python3",
        "--tx", "socket=10.0.0.1:8888",
    )  # fmt: skip
    assert remote_gateways(config) == ["3*ssh=h//python=python3", "socket=10.0.0.1:8888"]
    assert remote_gateways(pytester.parseconfig("-n", "2")) == []
    assert remote_gateways(pytester.parseconfig()) == []
