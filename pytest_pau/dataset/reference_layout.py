"""The PAU reference's own example layout, read by position as its creation code writes it.

The reference (``creation.py`` of ``DhananjayAshok/PAU-Benchmark``, ``train_test_split``
and ``robust_serialize``) evaluates every example output, then stores:

* the **first train output as the value** (JSON: ``49``, ``"f"``, ``[1, 9]``),
* every **later train output as its ``repr`` text** (``"25"``, ``"'c'"``, ``"(6, 5)"``),
* every **test output as the value**, except the rare *identity* rows (an output equal to
  its input text), which it stores as ``repr`` text,

then ``json.dumps`` each list, so a tuple becomes a JSON list and int dict keys become
strings; ``all_examples`` repeats the train pairs with a third element ``"None"``. So
neither reading of :mod:`pytest_pau.dataset.output_format` fits a whole file, and no per-value
sniffing can (the str ``'Q'`` stored as a value looks like repr text). This module reads
each cell by its position, and says when a file has the reference's signature
(:func:`has_reference_signature`: every ``all_examples`` entry ends in the string
``"None"``). What JSON lost (tuples, int keys) cannot be read back from the cell:
``--pau-dataset-outputs=recompute`` runs the gold code to get it
(:mod:`pytest_pau.dataset.recompute`).

Input texts are the reference's too: its runner wraps a lone value as one argument and
spreads a list over the arguments (``"(7)"`` is the call ``f(7)``, ``"[1, 2]"`` is
``f(1, 2)``), so an input that is no tuple literal is rewritten as the argument tuple it
stands for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_pau.dataset.python_ast import parse_expression

#: The third element of each ``all_examples`` entry in the reference's files.
REFERENCE_MARK = "None"
SIGNATURE = "every all_examples entry ends in 'None', as the reference's creation code writes it"


def has_reference_signature(rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]]) -> bool:
    """Whether decoded ``rows`` carry the reference's mark in every ``all_examples`` entry.

    Every row must have ``all_examples`` (as a list of triples ending in ``"None"``) and at
    least one entry: a file written by anything else does not end its pairs with that
    string (our own encoding uses a third element only for an exception's type name).
    """
    seen = False
    for _location, _index, row in rows:
        if not isinstance(row, Mapping):
            continue
        entries = row.get("all_examples")
        if not isinstance(entries, (list, tuple)) or not entries:
            return False
        for entry in entries:
            if not (
                isinstance(entry, (list, tuple)) and len(entry) == 3 and entry[2] == REFERENCE_MARK
            ):
                return False
        seen = True
    return seen


def argument_tuple(text: str) -> str:
    """The reference's input text as the argument tuple it stands for.

    ``"(3, 4)"`` stays; ``"(7)"`` (a lone value) becomes ``"(7,)"``; a list literal
    ``"[1, 2]"`` is spread as the reference's runner spreads it: ``"(1, 2,)"``. Text that
    is no literal is returned unchanged (the loader's input check reports it).
    """
    stripped = text.strip()
    try:
        node = parse_expression(stripped)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return text
    if isinstance(node, ast.Tuple):
        return text
    if isinstance(node, ast.List):
        inner = stripped[1:-1].strip()
        return f"({inner},)" if inner else "()"
    # The value's own text, without the parentheses GPT-4o wrote around it: "(7)" -> "(7,)".
    return f"({ast.get_source_segment(stripped, node) or stripped},)"


def is_identity_cell(cell: object, input_text: str) -> bool:
    """A test cell stored as ``repr`` text because the output equals its input text.

    The reference writes such an output (a str equal to the input's text) as its ``repr``:
    the cell is then exactly ``repr(input_text)``.
    """
    return isinstance(cell, str) and cell == repr(input_text)


def read_cell(field: str, index: int, cell: object, input_text: str) -> tuple[str, str]:
    """``(repr text, how)`` of one output cell at its position in the reference's layout.

    ``how`` is ``value`` or ``repr``.

    Raises:
        ValueError: a train cell after the first that is not repr text of a literal.
    """
    if field == "train_examples" and index > 0:
        if not isinstance(cell, str):
            raise ValueError(
                f"expected repr text (a str) at train position {index + 1}, as the reference "
                f"writes every train output after the first, got {type(cell).__name__} "
                f"{cell!r}; is this file in the reference's layout? "
                "(--pau-dataset-outputs=repr|json reads it another way)"
            )
        return cell, "repr"
    if field == "test_examples" and is_identity_cell(cell, input_text):
        return str(cell), "repr"
    try:
        return repr(cell), "value"
    except RecursionError:
        raise ValueError("output is nested too deeply to read") from None


def json_reading(cell: object) -> str:
    """How the reference's own scorer reads a test cell: its JSON-decoded value, as repr."""
    return repr(cell)
