"""Text a reader cannot see or read, addressed to the grader: Unicode tag characters, and
notes encoded as base64 or hex.

The rules read a folded view, in which invisible characters are dropped; these findings are
made on the original text instead (:func:`payload_hits`):

* a run of Unicode tag characters (U+E0000 block: U+E0020-U+E007E spell ASCII that no
  screen shows, but a model's tokenizer reads) is always flagged: a description has no
  use for them. The one legitimate use, a subdivision flag emoji (a black flag, tags, a
  cancel tag), is left alone. The run is removed alone (see ``text.find_blocks``);
* a base64 or hex run that decodes to text which is itself addressed to the grader
  (:func:`~pytest_pau.scoring.integrity.analysis.detect` on the decoded text) is flagged,
  and goes with its sentence. Encoded data that says nothing to a grader (an example of a
  base64 method's output) is not.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from pytest_pau.scoring.integrity.rules import STRONG, Rule

#: Tag characters (a run); the black flag that starts an emoji tag sequence.
TAG_RUN = re.compile("[\U000e0000-\U000e007f]+")
_BLACK_FLAG = "\U0001f3f4"
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])")

TAG_RULE = Rule(
    "tag_characters",
    "hidden_text",
    STRONG,
    TAG_RUN,
    "latin",
    "invisible Unicode tag characters (U+E0000 block): text no reader sees",
)
ENCODED_RULE = Rule(
    "encoded_note",
    "hidden_text",
    STRONG,
    _BASE64,
    "latin",
    "an encoded note to the grader (base64 or hex)",
)


def payload_hits(text: str, addressed: Callable[[str], bool]) -> list[tuple[Rule, int, int]]:
    """``(rule, start, end)`` of every tag run and every encoded note in ``text``.

    Args:
        text: The original text.
        addressed: Whether a decoded text is addressed to the grader (``detect``).
    """
    out: list[tuple[Rule, int, int]] = []
    for m in TAG_RUN.finditer(text):
        emoji_flag = (
            m.start() > 0 and text[m.start() - 1] == _BLACK_FLAG and m.group()[-1] == ("\U000e007f")
        )
        if not emoji_flag:
            out.append((TAG_RULE, m.start(), m.end()))
    if not (_BASE64.search(text) or _HEX.search(text)):
        return out
    for pattern, decode in ((_HEX, _from_hex), (_BASE64, _from_base64)):
        for m in pattern.finditer(text):
            if any(s <= m.start() < e for _, s, e in out):
                continue
            decoded = decode(m.group())
            if decoded and addressed(decoded):
                out.append((ENCODED_RULE, m.start(), m.end()))
    return out


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    shown = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if text and shown >= 0.9 * len(text) else None


def _from_base64(run: str) -> str | None:
    try:
        return _printable(base64.b64decode(run + "=" * (-len(run) % 4), validate=True))
    except (binascii.Error, ValueError):
        return None


def _from_hex(run: str) -> str | None:
    try:
        return _printable(bytes.fromhex(run))
    except ValueError:
        return None
