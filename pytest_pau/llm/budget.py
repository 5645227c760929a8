"""The per-run spending cap behind ``--pau-max-cost-usd``: reservations, and items it can finish.

Two rules keep a budget what it says:

* **A call reserves its worst case before it is sent** (:meth:`Budget.reserve`): the
  prompt's price plus ``max_tokens`` at the output price (``LLMClient`` computes it from
  litellm's price map), and the reservation is released, and the real cost charged, when
  the answer comes (:meth:`Budget.settle`). A call that could take the run past the cap
  waits while calls in flight may still release their reservations, and is refused
  (:class:`~pytest_pau.errors.BudgetExceeded`) once nothing in flight could make room. So
  the spend passes the cap only by what calls cost beyond their reserved worst case (a
  prompt counted short): at most one call's worst case per process.
* **An item starts only when the budget left can finish it** (:meth:`Budget.admit`): until
  an item of the run has finished, one item runs at a time (its cost is not known yet);
  then an item starts while the budget left (cap - spent - reserved) covers the most any
  finished item cost, for it and for every item still running, plus the largest worst case
  a call has reserved (an item's last call must fit too). So a spent budget buys
  finished items, not 64 half episodes; an item the budget cannot cover is not started
  ("not run (budget spent)"), and one that could be covered once others finish waits.

Under pytest-xdist every worker holds a ``Budget`` on one ledger file (the plugin names it
after the run id): spend, reservations and running items are shared under a file lock,
so the cap is the whole run's. A worker that dies leaves its reservations behind; they
are dropped once its process is gone.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_pau.errors import BudgetExceeded

#: How often a waiting reservation or admission looks again (other processes' calls).
POLL_S = 0.02


@dataclass(frozen=True)
class Reservation:
    """A call's reserved worst case, released by :meth:`Budget.settle`."""

    usd: float


class Wait:
    """:meth:`Budget.admit`'s answer when an item could start once running ones finish."""

    def __repr__(self) -> str:
        return "WAIT"


WAIT = Wait()


class Budget:
    """Money a run may spend on model calls, shared by every client of the run.

    Thread-safe. With ``ledger`` (a file path) the state is shared between processes too.

    Args:
        max_cost_usd: The cap; ``None`` means unlimited (spend is still counted).
        ledger: Optional file that holds the run's spend, reservations and items across
            processes.
        name: What messages call the cap (default ``--pau-max-cost-usd``; a shard's share
            says whose share of which cap it is).
    """

    def __init__(
        self,
        max_cost_usd: float | None,
        *,
        ledger: str | os.PathLike[str] | None = None,
        name: str | None = None,
    ) -> None:
        if max_cost_usd is not None and max_cost_usd < 0:
            raise ValueError(
                f"--pau-max-cost-usd={max_cost_usd!r}: expected a non-negative amount in USD."
            )
        self.max_cost_usd = max_cost_usd
        self.name = name or "--pau-max-cost-usd"
        self.ledger = Path(ledger) if ledger is not None else None
        self._state: dict[str, Any] = _empty()
        self._lock = threading.Lock()
        self._me = str(os.getpid())

    # -- the shared state ----------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        if self.ledger is None:
            return self._state
        try:
            text = self.ledger.read_text()
        except OSError:
            return _empty()
        try:
            data = json.loads(text) if text.strip() else {}
        except ValueError:
            return _empty()
        if isinstance(data, (int, float)):  # a ledger of an older version: the spend only
            data = {"spent": float(data)}
        state = _empty()
        state.update(data if isinstance(data, dict) else {})
        for key in ("reserved", "running"):  # a dead process releases nothing: drop it
            state[key] = {p: v for p, v in state[key].items() if p == self._me or _alive(p)}
        return state

    def _update(self, change: Any) -> Any:
        """Run ``change(state) -> result`` under the locks, writing the state back."""
        with self._lock:
            if self.ledger is None:
                return change(self._state)
            from filelock import FileLock

            self.ledger.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(str(self.ledger) + ".lock", timeout=60):
                state = self._read()
                result = change(state)
                tmp = self.ledger.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(state))
                os.replace(tmp, self.ledger)
                return result

    def _snapshot(self) -> dict[str, Any]:
        with self._lock:
            copy: dict[str, Any] = json.loads(json.dumps(self._read()))
            return copy

    @property
    def spent(self) -> float:
        """USD spent so far by the run (all processes, when a ledger is set)."""
        return float(self._snapshot()["spent"])

    @property
    def reserved(self) -> float:
        """USD reserved by calls in flight (all processes)."""
        return float(sum(self._snapshot()["reserved"].values()))

    @property
    def exhausted(self) -> bool:
        return self.max_cost_usd is not None and self.spent >= self.max_cost_usd

    def _refusal(self, spent: float, what: str) -> BudgetExceeded:
        return BudgetExceeded(
            f"The run's budget {self._cap_text()} is spent "
            f"(${spent:.4f}){what}. Raise the budget, or re-run: answers already paid for "
            "come from the cache at no cost."
        )

    def check(self, model: str = "") -> None:
        """Raise :class:`BudgetExceeded` when the cap is reached."""
        if self.exhausted:
            what = f"; stopped before calling {model!r}" if model else "; stopped"
            raise self._refusal(self.spent, what)

    def _cap_text(self) -> str:
        if self.name == "--pau-max-cost-usd":
            return f"--pau-max-cost-usd={self.max_cost_usd:g}"
        return self.name

    def charge(self, cost_usd: float) -> None:
        """Add the cost of a call made without a reservation."""
        if cost_usd > 0:
            self._update(lambda s: s.__setitem__("spent", s["spent"] + cost_usd))

    # -- calls -------------------------------------------------------------------------

    def reserve(
        self, worst_usd: float, model: str = "", cancel: threading.Event | None = None
    ) -> Reservation:
        """Reserve a call's worst case before sending it (see the module docstring).

        Raises:
            BudgetExceeded: The spend plus this worst case is past the cap, and no call in
                flight could release enough.
        """
        worst = max(0.0, float(worst_usd))
        cap = self.max_cost_usd
        if cap is None:
            return Reservation(0.0)

        def take(state: dict[str, Any]) -> str:
            spent, held = state["spent"], sum(state["reserved"].values())
            if spent >= cap or spent + worst > cap + 1e-12:
                return "refused"
            if spent + held + worst > cap + 1e-12:
                return "wait"
            state["reserved"][self._me] = state["reserved"].get(self._me, 0.0) + worst
            state["worst"] = max(state["worst"], worst)
            return "taken"

        while True:
            answer = self._update(take)
            if answer == "taken":
                return Reservation(worst)
            if answer == "refused":
                what = f"; stopped before calling {model!r}" if model else "; stopped"
                if worst > 0:
                    what += f" (its worst case ${worst:.4f} does not fit)"
                raise self._refusal(self.spent, what)
            if cancel is not None and cancel.wait(POLL_S):
                from pytest_pau.llm.limits import Cancelled

                raise Cancelled(f"the run was cancelled while {model!r} waited for the budget")
            if cancel is None:
                time.sleep(POLL_S)

    def settle(self, reservation: Reservation, cost_usd: float) -> None:
        """Release ``reservation`` and charge what the call really cost."""

        def done(state: dict[str, Any]) -> None:
            mine = state["reserved"].get(self._me, 0.0) - reservation.usd
            if mine > 1e-15:
                state["reserved"][self._me] = mine
            else:
                state["reserved"].pop(self._me, None)
            state["spent"] += max(0.0, float(cost_usd))

        self._update(done)

    # -- items -------------------------------------------------------------------------

    def admit(self) -> str | Wait | None:
        """May an item start now? None: yes (counted as running); :data:`WAIT`: once
        running items finish; a reason: never (the budget left cannot pay for one)."""
        cap = self.max_cost_usd
        if cap is None:
            return None

        def ask(state: dict[str, Any]) -> str | Wait | None:
            left = cap - state["spent"] - sum(state["reserved"].values())
            running = sum(state["running"].values())
            most = state["items"]["most"]
            if most is None:  # no item finished: what one costs is not known yet
                if running:
                    return WAIT
            # Room for the item itself, every running one, and its last call's worst case
            # (which must fit when it is reserved, whatever the item ends up costing).
            elif left < (running + 1) * most + state["worst"] - 1e-12:
                if running:
                    return WAIT
                return (
                    f"budget {self._cap_text()}: ${max(left, 0.0):.4f} left cannot "
                    f"pay for another item (the most an item of this run cost: ${most:.4f}); "
                    "not started"
                )
            state["running"][self._me] = state["running"].get(self._me, 0) + 1
            return None

        answer: str | Wait | None = self._update(ask)
        return answer

    def finished(self, cost_usd: float) -> None:
        """An admitted item ended (with a result or not): it no longer runs, and its cost
        teaches what an item costs."""
        if self.max_cost_usd is None:
            return

        def done(state: dict[str, Any]) -> None:
            mine = state["running"].get(self._me, 0) - 1
            if mine > 0:
                state["running"][self._me] = mine
            else:
                state["running"].pop(self._me, None)
            items = state["items"]
            items["finished"] += 1
            items["most"] = max(items["most"] or 0.0, max(0.0, float(cost_usd)))

        self._update(done)


def _empty() -> dict[str, Any]:
    return {
        "spent": 0.0,
        "worst": 0.0,
        "reserved": {},
        "running": {},
        "items": {"finished": 0, "most": None},
    }


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ProcessLookupError, ValueError):
        return False
    except PermissionError:
        return True
    return True
