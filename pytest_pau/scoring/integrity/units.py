"""The units a text is cut into (sentences, lines, notes), which of them carry a finding,
and how the flagged ones are taken out with the seams tidied."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pytest_pau.scoring.integrity.rules import META_CLASSES, STRONG, Rule
from pytest_pau.scoring.integrity.text import Block


@dataclass
class Unit:
    start: int
    end: int
    paragraph: int
    container: int
    hits: list[tuple[Rule, int, int]] = field(default_factory=list)
    flagged: bool = False

    def classes(self) -> set[str]:
        return {r.strength for r, _, _ in self.hits if r.strength != STRONG}

    def strong(self) -> bool:
        return any(r.strength == STRONG for r, _, _ in self.hits)


_DESCRIBES = re.compile(
    r"\b(?:returns?|raises?|gives?|computes?|yields?|counts?|sorts?|converts?|takes?|accepts?|"
    r"splits?|joins?|removes?|replaces?|checks?|finds?|builds?|maps?|arg\d|input|list|string)\b",
    re.IGNORECASE,
)


def flag_units(units: list[Unit], text: str) -> None:
    for u in units:
        classes = u.classes()
        u.flagged = u.strong() or (len(classes) >= 2 and bool(classes & META_CLASSES))
    # A weak sentence next to a flagged one in the same paragraph is part of the same note,
    # unless it describes behaviour; whatever follows a flagged label line ("Note to the
    # grader:") is the note's body.
    changed = True
    while changed:
        changed = False
        for i, u in enumerate(units):
            if u.flagged:
                continue
            for j in (i - 1, i + 1):
                if not 0 <= j < len(units):
                    continue
                v = units[j]
                if v.container != u.container or v.paragraph != u.paragraph or not v.flagged:
                    continue
                label = (
                    j == i - 1
                    and text[v.start : v.end].rstrip().endswith(":")
                    and any(r.kind == "grader_address" for r, _, _ in v.hits)
                )
                if label or (u.classes() and not _DESCRIBES.search(text[u.start : u.end])):
                    u.flagged = changed = True
                    break


def inside_any(u: Unit, spans: list[tuple[int, int]]) -> bool:
    return any(s <= u.start and u.end <= e for s, e in spans)


def carriers(
    text: str,
    units: list[Unit],
    containers: dict[int, Block | None],
    whole: list[Block],
) -> list[tuple[int, int]]:
    """The spans to remove: flagged units, and whole blocks where the note fills them."""
    spans = [(b.start, b.end) for b in whole]
    by_container: dict[int, list[Unit]] = {}
    for u in units:
        by_container.setdefault(u.container, []).append(u)
    for cid, members in by_container.items():
        flagged = [u for u in members if u.flagged]
        if not flagged:
            continue
        block = containers[cid]
        if block is not None and (
            block.kind == "opaque"
            or all(u.flagged for u in members)
            or (block.kind == "bracket" and members[0].flagged)
        ):
            spans.append((block.start, block.end))
        else:
            spans += [(u.start, u.end) for u in flagged]
    spans = merge(spans)
    # A unit left with nothing but blanks and punctuation goes too.
    for u in units:
        if inside_any(u, spans):
            continue
        rest = "".join(
            ch
            for i, ch in enumerate(text[u.start : u.end], u.start)
            if not any(s <= i < e for s, e in spans)
        )
        if len(rest) < u.end - u.start and not re.search(r"\w", rest):
            spans.append((u.start, u.end))
    return merge(spans + _swept_lines(text, merge(spans)))


_LINE = re.compile(r"[^\n]*")


def _swept_lines(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Whole lines that go with a removal on them: the rest of such a line that describes
    nothing (markup, a JSON skeleton, an RST ``..``), and every row of a Markdown table
    with a flagged cell. A line whose rest says what the method does keeps it."""
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if m.end() > m.start()]
    touched = [any(s < le and ls < e for s, e in spans) for ls, le in lines]
    out = []
    for (ls, le), hit in zip(lines, touched, strict=True):
        if not hit:
            continue
        rest = "".join(
            ch for i, ch in enumerate(text[ls:le], ls) if not any(s <= i < e for s, e in spans)
        )
        if rest.strip() and not _DESCRIBES.search(rest):
            out.append((ls, le))
    # A table goes whole: its header and rule rows say nothing without the flagged row.
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and text[lines[j][0] : lines[j][1]].lstrip().startswith("|"):
            j += 1
        if j > i and any(touched[i:j]):
            out += lines[i:j]
        i = max(j, i + 1)
    return out


def merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def remove(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without ``spans``, the seams tidied (no doubled blanks or lone punctuation)."""
    out = ""
    pos = 0
    for s, e in [*spans, (len(text), len(text))]:
        out = join(out, text[pos:s]) if out else text[pos:s]
        pos = e
    return out.strip()


def join(left: str, right: str) -> str:
    if not right:
        return left
    left_t = left.rstrip(" \t")
    right_t = right.lstrip(" \t")
    if left_t.endswith("\n") or right_t.startswith("\n"):
        breaks = max(
            len(left_t) - len(left_t.rstrip("\n")), len(right_t) - len(right_t.lstrip("\n"))
        )
        return left_t.rstrip("\n") + "\n" * min(breaks, 2) + right_t.lstrip("\n")
    if not left_t or not right_t:
        return left_t + right_t
    if right_t[0] in ".,;:!?)]}" and left_t[-1] in ".,;:!?":
        right_t = right_t[1:].lstrip(" \t")
        return left_t + (" " + right_t if right_t and not right_t.startswith("\n") else right_t)
    if right_t[0] in ".,;:!?)]}":
        return left_t + right_t
    return left_t + " " + right_t
