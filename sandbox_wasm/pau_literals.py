"""Python literal text: the only form in which values cross the sandbox boundary.

This module runs in three places: inside the WebAssembly guest, inside the ``process``
backend's worker, and on the host (``pytest_pau.sandbox.literals`` loads this very file),
so both sides agree on what a literal is. It uses the standard library only.

``ast.literal_eval`` alone cannot read back everything a method returns: ``repr`` writes
``nan``, ``inf``, ``frozenset({1})`` and ``(nan+infj)``, and integers over 4300 digits hit
CPython's int/str conversion limit. :func:`parse_literal` accepts exactly those extras on
top of what ``ast.literal_eval`` reads, and nothing that could run code.
"""

from __future__ import annotations

import ast
import math
import sys
from typing import Any

#: Names a repr may contain that stand for a value.
_NAMES: dict[str, Any] = {
    "nan": math.nan,
    "inf": math.inf,
    "infj": complex(0.0, math.inf),
    "nanj": complex(0.0, math.nan),
    "True": True,
    "False": False,
    "None": None,
}
_ATOMS = (int, float, complex, str, bytes, bool, type(None))
_ATOM_SET = frozenset(_ATOMS)
_CONTAINERS = frozenset({tuple, list, set, frozenset, dict})
_MAX_DEPTH = 200
#: Deepest nesting of an input the sandbox accepts (containers and signs, the argument
#: tuple included: ``([[1]],)`` is 3). The Wasm guest's parser reads at most 110 levels of
#: lists (~114 of mixed containers, ~116 of tuples, sets and dicts; CPython 3.14 in
#: componentize-py 0.25, wasmtime's 512 KiB stack) and traps one level deeper, which came
#: back as the method's ``RecursionError``: the host refuses deeper input before it reaches
#: the guest.
MAX_INPUT_DEPTH = 100
#: Most decimal digits of one integer in an input. Reading decimal digits is quadratic in
#: CPython: the guest spent 0.96e9 of a call's 5e9 fuel reading a 100,000-digit input, and
#: ran out of fuel on 300,000 digits (a ``Timeout`` before the method started); the host's
#: check (CPython 3.11) took 19 s of CPU on 1,000,000 digits. Outputs have no such limit.
MAX_INPUT_INT_DIGITS = 50_000


class LiteralError(ValueError):
    """The text is not a Python literal this module reads."""


class DigitsError(LiteralError):
    """The text holds an integer of more decimal digits than the limit it was read with."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"an integer of more than {limit} digits")
        self.limit = limit


class NestingError(LiteralError):
    """The text is a literal nested deeper than the limit it was read with."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"nested deeper than {limit} levels")
        self.limit = limit


def parse_literal(text: str, max_depth: int = _MAX_DEPTH, max_int_digits: int = 0) -> Any:
    """Read a Python literal, including ``nan``, ``inf``, ``set()`` and ``frozenset({...})``.

    Args:
        text: What ``repr`` wrote, or what a model typed, e.g. ``"([1, 2], {'a': nan})"``.
        max_depth: Deepest nesting read (containers and signs: ``([-1],)`` is 3).
        max_int_digits: Most decimal digits of an integer (0: any number; at least 640).

    Returns:
        The value.

    Raises:
        NestingError: ``text`` is nested deeper than ``max_depth`` (or than ``ast`` reads).
        DigitsError: an integer of ``text`` has more than ``max_int_digits`` digits.
        LiteralError: ``text`` is not a literal (a name, a call, a lambda, an operator...).
    """
    if not isinstance(text, str):
        raise LiteralError(f"expected literal text (str), got {type(text).__name__}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        if "4300" in str(exc) or "int_max_str_digits" in str(exc):
            if max_int_digits < 0:  # read already under the caller's limit: over it
                raise DigitsError(sys.get_int_max_str_digits()) from None
            return _parse_without_digit_limit(text, max_depth, max_int_digits)
        if "too many nested" in str(exc.msg):  # the tokenizer's 200 levels of brackets
            raise NestingError(max_depth) from None
        raise LiteralError(f"not valid Python: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise NestingError(max_depth) from None
    try:
        return _eval(tree.body, 0, max_depth)
    except LiteralError:
        raise  # already says why (it is a ValueError: not to be wrapped below)
    except RecursionError:
        raise NestingError(max_depth) from None
    except (TypeError, ValueError, OverflowError, MemoryError) as exc:
        # {[1]: 2} (unhashable key), 1e400j-like sums too large for a complex...: text a
        # model or a hostile __repr__ wrote must be refused, never crash the caller.
        raise LiteralError(f"not a valid literal value: {type(exc).__name__}: {exc}") from None


def _parse_without_digit_limit(text: str, max_depth: int, max_int_digits: int) -> Any:
    # Integers over 4300 digits are legitimate method outputs (2**20000); lift the
    # CPython conversion limit just for this parse (to ``max_int_digits``, 0 for none).
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(max_int_digits)
    try:
        return parse_literal(text, max_depth, -1)
    finally:
        sys.set_int_max_str_digits(old)


def _eval(node: ast.AST, depth: int, limit: int) -> Any:
    if depth > limit:
        raise NestingError(limit)
    if isinstance(node, ast.Constant):
        if node.value is Ellipsis:
            raise LiteralError("'...' is not a literal value")
        return node.value
    if isinstance(node, ast.Name):
        if node.id in _NAMES:
            return _NAMES[node.id]
        raise LiteralError(f"name {node.id!r} is not a literal")
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e, depth + 1, limit) for e in node.elts)
    if isinstance(node, ast.List):
        return [_eval(e, depth + 1, limit) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_eval(e, depth + 1, limit) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise LiteralError("'**' unpacking is not a literal")
        return {
            _eval(k, depth + 1, limit): _eval(v, depth + 1, limit)
            for k, v in zip(node.keys, node.values, strict=True)
        }  # type: ignore[arg-type]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _eval(node.operand, depth + 1, limit)
        if type(operand) not in (int, float, complex):
            raise LiteralError("a sign applies to numbers only")
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        # Only ``real +/- imaginary``, the way repr writes a complex number.
        left, right = _eval(node.left, depth + 1, limit), _eval(node.right, depth + 1, limit)
        if type(left) not in (int, float) or type(right) is not complex:
            raise LiteralError("'+'/'-' is only allowed between a real and an imaginary number")
        return (
            complex(left + right.real, right.imag)
            if isinstance(node.op, ast.Add)
            else complex(left - right.real, -right.imag)
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        return _eval_call(node.func.id, node.args, depth, limit)
    raise LiteralError(
        f"{type(node).__name__} is not a literal (only constants, containers, nan/inf, set() and frozenset())"
    )


def _eval_call(name: str, args: list[ast.expr], depth: int, limit: int) -> Any:
    if len(args) > 1:
        raise LiteralError(f"{name}() takes at most one argument here")
    if name in ("set", "frozenset"):
        items = _eval(args[0], depth + 1, limit) if args else ()
        if type(items) not in (tuple, list, set, frozenset, dict, str, bytes):
            raise LiteralError(f"{name}() needs a literal collection")
        return set(items) if name == "set" else frozenset(items)
    if (
        name == "float"
        and args
        and isinstance(args[0], ast.Constant)
        and isinstance(args[0].value, str)
    ):
        text = args[0].value.strip().lower()
        if text.lstrip("+-") in ("nan", "inf", "infinity"):
            return float(text)
    raise LiteralError(
        f"call of {name!r} is not a literal (only set(), frozenset() and float('nan'/'inf'))"
    )


def is_literal(value: Any) -> bool:
    """Whether ``repr(value)`` reads back with :func:`parse_literal` to an equal value.

    Exact built-in types only: a ``Counter``, a named tuple or an ``IntEnum`` writes a repr
    that is not a literal. Cyclic and very deep containers are not literals either.
    """
    return _is_literal(value, 0, set())


def _flat(value: Any, kind: type) -> bool:
    # A container of atoms, checked in C; it cannot contain itself, so it needs no id()
    # (an audited call: inside the sandbox each one runs the audit hook).
    if kind is dict:
        return all(map(_ATOM_SET.__contains__, map(type, value))) and all(
            map(_ATOM_SET.__contains__, map(type, value.values()))
        )
    return all(map(_ATOM_SET.__contains__, map(type, value)))


def _is_literal(value: Any, depth: int, active: set[int]) -> bool:
    kind = type(value)
    if kind in _ATOM_SET:
        return True
    if depth > _MAX_DEPTH or kind not in _CONTAINERS:
        return False
    if _flat(value, kind):
        return True
    key = id(value)
    if key in active:
        return False  # a cycle: repr writes [...]
    active.add(key)
    try:
        if kind is dict:
            return all(
                _is_literal(k, depth + 1, active) and _is_literal(v, depth + 1, active)
                for k, v in value.items()
            )
        return all(_is_literal(v, depth + 1, active) for v in value)
    finally:
        active.discard(key)


def literal_equal(a: Any, b: Any) -> bool:
    """``a == b`` for literal values, except that nan equals nan (also inside containers)."""
    try:
        if a == b:
            return True
    except Exception:
        return False
    return _nan_equal(a, b, 0)


def _nan_equal(a: Any, b: Any, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, complex) and isinstance(b, complex):
        return _nan_equal(a.real, b.real, depth) and _nan_equal(a.imag, b.imag, depth)
    if type(a) is not type(b) and not (
        isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset))
    ):
        try:
            return bool(a == b)
        except Exception:
            return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(
            _nan_equal(x, y, depth + 1) for x, y in zip(a, b, strict=True)
        )
    if isinstance(a, dict):
        if len(a) != len(b):
            return False
        for k, v in a.items():
            if k in b:
                if not _nan_equal(v, b[k], depth + 1):
                    return False
            elif not any(
                _nan_equal(k, k2, depth + 1) and _nan_equal(v, v2, depth + 1)
                for k2, v2 in b.items()
            ):
                return False
        return True
    if isinstance(a, (set, frozenset)):
        if len(a) != len(b) or len(a) > 1000:
            return False
        rest = list(b)
        for x in a:
            for i, y in enumerate(rest):
                if _nan_equal(x, y, depth + 1):
                    del rest[i]
                    break
            else:
                return False
        return True
    return False
