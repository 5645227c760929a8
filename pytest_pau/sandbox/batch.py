"""Running many methods on many inputs: what computes stored outputs of datasets.

The dataset stage asks for an :data:`~pytest_pau.dataset.execute.OutputRunner` (it comes
before the sandbox and must not import it); :func:`output_runner` is the one the package
injects (through :func:`pytest_pau.load_dataset`) and ``scripts/build_builtin.py`` uses.

Backends: ``wasm`` / ``process`` run each method in a :class:`~pytest_pau.sandbox.Sandbox`,
the same sandbox the benchmark uses, so stored outputs are what the model will see;
``subprocess`` is the dataset stage's plain child Python; ``auto`` takes ``wasm`` and falls
back to ``subprocess`` (with a warning in the log) when the sandbox cannot be built.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pytest_pau.dataset.execute import Jobs, OutputRunner, run_subprocess
from pytest_pau.errors import DatasetError, SandboxError
from pytest_pau.models import CallResult

log = logging.getLogger("pytest_pau.sandbox")

BACKENDS: tuple[str, ...] = ("auto", "wasm", "process", "subprocess")


def run_sandbox(jobs: Jobs, *, backend: str, entry: str = "test_func") -> list[list[CallResult]]:
    """Run each job in a fresh :class:`pytest_pau.sandbox.Sandbox` of ``backend``."""
    from pytest_pau.sandbox import Sandbox

    results: list[list[CallResult]] = []
    for code, inputs in jobs:
        with Sandbox(code, entry=entry, backend=backend) as box:
            results.append([box.call_literal(text) for text in inputs])
    return results


def run_inputs(
    jobs: Sequence[tuple[str, Sequence[str]]],
    *,
    backend: str = "auto",
    entry: str = "test_func",
    timeout_s: float = 2.0,
) -> tuple[list[list[CallResult]], str]:
    """Run methods on inputs; return the results and the backend that ran them.

    Args:
        jobs: ``(code, input texts)`` pairs.
        backend: One of :data:`BACKENDS` (see the module docstring).
        entry: The function to call.
        timeout_s: Wall-clock limit per call (``subprocess`` backend).

    Raises:
        DatasetError: An unknown backend, or the runner itself failed.
    """
    if backend not in BACKENDS:
        raise DatasetError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "auto":
        try:
            return run_sandbox(jobs, backend="wasm", entry=entry), "wasm"
        except SandboxError as exc:
            log.warning("wasm sandbox unavailable (%s); computing outputs in a subprocess", exc)
        return run_subprocess(jobs, entry=entry, timeout_s=timeout_s), "subprocess"
    if backend == "subprocess":
        return run_subprocess(jobs, entry=entry, timeout_s=timeout_s), backend
    return run_sandbox(jobs, backend=backend, entry=entry), backend


def output_runner(backend: str = "auto") -> OutputRunner:
    """An :data:`~pytest_pau.dataset.execute.OutputRunner` over :func:`run_inputs`."""

    def run(jobs: Jobs) -> list[list[CallResult]]:
        results, used = run_inputs(jobs, backend=backend)
        log.info("outputs computed with the %s backend", used)
        return results

    return run
