"""A request that fails for good names what failed, where litellm's status hides it: litellm
reports a 200 with an unreadable body, a connection reset and a connection closed without an
answer all as HTTP 500 ``InternalServerError``. Against ScriptedLLM's faults."""

from __future__ import annotations

import pytest

from pytest_pau.errors import LLMUnavailableError
from pytest_pau.llm import LLMClient, RetryPolicy
from pytest_pau.testing import ScriptedLLM


def failure(kind: str) -> str:
    with ScriptedLLM(default="ok") as llm:
        llm.fail(kind, times=2)
        c = LLMClient(
            llm.model,
            api_base=llm.api_base,
            api_key=llm.api_key,
            retry=RetryPolicy(max_attempts=2, base_s=0.01),
        )
        with pytest.raises(LLMUnavailableError) as failed:
            c.complete([{"role": "user", "content": "q"}], max_tokens=4)
        assert llm.requests == 2  # retried, as any transient failure
    return str(failed.value)


@pytest.mark.parametrize(
    ("kind", "cause"),
    [
        (
            "malformed",
            "unreadable answer body (HTTP 200, not JSON: Expecting value at character 51)",
        ),
        ("reset", "connection reset by the server"),
        (
            "drop",
            "the server closed the connection without a whole answer (Server disconnected "
            "without sending a response.)",
        ),
    ],
)
def test_the_final_error_names_the_true_cause(kind: str, cause: str) -> None:
    message = failure(kind)
    # Was: "last error: HTTP 500 InternalServerError: ..." for all three.
    assert (
        f" s; last error: {cause} (litellm reports it as HTTP 500 InternalServerError). The "
        "server or the network between failed: retry later, lower -n, or raise "
        "PAU_RETRY_ATTEMPTS / PAU_RETRY_MAX_TOTAL_S."
    ) in message
    assert "last error: HTTP 500" not in message


def test_a_real_500_is_still_called_one() -> None:
    assert "last error: HTTP 500 InternalServerError: " in failure("500")
