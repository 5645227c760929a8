"""The per-run spending cap behind ``--pau-max-cost-usd``."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from pytest_pau.errors import BudgetExceeded


class Budget:
    """Money a run may spend on model calls, shared by every client of the run.

    Thread-safe. With ``ledger`` (a file path) the spend is shared between processes too:
    pytest-xdist workers each hold a ``Budget`` on the same ledger file (the plugin names it
    after the run id), and every charge is added under a file lock.

    Args:
        max_cost_usd: The cap; ``None`` means unlimited (spend is still counted).
        ledger: Optional file that holds the run's total spend across processes.
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
        self._spent = 0.0
        self._lock = threading.Lock()

    def _read_ledger(self) -> float:
        assert self.ledger is not None
        try:
            return float(self.ledger.read_text() or 0.0)
        except (OSError, ValueError):
            return 0.0

    @property
    def spent(self) -> float:
        """USD spent so far by the run (all processes, when a ledger is set)."""
        if self.ledger is not None:
            return self._read_ledger()
        with self._lock:
            return self._spent

    @property
    def exhausted(self) -> bool:
        return self.max_cost_usd is not None and self.spent >= self.max_cost_usd

    def check(self, model: str = "") -> None:
        """Raise :class:`BudgetExceeded` when the cap is reached; call before starting a call."""
        if self.exhausted:
            what = f" before calling {model!r}" if model else ""
            raise BudgetExceeded(
                f"The run's budget {self._cap_text()} is spent "
                f"(${self.spent:.4f}); stopped{what}. Raise the budget, or re-run: answers "
                "already paid for come from the cache at no cost."
            )

    def _cap_text(self) -> str:
        if self.name == "--pau-max-cost-usd":
            return f"--pau-max-cost-usd={self.max_cost_usd:g}"
        return self.name

    def charge(self, cost_usd: float) -> None:
        """Add the cost of a finished call."""
        if cost_usd <= 0:
            return
        if self.ledger is None:
            with self._lock:
                self._spent += cost_usd
            return
        from filelock import FileLock

        self.ledger.parent.mkdir(parents=True, exist_ok=True)
        with self._lock, FileLock(str(self.ledger) + ".lock", timeout=60):
            total = self._read_ledger() + cost_usd
            tmp = self.ledger.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(repr(total))
            os.replace(tmp, self.ledger)
