"""Fixtures shared by the agent, scoring and training tests, and the fast tier's rule.

``double``: a one-argument instance with a raising input; ``scripted``: a scripted model
server reached through the real litellm client.

The fast tier is ``pytest -m "not slow"``. A test is ``slow`` when it takes more than a few
seconds on the 2-core development machine (marked by hand, from ``--durations``), and
always, marked here, when it runs pytest itself, in process or in a subprocess: it takes
the ``pytester`` fixture (directly or through ``pau_pytester``, ``run_pau``,
``docs_pytester``). Such a run starts a pytest session with the plugin, a scripted server
and the sandbox: 2-17 s each, measured under load on 2 cores, and a subprocess adds a
fresh interpreter importing litellm. Marked from the fixtures a test takes, a new such
test cannot slip into the fast tier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpcore  # noqa: F401  (see below)
import httpx  # noqa: F401
import pytest

from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.models import Example, Instance
from pytest_pau.testing import ScriptedLLM

# pytester restores sys.modules after each in-process run. httpx imports httpcore lazily (its
# transport, and its table mapping httpcore's errors to its own on the first error): if a run
# imported httpcore first, the next test got a fresh httpcore whose errors httpx no longer
# recognised, and httpcore.ConnectError / RemoteProtocolError escaped raw (retries, timeouts and
# tests of dropped connections then failed, depending on test order). Loaded here, once per
# process, before any run: one httpcore for the whole session.
DOUBLE_CODE = """
def validate_input_args(arg0):
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")

def test_func(arg0):
    validate_input_args(arg0)
    return arg0 * 2
"""


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # pau_pytester, run_pau and docs_pytester take pytester too.
        if "pytester" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def double() -> Instance:
    """Doubles an int; raises TypeError on anything else."""
    return Instance(
        id="t/double",
        source="t",
        code=DOUBLE_CODE,
        header="def test_func(arg0):",
        description="Returns the integer argument doubled; raises TypeError for a non-int.",
        train_examples=[Example(input="(2,)", output="4"), Example(input="(5,)", output="10")],
        test_examples=[
            Example(input="(0,)", output="0"),
            Example(input="(-4,)", output="-8"),
            Example(input="('a',)", output="arg0 must be an int", raises="TypeError"),
        ],
        arity=1,
    )


@pytest.fixture
def scripted() -> Iterator[Callable[..., tuple[ScriptedLLM, LLMClient]]]:
    """``scripted(rules) -> (server, client)``: a started server and a real, uncached client."""
    servers: list[ScriptedLLM] = []

    def make(rules: object, **kwargs: object) -> tuple[ScriptedLLM, LLMClient]:
        llm = ScriptedLLM(rules, **kwargs).start()  # type: ignore[arg-type]
        servers.append(llm)
        client = LLMClient(
            llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            retry=RetryPolicy(max_attempts=2, base_s=0.01, max_total_wait_s=1.0),
        )
        return llm, client

    yield make
    for server in servers:
        server.close()
