"""Fixtures for the sandbox tests: real wasmtime, the real component (built once)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pytest_pau.sandbox import Sandbox


@pytest.fixture(scope="session")
def wasm_ready() -> None:
    """Build/load the component once per session (the first use may take a minute)."""
    from pytest_pau.sandbox.runtime import get_runtime

    get_runtime()


@pytest.fixture
def make_sandbox(wasm_ready: None) -> Iterator[Callable[..., Sandbox]]:
    """A factory of sandboxes that are all closed at the end of the test."""
    made: list[Sandbox] = []

    def make(
        code: str, entry: str = "test_func", backend: str = "wasm", **kwargs: object
    ) -> Sandbox:
        box = Sandbox(code, entry, backend, **kwargs)  # type: ignore[arg-type]
        made.append(box)
        return box

    yield make
    for box in made:
        box.close()


def method(body: str, params: str = "*args") -> str:
    """Source of a ``test_func`` whose body is ``body`` (indented for you)."""
    lines = "\n".join("    " + line for line in body.strip("\n").splitlines())
    return f"def test_func({params}):\n{lines}\n"
