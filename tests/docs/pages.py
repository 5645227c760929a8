"""Reading the README and the pages of ``docs/`` the way the tests that run them need.

The README and each ``docs/*.md`` page show commands, samples and tables that tests check
against the real product. Those tests find what they check by the heading it sits under
(``section("datasets.md", "## Dataset format")``), so a heading that is renamed or moved to
another page fails them loudly instead of leaving a block unchecked.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = "README.md"

_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
_HEADING = re.compile(r"^(#{1,6}) +(.*?)\s*#*\s*$")


def path_of(name: str) -> Path:
    """``README.md`` at the root, any other name a page of ``docs/``."""
    return ROOT / name if name == README else DOCS / name


def page_names() -> list[str]:
    """The README and every page of ``docs/``, README first."""
    return [README, *sorted(p.name for p in DOCS.glob("*.md"))]


@cache
def page(name: str) -> str:
    """The text of ``name`` (see :func:`path_of`)."""
    path = path_of(name)
    assert path.is_file(), f"{path.relative_to(ROOT)} is gone: update the test that reads it"
    return path.read_text(encoding="utf-8")


def all_text() -> str:
    """The README and every page, one after the other."""
    return "\n".join(page(name) for name in page_names())


def _lines_outside_fences(text: str) -> list[tuple[int, str, bool]]:
    """Each line with its index and whether it is prose (not inside a fenced block)."""
    out = []
    fence: str | None = None
    for i, line in enumerate(text.splitlines()):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append((i, line, False))
        elif fence is not None:
            if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
            out.append((i, line, False))
        else:
            out.append((i, line, True))
    return out


def headings(name: str) -> list[str]:
    """The headings of ``name`` as written (``"## Dataset format"``), fenced blocks aside."""
    return [
        line.rstrip()
        for _, line, prose in _lines_outside_fences(page(name))
        if prose and _HEADING.match(line)
    ]


def section(name: str, heading: str) -> str:
    """The text under ``heading`` in ``name``, up to the next heading of its level or above.

    ``heading`` is the whole heading line (``"## Dataset format"``), so a section keeps its
    subsections. Lines in fenced blocks are never headings (a ``# comment`` in a bash block).
    """
    level = len(heading) - len(heading.lstrip("#"))
    lines = page(name).splitlines()
    marked = _lines_outside_fences(page(name))
    start = next((i for i, line, prose in marked if prose and line.rstrip() == heading), None)
    assert start is not None, (
        f"{path_of(name).relative_to(ROOT)} has no heading {heading!r} (it has: "
        f"{headings(name)}): update the test that reads it"
    )
    end = len(lines)
    for i, line, prose in marked[start + 1 :]:
        m = _HEADING.match(line) if prose else None
        if m and len(m.group(1)) <= level:
            end = i
            break
    return "\n".join(lines[start + 1 : end]) + "\n"


def fenced(text: str, *langs: str) -> list[str]:
    """The bodies of the fenced blocks of ``text`` whose language is one of ``langs``.

    With no ``langs``, the blocks that name no language.
    """
    wanted = set(langs) or {""}
    blocks, body, fence, lang = [], [], None, ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence, lang, body = m.group(1), m.group(2), []
        elif line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
            if lang in wanted:
                blocks.append("\n".join(body) + "\n")
            fence = None
        else:
            body.append(line)
    return blocks


def _strip_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` after a blank, outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands(block: str, lang: str = "bash") -> list[str]:
    """The commands of a ``bash`` or ``console`` block, one per logical line.

    Continuation lines (a trailing backslash) are joined, comments and blank lines dropped,
    runs of blanks squeezed to one; in a ``console`` block only the ``$ `` lines count.
    """
    text = block.replace("\\\n", " ")
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if lang == "console":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        line = " ".join(_strip_comment(line).split())
        if line:
            out.append(line)
    return out


def slug(heading_text: str) -> str:
    """The anchor GitHub gives a heading's text (``#training-with-aac-pau-train``).

    Markup and punctuation go (``_`` and ``-`` stay), letters are lowered, each blank
    becomes ``-``. MkDocs' ``toc`` slugs agree for the headings these pages use: the site
    test checks that every heading gets the same anchor from both.
    """
    text = re.sub(r"[`*]", "", heading_text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")
