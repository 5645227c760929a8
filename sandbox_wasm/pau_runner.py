"""Run one call of an untrusted method: the core shared by the Wasm guest and the process worker.

The host calls :func:`load` once with the method's source and then :func:`call` once per
query. Every call gets fresh globals, a freshly seeded ``random``, a default ``decimal``
context and a recursion limit of 1000; ``print`` output is discarded. The answer is one
JSON object (ASCII only, so it crosses any boundary unchanged) with the fields of
``pytest_pau.models.CallResult`` plus ``dirty``.

``dirty`` says that the method may have changed state shared between calls (a module
attribute such as ``math.pi = 3``, an attribute of a class or function, a newly imported
module, frame or garbage-collector introspection): the host then throws this interpreter
away and starts a fresh one before the next call, so no state leaks between queries.
Detecting is cheap (an audit hook and an identity fingerprint of every module namespace,
about 0.1 ms in Wasm); restarting costs about 1 ms, paid only after such calls.
"""

from __future__ import annotations

import builtins
import collections
import contextlib
import decimal
import io
import json
import random
import sys
from typing import Any

import pau_literals

#: Standard-library modules PAU-style methods use. The Wasm component only contains what
#: is imported when it is built, so everything a method may import is imported here.
PRELOAD = (
    "abc",
    "array",
    "ast",
    "base64",
    "binascii",
    "bisect",
    "calendar",
    "cmath",
    "codecs",
    "collections",
    "collections.abc",
    "contextlib",
    "copy",
    "csv",
    "dataclasses",
    "datetime",
    "decimal",
    "difflib",
    "enum",
    "fractions",
    "functools",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "io",
    "itertools",
    "json",
    "keyword",
    "math",
    "numbers",
    "operator",
    "pprint",
    "random",
    "re",
    "reprlib",
    "statistics",
    "string",
    "struct",
    "textwrap",
    "time",
    "types",
    "typing",
    "unicodedata",
    "uuid",
    "zlib",
    "_strptime",
    "array",
    "graphlib",
    "secrets",
    "shlex",
    "colorsys",
    "fnmatch",
    "locale",
    "weakref",
    "_pylong",
)

#: Audit events after which the interpreter is replaced (state may have been touched).
_TAINT_EVENTS = frozenset(
    {
        "object.__setattr__",
        "object.__delattr__",
        "object.__getattr__",
        "sys._getframe",
        "sys._getframemodulename",
        "sys._current_frames",
        "sys.settrace",
        "sys.setprofile",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "import",
        "builtins.input",
        "sys.addaudithook",
        "cpython.PyInterpreterState_Clear",
        "function.__new__",
    }
)
#: Audit events refused outright while a method runs (the Wasm guest lacks these
#: capabilities anyway; refusing them gives the same clear error in the process backend).
_BLOCKED_PREFIXES = (
    "open",
    "os.",
    "socket.",
    "subprocess.",
    "ctypes.",
    "shutil.",
    "urllib.",
    "http.",
    "ftplib.",
    "smtplib.",
    "poplib.",
    "imaplib.",
    "nntplib.",
    "telnetlib.",
    "webbrowser.",
    "pty.",
    "fcntl.",
    "msvcrt.",
    "winreg.",
    "_winapi.",
    "mmap.",
    "resource.",
    "signal.",
    "syslog.",
    "sqlite3.",
    "glob.",
    "tempfile.",
    "pathlib.",
    "_posixsubprocess.",
    "sys.monitoring",
    # A sleep blocks inside the host, where the epoch deadline cannot interrupt it.
    "time.sleep",
)
#: In the process backend (trusted code, real filesystem) only the dangerous ones.
_PROCESS_BLOCKED = (
    "os.system",
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "os.fork",
    "os.forkpty",
    "os.kill",
    "os.killpg",
    "os.remove",
    "os.unlink",
    "os.rename",
    "os.rmdir",
    "os.mkdir",
    "os.chmod",
    "os.chown",
    "os.truncate",
    "os.symlink",
    "os.link",
    "os.putenv",
    "os.unsetenv",
    "socket.",
    "subprocess.",
    "ctypes.",
    "shutil.",
    "pty.",
    "signal.",
    "resource.",
    "webbrowser.",
    "urllib.",
    "http.",
    "ftplib.",
    "smtplib.",
    "_posixsubprocess.",
)
_MAX_MESSAGE = 2000
_MAX_FRAMES = 6


class _State:
    """Everything the runner keeps between calls (one instance, ``_S``)."""

    def __init__(self) -> None:
        self.code: Any = None
        self.entry = "test_func"
        self.load_error: dict[str, Any] | None = None
        self.in_call = False
        self.tainted: str | None = None
        self.snapshot: dict[
            str, tuple[Any, dict[str, Any], list[str], list[int], tuple[str, ...]]
        ] = {}
        self.full_check = True
        self.seeded: int | None = None
        self.touched: set[str] = set()
        self.n_modules = 0
        self.builtins_dict: dict[str, Any] = {}
        self.strict = True


_S = _State()
# Bound once, so a method that rebinds builtins or json cannot change how results are
# reported after it returns.
_id, _list, _map, _len, _type, _repr, _str = id, list, map, len, type, repr, str
_dumps = json.dumps
_isnt_literal = pau_literals.is_literal
_parse, _LiteralError = pau_literals.parse_literal, pau_literals.LiteralError


class _Sink(io.TextIOBase):
    """Where ``print`` goes inside the sandbox: nowhere."""

    def write(self, s: str) -> int:
        return len(s)

    def writable(self) -> bool:
        return True


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _S.in_call:
        return
    if event in _TAINT_EVENTS:
        if _S.tainted is None:
            _S.tainted = event
        return
    if _S.strict:
        blocked = event.startswith(_BLOCKED_PREFIXES)
    else:
        # Trusted code may read files (lazy imports do), but not write them.
        mode = args[1] if event == "open" and _len(args) > 1 and isinstance(args[1], str) else ""
        blocked = event.startswith(_PROCESS_BLOCKED) or any(c in mode for c in "wax+")
    if blocked:
        _S.tainted = _S.tainted or event
        target = f" {args[0]!r}" if args and isinstance(args[0], (str, bytes, int)) else ""
        raise PermissionError(
            f"sandbox: {event}{target} is not allowed (no filesystem, network, processes or OS access)"
        )


def init(strict: bool = True) -> None:
    """Import :data:`PRELOAD` and install the audit hook; :func:`seal` comes after.

    Args:
        strict: True in the Wasm guest; False in the process backend, where reading
            ``.py`` files for lazy stdlib imports must stay possible.
    """
    import importlib

    for name in PRELOAD:
        with contextlib.suppress(ImportError):  # a module this build of CPython lacks
            importlib.import_module(name)
    sys.set_int_max_str_digits(0)
    _S.strict = strict
    if strict:
        # select() with a timeout would also block inside the host; nothing PAU needs.
        sys.modules["select"] = None  # type: ignore[assignment]
    _S.builtins_dict = dict(builtins.__dict__)
    _S.builtins_dict["__import__"] = _tracking_import
    # The method must not find this module (and its state) through sys.modules.
    sys.modules.pop("pau_runner", None)
    sys.modules.pop("pau_literals", None)
    sys.addaudithook(_audit)


def seal() -> None:
    """Fingerprint every module namespace: the state each call is checked against.

    Call it last, once the entry module has defined everything it defines.
    """
    _snapshot()


def _snapshot() -> None:
    snap = {}
    by_id = {_id(m): n for n, m in _list(sys.modules.items())}
    for name, mod in _list(sys.modules.items()):
        d = getattr(mod, "__dict__", None)
        if _type(d) is not dict:
            continue
        # Modules reachable in one attribute step (``os.path`` from ``os``) are checked
        # together with the module itself.
        near = tuple(
            {by_id[_id(v)] for v in d.values() if _id(v) in by_id and _type(v) is _type(sys)}
        )
        snap[name] = (mod, d, _list(d), _list(_map(_id, d.values())), near)
    _S.snapshot = snap
    _S.n_modules = _len(sys.modules)


def _module_changed(name: str) -> bool:
    entry = _S.snapshot.get(name)
    if entry is None:
        return False
    mod, d, keys, ids, _near = entry
    return (
        sys.modules.get(name) is not mod
        or _len(d) != _len(keys)
        or _list(_map(_id, d.values())) != ids
        or _list(d) != keys
    )


def _changed(old_only: bool = False) -> str | None:
    """Name of the first module whose namespace differs from the snapshot, or None.

    In the fast mode only the modules the method imported (and their direct module
    attributes) are compared: comparing all ~6000 module attributes costs ~2 ms in Wasm,
    ten times a typical call. Code that could reach other modules without importing them
    (``getattr``, ``__globals__``, ``sys``...) runs in the full mode (see :func:`load`).

    Args:
        old_only: Ignore modules imported since the snapshot.
    """
    modules = sys.modules
    if _len(modules) != _S.n_modules and not old_only:
        return "sys.modules"
    if _S.full_check:
        if _S.strict:
            # Comparing everything costs ~8 ms in Wasm; a fresh instance costs ~1 ms.
            return "risky code: fresh interpreter per call"
        names = _S.snapshot
    else:
        names = {"builtins"}
        for name in _S.touched:
            names.add(name)
            entry = _S.snapshot.get(name)
            if entry is not None:
                names.update(entry[4])
    for name in names:
        if _module_changed(name):
            return name
    return None


#: Names whose presence in a method's code could reach modules it does not import, or
#: the sandbox's own state; such code gets the full (slower) state check on every call.
_RISKY_NAMES = frozenset(
    {
        "getattr",
        "setattr",
        "delattr",
        "vars",
        "globals",
        "locals",
        "eval",
        "exec",
        "compile",
        "__import__",
        "breakpoint",
        "format",
        "format_map",
        "attrgetter",
        "methodcaller",
        "Formatter",
        "sys",
        "gc",
        "inspect",
        "importlib",
        "builtins",
        "modules",
        "object",
        "type",
        "super",
        "dir",
        "help",
        "open",
        "memoryview",
        "pickle",
        "copyreg",
        "marshal",
        "tb_frame",
        "f_globals",
        "f_back",
        "f_builtins",
        "f_locals",
        "gi_frame",
        "cr_frame",
        "ag_frame",
        "gi_code",
    }
)
_SAFE_DUNDERS = frozenset(
    {
        "__init__",
        "__name__",
        "__main__",
        "__module__",
        "__qualname__",
        "__firstlineno__",
        "__static_attributes__",
        "__classcell__",
        "__doc__",
        "__annotations__",
        "__annotate__",
        "__repr__",
        "__str__",
        "__len__",
        "__iter__",
        "__next__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__contains__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__bool__",
        "__add__",
        "__sub__",
        "__mul__",
        "__truediv__",
        "__floordiv__",
        "__mod__",
        "__pow__",
        "__neg__",
        "__pos__",
        "__abs__",
        "__call__",
        "__enter__",
        "__exit__",
        "__slots__",
        "__post_init__",
        "__radd__",
        "__rmul__",
        "__and__",
        "__or__",
        "__xor__",
        "__invert__",
        "__index__",
        "__int__",
        "__float__",
        "__lshift__",
        "__rshift__",
        "__matmul__",
        "__iadd__",
        "__isub__",
        "__imul__",
        "__reversed__",
        "__missing__",
        "__format__",
    }
)


def _risky(code: Any) -> bool:
    """Whether compiled code names anything that escapes the import-based state check."""
    for name in code.co_names:
        if name in _RISKY_NAMES or (name.startswith("__") and name not in _SAFE_DUNDERS):
            return True
    for const in code.co_consts:
        if _type(const) is str and "__" in const and const not in _SAFE_DUNDERS:
            return True
        if hasattr(const, "co_names") and _risky(const):
            return True
    return False


def _tracking_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    module = _real_import(name, globals, locals, fromlist, level)
    if level == 0 and _type(name) is str:
        touched = _S.touched
        parts = name.split(".")
        for i in range(1, _len(parts) + 1):
            touched.add(".".join(parts[:i]))
        for item in fromlist or ():
            if _type(item) is str:
                touched.add(f"{name}.{item}")
    return module


_real_import = builtins.__import__


def load(code: str, entry: str) -> str:
    """Compile the method's source; returns ``""`` or a JSON error result."""
    _S.entry = entry
    _S.code = None
    _S.load_error = None
    try:
        _S.code = compile(code, "<method>", "exec")
    except (
        BaseException
    ) as exc:  # SyntaxError, ValueError (null bytes), RecursionError, MemoryError
        _S.load_error = _error(exc, with_traceback=False)
        return _dumps(_S.load_error)
    _S.full_check = _risky(_S.code)
    import linecache

    # Lets tracebacks show the method's own source lines.
    linecache.cache["<method>"] = (len(code), None, code.splitlines(True), "<method>")
    return ""


_PRISTINE_DECIMAL = decimal.Context(
    prec=28,
    rounding=decimal.ROUND_HALF_EVEN,
    Emin=-999999,
    Emax=999999,
    capitals=1,
    clamp=0,
    flags=[],
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)


def _reset(seed: int) -> None:
    # Seeding costs ~9 us (a sixth of a whole call), so ``random`` is re-seeded only
    # when the previous call may have drawn from it (it imported random, or its code is
    # risky) or the seed changed.
    if _S.seeded != seed:
        random.seed(seed)
        _S.seeded = seed
    decimal.setcontext(_PRISTINE_DECIMAL.copy())
    sys.setrecursionlimit(1000)
    sys.set_int_max_str_digits(0)


def call(args_text: str, seed: int, max_output: int) -> str:
    """Run the loaded entry on the literal argument tuple ``args_text``; returns JSON."""
    if _S.load_error is not None:
        return _dumps(dict(_S.load_error, dirty=None))
    if _S.code is None:
        return _dumps(
            {
                "ok": False,
                "error_type": "SandboxError",
                "message": "call() before load()",
                "dirty": None,
            }
        )
    try:
        args = _parse(args_text)
    except _LiteralError as exc:
        return _dumps(
            {"ok": False, "error_type": "InputError", "message": _str(exc), "dirty": None}
        )
    if _type(args) is not tuple:
        args = (args,)
    _reset(seed)
    out: dict[str, Any]
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = _Sink(), _Sink(), io.StringIO()
    _S.tainted = None
    _S.touched = set()
    _S.in_call = True
    try:
        namespace = {"__name__": "__pau_method__", "__builtins__": dict(_S.builtins_dict)}
        exec(_S.code, namespace)
        func = namespace.get(_S.entry)
        if func is None:
            raise NameError(f"the code defines no function {_S.entry!r}")
        if not callable(func):
            raise TypeError(f"{_S.entry!r} is a {_type(func).__name__}, not a function")
        result = func(*args)
        out = _value(result, max_output)
    except BaseException as exc:
        out = _error(exc, with_traceback=True)
        if _type(exc) is MemoryError:
            out["dirty"] = "MemoryError"  # give the grown heap back to the host
    finally:
        _S.in_call = False
        sys.stdout, sys.stderr, sys.stdin = saved
        if _S.full_check or "random" in _S.touched:
            _S.seeded = None
    dirty = out.get("dirty") or _S.tainted or _changed()
    if dirty in ("import", "sys.modules") and not _S.strict and _changed(old_only=True) is None:
        # Process backend: a newly imported module is fresh state, not leaked state;
        # restarting the worker for it would re-import it on every call.
        _snapshot()
        dirty = None
    out["dirty"] = dirty
    return _dumps(out)


def _value(result: Any, max_output: int) -> dict[str, Any]:
    try:
        text = _repr(result)
        if _type(text) is not str:
            raise TypeError("__repr__ returned a non-string")
    except BaseException as exc:
        out = _error(exc, with_traceback=True)
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


def _error(exc: BaseException, *, with_traceback: bool) -> dict[str, Any]:
    name = _type(exc).__name__
    if _type(name) is not str:
        name = "Exception"
    message = _safe_text(exc)
    if name == "MemoryError" and not message:
        message = "out of memory: the sandbox's memory cap was reached"
    if isinstance(exc, SyntaxError) and exc.lineno:
        message = f"{exc.msg} (line {exc.lineno})"
    out: dict[str, Any] = {"ok": False, "error_type": name, "message": message}
    if with_traceback:
        out["traceback"] = _short_traceback(exc, name, message)
    return out


def _short_traceback(exc: BaseException, name: str, message: str) -> str:
    # Only the method's own frames, and only the innermost few: a RecursionError has a
    # thousand identical ones.
    frames: collections.deque[tuple[int, str]] = collections.deque(maxlen=_MAX_FRAMES)
    total = 0
    tb = exc.__traceback__
    guarded, _S.in_call = _S.in_call, False  # our own frame walk is not the method's
    try:
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == "<method>":
                frames.append((tb.tb_lineno, code.co_name))
                total += 1
            tb = tb.tb_next
    finally:
        _S.in_call = guarded
    import linecache

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
