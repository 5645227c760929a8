"""The guest's answers: a call's result or error as the JSON object the host reads.

Used by :mod:`pau_runner`. Everything here may handle the method's objects (its return
value, its exception), so each read goes through C functions bound at start-up or the base
classes' own descriptors: a method could otherwise replace ``JSONEncoder.encode`` and
write its own answer, or plant a property that runs where the guard is off.
"""

from __future__ import annotations

import collections
import linecache
import types
from typing import Any

import pau_guard
import pau_literals

try:
    from _json import encode_basestring_ascii as _quote
except ImportError:  # a CPython built without the C accelerator
    from json.encoder import py_encode_basestring_ascii as _quote

_MAX_MESSAGE = 2000
_MAX_FRAMES = 6

_G = pau_guard.G
# Bound once, so a method that rebinds builtins cannot change how answers are written.
_len, _type, _repr, _str = len, type, repr, str
_int_repr = int.__repr__
_isnt_literal = pau_literals.is_literal


_OK_ANSWER = '{"ok": true, "value": %s, "literal": %s, "truncated": %s, "dirty": null}'


def dumps(out: dict[str, Any]) -> str:
    """The answer as JSON, written only with C functions bound at start-up.

    ``json.dumps`` runs ``JSONEncoder`` methods, which a method can replace on the class:
    it could then write its own answer (``"dirty": null`` included). Values are str, int,
    bool or None.
    """
    if _len(out) == 5 and out.get("ok") is True and out.get("dirty") is None:
        # The common answer, in one format: about half the time of the loop below.
        return _OK_ANSWER % (
            _quote(out["value"]),
            "true" if out["literal"] else "false",
            "true" if out["truncated"] else "false",
        )
    parts = []
    for key, value in out.items():
        if value is None:
            text = "null"
        elif value is True:
            text = "true"
        elif value is False:
            text = "false"
        elif _type(value) is int:
            text = _int_repr(value)
        else:
            text = _quote(value)
        parts.append(f"{_quote(key)}: {text}")
    return "{" + ", ".join(parts) + "}"


def value(result: Any, max_output: int) -> dict[str, Any]:
    try:
        text = _repr(result)
        if _type(text) is not str:
            raise TypeError("__repr__ returned a non-string")
    except BaseException as exc:
        out = error(exc, with_traceback=True)
        out["message"] = f"the method returned a value whose repr() failed: {out['message']}"
        return out
    literal = _isnt_literal(result)
    truncated = _len(text) > max_output
    if truncated:
        text = f"{text[:max_output]}...[truncated {_len(text) - max_output} chars]"
        literal = False
    return {"ok": True, "value": text, "literal": literal, "truncated": truncated}


def _safe_text(obj: Any) -> str:
    try:
        text = _str(obj)
        if _type(text) is not str:
            text = "<message is not a string>"
    except BaseException:
        text = "<message could not be converted to text>"
    if _len(text) > _MAX_MESSAGE:
        text = f"{text[:_MAX_MESSAGE]}...[truncated {_len(text) - _MAX_MESSAGE} chars]"
    return text


def error(exc: BaseException, *, with_traceback: bool) -> dict[str, Any]:
    """The error answer for ``exc``. Its class may be the method's: its name, message and
    line number are read through the base classes' own C descriptors, and anything that
    still fails leaves a plain answer rather than an exception in the answer path."""
    try:
        return _describe(exc, with_traceback)
    except BaseException:
        return {
            "ok": False,
            "error_type": "Exception",
            "message": "<the exception could not be described>",
        }


#: ``error_type`` values of the sandbox's own (``NOT_METHOD_ERRORS`` on the host): a class
#: of the method's with one of these names is reported under its module's name, so that
#: its exception can neither pass for a timeout nor hide a mismatch.
_RESERVED = frozenset({"Timeout", "InputError", "SandboxError", "SandboxLimitation"})


def _describe(exc: BaseException, with_traceback: bool) -> dict[str, Any]:
    name = _type_name(_type(exc))
    if _type(name) is not str:
        name = "Exception"
    if name in _RESERVED:
        name = f"{pau_guard.METHOD_MODULE}.{name}"
    message = _safe_text(exc)
    if name == "MemoryError" and not message:
        message = "out of memory: the sandbox's memory cap was reached"
    if issubclass(_type(exc), SyntaxError):
        lineno, msg = _syntax_lineno(exc), _syntax_msg(exc)
        if _type(lineno) is int and lineno and _type(msg) is str:
            message = f"{msg} (line {_int_repr(lineno)})"
    out: dict[str, Any] = {"ok": False, "error_type": name, "message": message}
    if with_traceback:
        out["traceback"] = _short_traceback(exc, name, message)
    return out


_type_name = type.__dict__["__name__"].__get__
_exc_traceback = BaseException.__dict__["__traceback__"].__get__
_Traceback, _Frame = types.TracebackType, types.FrameType
_tb_frame = _Traceback.__dict__["tb_frame"].__get__
_tb_next = _Traceback.__dict__["tb_next"].__get__
_tb_lineno = _Traceback.__dict__["tb_lineno"].__get__
_frame_code = _Frame.__dict__["f_code"].__get__
_code_filename = types.CodeType.__dict__["co_filename"].__get__
_code_name = types.CodeType.__dict__["co_name"].__get__
_syntax_lineno = SyntaxError.__dict__["lineno"].__get__
_syntax_msg = SyntaxError.__dict__["msg"].__get__


def _short_traceback(exc: BaseException, name: str, message: str) -> str:
    # Only the method's own frames, and only the innermost few: a RecursionError has a
    # thousand identical ones.
    frames: collections.deque[tuple[int, str]] = collections.deque(maxlen=_MAX_FRAMES)
    total = 0
    # Read through C descriptors, and only real tracebacks and frames: the exception's
    # class is the method's, and the walk runs unguarded.
    tb = _exc_traceback(exc)
    guarded, _G.in_call = _G.in_call, False  # our own frame walk is not the method's
    try:
        while _type(tb) is _Traceback:
            frame = _tb_frame(tb)
            if _type(frame) is not _Frame:
                break
            code = _frame_code(frame)
            if _code_filename(code) == "<method>":
                frames.append((_tb_lineno(tb), _code_name(code)))
                total += 1
            tb = _tb_next(tb)
    finally:
        _G.in_call = guarded

    lines = ["Traceback (most recent call last):"]
    if total > _len(frames):
        lines.append(f"  ... {total - _len(frames)} earlier frames of the method")
    for lineno, func in frames:
        lines.append(f"  line {lineno}, in {func}")
        source = linecache.getline("<method>", lineno).strip()
        if source:
            lines.append(f"    {source}")
    lines.append(f"{name}: {message}" if message else name)
    return "\n".join(lines)
