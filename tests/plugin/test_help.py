"""``pytest --help`` is part of the interface: an option that disappears fails here."""

from __future__ import annotations

import pytest

#: Every option, in the order ``--help`` lists them. Changing this list is changing the
#: product's interface (DESIGN.md): do it on purpose, with docs/options.md
#: (`python -m tests.docs.options_table` rewrites its tables).
OPTIONS = [
    "model", "api-base", "judge-model", "judge-api-base", "coder-model", "coder-api-base",
    "coder", "judge-samples", "judge-logprobs", "judge-check", "gold-control", "reasoning",
    "reasoning-budget",
    "reasoning-effort", "max-cost-usd", "service-tier", "dataset", "split", "dataset-outputs",
    "limit", "shard", "mode", "protocol", "max-iterations", "seed", "sandbox", "cache-dir",
    "no-cache", "concurrency", "max-connections", "max-rpm", "max-tpm", "judge-threshold",
    "match-threshold", "min-mean-judge", "min-pass-rate", "min-mean-match", "gate-on-ci",
    "baseline", "max-regression", "gate-confidence", "early-stop", "exit",
    "report", "html", "plots", "markdown",
]  # fmt: skip


def test_help_lists_every_option_in_order_with_its_ini_twin(pytester: pytest.Pytester) -> None:
    out = pytester.runpytest("--help").stdout.str()
    assert "PAU benchmark (pytest-pau)" in out
    # An option's own line (help texts may mention other options, --pau-protocol=paper).
    positions = [
        out.index(f"\n  --pau-{name}=")
        if f"\n  --pau-{name}=" in out
        else out.index(f"\n  --pau-{name} ")
        for name in OPTIONS
    ]
    assert positions == sorted(positions)
    for name in OPTIONS:
        assert f"pau_{name.replace('-', '_')} " in out, name
    listed = {
        line.split()[0].split("=")[0]
        for line in out.splitlines()
        if line.startswith("  --pau-")  # an option's own line, not a wrapped help line
    }
    assert listed == {f"--pau-{name}" for name in OPTIONS}


def test_the_options_page_has_every_option() -> None:
    # The page's tables are generated from the rows and checked against --help line by
    # line in tests/docs/test_options_page.py; this keeps the list above honest too.
    from tests.docs.pages import page

    text = page("options.md")
    for name in OPTIONS:
        assert f"`--pau-{name}" in text, name
