"""Bracket spans in one pass: exactly the spans of reading from each bracket on its own."""

from __future__ import annotations

import random

import pytest

from pytest_pau.agent.spans import literal_spans

_OPENERS = "([{"
_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _one_start_at_a_time(text: str) -> list[tuple[int, int]]:
    """The reference: the quadratic reading parse_input used before, kept verbatim."""
    spans = []
    for start, ch in enumerate(text):
        if ch not in _OPENERS:
            continue
        stack: list[str] = []
        quote: str | None = None
        i = start
        while i < len(text):
            c = text[i]
            if quote:
                if c == "\\":
                    i += 2
                    continue
                if text.startswith(quote, i):
                    i += len(quote)
                    quote = None
                    continue
            elif c in "'\"":
                quote = c * 3 if text.startswith(c * 3, i) else c
                i += len(quote)
                continue
            elif c in _OPENERS:
                stack.append(c)
            elif c in _CLOSERS:
                if not stack or stack[-1] != _CLOSERS[c]:
                    break
                stack.pop()
                if not stack:
                    spans.append((start, i + 1))
                    break
            elif c == "\n" and len(stack) == 1 and start > 0 and text[start - 1].isalnum():
                break
            i += 1
    return spans


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("('a)', 1)", [(0, 9)]),
        ("try (1, [2]) or [3", [(4, 12), (8, 11)]),
        ("I'll try (1, 2)", [(9, 15)]),  # the apostrophe before a bracket does not count
        ("(it's) then (2, 5)", [(12, 18)]),  # inside one it does, not for the next bracket
        ("f(\n1)", []),  # a line break directly inside "f(": prose, not a literal
        ("(\n1)", [(0, 4)]),
        ("([)]", []),
        ("('''a)''', \"\\\")\")", [(0, 17)]),
    ],
)
def test_spans(text: str, spans: list[tuple[int, int]]) -> None:
    assert literal_spans(text) == spans == _one_start_at_a_time(text)


@pytest.mark.parametrize(
    "alphabet",
    ["([{)]}'\"\\\nax ", "(()'\"\\\na", "([])'\n a1", "(('''\"\"\")\\\n", "(')\"\\a\n"],
)
def test_the_same_spans_as_reading_one_start_at_a_time(alphabet: str) -> None:
    rng = random.Random(alphabet)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert literal_spans(text) == _one_start_at_a_time(text), repr(text)
