"""The summary's provider lines: quota, waits, flex, the embedded model's evaluated tokens."""

from __future__ import annotations

from pytest_pau.models import Summary
from pytest_pau.report.render_provider import provider_lines


def test_nothing_to_say_says_nothing() -> None:
    assert provider_lines(Summary()) == []


def test_each_line() -> None:
    summary = Summary(
        model_calls=10,
        cache_hits=2,
        quotas={"api.openai.com openai/gpt-5-mini": "500 RPM, 200,000 TPM (headers)"},
        waits={"requests": 3, "tokens": 5, "429": 1},
        wait_s={"requests": 1.0, "tokens": 9.5, "429": 0.25},
        flex={"calls": 7.0, "fallbacks": 1.0, "saved_usd": 0.0123},
        local_prompt={"sent": 7080, "evaluated": 1580},
    )
    assert provider_lines(summary) == [
        "flex tier: 7 of 8 answers, $0.0123 saved against the default tier's price; "
        "1 sent again at the default tier (no flex capacity, timeout)",
        "paced: api.openai.com openai/gpt-5-mini 500 RPM, 200,000 TPM (headers)",
        "waited before sending: 9 requests, 10.8 s in all: tokens 5 (9.5 s), "
        "requests 3 (1.0 s), 429 1 (0.2 s)",
        "embedded model: 1,580 of 7,080 prompt tokens evaluated (22.3%), "
        "the rest reused from earlier calls",
    ]


def test_the_embedded_models_speed_when_it_answered() -> None:
    local = {"sent": 7080, "evaluated": 1580, "answer_tokens": 2094, "ms": 120_500}
    assert provider_lines(Summary(local_prompt=local)) == [
        "embedded model: 1,580 of 7,080 prompt tokens evaluated (22.3%), "
        "the rest reused from earlier calls; 2,094 answer tokens in 120.5 s "
        "(17.4 tok/s, prompt evaluation included)"
    ]


def test_waiting_for_a_first_answer_is_said_only_where_a_quota_was_paced_at() -> None:
    probing = {"waits": {"first answer": 9}, "wait_s": {"first answer": 2.2}}
    assert provider_lines(Summary(**probing)) == []  # an unmetered server: nothing to say
    paced = Summary(quotas={"127.0.0.1:8000 openai/m": "300 RPM (headers)"}, **probing)
    assert provider_lines(paced) == [
        "paced: 127.0.0.1:8000 openai/m 300 RPM (headers)",
        "waited before sending: 9 requests, 2.2 s in all: first answer 9 (2.2 s)",
    ]
    other = Summary(waits={"first answer": 9, "429": 1}, wait_s={"first answer": 2.2, "429": 1.0})
    assert provider_lines(other) == [
        "waited before sending: 10 requests, 3.2 s in all: first answer 9 (2.2 s), 429 1 (1.0 s)"
    ]
