"""Python literal text in dataset files: a fast check, and messages that show the source.

``ast.literal_eval`` says ``malformed node or string on line 1: <ast.Call object at 0x...>``
when it refuses a text; :func:`literal_problem` names the offending part as it is written
(``'f(1)' is a call``) so the message can be acted on.
"""

from __future__ import annotations

import ast
import json

_CONTAINERS = (ast.Tuple, ast.List, ast.Set)
_SIGNS = (ast.USub, ast.UAdd)
_NUMBERS = (int, float, complex)
_REALS = (int, float)

_KINDS: dict[type[ast.AST], str] = {
    ast.Call: "a call",
    ast.Name: "a name",
    ast.Attribute: "an attribute",
    ast.Subscript: "a subscript",
    ast.Lambda: "a lambda",
    ast.BinOp: "an operation",
    ast.BoolOp: "an operation",
    ast.UnaryOp: "an operation",
    ast.Compare: "a comparison",
    ast.IfExp: "a conditional expression",
    ast.JoinedStr: "an f-string",
    ast.Starred: "an unpacking",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a comprehension",
}


def shown(value: object, limit: int = 100) -> str:
    """``repr(value)``, cut to about ``limit`` characters for an error message.

    A dataset line can be megabytes long; a message must stay readable.
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 30]}...{text[-12:]} ({len(text):,} characters)"


def plain_literal(node: ast.AST) -> bool:
    """Whether ``node`` is built only of constants, containers and signed numbers.

    A fast, allocation-free subset of :func:`ast.literal_eval` (which also builds the value):
    True means literal; False means "ask literal_eval", which accepts a few more forms.
    """
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is ast.Constant:
            continue
        if kind in _CONTAINERS:
            stack.extend(item.elts)  # type: ignore[attr-defined]
        elif kind is ast.Dict:
            if None in item.keys:  # type: ignore[attr-defined]
                return False
            stack.extend(item.keys)  # type: ignore[attr-defined]
            stack.extend(item.values)  # type: ignore[attr-defined]
        elif (
            kind is ast.UnaryOp
            and type(item.op) in _SIGNS  # type: ignore[attr-defined]
            and type(item.operand) is ast.Constant  # type: ignore[attr-defined]
            and type(item.operand.value) in _NUMBERS  # type: ignore[attr-defined, operator]
        ):
            continue
        else:
            return False
    return True


def _signed_real(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _SIGNS):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in _REALS


def _allowed(node: ast.AST) -> bool:
    """Whether ``literal_eval`` accepts ``node`` itself (its children are checked apart)."""
    if isinstance(node, (ast.Constant, *_CONTAINERS, ast.Dict)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _SIGNS):
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in _NUMBERS
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        # ``1+2j``: a real and an imaginary number, the only operation literal_eval reads.
        right = node.right
        return (
            _signed_real(node.left)
            and isinstance(right, ast.Constant)
            and type(right.value) is complex
        )
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "set"
        and not node.args
        and not node.keywords
    )


def first_non_literal(node: ast.AST) -> tuple[ast.AST, bool] | None:
    """The outermost part of ``node``, first in source order, that is not a literal.

    Returns:
        ``(part, unpacked)``; ``unpacked`` is True for the value of a ``**`` in a dict.
        None when every part is a literal (the text may still be refused as a whole, e.g.
        an unhashable dict key).
    """
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    while stack:
        item, unpacked = stack.pop()
        if unpacked or not _allowed(item):
            return item, unpacked
        children: list[tuple[ast.AST, bool]] = []
        if isinstance(item, _CONTAINERS):
            children = [(child, False) for child in item.elts]
        elif isinstance(item, ast.Dict):
            for key, value in zip(item.keys, item.values, strict=True):
                if key is None:
                    children.append((value, True))
                else:
                    children.extend(((key, False), (value, False)))
        stack.extend(reversed(children))  # popped in source order
    return None


def literal_problem(text: str, node: ast.AST, error: Exception) -> str:
    """Why ``ast.literal_eval`` refused ``node`` (parsed from ``text``), naming the source.

    Args:
        text: the source that was parsed.
        node: its parsed expression.
        error: what ``literal_eval`` raised, used when no single part is to blame.
    """
    found = first_non_literal(node)
    if found is None:
        return f"{type(error).__name__}: {error}"
    part, unpacked = found
    segment = ast.get_source_segment(text, part) or ast.unparse(part)
    if unpacked:
        return f"'**{shown(segment, 60)[1:-1]}' is an unpacking, not a value"
    kind = _KINDS.get(type(part), f"a {type(part).__name__} expression")
    return (
        f"{shown(segment, 60)} is {kind}, not a value; write values only "
        "(numbers, quoted strings, True/False/None, lists, tuples, dicts, sets)"
    )


def syntax_problem(error: SyntaxError) -> str:
    """``invalid syntax at column 4`` from a :class:`SyntaxError` of a one-line text."""
    where = f" at column {error.offset}" if error.offset else ""
    return f"not valid Python: {error.msg}{where}"


def json_problem(error: json.JSONDecodeError, unit: str = "column", at_end: str = "") -> str:
    """``Expecting value at column 15, near '1, "b": '`` from a one-line JSON text's error.

    Args:
        error: what ``json.loads`` raised; its ``doc`` is the text.
        unit: ``column`` (a file's line) or ``character`` (a JSON text inside a field).
        at_end: added when the error is at the end of the text (it was cut short).
    """
    msg = error.msg
    number = error.colno if unit == "column" else error.pos + 1
    # json writes "Unterminated string starting at" and "Invalid control character at": the
    # position completes the sentence.
    where = f"{msg} {unit} {number}" if msg.endswith(" at") else f"{msg} at {unit} {number}"
    doc = error.doc if isinstance(error.doc, str) else ""
    near = doc[max(0, error.pos - 20) : error.pos + 20]
    if near.strip():
        where += f", near {shown(near, 60)}"
    if at_end and error.pos >= len(doc.rstrip()):
        where += f"; {at_end}"
    return where
