"""The sandbox's isolation policy: what a method may not do, and when its instance must go.

Used by :mod:`pau_runner` (the Wasm guest and the process worker). Two parts:

- the audit hook (:func:`audit`): refuses I/O, processes and OS access outright while a
  method runs, and marks the call as having touched shared state (``tainted``) on events
  such as ``object.__setattr__``, frame or garbage-collector introspection, or an import;
- the state check (:func:`snapshot`, :func:`changed`): an identity fingerprint of every
  module namespace, compared after each call. Only the modules the call imported are
  compared unless the method's code is :func:`risky` (it could reach other modules
  without importing them).

Either one makes the call ``dirty``: the host then throws this interpreter away and starts
a fresh one before the next call, so no state leaks between queries. Detecting is cheap
(about 0.1 ms in Wasm); restarting costs about 1 ms, paid only after such calls.
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
        self.snapshot: dict[
            str, tuple[Any, dict[str, Any], list[str], list[int], tuple[str, ...]]
        ] = {}
        self.full_check = True
        self.touched: set[str] = set()
        self.n_modules = 0
        self.strict = True


G = _Guard()
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_id, _list, _map, _len, _type = id, list, map, len, type


def audit(event: str, args: tuple[Any, ...]) -> None:
    """The audit hook (installed by ``pau_runner.init``); acts only while a method runs."""
    if not G.in_call:
        return
    if event in _TAINT_EVENTS:
        if G.tainted is None:
            G.tainted = event
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
        G.tainted = G.tainted or event
        target = f" {args[0]!r}" if args and isinstance(args[0], (str, bytes, int)) else ""
        raise PermissionError(
            f"sandbox: {event}{target} is not allowed (no filesystem, network, processes or OS access)"
        )


def snapshot() -> None:
    """Fingerprint every module namespace: the state :func:`changed` compares against."""
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
    G.snapshot = snap
    G.n_modules = _len(sys.modules)


def hide(names: tuple[str, ...]) -> None:
    """Unregister modules after the snapshot, keeping the snapshot consistent with it.

    The component's own modules must stay in ``sys.modules`` while componentize-py
    snapshots the interpreter at build time; they are hidden when an instance starts,
    before any method runs, and without making every later call look like an import.
    """
    for name in names:
        sys.modules.pop(name, None)
        G.snapshot.pop(name, None)
    G.n_modules = _len(sys.modules)


def _module_changed(name: str) -> bool:
    entry = G.snapshot.get(name)
    if entry is None:
        return False
    mod, d, keys, ids, _near = entry
    return (
        sys.modules.get(name) is not mod
        or _len(d) != _len(keys)
        or _list(_map(_id, d.values())) != ids
        or _list(d) != keys
    )


def changed(old_only: bool = False) -> str | None:
    """Name of the first module whose namespace differs from the snapshot, or None.

    In the fast mode only the modules the method imported (and their direct module
    attributes) are compared: comparing all ~6000 module attributes costs ~2 ms in Wasm,
    ten times a typical call. Code that could reach other modules without importing them
    (``getattr``, ``__globals__``, ``sys``...) runs in the full mode (see :func:`risky`).

    Args:
        old_only: Ignore modules imported since the snapshot.
    """
    modules = sys.modules
    if _len(modules) != G.n_modules and not old_only:
        return "sys.modules"
    if G.full_check:
        if G.strict:
            # Comparing everything costs ~8 ms in Wasm; a fresh instance costs ~1 ms.
            return "risky code: fresh interpreter per call"
        names = G.snapshot
    else:
        names = {"builtins"}
        for name in G.touched:
            names.add(name)
            entry = G.snapshot.get(name)
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


def risky(code: Any) -> bool:
    """Whether compiled code names anything that escapes the import-based state check."""
    for name in code.co_names:
        if name in _RISKY_NAMES or (name.startswith("__") and name not in _SAFE_DUNDERS):
            return True
    for const in code.co_consts:
        if _type(const) is str and "__" in const and const not in _SAFE_DUNDERS:
            return True
        if hasattr(const, "co_names") and risky(const):
            return True
    return False


def tracking_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    """The methods' ``__import__``: records what a call imports, for the fast :func:`changed`."""
    module = _real_import(name, globals, locals, fromlist, level)
    if level == 0 and _type(name) is str:
        touched = G.touched
        parts = name.split(".")
        for i in range(1, _len(parts) + 1):
            touched.add(".".join(parts[:i]))
        for item in fromlist or ():
            if _type(item) is str:
                touched.add(f"{name}.{item}")
    return module


_real_import = builtins.__import__
