"""Model text made safe for a terminal: control characters shown, never obeyed.

A model's answer (and a provider's error text) can hold escape sequences and control
bytes: ``ESC [2J`` clears the screen, ``ESC ]0;...`` sets the window title, a carriage
return or backspaces hide what was written before them, and bidirectional overrides
reorder what a reader sees. Everything pytest-pau prints to a terminal that a model or a
provider wrote goes through :func:`safe_text`: each such character is shown as its escape
(``\\x1b``, ``\\r``, ``\\u202e``), newlines and tabs are kept. The JSON report keeps the raw
text; only what is printed is escaped.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional formatting
# characters (Unicode's "Trojan Source" set).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\r": "\\r", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with every control character but newline and tab shown as its escape.

    >>> safe_text("ok\\x1b[2Jgone\\r\\n\\tnext")
    'ok\\\\x1b[2Jgone\\\\r\\n\\tnext'
    """
    return _UNSAFE.sub(_escape, text)
