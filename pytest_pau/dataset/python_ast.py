"""Python's :mod:`ast`, one thread at a time: every parse of Python text goes through here.

CPython 3.11 keeps the depth of the syntax tree it is converting (``ast.parse``, and
``ast.literal_eval`` of a string, build Python objects from its C tree) in one counter per
interpreter, not per thread. When a garbage collection inside one conversion lets another
thread convert a tree too, the first one finds the counter moved and raises
``SystemError: AST constructor recursion depth mismatch`` (CPython gh-106905 family; seen in
a run at ``--pau-concurrency=8``, where episode threads read model replies and coder output
at once, as an item's error). The conversion is short (microseconds to a millisecond for
the texts we read), so one lock around it costs nothing measurable, and the error cannot
happen. Walking or evaluating a tree that is already built is pure Python and needs no lock.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

_LOCK = threading.Lock()


def parse_module(source: str) -> ast.Module:
    """``ast.parse(source)``, never beside another thread's conversion.

    Raises:
        SyntaxError, ValueError, RecursionError, MemoryError: as :func:`ast.parse` does.
    """
    with _LOCK:
        return ast.parse(source)


def parse_expression(source: str) -> ast.expr:
    """The expression ``source`` holds (``ast.parse(source, mode="eval").body``).

    Raises:
        SyntaxError, ValueError, RecursionError, MemoryError: as :func:`ast.parse` does.
    """
    with _LOCK:
        return ast.parse(source, mode="eval").body


def literal_eval(source: str | ast.AST) -> Any:
    """``ast.literal_eval``: a string is parsed here, under the lock, then evaluated.

    Raises:
        ValueError, TypeError, SyntaxError, MemoryError, RecursionError: as
        :func:`ast.literal_eval` does.
    """
    if isinstance(source, str):
        # literal_eval strips leading spaces and tabs itself before parsing.
        source = parse_expression(source.lstrip(" \t"))
    return ast.literal_eval(source)


def check_compiles(tree: ast.Module, filename: str) -> None:
    """``compile(tree, filename, "exec")`` (its conversion back to C counts the same way).

    Raises:
        SyntaxError, ValueError, TypeError, RecursionError: as :func:`compile` does.
    """
    with _LOCK:
        compile(tree, filename, "exec")
