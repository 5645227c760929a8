"""The sandbox's isolation policy: what a method may not do while it runs.

Used by :mod:`pau_runner` (the Wasm guest and the process worker):

- the audit hook (:func:`audit`) refuses I/O, processes and OS access outright while a
  method runs, and marks the call as having touched shared state (``tainted``) on events
  such as ``object.__setattr__``, frame or garbage-collector introspection, or an import;
- :func:`tracking_import`, the methods' ``__import__``, records which modules a call
  imported: the state check (:mod:`pau_state`) compares those after the call.

A tainted or changed call is ``dirty``: the host throws this interpreter away and starts
a fresh one before the next call, so no state leaks between queries.
"""

from __future__ import annotations

import builtins
import os
import sys
from typing import Any

#: Audit events after which the interpreter is replaced (state may have been touched).
_TAINT_EVENTS = frozenset(
    {
        "object.__setattr__",
        "object.__delattr__",
        "object.__getattr__",
        "sys._getframe",
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
#: ``open`` flags that write, create or truncate (refused in the process backend).
_WRITE_FLAGS = 0
for _flag in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"):
    _WRITE_FLAGS |= getattr(os, _flag, 0)
del _flag
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


class _Guard:
    """What the policy keeps between calls (one instance, ``G``)."""

    def __init__(self) -> None:
        self.in_call = False
        self.tainted: str | None = None
        #: The loaded code is risky (``pau_names.risky``): compare everything after each call.
        self.full_check = True
        #: Every name the loaded code spells, strings included (``pau_names.Spelling.reach``).
        self.names: frozenset[str] = frozenset()
        #: Modules the current call imported (:func:`tracking_import`).
        self.touched: set[str] = set()
        #: The current call used a builtin that reaches objects by computed name
        #: (:data:`REACHING`): compare everything after it, as for risky code.
        self.reach_all = False
        #: Every class and function at the snapshot, by identity hash (``pau_state.snapshot``).
        self.known: dict[int, Any] = {}
        self.strict = True
        #: Process backend: top-level modules the current call failed to import (refused
        #: by this guard as they loaded, say); the next worker imports them before its
        #: snapshot, where nothing is refused.
        self.failed_imports: set[str] = set()


G = _Guard()
#: ``__name__`` of the module a method's code runs in (registered only during its call).
METHOD_MODULE = "__pau_method__"
#: Attribute events that leave no trace when the object is the method's own class or
#: function (dataclasses, typing and namedtuple read and set those on its behalf).
_OWNABLE_EVENTS = frozenset({"object.__setattr__", "object.__delattr__", "object.__getattr__"})
#: Audited reads that give nothing mutable to hold on to (dataclasses reads them from the
#: standard library's functions it copies into a slotted class), or only a frame whose
#: state needs a risky name to reach (``traceback.format_exc`` reads ``tb_frame``). Code
#: that spells them is risky anyway (pau_names).
_HARMLESS_READS = frozenset({("__code__",), ("__defaults__",), ("__kwdefaults__",), ("tb_frame",)})
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_len, _type = len, type
# Plain C functions: none of them runs code the method could have planted.
_Function = _type(lambda: None)
_identity_hash = object.__hash__
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: a built-in type, no Python-level hooks
# type's own descriptors: a metaclass of the method's cannot answer in their place.
_mro, _flags = type.__dict__["__mro__"].__get__, type.__dict__["__flags__"].__get__


#: Built-in value types: their attributes are methods and read-only data.
_VALUE_TYPES = frozenset(
    {
        int,
        float,
        complex,
        str,
        bytes,
        bool,
        type(None),
        tuple,
        list,
        dict,
        set,
        frozenset,
        bytearray,
    }
)


def _own_value(obj: Any) -> bool:
    """Whether ``obj`` is a value of a built-in type or an instance of a class made during
    this call: what ``getattr`` & co. reach through it is the method's own.

    Not a class or function (``getattr(own_function, '__globals__')`` reaches modules).
    """
    kind = _type(obj)
    if kind in _VALUE_TYPES:
        return True
    if issubclass(kind, (type, _Function)):
        return False
    # Every class it inherits from was made during the call, or is a built-in type: a
    # library base class could pass attribute access on to anything (typing's aliases
    # forward it to their origin).
    for cls in _mro(kind):
        if G.known.get(_identity_hash(cls)) is cls and not _flags(cls) & _IMMUTABLE_TYPE:
            return False
    return True


def _own(obj: Any) -> bool:
    """Whether ``obj`` is a class or function made during this call (by the method, or by
    the standard library on its behalf): one that did not exist at the snapshot."""
    kind = _type(obj)
    if kind is not _Function and not issubclass(kind, type):
        return False
    return G.known.get(_identity_hash(obj)) is not obj


def _no_host(reason: str) -> None:
    """The process backend has no host latch: its worker trusts the code it runs."""


_report = _no_host


def report_to(host_taint: Any) -> None:
    """Send every taint to the host too (the Wasm guest's ``taint`` import), where the
    method cannot take it back."""
    global _report
    _report = host_taint


def audit(event: str, args: tuple[Any, ...]) -> None:
    """The audit hook (installed by ``pau_runner.init``); acts only while a method runs."""
    if not G.in_call:
        return
    if event in _TAINT_EVENTS:
        if G.tainted is None and not (
            event in _OWNABLE_EVENTS
            and args
            and (_own(args[0]) or (event == "object.__getattr__" and args[1:2] in _HARMLESS_READS))
        ):
            G.tainted = event
            _report(event)
        return
    if G.strict:
        blocked = event.startswith(_BLOCKED_PREFIXES)
    else:
        # Trusted code may read files (lazy imports do), but not write them.
        # ``open`` is audited as (path, mode, flags); ``os.open`` passes mode None, so
        # the flags decide there (and are checked for ``open()`` too).
        mode = args[1] if event == "open" and _len(args) > 1 and isinstance(args[1], str) else ""
        flags = args[2] if event == "open" and _len(args) > 2 and isinstance(args[2], int) else 0
        blocked = (
            event.startswith(_PROCESS_BLOCKED)
            or any(c in mode for c in "wax+")
            or bool(flags & _WRITE_FLAGS)
        )
    if blocked:
        if G.tainted is None:
            G.tainted = event
            _report(event)
        target = f" {args[0]!r}" if args and isinstance(args[0], (str, bytes, int)) else ""
        raise PermissionError(
            f"sandbox: {event}{target} is not allowed (no filesystem, network, processes or OS access)"
        )


_real_import = builtins.__import__


def _compile(
    source: Any,
    filename: Any,
    mode: str,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    **kwargs: Any,
) -> Any:
    # dont_inherit: the method's code must not inherit this module's __future__ flags.
    return _real_compile(source, filename, mode, flags, True, optimize, **kwargs)


_real_compile = builtins.compile
_getframe = sys._getframe
#: Classes and functions of the guard itself that a method can reach (``type(getattr)``):
#: ``pau_state`` compares them after every call.
INTERNAL: list[Any] = []


def _callable(name: str, func: Any, reaching: bool, on_own: bool = False) -> Any:
    """A slotted, attribute-free callable standing in for the builtin ``name``.

    ``func`` is held in a closure, out of reach of safe names (``__getstate__``,
    ``__reduce_ex__`` see no slots). With ``reaching``, the first call in a call reports
    to the host: the builtin reaches objects by a computed name the check cannot follow.
    With ``on_own``, a call whose first argument is the method's own object (an instance
    of a class it defined, or of a built-in value type) reaches nothing shared and reports
    nothing: ``getattr(self, name, None)`` keeps the interpreter.
    """

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        if reaching and not G.reach_all and not (on_own and args and _own_value(args[0])):
            G.reach_all = True
            _report(name)
        return func(*args, **kwargs)

    def __repr__(self: Any) -> str:
        return f"<built-in function {name}>"

    cls = type(name, (), {"__slots__": (), "__call__": __call__, "__repr__": __repr__})
    cls.__module__ = "builtins"
    INTERNAL.append(cls)
    return cls()


def _in_callers_namespace(run: Any) -> Any:
    """``eval``/``exec`` that, given no globals, use the method's, as the builtins do."""

    def adapter(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> Any:
        if globals is None:  # the method's frame: it called the stand-in, which called this
            frame = _getframe(2)
            globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
        return run(source, globals, locals, **kwargs)

    return adapter


def _vars(*args: Any) -> Any:
    return _real_vars(*args) if args else _getframe(2).f_locals


_real_vars = builtins.vars
#: The methods' versions of builtins that reach objects by a computed name, which the
#: name-based state check cannot follow: calling one makes the host replace the
#: interpreter after the call. (As attributes the names are harmless: ``re.compile`` is
#: not ``compile``.) A method also finds them in ``globals()['__builtins__']``.
REACHING = {
    "compile": _callable("compile", _compile, True),
    "getattr": _callable("getattr", builtins.getattr, True, on_own=True),
    "setattr": _callable("setattr", builtins.setattr, True, on_own=True),
    "delattr": _callable("delattr", builtins.delattr, True, on_own=True),
    "eval": _callable("eval", _in_callers_namespace(builtins.eval), True),
    "exec": _callable("exec", _in_callers_namespace(builtins.exec), True),
    "vars": _callable("vars", _vars, True, on_own=True),
    "breakpoint": _callable("breakpoint", builtins.breakpoint, True),
}


def _tracking_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    """Records what a call imports: the modules the state check compares."""
    try:
        module = _real_import(name, globals, locals, fromlist, level)
    except BaseException:
        if not G.strict and level == 0 and _type(name) is str:
            G.failed_imports.add(name)
        raise
    if level == 0 and _type(name) is str:
        touched = G.touched
        parts = name.split(".")
        for i in range(1, _len(parts) + 1):
            touched.add(".".join(parts[:i]))
        for item in fromlist or ():
            if _type(item) is str:
                touched.add(f"{name}.{item}")
    return module


#: The methods' ``__import__``.
tracking_import = _callable("__import__", _tracking_import, False)
