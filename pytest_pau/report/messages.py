"""What a person reads when an item fails or errors: short, complete, actionable."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytest_pau.models import InstanceResult, PassRule
from pytest_pau.report.safe_text import safe_text

WIDTH = 100


def _block(label: str, text: str | None, limit: int = 600) -> str:
    # Escaped first: str.split() would turn a carriage return into a space, unseen.
    text = safe_text((text or "").strip()) or "(empty)"
    if len(text) > limit:
        text = text[: limit - 3].rstrip() + "..."
    lines = textwrap.wrap(" ".join(text.split()), WIDTH - 13) or [""]
    pad = " " * 13
    return f"{label:<12} " + ("\n" + pad).join(lines)


def queries_text(n: int) -> str:
    """``1 query``, ``2 queries``: the agent's calls of the hidden method."""
    return f"{n} {'query' if n == 1 else 'queries'}"


def _score(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


def failure_message(
    result: InstanceResult,
    *,
    judge_threshold: float,
    match_threshold: float,
    report_path: Path | None = None,
) -> str:
    """The assertion message of a failed item.

    It names which threshold was missed and by how much, shows gold and predicted
    descriptions, the judge's rating and reasons, the first mismatching input of code
    match (expected vs got), how the agent ended, and the failure mode. Control characters
    of the model's text are shown as escapes (:func:`pytest_pau.report.safe_text.safe_text`).
    """
    rule = PassRule(judge_threshold, match_threshold)
    reasons = rule.shortfalls(result.judge_score, result.code_match)
    head = f"{result.id}: " + (" and ".join(reasons) if reasons else "did not pass")
    mode = f"failure mode: {result.failure_mode}"
    detail = getattr(result, "failure_detail", "") or ""
    if detail:
        mode += f" ({detail})"
    queries = queries_text(result.n_queries)
    # One rule with the summary's count: `overconfident` is concluding YES and failing for the
    # model's own reasons (a coder limitation clears it, scoring/attribution.py).
    ended = (
        f"concluded YES after {queries}{' (overconfident)' if result.overconfident else ''}"
        if result.concluded
        else f"did not conclude; {queries}"
    )
    lines = [
        head,
        mode,
        f"agent: {ended}",
        "",
        _block("gold:", result.gold),
        _block("predicted:", result.prediction),
    ]
    ratings = ""
    if len(result.judge_ratings) > 1:
        ratings = f" from ratings {result.judge_ratings}"
    lines.append(
        _block(
            f"judge {_score(result.judge_score, '.2g')}/5:",
            (result.judge_explanation or "(no explanation)") + ratings,
        )
    )
    match_line = f"code match {_score(result.code_match, '.2f')}"
    if result.mismatches:
        first = result.mismatches[0]
        match_line += (
            f"; first mismatch: test_func{first.input} expected {first.expected}, got {first.got}"
        )
        if len(result.mismatches) > 1:
            match_line += f" (+{len(result.mismatches) - 1} more)"
    lines.append(_block("code:", match_line))
    if result.judge_manipulation:
        # Side by side: the code ran on held-back inputs, where a note to the grader is moot.
        lines.append(
            _block(
                "flagged:",
                f"addressed the grader: judge {_score(result.judge_raw_score, '.3g')} as "
                f"written, {_score(result.judge_defended_score, '.3g')} defended "
                f"(scored {_score(result.judge_score, '.3g')}); code match "
                f"{_score(result.code_match, '.2f')} (harder to game)",
            )
        )
    if report_path is not None:
        lines.append(f"{'trajectory:':<12} pau show {report_path} {result.id}")
    return safe_text("\n".join(lines))


def error_message(result: InstanceResult) -> str:
    """The message of an item the infrastructure could not run (reported as E, not F)."""
    return safe_text(
        f"{result.id}: infrastructure error, not the model's fault (not counted as a failure)\n"
        f"{result.error}\n"
        "Fix the cause and re-run; the model cache makes finished items free: "
        "`pytest --lf` re-runs only the errored ones."
    )
