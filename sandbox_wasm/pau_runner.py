"""Run one call of an untrusted method: the core shared by the Wasm guest and the process worker.

The host calls :func:`load` once with the method's source and then :func:`call` once per
query. Every call gets fresh globals in a real module, a freshly seeded ``random``, a new
empty ``contextvars.Context`` (so a default ``decimal`` context) and a recursion limit of
1000; ``print`` output is discarded. The answer is one JSON object (ASCII only, so it
crosses any boundary unchanged; :mod:`pau_answer`) with the fields of
``pytest_pau.models.CallResult`` plus ``dirty``.

``dirty`` says that the method may have changed state shared between calls (a module
attribute such as ``math.pi = 3``, a module's list or dict changed in place, an attribute
of a class or function, a newly imported module, frame or garbage-collector
introspection): the host then throws this interpreter away and starts a fresh one before
the next call, so no state leaks between queries. What is refused is decided by
:mod:`pau_guard`; what makes a call dirty by it, by :mod:`pau_names` (risky code) and by
:mod:`pau_state` (what the call changed).
"""

from __future__ import annotations

import builtins
import contextvars
import gc
import io
import os
import random
import sys
from typing import Any

import pau_answer
import pau_guard
import pau_literals
import pau_names
import pau_preload
import pau_records
import pau_state


class _State:
    """What the runner keeps between calls (one instance, ``_S``; the policy keeps ``pau_guard.G``)."""

    def __init__(self) -> None:
        self.code: Any = None
        self.entry = "test_func"
        self.load_error: dict[str, Any] | None = None
        self.seeded: int | None = None
        self.builtins_dict: dict[str, Any] = {}
        #: Globals of the sandbox's own modules (and the entry module's, see :func:`seal`).
        self.internal_globals: list[dict[str, Any]] = []
        #: ``random``'s shared generator's attributes, and what they were at start-up.
        self.random_attrs: dict[str, Any] = {}
        self.pristine_random_attrs: dict[str, Any] = {}
        #: Notes lookups of standard-library modules the Wasm guest lacks (None in the
        #: process backend, which has the whole library).
        self.missing_stdlib: pau_preload.MissingStdlib | None = None


_S = _State()
_G = pau_guard.G
# Bound once, so a method that rebinds builtins cannot change what runs after it returns.
_len, _type, _str, _list = len, type, str, list
_collect, _get_objects = gc.collect, gc.get_objects


def _collect_all() -> str | None:
    """Collect cyclic garbage until a collection leaves nothing young behind.

    A finalizer can make new garbage (a cycle with a finalizer of its own), and
    gc.collect's counts do not show generators finalized in a cycle. Objects made while a
    collection runs are the only young objects after it: none means done. Returns a dirty
    reason when garbage keeps coming back.
    """
    for _ in range(5):
        _collect()
        if not _young():
            return None
    return "garbage that keeps making garbage"


def _young() -> int:
    # gc.get_objects is audited; this read is the runner's, not the method's.
    guarded, _G.in_call = _G.in_call, False
    try:
        return _len(_get_objects(0))
    finally:
        _G.in_call = guarded


_Module, _METHOD_MODULE = _type(sys), pau_guard.METHOD_MODULE
_overloads: dict[str, Any] = getattr(sys.modules.get("typing"), "_overload_registry", {})
_dumps, _value, _error = pau_answer.dumps, pau_answer.value, pau_answer.error
_parse, _LiteralError = pau_literals.parse_literal, pau_literals.LiteralError
_changed, _snapshot, _S_STATE = pau_state.changed, pau_state.snapshot, pau_state.S
_spell, _risky = pau_names.spell, pau_names.risky


class _Sink:
    """Where ``print`` goes inside the sandbox: nowhere.

    A plain class rather than an ``io.TextIOBase``: a method reaches it (``type(sys.stdout)``),
    so it is compared after every call, and io's classes and their ABC metaclass would come
    with it.
    """

    __slots__ = ()
    encoding, errors, closed = "utf-8", "strict", False

    def write(self, s: str) -> int:
        return len(s)

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def init(strict: bool = True, host_taint: Any = None) -> None:
    """Import what methods may use (:mod:`pau_preload`) and install the audit hook;
    :func:`seal` comes after.

    Args:
        strict: True in the Wasm guest; False in the process backend, where reading
            ``.py`` files for lazy stdlib imports must stay possible.
        host_taint: The host's ``taint(reason)`` import (Wasm): what the guard reports
            there stays reported, even if the method later reaches the guard's state.
    """
    pau_preload.run()
    sys.set_int_max_str_digits(0)
    _G.strict = strict
    if host_taint is not None:
        pau_guard.report_to(host_taint)
    if strict:
        # Last, so that it sees only lookups nothing else could satisfy.
        _S.missing_stdlib = pau_preload.MissingStdlib(pau_preload.stdlib_names())
        sys.meta_path.append(_S.missing_stdlib)
        # select() with a timeout would also block inside the host; nothing PAU needs.
        sys.modules["select"] = None  # type: ignore[assignment]
        # The guest runs with no environment; what the build process had must not be
        # recorded as os.environ's state (nor be seen by methods).
        os.environ._data.clear()  # type: ignore[attr-defined]
    _S.random_attrs = random._inst.__dict__  # type: ignore[attr-defined]
    _S.pristine_random_attrs = dict(_S.random_attrs)
    _S.builtins_dict = dict(builtins.__dict__)
    pau_guard.INTERNAL.append(_Sink)  # reachable as type(sys.stdout)
    _S.builtins_dict["__import__"] = pau_guard.tracking_import
    _S.builtins_dict.update(pau_guard.REACHING)
    # The method must not find these modules (and their state) through sys.modules.
    sys.modules.pop("pau_runner", None)
    sys.modules.pop("pau_guard", None)
    sys.modules.pop("pau_state", None)
    sys.modules.pop("pau_names", None)
    sys.modules.pop("pau_literals", None)
    sys.modules.pop("pau_answer", None)
    sys.modules.pop("pau_preload", None)
    sys.modules.pop("pau_records", None)
    sys.addaudithook(pau_guard.audit)


def seal() -> None:
    """Fingerprint every module namespace: the state each call is checked against.

    Call it last, once the entry module has defined everything it defines.
    """
    _S.internal_globals = [
        *(
            m.__dict__
            for m in (
                pau_answer,
                pau_guard,
                pau_literals,
                pau_names,
                pau_preload,
                pau_records,
                pau_state,
            )
        ),
        globals(),
    ]
    main = sys._getframe(1).f_globals  # the entry module (app.py in the Wasm guest)
    if all(main is not g for g in _S.internal_globals):
        _S.internal_globals.append(main)
    _snapshot()
    gc.collect()
    gc.freeze()  # later collections walk only what calls make


def load(code: str, entry: str) -> str:
    """Compile the method's source; returns ``{"risky": bool}`` or a JSON error result.

    The verdict is given before any of the method's code runs, so the host can hold on to
    it: a risky method could otherwise reach the guard's state and clear it.
    """
    _S.entry = entry
    _S.code = None
    _S.load_error = None
    if _S.missing_stdlib is not None:
        # Noted only during calls: a call resets it once it has answered.
        _S.missing_stdlib.reset()
    try:
        # dont_inherit: this module's `from __future__ import annotations` is not the method's.
        _S.code = compile(code, "<method>", "exec", dont_inherit=True)
    except (
        BaseException
    ) as exc:  # SyntaxError, ValueError (null bytes), RecursionError, MemoryError
        _S.load_error = _error(exc, with_traceback=False)
        return _dumps(_S.load_error)
    spelling = _spell(_S.code)
    reason = _risky(spelling, _S_STATE.aliases)
    _G.full_check = reason is not None
    _G.names = spelling.reach
    import linecache

    # Lets tracebacks show the method's own source lines.
    linecache.cache["<method>"] = (len(code), None, code.splitlines(True), "<method>")
    return _dumps({"risky": reason, "reader": "lean" if pau_names.LEAN_READER else "dis"})


#: A call runs in a new, empty context: every ContextVar is at its default, and decimal
#: makes a fresh default context (from DefaultContext, which only risky code can reach)
#: the first time the method asks for one.
_Context = contextvars.Context


def _reset(seed: int) -> None:
    # Seeding costs ~9 us in Wasm, so ``random`` is re-seeded only when the previous call
    # may have drawn from it (it reached a module that reaches random, or its code is
    # risky) or the seed changed. Attributes left on the shared generator go too.
    if _S.seeded != seed:
        _S.random_attrs.clear()
        _S.random_attrs.update(_S.pristine_random_attrs)
        random.seed(seed)
        _S.seeded = seed
    sys.setrecursionlimit(1000)
    sys.set_int_max_str_digits(0)


def _run(namespace: dict[str, Any], args: tuple[Any, ...], max_output: int) -> dict[str, Any]:
    exec(_S.code, namespace)
    func = namespace.get(_S.entry)
    if func is None:
        raise NameError(f"the code defines no function {_S.entry!r}")
    if not callable(func):
        raise TypeError(f"{_S.entry!r} is a {_type(func).__name__}, not a function")
    return _value(func(*args), max_output)


def _limitation(module: str) -> str:
    return (
        f"the call looked up the standard-library module {module!r}, which the WebAssembly"
        " sandbox lacks (it holds only the modules listed in sandbox_wasm/README.md), so it"
        " did not run as in CPython; run this method with --pau-sandbox=process"
    )


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
    _G.tainted = None
    _G.touched = set()
    _G.reach_all = False
    # A real module, registered while the call runs: dataclasses, typing and pickle look
    # a class's module up in sys.modules.
    module = _Module(_METHOD_MODULE)
    namespace = module.__dict__
    namespace["__builtins__"] = dict(_S.builtins_dict)
    modules = sys.modules
    modules[_METHOD_MODULE] = module
    _G.in_call = True
    try:
        # In a new, empty context: a ContextVar the method sets (decimal's context, a
        # library's) is gone when the call ends.
        out = _Context().run(_run, namespace, args, max_output)
    except BaseException as exc:
        out = _error(exc, with_traceback=True)
        if _type(exc) is MemoryError:
            out["dirty"] = "MemoryError"  # give the grown heap back to the host
    finally:
        # Still guarded: everything the method made is let go of here, so its finalizers
        # and weakref callbacks run now, before the state check, not after it: its
        # namespace, the argument tuple (a list argument may hold its objects), the
        # stand-in streams (it may have hung objects on them).
        namespace.clear()
        modules.pop(_METHOD_MODULE, None)
        sys.stdout, sys.stderr, sys.stdin = saved
        args = module = namespace = None
        leftover = _collect_all()
        if leftover:
            out["dirty"] = out.get("dirty") or leftover
        for internal_globals in _S.internal_globals:
            # warnings.warn(stacklevel=2) records "already shown" in the caller's module.
            internal_globals.pop("__warningregistry__", None)
        # typing.overload records the method's overloads under its module's name.
        _overloads.pop(_METHOD_MODULE, None)
        _G.in_call = False
        if _G.full_check or _G.reach_all or not _G.touched.isdisjoint(_S_STATE.uses_random):
            _S.seeded = None  # it may have drawn from random's shared generator
    recorder = _S.missing_stdlib
    if recorder is not None and recorder.missing is not None:
        # Whatever the method did next (raised, caught it, fell back), it did not run as
        # in CPython: the call says so instead of passing the outcome for its behaviour.
        out = {
            "ok": False,
            "error_type": "SandboxLimitation",
            "message": _limitation(recorder.missing),
            "dirty": out.get("dirty"),
        }
        recorder.reset()
    dirty = out.get("dirty") or _G.tainted or _changed()
    if not _G.strict and (_len(sys.modules) != _len(_S_STATE.module_names) or _G.failed_imports):
        # Process backend: the worker is replaced, and the next one imports these before
        # its snapshot; adopting their state after the method ran would keep what it left.
        new = [n for n in _list(sys.modules) if n not in _S_STATE.module_names]
        dirty = dirty or ("import" if new else None)
        # Imports that failed are tried there too (they left nothing to replace a worker
        # for): numpy's sets an environment variable, which the guard refuses during a
        # call but not before the snapshot.
        new.extend(n for n in _G.failed_imports if n not in sys.modules)
        _G.failed_imports.clear()
        out["new_modules"] = ",".join(n for n in new if _type(n) is str and "," not in n)
    out["dirty"] = dirty
    return _dumps(out)
