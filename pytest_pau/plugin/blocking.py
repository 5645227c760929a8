"""Which failed reports block a gated run: a missed threshold (BelowThreshold) counts in its
gates instead.

* **The verdict** is the end of the run's (:func:`pytest_pau.run.end.settle`, without
  pytest): the exit status is its ``exit_status``, and the JSON report, the HTML report,
  the closing line and ``pau show`` read it.
* **Which failures count.** The plugin's item raises :class:`BelowThreshold` when a model
  misses a threshold; the report of that call carries ``pau_below_threshold`` (pytest
  serializes the attribute to the xdist controller). Every other failed report blocks.
* **A shard decides no gate** (``--pau-shard=K/N``): its verdict is ``not decided`` with
  rule ``shard``, and its exit status fails only for what fails any gated run (an errored
  item, another test's failure, a missing output); ``pau merge --gate`` decides the gates
  over all shards. ``pau merge`` settles the merged run with the same function.
* **Stopping every process** is :mod:`pytest_pau.plugin.stop`'s.
"""

from __future__ import annotations

import pytest


class BelowThreshold(pytest.fail.Exception):  # type: ignore[misc,name-defined]
    """A PAU item's model missed a threshold: data for the gates, not a run failure."""


# Shown as pytest shows its own outcome, so that the short summary reads
# "FAILED ... - Failed: toy/tricky: judge score 2 < 3" exactly as for any failed item.
BelowThreshold.__module__ = "builtins"
BelowThreshold.__qualname__ = BelowThreshold.__name__ = "Failed"


def blocks(report: pytest.TestReport | pytest.CollectReport) -> bool:
    """Whether a failed report fails a gated run (everything but a model below threshold)."""
    return bool(report.failed) and not getattr(report, "pau_below_threshold", False)
