"""JSON integers longer than Python reads from text: kept as their digits.

CPython refuses to turn a decimal text of more than ``sys.get_int_max_str_digits()`` digits
(4,300 by default) into an ``int``, and ``json.loads`` then raises a plain ``ValueError``
(not a ``JSONDecodeError``). Such numbers are legitimate values in a dataset (a factorial's
outputs), and what a dataset keeps of a value is its ``repr`` text, which for an integer is
its digits as JSON writes them. So :func:`loads` reads such a number as a :class:`LongInt`,
whose ``repr`` is those digits: an output holding one is stored as the text ``repr`` would
have written, and the literal reader (:mod:`pytest_pau.sandbox.literals`) reads that text
back with the limit lifted, as it reads a method's own long results.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class LongInt:
    """An integer of more digits than Python converts from text, kept as its digits.

    ``repr`` gives the digits, so a list holding one has the ``repr`` text of the list the
    JSON meant (``[1, 2432902008176640000...]``).
    """

    __slots__ = ("digits",)

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return self.digits

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LongInt) and other.digits == self.digits

    def __hash__(self) -> int:
        return hash(self.digits)


def _int(text: str) -> int | LongInt:
    limit = sys.get_int_max_str_digits()
    if limit and len(text) - text.startswith("-") > limit:
        return LongInt(text)
    return int(text)


def loads(text: str | bytes) -> Any:
    """``json.loads``, reading an integer past the digit limit as a :class:`LongInt`.

    The usual text costs nothing more: only one that ``json.loads`` refuses for a long
    integer is read again, with every integer looked at.

    Raises:
        json.JSONDecodeError: not valid JSON (as ``json.loads``).
        RecursionError: nested too deeply to read (as ``json.loads``).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:
        # The decoder's only plain ValueError: int() refused a long run of digits.
        return json.loads(text, parse_int=_int)


__all__ = ["LongInt", "loads"]
