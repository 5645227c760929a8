"""Reading what a model replied: inputs, YES/NO reflections, descriptions.

Models wrap answers in prose, Markdown, code fences and ``<think>`` blocks; these
functions find the answer anyway and say precisely why when there is none. Every input
is read with :func:`ast.literal_eval` (never ``eval``): a reply can never run code on
the host.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pytest_pau.agent.spans import literal_spans
from pytest_pau.dataset.python_ast import literal_eval
from pytest_pau.prompting import strip_think

# Possessive runs (``*+``): the runs around a label are of disjoint kinds, so giving nothing
# back finds the same matches, while backtracking split a long run of blanks between two
# ``\s*`` every way (``"INPUT" + " " * 10_000`` took 0.9 s; reflections 3 s). The leading run
# of a line marker stays on its line ([^\S\n], not \s): from every line start, \s* ran
# over all the blank lines below it, quadratic in a reply of blank lines.
_FENCE = re.compile(r"```[ \t]*+([A-Za-z0-9_+-]*+)[ \t]*+\n(.*?)```", re.DOTALL)
_INPUT_MARKER = re.compile(
    r"^(?:[^\S\n]|[>*_`#-])*+input\s*+[*_`]*+\s*+[:=]\s*(.*)$", re.IGNORECASE | re.MULTILINE
)
# "conclu" and at most 40 more word characters ("CONCLUSION", "CONCLUDE_YES"): an unbounded
# \w* read a word of n repetitions of "conclu" to its end from each of them, n**2 / 12.
_CONCLUDE = re.compile(r"conclu\w{0,40}[\s*_`:=]*+(yes|no)\b", re.IGNORECASE)
_LEADING_YESNO = re.compile(r"^[\s*_`#>-]*+(yes|no)\b", re.IGNORECASE)
_SUMMARY = re.compile(
    r"^(?:[^\S\n]|[*_`#>-])*+summary\s*+[*_`]*+\s*+:\s*[*_`]*", re.IGNORECASE | re.MULTILINE
)
_DESCRIPTION = re.compile(
    r"^(?:[^\S\n]|[*_`#>-])*+description\s*+[*_`]*+\s*+:\s*[*_`]*",
    re.IGNORECASE | re.MULTILINE,
)
# Brackets are looked for in the first 20,000 characters: inputs are short.
_MAX_SCAN_CHARS = 20_000
#: Characters of bracket spans tried per character scanned (plus a fixed allowance): the
#: spans of a reply overlap a few levels deep; thousands of nested ones would otherwise
#: each be read in full (20,000 nested brackets: 10,000 spans of up to 20,000 characters).
_SPAN_BUDGET_PER_CHAR = 4
_SPAN_BUDGET_MIN = 20_000
#: The same for the spans of all ``INPUT:`` lines together, per character of the reply: a
#: budget per line let 650 lines of 150 nested brackets read 14 million characters (19 s).
#: An ``INPUT:`` line rarely needs its spans (the line itself is the literal).
_MARKER_SPAN_BUDGET_PER_CHAR = 1


class _Budget:
    """Characters of bracket spans that one reply may still have read."""

    __slots__ = ("left",)

    def __init__(self, chars: int, per_char: int = _SPAN_BUDGET_PER_CHAR) -> None:
        self.left = _SPAN_BUDGET_MIN + per_char * chars


def _literal_spans(text: str, budget: _Budget) -> Iterator[str]:
    """Balanced ``(...)``, ``[...]``, ``{...}`` spans of ``text``, outermost first.

    Quotes are respected so that ``('a)', 1)`` is one span. Found in linear time
    (:func:`~pytest_pau.agent.spans.literal_spans`); yielded while the characters given
    out stay within ``budget`` (a budget may be shared by several texts of one reply), so
    that thousands of nested spans cost no more than a few readings of the reply.
    """
    text = text[:_MAX_SCAN_CHARS]
    if budget.left <= 0:
        return
    for start, end in literal_spans(text):
        budget.left -= end - start
        if budget.left < 0:
            return
        yield text[start:end]


def _as_args(text: str) -> tuple[object, ...] | None:
    """The argument tuple ``text`` denotes, or None when it is no literal."""
    text = text.strip().rstrip(".,;").strip().strip("`").strip()
    if not text:
        return None
    try:
        value = literal_eval(text)
    except (ValueError, SyntaxError, TypeError, OverflowError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, tuple) else (value,)


def _candidates(text: str) -> Iterator[str]:
    """Texts that may hold the input, most explicit first (lazily: the first usually wins)."""
    markers = _Budget(len(text), _MARKER_SPAN_BUDGET_PER_CHAR)
    for match in _INPUT_MARKER.finditer(text):
        rest = match.group(1).strip()
        yield rest
        yield from _literal_spans(rest, markers)
        if not rest:  # "INPUT:" then the literal on the next line or in a fence
            # Read in place: copying the tail for every marker is quadratic in markers.
            at = match.end()
            while text.startswith("\n", at):
                at += 1
            fence = _FENCE.match(text, at)
            line_end = text.find("\n", at)
            yield fence.group(2) if fence else text[at : len(text) if line_end < 0 else line_end]
    for fence in _FENCE.finditer(text):
        body = fence.group(2).strip()
        yield body
        yield from (line for line in body.splitlines() if line.strip())
    yield text
    yield from (line for line in text.splitlines() if line.strip())
    yield from _literal_spans(text, _Budget(min(len(text), _MAX_SCAN_CHARS)))


def parse_input(reply: str, *, arity: int | None = None) -> tuple[str | None, str | None]:
    """Take the input the model chose from its reply.

    Looks, in order, at an ``INPUT:`` line, code fences, the whole reply, each line and
    every balanced bracket span; the first that :func:`ast.literal_eval` reads wins
    (with ``arity`` given, the first whose argument count matches, if any does). A
    non-tuple is wrapped as a 1-tuple.

    Args:
        reply: The model's raw reply.
        arity: The method's number of arguments, to prefer candidates that fit.

    Returns:
        ``(literal, None)`` with the canonical tuple literal (``"([1, 2], 3)"``), or
        ``(None, error)`` saying why no input could be read.
    """
    text = strip_think(reply)
    if not text:
        return None, "The reply was empty."
    first: tuple[object, ...] | None = None
    seen: set[str] = set()
    for cand in _candidates(text):
        if cand in seen:
            continue
        seen.add(cand)
        args = _as_args(cand)
        if args is None:
            continue
        if arity is None or len(args) == arity:
            return repr(args), None
        if first is None:
            first = args
    if first is not None:
        return repr(first), None
    return None, "No Python literal was found in the reply."


def parse_reflection(reply: str) -> tuple[bool | None, str]:
    """Read a reflection: the YES/NO conclusion and the summary.

    Returns:
        ``(concluded, summary)``; ``concluded`` is None when no YES/NO could be read.
        The summary is the text after ``SUMMARY:``, else the reply without its YES/NO line.
    """
    text = strip_think(reply)
    concluded: bool | None = None
    match = _CONCLUDE.search(text) or _LEADING_YESNO.search(text)
    if match:
        concluded = match.group(1).lower() == "yes"
    summary_match = _SUMMARY.search(text)
    if summary_match:
        end = match.start() if match and match.start() >= summary_match.end() else len(text)
        summary = text[summary_match.end() : end]
    elif match:
        summary = (text[: match.start()] + text[match.end() :]).strip().lstrip(".,:;!-*_ ")
    else:
        summary = text
    return concluded, _clean(summary)


def parse_description(reply: str) -> str:
    """The description in a one-shot (in-context) reply: the text after ``DESCRIPTION:``."""
    text = strip_think(reply)
    match = _DESCRIPTION.search(text)
    return _clean(text[match.end() :] if match else text)


def _clean(text: str) -> str:
    return text.strip().strip("*_` ").strip()
