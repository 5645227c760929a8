"""Reading inputs, reflections and descriptions out of messy model replies."""

from __future__ import annotations

import pytest

from pytest_pau.agent import parse_description, parse_input, parse_reflection
from pytest_pau.prompting import strip_think


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("INPUT: ([1, 2], 3)", "([1, 2], 3)"),
        ("input = (1, 'a')", "(1, 'a')"),
        ("**INPUT:** `(4,)`", "(4,)"),
        ("INPUT: 5", "(5,)"),
        ("INPUT: [3, 1]", "([3, 1],)"),
        ("INPUT:\n```python\n('x', {1: 2})\n```", "('x', {1: 2})"),
        ("I will try an empty list next.\n\nINPUT: ([],)\n\nThis tests the edge case.", "([],)"),
        ("Let me try this:\n```\n(-3, 0.5)\n```\nIt should give -1.5.", "(-3, 0.5)"),
        ("<think>maybe (1, 2, 3) first</think>\nINPUT: (7, 8)", "(7, 8)"),
        ("'hello'", "('hello',)"),
        ("(b'ab', None, True, 1e3, -2j)", "(b'ab', None, True, 1000.0, (-0-2j))"),
    ],
)
def test_parse_input_finds_the_literal(reply: str, expected: str) -> None:
    literal, error = parse_input(reply)
    assert (literal, error) == (expected, None)


def test_parse_input_respects_quotes_holding_brackets() -> None:
    literal, _ = parse_input('Next I call test_func with ("a)b", [1]) to see.', arity=2)
    assert literal == "('a)b', [1])"


def test_parse_input_prefers_a_candidate_of_the_right_arity() -> None:
    reply = "Earlier (3) gave 9. Now try the pair (2, 5) to see the product."
    assert parse_input(reply, arity=2)[0] == "(2, 5)"
    assert parse_input(reply, arity=1)[0] == "(3,)"


def test_parse_input_falls_back_to_another_arity_rather_than_nothing() -> None:
    assert parse_input("INPUT: (1, 2, 3)", arity=2)[0] == "(1, 2, 3)"


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "   ",
        "I am not sure what to try.",
        "INPUT: __import__(os).system(ls)",
        "INPUT: (lambda: 1)",
        "<think>(1, 2)</think>",
        "<think>I will answer (1, 2)",
    ],
)
def test_parse_input_reports_a_format_failure(reply: str) -> None:
    literal, error = parse_input(reply)
    assert literal is None
    assert error


def test_parse_input_never_yields_more_than_a_literal() -> None:
    # The code is never run: at most a literal inside it is taken as the input.
    literal, _ = parse_input("INPUT: __import__('os').system('rm -rf /')")
    assert literal in (None, "('os',)", "('rm -rf /',)")


def test_strip_think_variants() -> None:
    assert strip_think("<think>a</think>b<THINK>c</THINK>d") == "bd"
    assert strip_think("reasoning without open tag</think>answer") == "answer"
    assert strip_think("answer<think>cut off") == "answer"


@pytest.mark.parametrize(
    ("reply", "concluded", "summary"),
    [
        ("CONCLUDE: YES\nSUMMARY: Returns the sum of a list.", True, "Returns the sum of a list."),
        ("conclude: no\nsummary: maybe it sorts; try [3,1].", False, "maybe it sorts; try [3,1]."),
        ("**CONCLUDE:** **YES**\n**SUMMARY:** Doubles x.", True, "Doubles x."),
        ("NO. It seems to reverse strings.", False, "It seems to reverse strings."),
        ("SUMMARY: Counts vowels.\nCONCLUDE: YES", True, "Counts vowels."),
        ("<think>YES?</think>CONCLUDE: NO\nSUMMARY: unsure", False, "unsure"),
        ("It counts vowels, I think.", None, "It counts vowels, I think."),
    ],
)
def test_parse_reflection(reply: str, concluded: bool | None, summary: str) -> None:
    assert parse_reflection(reply) == (concluded, summary)


def test_parse_description() -> None:
    assert parse_description("Sure!\nDESCRIPTION: Returns x squared.") == "Returns x squared."
    assert parse_description("<think>hm</think>Returns x.") == "Returns x."


def _adversarial(n: int) -> dict[str, str]:
    """Replies of about ``n`` characters that made parsing quadratic (21 s for 20,000 '(')."""
    return {
        "open-parens": "(" * n,
        "open-brackets": "[" * n,
        "quote-after-each": "('" * (n // 2),
        "double-quotes": '("' * (n // 2),
        "escaped-quotes": "(\\'" * (n // 3),
        "nested": "[" * (n // 2) + "]" * (n // 2),
        "nested-tuple": "(" * 150 + "1," * (n // 2 - 150) + ")" * 150,
        "prose": ("Let me call f(x) and see (maybe it fails " * n)[:n],
        "blank-lines": "\n" * n + "x",
        "think-tags": "<think>" * (n // 7) + "x",
        "fences": "```\n(" * (n // 5),
        "input-markers": "INPUT:\n" * (n // 7),
        "small-spans": "(1) " * (n // 4),
    }


@pytest.mark.slow
@pytest.mark.parametrize("n", [20_000, 200_000])
def test_parse_input_is_linear_on_adversarial_replies(n: int, literal_reads: list[int]) -> None:
    import time

    read = literal_reads
    for name, reply in _adversarial(n).items():
        read[0] = 0
        started = time.process_time()
        parse_input(reply, arity=2)
        took = time.process_time() - started
        # Work: each candidate the reply holds is read once; bracket spans within a budget.
        assert read[0] <= 4 * len(reply) + 120_000, (name, read[0])
        # CPU time, which a busy machine does not stretch: these took 20 s and more before.
        assert took < 2.0, (name, took)


def test_parse_input_still_reads_literals_after_blank_lines_and_think_blocks() -> None:
    assert parse_input("\n\n\n   \n  INPUT: (1, 2)") == ("(1, 2)", None)
    assert parse_input("<think>a</think><think>(9,)</think>INPUT: (3,)") == ("(3,)", None)
    assert parse_input("<THINK>x</Think>(4,)") == ("(4,)", None)
    assert parse_input("INPUT:\n\n```\n(5, 6)\n```") == ("(5, 6)", None)
    assert parse_input("INPUT:\n\n(7,)\nmore") == ("(7,)", None)
