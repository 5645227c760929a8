"""Text plumbing of :mod:`pytest_pau.scoring.integrity.analysis`: folded views and removable units.

Two jobs, both pure text and fast:

* :func:`build_view` folds a text into forms the detector's patterns can be written
  against once: NFKC (fullwidth and styled letters become ASCII), accents dropped from
  Latin and Greek letters, case folded, zero-width / bidi / other format characters
  deleted, Cyrillic and Greek look-alikes of Latin letters mapped to Latin (and, for the
  Russian patterns, the reverse), and letters spelled out one by one ("R a t i n g",
  "R.a.t.i.n.g") joined. Every folded character remembers the index of the original
  character it came from, so a match maps back to a span of the original text.
* :func:`segment` cuts the original text into the units a removal takes out: bracketed
  blocks (``[...]``, ``(...)``, ``{...}``, their fullwidth and CJK forms, HTML comments,
  code fences, ``<tag>...</tag>`` pairs) and, inside the text and each block, lines and
  sentences.
"""

# ruff: noqa: RUF001 (look-alike characters are this module's subject)

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pytest_pau.scoring.integrity.numbers import number_spans

# Format characters that are not category Cf but render as nothing or as a blank: the
# combining grapheme joiner, variation selectors, Hangul fillers, the Mongolian vowel
# separator, the braille blank.
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u180e\u2800\u3164\uffa0" + "".join(chr(c) for c in range(0xFE00, 0xFE10))
)
# Punctuation look-alikes that NFKC leaves alone.
_PUNCT = str.maketrans(
    {
        "\u2236": ":",  # ratio
        "\ua789": ":",  # modifier letter colon
        "\u02f8": ":",
        "\u0589": ":",  # Armenian full stop
        "\u05c3": ":",
        "\u2044": "/",  # fraction slash
        "\u2215": "/",  # division slash
        "\u29f8": "/",
        "\ua78a": "=",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u00ab": '"',
        "\u00bb": '"',
    }
)
# Lowercase (after casefold) Cyrillic, Greek, Armenian and Latin-extension letters that
# look like a Latin letter.
_TO_LATIN = str.maketrans(
    {
        **dict(zip("аеёіїјкмнорстухѕԁԛԝһӏьпгв", "aeeiijkmhopctyxsdqwhlbnrb", strict=True)),
        **dict(zip("αβγεηικμνορτυχως", "abyenikuvoptuxwc", strict=True)),
        **dict(zip("օսոհցզ", "ounhgq", strict=True)),
        **dict(zip("ıȷɡɑɩʀɴʏ", "ijgairny", strict=True)),
        **dict(zip("ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍᴏᴘǫꜱᴛᴜᴠᴡᴢ", "abcdeghijklmopqstuvwz", strict=True)),
    }
)
# The reverse, for the Russian patterns: Latin letters that look like a Cyrillic one.
_TO_CYRILLIC = str.maketrans(dict(zip("aeopcxykm", "аеорсхукм", strict=True)))
_ASCII_SLOW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\u2028\u2029\x85\x0b\x0c]")
# Four or more single letters with one to three separators between them and no letter
# around the run: "R a t i n g", "r.a.t.i.n.g", "s-c-o-r-e".
_SPACED = re.compile(r"(?<![^\W\d_])[^\W\d_](?:[ .\-_*·•|~+]{1,3}[^\W\d_]){3,}(?![^\W\d_])")
_SPACED_GAP = re.compile(r"[ .\-_*·•|~+]+")


def _is_latin_or_greek(ch: str) -> bool:
    return ch < "\u0250" or "\u0370" <= ch <= "\u03ff" or "\u1e00" <= ch <= "\u1fff"


@lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character folded: NFKC, casefold, Latin/Greek accents dropped, format chars gone."""
    if ch == "\n":
        return "\n"
    category = unicodedata.category(ch)
    if ch == "\t" or category in ("Zs", "Zl", "Zp"):
        return "\n" if category in ("Zl", "Zp") else " "
    if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Mn", "Me") or ch in _INVISIBLE:
        return ""
    if 0xE0000 <= ord(ch) <= 0xE0FFF:  # tag characters (Cf, but be explicit)
        return ""
    out = []
    for d in unicodedata.normalize("NFKC", ch).casefold():
        parts = unicodedata.normalize("NFD", d)
        if _is_latin_or_greek(parts[0]):
            d = "".join(p for p in parts if not unicodedata.combining(p))
        out.append(d)
    return "".join(out).translate(_PUNCT)


@dataclass(frozen=True)
class TextView:
    """A folded text with, for each folded character, the original index it came from."""

    original: str
    latin: str
    """Folded, Cyrillic/Greek look-alikes mapped to Latin: for the Latin-script and CJK
    patterns."""
    cyrillic: str
    """Folded, Latin look-alikes mapped to Cyrillic: for the Russian patterns."""
    origin: Sequence[int]
    """``origin[i]``: the original index of folded character ``i``."""
    ends: Sequence[int] | None = None
    """``ends[i]``: the original index after what folded character ``i`` stands for (a
    number word's digit stands for the whole word); None: ``origin[i] + 1``."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of folded characters ``start:end`` (``end > start``)."""
        stop = self.origin[end - 1] + 1 if self.ends is None else self.ends[end - 1]
        return self.origin[start], stop


def build_view(text: str) -> TextView:
    """Fold ``text`` (see the module docstring); about a microsecond per character."""
    chars: list[str]
    origin: list[int] | range
    if text.isascii() and not _ASCII_SLOW.search(text):
        # The common case: ASCII without control characters folds one to one.
        chars = list(text.lower().replace("\t", " "))
        origin = range(len(text))
    else:
        chars, origin = _fold_slow(text)
    base = "".join(chars)
    if _SPACED.search(base):
        # Inside a run, one separator joins letters ("R a t i n g"); a longer one stays a
        # word break ("N o t e  t o"), as one space.
        keep = [True] * len(base)
        for m in _SPACED.finditer(base):
            for gap in _SPACED_GAP.finditer(base, m.start(), m.end()):
                for j in range(gap.start() + (len(gap.group(0)) > 1), gap.end()):
                    keep[j] = False
                if len(gap.group(0)) > 1:
                    chars[gap.start()] = " "
        base = "".join(chars)
        base = "".join(c for c, k in zip(base, keep, strict=True) if k)
        origin = [o for o, k in zip(origin, keep, strict=True) if k]
    ends: list[int] | None = None
    numbers = _number_spans(base)
    if numbers:
        # Numbers as digits, whatever the spelling (scoring/integrity/numbers.py).
        new: list[str] = []
        new_origin: list[int] = []
        ends = []
        pos = 0
        for s, e, digits in [*numbers, (len(base), len(base), "")]:
            new.extend(base[pos:s])
            new_origin.extend(origin[pos:s])
            ends.extend(o + 1 for o in origin[pos:s])
            new.extend(digits)
            new_origin.extend([origin[s]] * len(digits) if digits else [])
            ends.extend([origin[e - 1] + 1] * len(digits) if digits else [])
            pos = e
        base, origin = "".join(new), new_origin
    return TextView(
        original=text,
        latin=base.translate(_TO_LATIN),
        cyrillic=base.translate(_TO_CYRILLIC),
        origin=origin,
        ends=ends,
    )


def _number_spans(base: str) -> list[tuple[int, int, str]]:
    """Number words of ``base`` (Latin ones also through look-alike letters), in order."""
    found = number_spans(base.translate(_TO_LATIN))
    if not base.isascii():  # Cyrillic and CJK numerals, read before look-alikes are mapped
        found += number_spans(base)
    out: list[tuple[int, int, str]] = []
    for s, e, digits in sorted(found, key=lambda f: (f[0], -f[1])):
        if not out or s >= out[-1][1]:
            out.append((s, e, digits))
    return out


def _fold_slow(text: str) -> tuple[list[str], list[int]]:
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch == "\r":
            if text[i + 1 : i + 2] == "\n":
                continue
            ch = "\n"
        for d in fold_char(ch):
            chars.append(d)
            origin.append(i)
    return chars, origin


# -- segmentation ------------------------------------------------------------------------

_PAIRS = {"(": ")", "[": "]", "{": "}", "（": "）", "［": "］", "｛": "｝", "【": "】"}
_PAIRS |= {"「": "」", "『": "』", "〔": "〕", "《": "》", "〈": "〉", "«": "»"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_OPAQUE = re.compile(
    r"<!--.*?(?:-->|\Z)"  # an HTML comment (unclosed: to the end)
    r"|```.*?(?:```|\Z)"  # a code fence
    r"|<\s*([A-Za-z_][\w:-]{0,40})(?:\s[^<>]{0,200})?>.{0,2000}?</\s*\1\s*>"  # a tag pair
    "|[\U000e0000-\U000e007f]+",  # Unicode tag characters: hidden text, removed alone
    re.DOTALL,
)
# A sentence ends at . ! ? (and their CJK forms) before blanks on the same line, or right
# after a CJK terminator; not after a common abbreviation or a single letter ("e.g.", "x.").
_SENTENCE_END = re.compile(
    r"(?<=[.!?…\uff0e\uff01\uff1f])([\"')\]»”\uff09\uff3d]*)([ \t\u3000]+)|(?<=[。！？｡])()([ \t\u3000]*)"
)
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|resp|incl|no|nr|dr|mr|ms)\.$")


@dataclass
class Block:
    """A bracketed stretch of the original text."""

    start: int
    end: int
    inner_start: int
    inner_end: int
    kind: str
    """``bracket`` (any pair of brackets), ``json`` (braces holding ``"key": value``
    pairs), or ``opaque`` (HTML comment, code fence, tag pair: removed whole)."""
    children: list[Block] = field(default_factory=list)


def find_blocks(text: str) -> list[Block]:
    """The top-level blocks of ``text``, each with its nested blocks as ``children``."""
    spans: list[Block] = []
    masked = list(text)
    for m in _OPAQUE.finditer(text):
        if m.group(0).startswith("<!--"):
            inner = (m.start() + 4, max(m.start() + 4, m.end() - 3))
        elif m.group(0).startswith("```"):
            inner = (m.start() + 3, max(m.start() + 3, m.end() - 3))
        elif "\U000e0000" <= m.group(0)[0] <= "\U000e007f":
            inner = (m.start(), m.end())
        else:
            inner = (text.index(">", m.start()) + 1, text.rindex("<", m.start(), m.end()))
        spans.append(Block(m.start(), m.end(), inner[0], inner[1], "opaque"))
        for j in range(m.start(), m.end()):
            masked[j] = " "
    stack: list[tuple[str, int]] = []
    for i, ch in enumerate(masked):
        if ch in _PAIRS and not _quoted_char(text, i):
            stack.append((ch, i))
        elif ch in _CLOSERS and not _quoted_char(text, i):
            # Pop to the matching opener; unmatched closers are text.
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == _CLOSERS[ch]:
                    start = stack[depth][1]
                    del stack[depth:]
                    kind = "json" if ch in "}｝" and _looks_json(text[start + 1 : i]) else "bracket"
                    spans.append(Block(start, i + 1, start + 1, i, kind))
                    break
    return _nest(spans)


def _quoted_char(text: str, i: int) -> bool:
    """Whether the bracket at ``i`` is quoted as a character (``'('``, ``"]"``)."""
    return 0 < i < len(text) - 1 and text[i - 1] == text[i + 1] and text[i - 1] in "'\"`"


def _looks_json(inner: str) -> bool:
    return re.match(r"\s*[\"']?[\w -]{1,40}[\"']?\s*:", inner) is not None


def _nest(spans: list[Block]) -> list[Block]:
    spans.sort(key=lambda b: (b.start, -b.end))
    roots: list[Block] = []
    open_: list[Block] = []
    for b in spans:
        while open_ and b.start >= open_[-1].end:
            open_.pop()
        if open_ and b.end > open_[-1].end:  # crossing brackets: keep the outer one only
            continue
        (open_[-1].children if open_ else roots).append(b)
        open_.append(b)
    return roots


@dataclass
class Unit:
    """A line or a sentence of one container (the whole text or a block's inside)."""

    start: int
    end: int
    paragraph: int
    """Units with the same paragraph number are not separated by a blank line."""


def units_of(text: str, start: int, end: int, blocks: list[Block], *, json: bool) -> list[Unit]:
    """The lines and sentences of ``text[start:end]``; ``blocks`` (its children) stay whole.

    A JSON-like block (``json=True``) is also cut at its top-level commas, so that one
    key-value pair can go without the others.
    """
    inside = [(b.start, b.end) for b in blocks]

    def atomic(pos: int) -> bool:
        return any(s < pos < e for s, e in inside)

    lines: list[tuple[int, int]] = []
    pos = start
    for m in _LINE_BREAK.finditer(text, start, end):
        if not atomic(m.start()):
            lines.append((pos, m.start()))
            pos = m.end()
    lines.append((pos, end))
    out: list[Unit] = []
    paragraph = 0
    for line_start, line_end in lines:
        if not text[line_start:line_end].strip():
            paragraph += 1
            continue
        cuts: list[tuple[int, int]] = []
        for m in _SENTENCE_END.finditer(text, line_start, line_end):
            cut = m.end(1) if m.group(2) is not None else m.end(3)
            cuttable = line_start < m.start() and m.end() < line_end and not atomic(cut)
            if cuttable and not _ABBREVIATION.search(
                text[max(line_start, m.start() - 8) : m.start()]
            ):
                cuts.append((cut, m.end()))
        if json:
            cuts += [
                (p + 1, p + 1)
                for p in range(line_start, line_end)
                if text[p] == "," and not atomic(p)
            ]
        cuts.sort()
        piece_start = line_start
        for cut_end, next_start in [*cuts, (line_end, line_end)]:
            if cut_end < piece_start:
                continue
            piece = text[piece_start:cut_end]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                out.append(Unit(piece_start + lead, piece_start + len(piece.rstrip()), paragraph))
            piece_start = max(piece_start, next_start)
    return out
