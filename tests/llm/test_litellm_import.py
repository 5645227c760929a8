"""litellm's import leaves no work for the garbage collector (issue 12: start-up).

Its ~380,000 lasting objects, left in the collector's oldest generation, made every full
collection of a run walk them (1-3 s each, 12 of them in a 96-item run, every episode
stalled meanwhile). Each check runs in a fresh interpreter: litellm is imported once per
process.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.slow
def test_the_import_runs_no_collection_and_freezes_what_it_made() -> None:
    got = _run(
        """
        import gc
        from pytest_pau.llm.litellm_setup import get_litellm
        full = []
        gc.callbacks.append(lambda phase, info: phase == "stop" and full.append(info["generation"]))
        get_litellm()
        during = full.count(2)
        import time
        t = time.process_time()
        gc.collect()
        took = time.process_time() - t
        print(gc.isenabled(), during, gc.get_freeze_count() > 300_000, took < 0.25)
        """
    )
    # One full collection: the one run on purpose before the import, while it is cheap.
    assert got == "True 1 True True"


@pytest.mark.slow
def test_a_collector_the_user_disabled_stays_disabled() -> None:
    got = _run(
        """
        import gc
        gc.disable()
        from pytest_pau.llm.litellm_setup import get_litellm
        get_litellm()
        print(gc.isenabled())
        """
    )
    assert got == "False"
