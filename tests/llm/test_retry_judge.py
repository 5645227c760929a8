"""Pure helpers: retry decisions, Retry-After parsing, the logprob-weighted rating, lazy import."""

from __future__ import annotations

import email.utils
import math
import subprocess
import sys
import time
from typing import Any

import pytest

from pytest_pau.llm import RetryPolicy, weighted_rating
from pytest_pau.llm.retry import is_config_error, is_retryable, retry_after_s
from pytest_pau.models import Completion


class FakeError(Exception):
    def __init__(self, status: int | None, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"status {status}")
        self.status_code = status
        self.litellm_response_headers = headers or {}


@pytest.mark.parametrize(
    ("status", "retry"),
    [(429, True), (500, True), (503, True), (408, True), (400, False), (401, False), (404, False)],
)
def test_retryable_statuses(status: int, retry: bool) -> None:
    assert is_retryable(FakeError(status)) is retry
    assert is_config_error(FakeError(status)) is (not retry)


def test_status_less_errors_retry_only_when_transient() -> None:
    assert is_retryable(ConnectionResetError())
    assert is_retryable(TimeoutError())
    assert not is_retryable(ValueError("bug"))


def test_retry_after_forms() -> None:
    assert retry_after_s(FakeError(429, {"Retry-After": "3"})) == 3.0
    assert retry_after_s(FakeError(429, {"retry-after-ms": "250"})) == 0.25
    date = email.utils.formatdate(time.time() + 10, usegmt=True)
    assert 8 <= (retry_after_s(FakeError(429, {"Retry-After": date})) or 0) <= 10
    assert retry_after_s(FakeError(429)) is None
    # A malformed header must not stop the retries: our own backoff applies instead.
    assert retry_after_s(FakeError(429, {"Retry-After": "soon"})) is None


def test_backoff_grows_with_jitter_and_caps() -> None:
    policy = RetryPolicy(max_attempts=5, base_s=1.0, max_wait_s=4.0, max_total_wait_s=100)
    waits = [[policy.backoff(n) for _ in range(50)] for n in (1, 2, 3, 5)]
    assert all(0.5 <= w <= 1.0 for w in waits[0])
    assert all(1.0 <= w <= 2.0 for w in waits[1])
    assert all(2.0 <= w <= 4.0 for w in waits[2])
    assert max(waits[3]) <= 4.0
    assert len({round(w, 6) for w in waits[1]}) > 10, "jittered"
    assert policy.wait_for(1, FakeError(429, {"Retry-After": "7"})) == 7.0


def lp(token: str, logprob: float, top: dict[str, float] | None = None) -> dict[str, Any]:
    return {"token": token, "logprob": logprob, "top": top or {token: logprob}}


def test_weighted_rating_uses_the_rating_token_distribution() -> None:
    answer = Completion(
        text="Close. Rating: 4",
        model="m",
        logprobs=[
            lp("Close.", 0.0),
            lp(" Rating", 0.0),
            lp(":", 0.0),
            lp(" ", 0.0),
            lp("4", math.log(0.6), {"4": math.log(0.6), "5": math.log(0.3), "2": math.log(0.1)}),
        ],
    )
    assert weighted_rating(answer) == pytest.approx(4 * 0.6 + 5 * 0.3 + 2 * 0.1)


def test_weighted_rating_merges_spaced_digits_and_takes_the_last_rating() -> None:
    answer = Completion(
        text="",
        model="m",
        logprobs=[
            lp("rating", 0.0),
            lp(":", 0.0),
            lp(" 1", 0.0),
            lp(" final Rating:", 0.0),
            lp(
                " 3",
                math.log(0.5),
                {" 3": math.log(0.5), "3": math.log(0.25), " 1": math.log(0.25)},
            ),
        ],
    )
    assert weighted_rating(answer) == pytest.approx((3 * 0.75 + 1 * 0.25) / 1.0)


def test_weighted_rating_is_none_without_logprobs_or_label() -> None:
    assert weighted_rating(Completion(text="Rating: 3", model="m")) is None
    assert weighted_rating(Completion(text="3", model="m", logprobs=[lp("3", 0.0)])) is None


@pytest.mark.slow
def test_import_is_lazy_and_litellm_offline() -> None:
    code = (
        "import sys, os\n"
        "import pytest_pau.llm, pytest_pau.testing\n"
        "assert 'litellm' not in sys.modules, 'litellm imported at import time'\n"
        "assert 'llama_cpp' not in sys.modules\n"
        "from pytest_pau.llm import get_litellm\n"
        "get_litellm()\n"
        "assert os.environ['LITELLM_LOCAL_MODEL_COST_MAP'] == 'True'\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
