"""The adversarial corpus: every hostile method ends in a contained, expected outcome."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.sandbox import Sandbox
from tests.sandbox.adversarial_corpus import CORPUS, MARKER, PROBE, PROBE_VALUE, Hostile
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30
    assert len({h.id for h in CORPUS}) == len(CORPUS)


@pytest.mark.slow
@pytest.mark.parametrize("hostile", CORPUS, ids=[h.id for h in CORPUS])
def test_hostile_method_is_contained(make_sandbox: Make, hostile: Hostile) -> None:
    env_before = dict(os.environ)
    box = make_sandbox(
        method(hostile.body, params=""), fuel=2 * 10**9, timeout_s=5.0, memory_mb=128
    )
    outcomes = []
    for _ in range(2):  # the second call proves the sandbox keeps serving after the first
        started = time.perf_counter()
        result = box.call_literal("()")
        # The 5 s backstop plus a busy machine's margin (a late wake, a fresh instance after
        # a timeout; 1 s left little room at load 10). A call that escaped runs for ever.
        assert time.perf_counter() - started < 5.0 + 3.0, f"{hostile.id} took too long"
        outcome = "ok" if result.ok else result.error_type
        assert outcome in hostile.allowed, f"{hostile.id}: {result!r}"
        if hostile.check is not None:
            assert hostile.check(result), f"{hostile.id}: {result!r}"
        outcomes.append(outcome)
    assert outcomes[0] == outcomes[1], f"{hostile.id} is not deterministic: {outcomes}"
    assert not Path(MARKER).exists(), f"{hostile.id} wrote {MARKER} on the host"
    assert dict(os.environ) == env_before


@pytest.mark.parametrize(
    "hostile",
    [
        h
        for h in CORPUS
        if h.id.startswith(("poison", "patch", "swap", "frame", "gc", "import-runner", "audit"))
    ],
    ids=lambda h: h.id,
)
def test_hostile_state_changes_do_not_reach_the_next_call(
    make_sandbox: Make, hostile: Hostile
) -> None:
    # The same sandbox runs the hostile body on True and a probe of shared state on False.
    attack = (
        "def attack():\n" + "\n".join("    " + line for line in hostile.body.splitlines()) + "\n"
    )
    code = (
        PROBE.replace("def test_func():", "def probe():")
        + attack
        + ("def test_func(hostile):\n    return attack() if hostile else probe()\n")
    )
    box = make_sandbox(code)
    assert box.call_literal("(False,)").value == PROBE_VALUE
    box.call_literal("(True,)")
    assert box.call_literal("(False,)").value == PROBE_VALUE, hostile.id
