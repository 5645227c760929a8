"""Reading a hostile reply costs time linear in its length, whatever its shape.

Replies of 200,000 characters that took seconds to minutes: a label followed by a long run
of blanks (two ``\\s*`` around ``[*_`]*`` split the run every way), a reply of ``-`` lines or
of ``conclu`` repeated (the reflection parser), and many ``INPUT:`` lines of nested brackets
(each line had a span budget of its own). Times are CPU seconds measured in a child process
whose CPU time is capped by the kernel (``RLIMIT_CPU``), so a regression fails in seconds
instead of hanging the suite, and the machine's load does not change the verdict.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest

from pytest_pau.agent.parsing import parse_description, parse_input, parse_reflection
from pytest_pau.scoring.coder import extract_code
from pytest_pau.scoring.failure import parse_label

N = 200_000
#: CPU seconds one case may take: these take 1-60 ms after the fix, and 1.3 s to minutes
#: before it at 20,000-200,000 characters.
BOUND_S = 1.0
#: CPU seconds of the whole child: the kernel stops it there.
CHILD_CPU_S = 40

_LABELS = ["input", "summary", "description", "conclude", "label", "```", "```python"]
_FILLS = {"spaces": " ", "tabs": "\t", "newlines": "\n", "blank-lines": " \n"}
_UNITS = {"dash-lines": "-\n", "conclu": "conclu", "fence-lines": "```\n", "underscores": "_"}
PARSERS = ["input", "reflection", "description", "code", "label"]


def _cases() -> list[tuple[str, str]]:
    """(name, reply) pairs of about :data:`N` characters."""
    cases = []
    for label in _LABELS:
        for fill_name, fill in _FILLS.items():
            cases.append((f"{label}+{fill_name}", label + fill * (N // len(fill)) + "x"))
    for unit_name, unit in _UNITS.items():
        cases.append((unit_name, unit * (N // len(unit))))
    cases.append(("conclu+underscores", "conclu" + "_" * N + " x"))
    return cases


_CHILD = textwrap.dedent(
    """
    import json, sys, time
    from tests.agent.test_parse_limits import _cases, _parser
    parsers = sys.argv[1].split(",")
    for name, reply in _cases():
        for parser in parsers:
            started = time.process_time()
            _parser(parser)(reply)
            took = time.process_time() - started
            print(json.dumps([parser, name, took]), flush=True)
    """
)


def _parser(name: str) -> Callable[[str], object]:
    parsers: dict[str, Callable[[str], object]] = {
        "input": lambda text: parse_input(text, arity=2),
        "reflection": parse_reflection,
        "description": parse_description,
        "code": extract_code,
        "label": parse_label,
    }
    return parsers[name]


def _cap_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CHILD_CPU_S, CHILD_CPU_S + 5))


@pytest.mark.slow
@pytest.mark.parametrize("parser", PARSERS)
def test_every_reply_parser_is_linear_on_hostile_shapes(parser: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, parser],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        preexec_fn=_cap_cpu,
        timeout=600,
        check=False,
    )
    seen = [json.loads(line) for line in proc.stdout.splitlines()]
    done = {name for _, name, _ in seen}
    missing = [name for name, _ in _cases() if name not in done]
    assert not missing, (
        f"the {parser} parser ran out of {CHILD_CPU_S} CPU s at {missing[0]!r} "
        f"(exit {proc.returncode}): {proc.stderr[-2000:]}"
    )
    slow = {name: round(took, 3) for _, name, took in seen if took > BOUND_S}
    assert not slow, f"the {parser} parser took over {BOUND_S} CPU s on: {slow}"


def test_input_lines_of_nested_brackets_share_one_span_budget(literal_reads: list[int]) -> None:
    # 650 lines "INPUT: [[[...a b1...]]]" (150 deep): every line's 150 spans were read,
    # 14 million characters for a 200,000-character reply (19 s).
    lines = [f"INPUT: {'[' * 150}a b{i}{']' * 150}" for i in range(N // 308)]
    reply = "\n".join(lines)
    read = literal_reads
    assert parse_input(reply, arity=1) == (None, "No Python literal was found in the reply.")
    # Each line, its INPUT: rest and the reply once, the markers' spans within one budget
    # of a character per character, the reply's own spans within theirs.
    assert read[0] <= 4 * len(reply) + 120_000, read[0]


def test_an_input_line_still_finds_its_literal_in_prose() -> None:
    assert parse_input("INPUT: call f(1, 2) now", arity=2) == ("(1, 2)", None)
    assert parse_input("**Input** :   `([1], 'a')`") == ("([1], 'a')", None)
    assert parse_input("input =\n\n(3,)") == ("(3,)", None)
    assert parse_input("```  python  \n(4, 5)\n```", arity=2) == ("(4, 5)", None)


@pytest.mark.parametrize(
    ("reply", "concluded", "summary"),
    [
        ("CONCLUDE_YES\nSUMMARY: adds", True, "adds"),
        ("**Conclusion:** no\n\n\n  - **Summary** :  ** sorts", False, "sorts"),
        ("CONCLUDEYES", True, ""),
        ("concluding = no ok", False, "ok"),
        ("CONCLUSION" + "_" * 30 + " yes", True, ""),
        ("\n\n\n> summary: reverses\nCONCLUDE: NO", False, "reverses"),
    ],
)
def test_reflections_read_as_before(reply: str, concluded: bool, summary: str) -> None:
    got = parse_reflection(reply)
    assert got == (concluded, summary)


def test_descriptions_labels_and_code_read_as_before() -> None:
    assert parse_description("\n\n  # DESCRIPTION :  **Returns x.") == "Returns x."
    assert parse_label("**Label**: insufficient exploration") == "insufficient_exploration"
    assert extract_code("```python   \ndef test_func():\n    return 1\n```") == (
        "def test_func():\n    return 1"
    )
