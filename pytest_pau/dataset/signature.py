"""The checks of one row's method signature and inputs: header, code, arity, input literals."""

from __future__ import annotations

import ast
import re
from typing import Any

from pytest_pau.dataset.literal_text import literal_problem, plain_literal, shown, syntax_problem
from pytest_pau.dataset.python_ast import literal_eval, parse_expression

_HEADER_RE = re.compile(r"^\s*def\s+test_func\s*\((?P<params>.*)\)\s*(?:->.*)?:?\s*$", re.DOTALL)
_CODE_DEF_RE = re.compile(r"^[ \t]*def\s+test_func\s*\(", re.MULTILINE)


class RowError(Exception):
    """One problem in one field of one row; :func:`rows_to_instances` adds the location."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"field {field!r}: {problem}")
        self.field = field
        self.problem = problem


def count_params(params: str) -> int:
    """Count the parameters in the text between a ``def``'s parentheses.

    Commas inside brackets or strings (default values) do not split; ``/`` and a bare ``*``
    are markers, not parameters.

    Raises:
        ValueError: for ``*args``/``**kwargs``, whose arity is not fixed.
    """
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, ch in enumerate(params):
        if quote:
            if ch == quote and params[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    parts.append(params[start:])
    names = [p.strip() for p in parts if p.strip() and p.strip() not in ("/", "*")]
    for name in names:
        if name.startswith("*"):
            raise ValueError(f"variadic parameter {name!r} has no fixed arity")
    return len(names)


def header_arity(header: str) -> int:
    """The number of arguments a ``def test_func(...):`` header declares.

    Raises:
        RowError: when the text is not such a header.
    """
    match = _HEADER_RE.match(header)
    if match is None:
        raise RowError("header", f"expected 'def test_func(arg0, ...):', got {header!r}")
    try:
        return count_params(match.group("params"))
    except ValueError as exc:
        raise RowError("header", f"{exc} in {header!r}; PAU methods take fixed arguments") from None


def code_arity(code: str) -> int:
    """The number of parameters of ``test_func`` in ``code`` (read without parsing it all).

    Raises:
        RowError: when ``code`` has no ``def test_func(``.
    """
    match = _CODE_DEF_RE.search(code)
    if match is None:
        raise RowError("test_func_validated", "no 'def test_func(' found in the source")
    depth = 1
    pos = match.end()
    while pos < len(code) and depth:
        if code[pos] == "(":
            depth += 1
        elif code[pos] == ")":
            depth -= 1
        pos += 1
    try:
        return count_params(code[match.end() : pos - 1])
    except ValueError as exc:
        raise RowError("test_func_validated", str(exc)) from None


def parse_input(text: Any, arity: int, cache: dict[str, int]) -> str:
    """Check that ``text`` is a tuple literal with ``arity`` items; return it unchanged.

    ``cache`` maps input texts already checked to their length (``all_examples`` repeats the
    train and test inputs, and a parse is the costly part of loading).

    Raises:
        ValueError: with a message that says what was wrong and how to write it.
    """
    if not isinstance(text, str):
        raise ValueError(f"input must be a str holding a tuple literal, got {shown(text)}")
    length = cache.get(text)
    if length is None:
        try:
            node = parse_expression(text)
        except SyntaxError as exc:
            raise ValueError(
                f"input {shown(text)} is not a Python literal ({syntax_problem(exc)})"
            ) from None
        except (ValueError, MemoryError, RecursionError) as exc:  # NUL bytes, deep nesting
            raise ValueError(f"input {shown(text)} is not a Python literal ({exc})") from None
        if not plain_literal(node):
            try:
                literal_eval(node)  # the rare forms: set(), 1+2j
            except (ValueError, TypeError, MemoryError, RecursionError) as exc:
                raise ValueError(
                    f"input {shown(text)} is not a Python literal "
                    f"({literal_problem(text, node, exc)})"
                ) from None
        if not isinstance(node, ast.Tuple):
            one = shown(f"({text.strip()},)")
            raise ValueError(
                f"input {shown(text)} is not a tuple literal; write one argument as {one}"
            )
        length = len(node.elts)
        cache[text] = length
    if length != arity:
        raise ValueError(
            f"input {shown(text)} has {length} argument(s) but the header declares {arity}"
        )
    return text
