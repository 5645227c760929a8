"""Reading rate-limit headers: Go durations, timestamps, litellm's prefixes, refill rates."""

from __future__ import annotations

import pytest

from pytest_pau.llm.quota_headers import (
    Bucket,
    go_duration,
    parse_duration,
    read_quota,
)
from pytest_pau.llm.signals import classify


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1s", 1.0),
        ("6m0s", 360.0),
        ("12ms", 0.012),
        ("59.56s", 59.56),
        ("2m59.56s", 179.56),
        ("1h2m3s", 3723.0),
        ("250us", 0.00025),
        ("3", 3.0),  # Azure: plain seconds
        ("0.5", 0.5),
    ],
)
def test_go_durations_and_seconds(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["-1", "soon", "", "5 parsecs", "1x", None])
def test_what_is_no_duration_reads_as_none(text: str | None) -> None:
    assert parse_duration(text) is None


def test_rfc3339_and_http_dates_count_from_now() -> None:
    now = 1_800_000_000.0  # 2027-01-15T08:00:00Z
    assert parse_duration("2027-01-15T08:00:02.5Z", now=now) == pytest.approx(2.5)
    assert parse_duration("2027-01-15T08:00:02+00:00", now=now) == pytest.approx(2.0)
    assert parse_duration("Fri, 15 Jan 2027 08:00:04 GMT", now=now) == pytest.approx(4.0)
    assert parse_duration("2027-01-15T07:59:00Z", now=now) == 0.0  # past: no wait


@pytest.mark.parametrize("seconds", [0.012, 0.5, 1.0, 59.56, 61.0, 360.0])
def test_go_duration_round_trips(seconds: float) -> None:
    assert parse_duration(go_duration(seconds)) == pytest.approx(seconds, abs=0.001)
    assert go_duration(360.0) == "6m0s"
    assert go_duration(0.12) == "120ms"


def test_litellm_prefixed_headers_are_read_resets_included() -> None:
    # What litellm puts in _hidden_params["additional_headers"] (measured: the resets
    # exist only under the llm_provider- prefix).
    headers = {
        "x-ratelimit-limit-requests": "500",
        "x-ratelimit-remaining-requests": "499",
        "llm_provider-x-ratelimit-limit-requests": "500",
        "llm_provider-x-ratelimit-remaining-requests": "499",
        "llm_provider-x-ratelimit-reset-requests": "120ms",
        "llm_provider-x-ratelimit-limit-tokens": "200000",
        "llm_provider-x-ratelimit-remaining-tokens": "199990",
        "llm_provider-x-ratelimit-reset-tokens": "6m0s",
        "llm_provider-content-type": "application/json",
    }
    q = read_quota(headers)
    assert q.style == "openai"
    assert q.announces
    assert (q.requests.limit, q.requests.remaining, q.requests.reset_s) == (500, 499, 0.12)
    assert (q.tokens.limit, q.tokens.remaining, q.tokens.reset_s) == (200000, 199990, 360)


def test_anthropic_headers_and_placeholders() -> None:
    q = read_quota(
        {
            "Anthropic-RateLimit-Requests-Limit": "50",
            "anthropic-ratelimit-requests-remaining": "49",
            "anthropic-ratelimit-requests-reset": "2027-01-15T08:00:01.2Z",
            "anthropic-ratelimit-input-tokens-limit": "40000",
            "anthropic-ratelimit-input-tokens-remaining": "39000",
            "retry-after": "3",
        },
        now=1_800_000_000.0,
    )
    assert q.style == "anthropic"
    assert (q.requests.limit, q.requests.remaining) == (50, 49)
    assert q.requests.reset_s == pytest.approx(1.2)
    assert q.tokens.limit == 40000  # input tokens stand for the token limit
    assert q.retry_after_s == 3.0
    azure = read_quota({"x-ratelimit-remaining-requests": "-1", "x-ratelimit-limit-requests": "0"})
    assert not azure.announces
    assert read_quota({}).announces is False
    assert read_quota({"retry-after-ms": "1500", "retry-after": "2"}).retry_after_s == 1.5


@pytest.mark.parametrize(
    ("bucket", "per_second"),
    [
        (Bucket(500, 499, 0.12), 500 / 60),  # OpenAI: per minute
        (Bucket(14400, 14399, 6.0), 1 / 6),  # Groq's per-day requests: the reset tells
        (Bucket(500, 8, 0.1), 500 / 60),  # enforced per second: never above limit / 60
        (Bucket(500, 500, 0.0), 500 / 60),
        (Bucket(None, 10, 1.0), None),
    ],
)
def test_refill_rate(bucket: Bucket, per_second: float | None) -> None:
    assert bucket.refill_rate() == (None if per_second is None else pytest.approx(per_second))


class _Err(Exception):
    def __init__(self, status: int, body: dict[str, object], headers: dict[str, str]) -> None:
        super().__init__(str(body.get("message", "")))
        self.status_code = status
        self.body = body
        self.litellm_response_headers = headers


@pytest.mark.parametrize(
    ("status", "body", "headers", "signal"),
    [
        (429, {"type": "requests", "code": "rate_limit_exceeded"}, {}, "quota"),
        (429, {"message": "slow down"}, {"x-ratelimit-remaining-tokens": "0"}, "quota"),
        (429, {"message": "Too many requests"}, {"retry-after": "1"}, "throttle"),
        (429, {"code": "resource_unavailable", "message": "Resource unavailable"}, {}, "flex"),
        (429, {"code": "insufficient_quota", "type": "insufficient_quota"}, {}, "billing"),
        (503, {}, {"retry-after": "3"}, "congestion"),
        (529, {"type": "overloaded_error"}, {}, "congestion"),
        (502, {}, {}, "congestion"),
        (400, {"message": "bad"}, {}, "other"),
    ],
)
def test_what_each_error_signals(
    status: int, body: dict[str, object], headers: dict[str, str], signal: str
) -> None:
    assert classify(_Err(status, body, headers)) == signal


def test_a_timeout_is_congestion() -> None:
    class Timeout(Exception):
        pass

    assert classify(Timeout("read timed out")) == "congestion"
