"""The summary's lines about the provider: the quota paced at and the waits, flex, llama.cpp.

Text only (the terminal block draws them with :func:`pytest_pau.report.render.render`):

    flex tier: 540 of 576 answers, $0.0123 saved against the default tier's price; 36 sent again at the default tier
    paced: 127.0.0.1:8000 openai/gpt-5-mini 500 RPM, 200,000 TPM (headers)
    waited before sending: 412 requests, 95.3 s in all: tokens 380 (88.0 s), requests 30 (7.1 s), 429 2 (0.2 s)
    embedded model: 1,580 of 7,080 prompt tokens evaluated (22%), the rest reused from earlier calls
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_pau.report.fmt import pct

if TYPE_CHECKING:
    from pytest_pau.models import Summary

#: How the reasons read, in the order they are listed.
REASONS = {
    "tokens": "tokens",
    "requests": "requests",
    "429": "429",
    "congestion": "congestion",
    "connections": "connections",
    "first answer": "first answer",
}


def provider_lines(summary: Summary) -> list[str]:
    """The lines, in order; none when nothing of the kind happened."""
    lines: list[str] = []
    flex = summary.flex
    if flex:
        answered = summary.requests
        calls = int(flex.get("calls", 0))
        fallbacks = int(flex.get("fallbacks", 0))
        again = (
            f"; {fallbacks:,} sent again at the default tier (no flex capacity, timeout)"
            if fallbacks
            else ""
        )
        lines.append(
            f"flex tier: {calls:,} of {answered:,} answers, ${flex.get('saved_usd', 0.0):.4f} "
            f"saved against the default tier's price{again}"
        )
    for key, quota in sorted(summary.quotas.items()):
        lines.append(f"paced: {key} {quota}")
    # Waiting for an endpoint's first answer (to learn whether it announces a quota) is
    # worth a line only where a quota was then paced at: otherwise it is the only wait of
    # every run against an unmetered server (it stays in the report's summary.waits).
    probing_only = set(summary.waits) <= {"first answer"} and not summary.quotas
    if summary.waits and not probing_only:
        order = sorted(
            summary.waits,
            key=lambda r: (
                -summary.wait_s.get(r, 0.0),
                list(REASONS).index(r) if r in REASONS else 99,
            ),
        )
        parts = ", ".join(
            f"{REASONS.get(r, r)} {summary.waits[r]:,} ({summary.wait_s.get(r, 0.0):.1f} s)"
            for r in order
        )
        total = sum(summary.waits.values())
        seconds = sum(summary.wait_s.values())
        lines.append(
            f"waited before sending: {total:,} request{'s' if total != 1 else ''}, "
            f"{seconds:.1f} s in all: {parts}"
        )
    local = summary.local_prompt
    if local.get("sent"):
        sent, evaluated = local["sent"], local.get("evaluated", 0)
        speed = ""
        if local.get("answer_tokens") and local.get("ms"):
            answered, seconds = local["answer_tokens"], local["ms"] / 1000
            speed = (
                f"; {answered:,} answer tokens in {seconds:,.1f} s "
                f"({answered / seconds:.1f} tok/s, prompt evaluation included)"
            )
        lines.append(
            f"embedded model: {evaluated:,} of {sent:,} prompt tokens evaluated "
            f"({pct(evaluated / sent)}), the rest reused from earlier calls{speed}"
        )
    return lines
