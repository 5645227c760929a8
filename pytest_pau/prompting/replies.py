"""Reading what models reply: thinking blocks and rating lines.

Judges (1-5) and critics (0-9) end their answers with ``Rating: N``; one parser serves
both, with the scale as an argument.
"""

from __future__ import annotations

import re

_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
#: What reads as a rating line: "Rating: 4", "rating = 4", "Rating: 4." (a sentence ends),
#: "Rating: 5.0" (an integer written as a float); not "Rating: 3.5". Also the hazard that
#: fenced untrusted text is neutralised against (``scoring/integrity/``).
RATING_PATTERN = re.compile(r"rating\s*[:=]\s*([0-9]+)(?:\.0+)?(?![0-9]|\.[0-9])", re.IGNORECASE)
# Markdown emphasis around the label or the number ("**Rating:** 4", "Rating: **4**").
_EMPHASIS = re.compile(r"[*_`]")


def strip_think(reply: str) -> str:
    """Drop ``<think>...</think>`` blocks; an unclosed trailing ``<think>`` drops the rest.

    A reply that opens with reasoning and closes it without an opening tag (some chat
    templates put ``<think>`` in the prompt) keeps only what follows the last ``</think>``.
    """
    text = _drop_think_blocks(reply)
    lower = text.lower()
    if "</think>" in lower:
        text = text[lower.rindex("</think>") + len("</think>") :]
        lower = text.lower()
    if "<think>" in lower:
        text = text[: lower.index("<think>")]
    return text.strip()


def _drop_think_blocks(text: str) -> str:
    """``text`` without its ``<think>...</think>`` blocks (each opening tag up to the next
    closing one), in one pass: ``re.sub(r"<think>.*?</think>")`` searched to the end of
    the reply from every unclosed ``<think>``, quadratic in a reply of them."""
    kept: list[str] = []
    done = 0
    opened: int | None = None
    for tag in _THINK_TAG.finditer(text):
        if opened is None and not tag.group(1):
            opened = tag.start()
        elif opened is not None and tag.group(1):
            kept.append(text[done:opened])
            done, opened = tag.end(), None
    kept.append(text[done:])
    return "".join(kept)


def parse_rating(reply: str, *, low: int = 1, high: int = 5) -> int | None:
    """The verdict of a judge or critic reply: its last ``Rating: N`` with ``low <= N <= high``.

    Case-insensitive, ``:`` or ``=``, Markdown emphasis ignored; thinking blocks are
    dropped first. Ratings outside the scale are not verdicts.

    Args:
        reply: The model's raw reply.
        low: The smallest valid rating (1 for the judge, 0 for the critic).
        high: The largest valid rating (5 for the judge, 9 for the critic).

    Returns:
        The rating, or None when the reply holds no valid one.
    """
    text = _EMPHASIS.sub("", strip_think(reply))
    valid = [int(m) for m in RATING_PATTERN.findall(text) if low <= int(m) <= high]
    return valid[-1] if valid else None


def explanation_of(reply: str) -> str:
    """A judge's or critic's explanation: its reply without thinking and rating lines."""
    text = strip_think(reply)
    lines = [ln for ln in text.splitlines() if not RATING_PATTERN.search(_EMPHASIS.sub("", ln))]
    return "\n".join(lines).strip()
