"""Number formatting shared by the terminal summary's blocks ("n/a" for a missing value),
and whether the terminal can show its bars."""

from __future__ import annotations

import sys


def pct(x: float | None, digits: int = 1) -> str:
    """``0.25`` -> ``25.0%``."""
    return "n/a" if x is None else f"{100 * x:.{digits}f}%"


def num(x: float | None, fmt: str = ".2f") -> str:
    """``x`` formatted with ``fmt``."""
    return "n/a" if x is None else format(x, fmt)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 item``, ``2 items`` (``many`` for irregular plurals)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def unicode_ok() -> bool:
    """Whether standard output can show the summary's block characters (else ASCII bars)."""
    try:
        "█▏".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def duration(seconds: float) -> str:
    """``45s``, ``2m05s``, ``1h02m``: a wait as a person reads it."""
    total = max(0, round(seconds))
    if total < 60:
        return f"{total}s"
    if total < 3600:
        return f"{total // 60}m{total % 60:02d}s"
    return f"{total // 3600}h{total % 3600 // 60:02d}m"
