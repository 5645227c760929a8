"""Sandboxes used from many threads at once give exactly the results they give one by one.

The lead runs episodes concurrently in threads of one process, each with its own sandbox:
nothing a call returns may depend on what other threads' sandboxes do, nor on earlier calls.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.sandbox import Sandbox
from tests.sandbox.conftest import method

Make = Callable[..., Sandbox]

CLOCK_READER = method(
    """
import time
a = time.monotonic()
b = time.perf_counter()
c = time.monotonic_ns()
d = time.perf_counter_ns()
for _ in range(n):
    time.monotonic()
e = time.monotonic_ns()
return (a, b - a, c, d - c, e - d)
""",
    params="n",
)


def _run_concurrently(jobs: list[Callable[[], list[str]]]) -> list[list[str]]:
    """Run every job in its own thread, all released at once; their results in order."""
    barrier = threading.Barrier(len(jobs))

    def run(job: Callable[[], list[str]]) -> list[str]:
        barrier.wait()
        return job()

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(run, jobs))


def test_the_fake_clock_restarts_with_every_call(make_sandbox: Make) -> None:
    box = make_sandbox(CLOCK_READER)
    first = box.call_literal("(3,)")
    assert first.ok, first
    # Another sandbox's calls in between change nothing: the clock is the call's own.
    other = make_sandbox(CLOCK_READER)
    for _ in range(3):
        assert other.call_literal("(50,)").ok
    assert box.call_literal("(3,)").value == first.value
    assert make_sandbox(CLOCK_READER).call_literal("(3,)").value == first.value


def test_the_fake_clock_reads_the_same_under_threads(make_sandbox: Make) -> None:
    inputs = ["(0,)", "(5,)", "(40,)"]
    serial = [make_sandbox(CLOCK_READER).call_literal(text).value for text in inputs]
    boxes = [make_sandbox(CLOCK_READER) for _ in range(8)]

    def job(box: Sandbox) -> Callable[[], list[str]]:
        return lambda: [str(box.call_literal(inputs[i % 3]).value) for i in range(30)]

    for got in _run_concurrently([job(box) for box in boxes]):
        assert got == [serial[i % 3] for i in range(30)]


def _builtin_methods(count: int) -> list[tuple[str, list[str]]]:
    picked = []
    for instance in load_dataset("builtin")[:count]:
        picked.append((instance.code, [ex.input for ex in instance.test_examples][:10]))
    return picked


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "threads", "calls"), [("wasm", 16, 50), ("process", 4, 12)])
def test_concurrent_sandboxes_give_exactly_the_serial_results(
    make_sandbox: Make, backend: str, threads: int, calls: int
) -> None:
    methods = _builtin_methods(4)
    plans = [methods[i % len(methods)] for i in range(threads)]

    def results(box: Sandbox, inputs: list[str]) -> list[str]:
        out = []
        for i in range(calls):
            got = box.call_literal(inputs[i % len(inputs)])
            out.append(f"{got.ok} {got.value} {got.error_type} {got.message}")
        return out

    serial = {
        code: results(make_sandbox(code, backend=backend), inputs) for code, inputs in methods
    }
    boxes = [(make_sandbox(code, backend=backend), code, inputs) for code, inputs in plans]
    jobs = [lambda box=box, inputs=inputs: results(box, inputs) for box, _, inputs in boxes]
    for (_, code, _), got in zip(boxes, _run_concurrently(jobs), strict=True):
        assert got == serial[code]
