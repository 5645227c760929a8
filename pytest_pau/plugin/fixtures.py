"""The plugin's fixtures: ``pau_result``, ``pau_instance``, ``pau_settings``, ``pau_agent``,
``pau_judge``, ``pau_coder`` and ``pau_sandbox`` (loaded by ``plugin/__init__.py``'s
``pytest_plugins``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from pytest_pau.plugin.config import settings_from_config
from pytest_pau.plugin.evaluate import evaluate, evaluator_of
from pytest_pau.plugin.state import PauRun, pau_run_key, result_key
from pytest_pau.plugin.terminal import live_writer
from pytest_pau.settings import PauSettings

if TYPE_CHECKING:
    from pytest_pau.models import Instance, InstanceResult


def _state(request: pytest.FixtureRequest, fixture: str) -> PauRun:
    state = request.config.stash.get(pau_run_key, None)
    if state is None:
        pytest.skip(f"{fixture} needs --pau-model=MODEL (or pau_model in the ini file)")
    return state


def _progress(request: pytest.FixtureRequest, state: PauRun) -> Callable[[str], None] | None:
    """With -v (and no xdist), show after the item's name the time the run has left (once
    an item finished), then the phase it is in and each iteration of its exploration:
    ``[~4m10s left] explore 1/5 2 3 judge code classify 17 tok/s PASSED``."""
    config = request.config
    if config.get_verbosity() <= 0 or state.is_worker:
        return None
    write = live_writer(config)
    if write is None:
        return None
    first = [True]

    def show(phase: str) -> None:
        if first[0]:
            first[0] = False
            left = time_left(state)
            if left is not None:
                write(f"[~{left} left] ", cyan=True)
        write(f"{phase} ", cyan=True)

    return show


def time_left(state: PauRun) -> str | None:
    """An estimate of the time the run's items still take: the time since the first
    finished item started, per finished item, times the items left (episodes running
    side by side count as they finish). None before the first item finished."""
    from pytest_pau.report.fmt import duration

    done = list(state.episodes.results.values())
    starts = [r.ended_at - r.duration_s for r in done if r.ended_at is not None]
    left = state.selected - len(done)
    if not starts or left <= 0:
        return None
    return duration((time.time() - min(starts)) / len(done) * left)


def _speed(result: InstanceResult) -> str | None:
    """The embedded model's answer speed on this item (``17 tok/s``), when it answered."""
    tokens, ms = result.local_prompt.get("answer_tokens", 0), result.local_prompt.get("ms", 0)
    return f"{tokens / (ms / 1000):.0f} tok/s" if tokens and ms else None


@pytest.fixture(scope="session")
def pau_settings(request: pytest.FixtureRequest) -> PauSettings:
    """The resolved ``--pau-*`` settings (``model`` is None when the plugin is inactive)."""
    state = request.config.stash.get(pau_run_key, None)
    return state.settings if state is not None else settings_from_config(request.config)


@pytest.fixture
def pau_instance() -> Instance:
    """The current :class:`pytest_pau.Instance`; parametrized by the plugin per instance."""
    pytest.skip("pau_instance needs --pau-model=MODEL (or pau_model in the ini file)")


@pytest.fixture
def pau_result(request: pytest.FixtureRequest, pau_instance: Instance) -> InstanceResult:
    """The scored outcome of the current instance (evaluated once per process).

    An infrastructure failure errors the test (E); a spent budget skips it.
    """
    from pytest_pau.report.messages import error_message

    state = _state(request, "pau_result")
    show = _progress(request, state)
    result = evaluate(state, pau_instance, show)
    if show is not None and (speed := _speed(result)) is not None:
        show(speed)
    node = request.node
    node.stash[result_key] = result
    for name, value in (
        ("pau_judge_score", result.judge_score),
        ("pau_code_match", result.code_match),
        ("pau_passed", result.passed),
        ("pau_failure_mode", str(result.failure_mode)),  # execnet carries plain types only
        ("pau_n_queries", result.n_queries),
        ("pau_concluded", result.concluded),
        ("pau_cost_usd", round(result.cost_usd, 6)),
    ):
        node.user_properties.append((name, value))  # what record_property does: --junitxml
    if result.error is not None:
        pytest.fail(error_message(result), pytrace=False)
    if result.skipped is not None:
        from pytest_pau.report.safe_text import safe_text

        pytest.skip(safe_text(result.skipped))  # may quote a provider's error text
    return result


@pytest.fixture(scope="session")
def pau_agent(request: pytest.FixtureRequest) -> Any:
    """The agent under test (``run(instance, sandbox) -> Trajectory``)."""
    return evaluator_of(_state(request, "pau_agent")).agent


@pytest.fixture(scope="session")
def pau_judge(request: pytest.FixtureRequest) -> Any:
    """The run's :class:`pytest_pau.scoring.Judge`."""
    return evaluator_of(_state(request, "pau_judge")).judge


@pytest.fixture(scope="session")
def pau_coder(request: pytest.FixtureRequest) -> Any:
    """The run's :class:`pytest_pau.scoring.Coder`."""
    return evaluator_of(_state(request, "pau_coder")).coder


@pytest.fixture
def pau_sandbox(request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """A factory ``pau_sandbox(code, **kwargs) -> Sandbox``; every sandbox is closed after the test.

    The backend defaults to ``--pau-sandbox`` (``wasm``); works without ``--pau-model``.
    """
    from pytest_pau.sandbox import Sandbox

    state = request.config.stash.get(pau_run_key, None)
    backend = state.settings.sandbox if state is not None else "wasm"
    boxes: list[Any] = []

    def make(code: str, **kwargs: Any) -> Any:
        kwargs.setdefault("backend", backend)
        box = Sandbox(code, **kwargs)
        boxes.append(box)
        return box

    yield make
    for box in boxes:
        box.close()
