"""A cap on each text field the JSON report and the HTML page store.

One model answer of 5 MB made a 35 MB report: every later prompt of the episode repeats
it. The report and the page keep the first :data:`MAX_STORED_CHARS` characters of each
text field (an answer, a prompt, a description, a sandbox result...) and a marker with
the full length; the model cache keeps the full answers, so a re-run with the same cache
can print them again.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

MAX_STORED_CHARS = 64 * 1024
"""Characters of one text field that the JSON report and the HTML page keep."""

_MARKER = "\n... [truncated: {total:,} chars in total; the model cache keeps the full text]"
_MARKED = re.compile(r"\n\.\.\. \[truncated: [\d,]+ chars in total; [^\]]*\]\Z")

T = TypeVar("T")


def cap_text(text: str, limit: int = MAX_STORED_CHARS) -> str:
    """``text`` itself when it has at most ``limit`` characters, else its head and a marker.

    Capping twice changes nothing: a text that already ends with the marker is kept.
    """
    if len(text) <= limit:
        return text
    marked = _MARKED.search(text)
    if marked is not None and marked.start() <= limit:
        return text
    return text[:limit] + _MARKER.format(total=len(text))


def capped(value: T, limit: int = MAX_STORED_CHARS) -> T:
    """``value`` with every string in it (models, lists, dicts) capped by :func:`cap_text`.

    Returns the same objects where nothing is longer than ``limit`` (no copy), and shallow
    copies of the models that hold a capped string, so the run's own results keep the
    full text.
    """
    result: T = _cap(value, limit)
    return result


def _cap(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return cap_text(value, limit)
    if isinstance(value, BaseModel):
        updates = {}
        for name in type(value).model_fields:
            old = getattr(value, name)
            new = _cap(old, limit)
            if new is not old:
                updates[name] = new
        return value.model_copy(update=updates) if updates else value
    if isinstance(value, (list, tuple)):
        items = [_cap(v, limit) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, dict):
        pairs = {k: _cap(v, limit) for k, v in value.items()}
        if all(pairs[k] is v for k, v in value.items()):
            return value
        return pairs
    return value
