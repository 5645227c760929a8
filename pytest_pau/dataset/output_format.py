"""How a PAU-format file writes example outputs: repr text or plain JSON values, per file.

PAU's own convention stores ``output`` as the ``repr`` text of the value: ``"'racecar'"``
is the str ``'racecar'``, ``"[1, 2]"`` the list, ``"3"`` the int. Many converters write the
plain JSON value instead: ``"racecar"``, ``[1, 2]``, ``3``, ``true``. The two agree on
nothing that matters (``"1"`` is the int 1 in one and the str ``'1'`` in the other), so a
file is read one way or the other as a whole, never row by row.

**Detection** (``outputs="auto"``) sorts every output of a value (exceptions are left out)
by what it says about its writer:

- *repr text*, which only a repr writer writes: a string that is exactly what ``repr``
  writes for a str (``"'abc'"``) or for a value JSON has no form for (``"(1, 2)"``,
  ``"None"``, ``"True"``, ``"['a']"``, ``"{1, 2}"``);
- *plain text*, which no repr writer writes: a string that is no literal and no object
  repr (``"racecar"``, ``"hello world"``, ``""``, ``" 1"``), or a literal written otherwise
  than ``repr`` writes it (``"(5)"``, ``"1.00"``, ``'"abc"'``, ``"[1,2]"``);
- *a JSON value*: any output that is not a string (``3``, ``true``, ``null``, ``[1, 2]``);
- *either*: a string both conventions write, e.g. ``"1"``, ``"[1, 2]"`` (the int or the
  str), or an object repr such as ``"nan"`` or ``"Point(x=1, y=2)"``. It does not vote.

The file is ``repr`` when nothing votes json (so a file of repr text that is all numbers
is repr, and so is a file whose outputs are all exceptions), ``json`` when nothing votes
repr, and otherwise the side with at least :data:`MAJORITY` of the votes; a closer split
is a :class:`~pytest_pau.errors.DatasetError` that shows rows of both kinds and asks for
``--pau-dataset-outputs``. A json file whose outputs are all strings that read as
literals (every output ``"1"``, ``"2"``...) cannot be told from repr text: it is read as
repr, PAU's convention, and needs the override.

**Reading.** ``json``: the value's ``repr`` (a JSON string becomes a Python str, a list
stays a list, ``null`` is ``None``); JSON has no tuple, set or bytes, so a method that
returns one needs a repr file. ``repr``: a string is taken as the repr text it is; a
non-string value (which a repr writer should not write) is taken as that value.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pytest_pau.dataset.literal_text import shown
from pytest_pau.dataset.python_ast import literal_eval, parse_expression
from pytest_pau.errors import DatasetError

OutputsMode = Literal["auto", "repr", "json", "reference", "recompute"]
"""How to read outputs: detect per file, or the caller says; ``recompute`` reads the file
as ``auto`` does, then replaces the outputs by the gold code's (``dataset/recompute.py``)."""
Convention = Literal["repr", "json", "reference"]
"""How a file writes outputs (``reference``: by position, ``dataset/reference_layout.py``)."""
Vote = Literal["repr", "plain", "value", "either"]

OUTPUTS_MODES: tuple[str, ...] = ("auto", "repr", "json", "reference", "recompute")

MAJORITY = 0.95
"""The share of the votes one side needs when both sides have some."""

SAMPLES = 3
"""Example outputs kept per kind, for the message of an undecidable file."""

_INT_RE = re.compile(r"-?[0-9]+")
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OBJECT_RE = re.compile(r"<[^<>]*>")
# Names that stand for a value in a repr (math.inf is written ``inf``).
_VALUE_NAMES = frozenset({"nan", "inf", "infj", "nanj", "Ellipsis", "NotImplemented"})
_REPR_WORDS = frozenset({"True", "False", "None"})


def check_mode(outputs: str) -> OutputsMode:
    """Validate an ``outputs`` argument.

    Raises:
        DatasetError: it is not one of :data:`OUTPUTS_MODES`.
    """
    if outputs not in OUTPUTS_MODES:
        raise DatasetError(
            f"outputs must be one of {', '.join(OUTPUTS_MODES)}, got {outputs!r} "
            "(--pau-dataset-outputs)"
        )
    return outputs  # type: ignore[return-value]


def _object_repr(node: ast.AST) -> bool:
    """Whether ``node`` reads like the repr of an object: ``Point(x=1)``, ``[nan, 1.0]``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Constant):
            continue
        if isinstance(item, ast.Name):
            if item.id not in _VALUE_NAMES and item.id not in _REPR_WORDS:
                return False
        elif isinstance(item, (ast.Tuple, ast.List, ast.Set)):
            stack.extend(item.elts)
        elif isinstance(item, ast.Dict):
            if None in item.keys:
                return False
            stack.extend(k for k in item.keys if k is not None)
            stack.extend(item.values)
        elif isinstance(item, ast.UnaryOp) and isinstance(item.op, (ast.USub, ast.UAdd)):
            stack.append(item.operand)
        elif _complex_repr(item):
            continue  # (nan+1j), (1+infj)
        elif isinstance(item, ast.Call):
            func = item.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if not isinstance(func, ast.Name) or any(isinstance(a, ast.Starred) for a in item.args):
                return False
            stack.extend(item.args)
            for keyword in item.keywords:
                if keyword.arg is None:
                    return False
                stack.append(keyword.value)
        else:
            return False
    return True


def _complex_repr(node: ast.AST) -> bool:
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Add, ast.Sub)):
        return False
    left, right = node.left, node.right
    if isinstance(left, ast.UnaryOp) and isinstance(left.op, (ast.USub, ast.UAdd)):
        left = left.operand
    real = (isinstance(left, ast.Constant) and type(left.value) in (int, float)) or (
        isinstance(left, ast.Name) and left.id in ("nan", "inf")
    )
    imaginary = (isinstance(right, ast.Constant) and type(right.value) is complex) or (
        isinstance(right, ast.Name) and right.id in ("nanj", "infj")
    )
    return real and imaginary


class _TooManyDigits(Exception):
    """An int literal over CPython's 4300-digit parse limit (a legitimate repr)."""


def _parse(text: str) -> ast.expr | None:
    try:
        return parse_expression(text)
    except SyntaxError as exc:
        if "4300" in str(exc) or "int_max_str_digits" in str(exc):
            raise _TooManyDigits from None
        return None
    except (ValueError, MemoryError, RecursionError):
        return None


_NOT_LITERAL = object()


def _literal_value(node: ast.expr) -> object:
    try:
        return literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _has_set(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is set or kind is frozenset:
            return True
        if kind is list or kind is tuple:
            stack.extend(item)  # type: ignore[arg-type]
        elif kind is dict:
            stack.extend(item.keys())  # type: ignore[attr-defined]
            stack.extend(item.values())  # type: ignore[attr-defined]
    return False


def _canonical(text: str, value: object) -> bool:
    """Whether ``text`` is exactly what ``repr`` writes for ``value``.

    A set's order depends on hashing (``PYTHONHASHSEED``), so a text with a set cannot be
    compared and counts as canonical.
    """
    try:
        return repr(value) == text or _has_set(value)
    except (RecursionError, ValueError):
        return True


def classify(output: object) -> Vote:
    """What one output says about its writer (see the module docstring)."""
    if not isinstance(output, str):
        return "value"
    if not output or output != output.strip():
        return "plain"  # repr never writes an empty or padded text
    if _INT_RE.fullmatch(output):
        return "either"  # also ints over CPython's 4300-digit parse limit
    if _WORD_RE.fullmatch(output):
        if output in _REPR_WORDS:
            return "repr"
        return "either" if output in _VALUE_NAMES else "plain"
    try:
        node = _parse(output)
    except _TooManyDigits:
        return "either"
    if node is None:
        if "<" in output and _object_repr_with_brackets(output):
            return "either"
        return "plain"
    value = _literal_value(node)
    if value is _NOT_LITERAL:
        return "either" if _object_repr(node) else "plain"
    if not _canonical(output, value):
        return "plain"  # a literal, but not as repr writes it: "(5)", "1.00", '"abc"', "[1,2]"
    if type(value) is str or type(value) is bytes:
        return "repr"
    try:
        json.loads(output)
    except (ValueError, RecursionError):
        return "repr"  # what JSON cannot write: a tuple, None, True, 'single quotes'...
    return "either"


def _object_repr_with_brackets(text: str) -> bool:
    # <function f at 0x7f...>, defaultdict(<class 'int'>, {}): stand each <...> for a value.
    for _ in range(8):
        replaced = _OBJECT_RE.sub("0", text)
        if replaced == text:
            break
        text = replaced
    try:
        node = _parse(text)
    except _TooManyDigits:
        return True
    return node is not None and (_literal_value(node) is not _NOT_LITERAL or _object_repr(node))


@dataclass
class OutputsEvidence:
    """The votes of one file's outputs, and a few of each kind with where they are."""

    repr_text: int = 0
    """Strings only a repr writer writes (``"'abc'"``, ``"(1, 2)"``)."""
    plain_text: int = 0
    """Strings no repr writer writes (``"abc"``, ``""``)."""
    values: int = 0
    """Outputs that are not strings (``3``, ``true``, ``[1, 2]``)."""
    either: int = 0
    """Strings both write (``"1"``, ``"[1, 2]"``, ``"nan"``)."""
    samples: dict[str, list[str]] = field(default_factory=dict)
    """Per vote, up to :data:`SAMPLES` ``"<where>: <output>"`` lines."""
    _seen: dict[str, Vote] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The vote of each string already classified (outputs repeat across examples)."""

    def add(self, output: object, where: str) -> None:
        """Count one output found at ``where`` (``data.jsonl line 3 test_examples[1]``)."""
        if isinstance(output, str):
            vote = self._seen.get(output)
            if vote is None:
                vote = self._seen[output] = classify(output)
        else:
            vote = "value"
        if vote == "repr":
            self.repr_text += 1
        elif vote == "plain":
            self.plain_text += 1
        elif vote == "value":
            self.values += 1
        else:
            self.either += 1
        kept = self.samples.setdefault(vote, [])
        if len(kept) < SAMPLES:
            kept.append(f"{where}: {shown(output, 60)}")

    def counts(self) -> str:
        """``3 repr text, 12 plain text, 40 JSON values, 9 either`` (the non-zero ones)."""
        parts = [
            (self.repr_text, "repr text"),
            (self.plain_text, "plain text"),
            (self.values, "JSON values"),
            (self.either, "either way"),
        ]
        text = ", ".join(f"{n} {what}" for n, what in parts if n)
        return text or "no outputs of a value"

    def decide(self, shown_as: str) -> Convention:
        """The file's convention (the rule is in the module docstring).

        Args:
            shown_as: the file as the user named it, for the message.

        Raises:
            DatasetError: the votes are too close to decide.
        """
        for_repr = self.repr_text
        for_json = self.plain_text + self.values
        if not for_json:
            return "repr"
        if not for_repr:
            return "json"
        if max(for_repr, for_json) >= MAJORITY * (for_repr + for_json):
            return "repr" if for_repr > for_json else "json"
        raise DatasetError(self._undecided(shown_as))

    def _undecided(self, shown_as: str) -> str:
        def lines(vote: str) -> str:
            return "".join(f"\n    {s}" for s in self.samples.get(vote, []))

        json_side = lines("plain") + lines("value")
        return (
            f"{shown_as}: cannot tell how the example outputs are written ({self.counts()}): "
            "some are repr text, as PAU writes them (\"'abc'\" is the str 'abc'), others plain "
            "JSON values (\"abc\" is the str 'abc', 3 the int 3).\n"
            f"  Like repr text:{lines('repr')}\n"
            f"  Like plain JSON values:{json_side}\n"
            "  Say which with --pau-dataset-outputs=repr or --pau-dataset-outputs=json "
            "(Python: load_dataset(..., outputs='repr')), or write every output one way."
        )


def collect_evidence(
    rows: Iterable[tuple[str, int, Mapping[str, Any] | Exception]], fields: Iterable[str]
) -> OutputsEvidence:
    """Count how the outputs of value examples (not exceptions) in ``rows`` are written.

    Args:
        rows: ``(location, index, row)`` with the example columns already decoded to lists.
        fields: the columns to read (``all_examples`` only repeats the others).

    Malformed columns and pairs are skipped here; the build reports them.
    """
    columns = tuple(fields)
    evidence = OutputsEvidence()
    for location, _index, row in rows:
        if not isinstance(row, Mapping):
            continue
        for column in columns:
            pairs = row.get(column)
            if not isinstance(pairs, (list, tuple)):
                continue
            for i, pair in enumerate(pairs):
                if hasattr(pair, "tolist"):
                    pair = pair.tolist()
                if not isinstance(pair, (list, tuple)) or len(pair) not in (2, 3):
                    continue
                if len(pair) == 3 and pair[2] is not None:
                    continue  # an exception: its message is plain text either way
                evidence.add(pair[1], f"{location} {column}[{i}]")
    return evidence


def read_output(output: object, convention: Convention) -> str:
    """The stored text of one output (an :class:`~pytest_pau.models.Example` ``output``).

    Raises:
        ValueError: the value is too deeply nested to write back as text.
    """
    if convention == "repr" and isinstance(output, str):
        return output
    try:
        return repr(output)
    except RecursionError:
        raise ValueError("output is nested too deeply to read") from None
