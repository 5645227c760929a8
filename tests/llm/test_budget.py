"""``--pau-max-cost-usd`` holds under concurrency: reservations, and items it can finish."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.errors import BudgetExceeded
from pytest_pau.llm import Budget, LLMClient
from pytest_pau.llm.budget import WAIT
from pytest_pau.testing import ScriptedLLM


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


@pytest.mark.slow
def test_many_callers_at_once_never_take_the_run_past_the_cap(
    scripted_llm: Callable[..., ScriptedLLM],
) -> None:
    # The issue: 256 direct callers made 254 calls past a cap, each checked before it
    # started and charged after; now each reserves its worst case first.
    llm = scripted_llm([(".*", "ok " * 40)], model="openai/gpt-4o-mini", delay_s=0.2)
    probe = LLMClient(llm.model, api_base=llm.api_base)
    worst = probe.worst_case(user("question 0"), {"max_tokens": 512})
    cap = 2 * worst  # room for 2 calls in flight at once, and for ~6 calls' real cost
    budget = Budget(cap)
    client = LLMClient(llm.model, api_base=llm.api_base, budget=budget)
    refused: list[BaseException] = []

    def call(i: int) -> None:
        try:
            client.complete(user(f"question {i}"))
        except BudgetExceeded as exc:
            refused.append(exc)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert budget.spent <= cap
    assert budget.reserved == 0.0
    made = 64 - len(refused)
    assert 2 <= made < 64, f"{made} calls made"
    assert llm.requests == made  # the refused ones were never sent


def test_the_ledger_shares_reservations_between_processes(tmp_path: Path) -> None:
    ledger = tmp_path / "run.usd"
    one, two = Budget(1.0, ledger=ledger), Budget(1.0, ledger=ledger)
    held = one.reserve(0.6)
    assert two.reserved == pytest.approx(0.6)
    got: list[object] = []
    waiting = threading.Thread(target=lambda: got.append(_try(two, 0.6)))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive(), "a reservation that does not fit beside another waits"
    one.settle(held, 0.5)  # the first call cost 0.5: 0.5 + 0.6 can never fit
    waiting.join(5)
    assert isinstance(got[0], BudgetExceeded)
    assert two.spent == pytest.approx(0.5)
    small = two.reserve(0.4)
    two.settle(small, 0.4)
    assert one.spent == pytest.approx(0.9)
    # A ledger written by an older version (the spend only) still reads.
    old = tmp_path / "old.usd"
    old.write_text("0.25")
    assert Budget(1.0, ledger=old).spent == pytest.approx(0.25)


def _try(budget: Budget, usd: float) -> object:
    try:
        return budget.reserve(usd)
    except BudgetExceeded as exc:
        return exc


def test_an_item_starts_only_when_the_budget_left_can_finish_it() -> None:
    budget = Budget(1.0)
    assert budget.admit() is None  # the first item: what an item costs is not known
    assert budget.admit() is WAIT  # so a second waits for it
    budget.finished(0.3)
    budget.charge(0.3)
    # 0.7 left; the most an item cost is 0.3: two fit beside each other, a third waits.
    assert budget.admit() is None
    assert budget.admit() is None
    assert budget.admit() is WAIT
    budget.finished(0.3)
    budget.charge(0.3)
    budget.finished(0.3)
    budget.charge(0.3)
    reason = budget.admit()  # 0.1 left, nothing running: never
    assert isinstance(reason, str)
    assert "--pau-max-cost-usd=1: $0.1000 left cannot pay for another item" in reason
    assert Budget(None).admit() is None
