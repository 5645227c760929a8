"""Warnings the run gives at its end, where pytest would turn them into errors under ``-W``."""

from __future__ import annotations

import sys
import warnings

__all__ = ["warn"]


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """A warning in pytest's summary; never an exception (``-W error``) at session end."""
    try:
        warnings.warn(message, category, stacklevel=2)
    except Warning:
        print(f"warning: {message}", file=sys.stderr)
