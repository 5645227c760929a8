"""An xdist worker that died mid-item: the item is an infrastructure error everywhere.

pytest-xdist reports the item a dead worker was running as a *failed* test with the text
"worker 'gw1' crashed while running ...". A worker killed by a signal (``kill -9``, the
out-of-memory killer) or a crash in native code says nothing about the model, so the
plugin's ``pytest_handlecrashitem`` turns that report into an error (E): it gets the
``setup`` phase, pytest's mark of an error, and the run takes a PAU result with the crash as
its error like any other result (``PauRun.take``, from the hook). The summary and the JSON
report count it as an infrastructure error, the run is marked ``interrupted`` (re-run it:
the item did not finish) and a note names the item and the worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_pau.models import FailureMode, InstanceResult
from pytest_pau.report.messages import error_message

if TYPE_CHECKING:
    import pytest

    from pytest_pau.plugin.state import PauRun


def worker_id(report: pytest.TestReport) -> str:
    """The xdist id (``gw1``) of the worker a crash report is about."""
    node: Any = getattr(report, "node", None)
    gateway = getattr(node, "gateway", None)
    return str(getattr(gateway, "id", None) or getattr(node, "workerid", None) or "?")


def crash_error(nodeid: str, worker: str) -> str:
    """What the item's error says."""
    return (
        f"WorkerCrash: pytest-xdist worker {worker!r} died while running {nodeid!r} (killed by "
        "a signal such as kill -9 or the out-of-memory killer, or a crash in native code); "
        "the item did not finish. Re-run it (`pytest --lf`); finished model calls come from "
        "the cache"
    )


def handle_crash(state: PauRun, nodeid: str, report: pytest.TestReport) -> InstanceResult | None:
    """Make xdist's report of a crashed PAU item an error; its PAU result, for the run to take.

    Leaves the report alone (None) when the item is no PAU item or when another plugin
    already rescheduled it (its outcome is then no longer ``failed``).
    """
    if report.outcome != "failed":
        return None
    instance = state.instance_of_nodeid(nodeid)
    if instance is None:
        return None
    worker = worker_id(report)
    result = InstanceResult(
        id=instance.id,
        source=instance.source,
        arity=instance.arity,
        tags=list(instance.tags),
        gold=instance.description,
        failure_mode=FailureMode.INFRASTRUCTURE,
        error=crash_error(nodeid, worker),
    )
    report.when = "setup"  # pytest shows a failed setup as E: an error, not a failed test
    report.longrepr = error_message(result)
    state.intake.crashes.append((instance.id, worker))
    return result


def crash_notes(state: PauRun) -> list[str]:
    """The summary's note about each crashed worker."""
    return [
        f"xdist worker {worker} died while running {item}: an infrastructure error, not the "
        "model's; the run counts as interrupted (run.interrupted in the report); re-run it"
        for item, worker in state.intake.crashes
    ]
