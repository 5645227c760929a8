"""The sandbox's state check: did a call leave a trace that the next call could see?

Used by :mod:`pau_runner` after every call (the Wasm guest and the process worker).
:func:`snapshot` records, once, before any method runs:

- every module's namespace: which names it binds, and to which objects;
- every module's *contents*: the mutable objects it holds (lists, dicts, sets, deques,
  byte arrays, the ``__dict__`` of its functions and instances, and the same one level down
  in the classes it defines), and what each of them held.

:func:`changed` compares, after a call, the modules the call can reach: the modules it
imported and, transitively, the neighbour modules whose attribute name its code spells
(``json.decoder`` from ``json``). So ``math.pi = 3``, ``keyword.kwlist.append('x')``,
``json.dumps.counter = 1``, ``copy._deepcopy_dispatch[list] = f``,
``json.decoder.BACKSLASH.clear()`` and ``calendar.setfirstweekday(6)`` are all seen, and
the host replaces the interpreter before the next call. Code that could reach modules
without importing or spelling them (:func:`risky` names, ``getattr`` & co.) is never
trusted to leave no trace. Not followed: slots of standard-library functions changed by a
standard-library helper on the method's behalf (``functools.update_wrapper(json.dumps, f)``
renames ``json.dumps``), objects more than one level inside a module's containers, and
caches the interpreter keeps in C (codec lookups, ``functools.lru_cache``).

The comparisons are identity-only C loops (``map(operator.is_, ...)``): no ``id()`` (an
audited call, so each one runs the audit hook), and never an ``__eq__`` the method could
have planted. Caches that the standard library fills as it is used (:data:`CACHES`) are
not compared; code that names one is :func:`risky`.
"""

from __future__ import annotations

import sys
from array import array as _array
from collections import deque as _deque
from itertools import chain
from operator import is_
from typing import Any

import pau_guard

G = pau_guard.G
#: ``module.attribute`` objects the standard library mutates as a cache while it is used
#: (compiled patterns, codec lookups): a change there is not state a method left behind.
CACHES = frozenset(
    {
        "re._cache",
        "re._cache2",
        "_strptime._regex_cache",
        "_strptime._TimeRE_cache",
        "encodings._cache",
        "random._inst",
    }
)
_SEQUENCES = (list, set, _deque)
_BLOBS = (bytearray, _array)
_MODULE = type(sys)
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_all, _any, _len, _list, _map, _type, _bytes = all, any, len, list, map, type, bytes
_from_iterable, _values = chain.from_iterable, dict.values


class _Contents:
    """The mutable objects one module holds, and what they held at the snapshot."""

    __slots__ = (
        "blobs",
        "dicts",
        "empty",
        "empty_labels",
        "items",
        "keys",
        "labels",
        "lens",
        "objects",
        "raw",
        "seqs",
        "vals",
    )

    def __init__(self, found: list[tuple[str, Any]]) -> None:
        # Most are empty (the __dict__ of a function): one C pass over their lengths.
        self.empty_labels = [label for label, o in found if not _len(o)]
        self.empty = [o for _, o in found if not _len(o)]
        found = [(label, o) for label, o in found if _len(o)]
        dicts = [(label, o) for label, o in found if issubclass(_type(o), dict)]
        seqs = [(label, o) for label, o in found if issubclass(_type(o), _SEQUENCES)]
        blobs = [(label, o) for label, o in found if issubclass(_type(o), _BLOBS)]
        self.labels = [label for label, _ in dicts + seqs + blobs]
        self.dicts = [o for _, o in dicts]
        self.seqs = [o for _, o in seqs]
        self.blobs = [o for _, o in blobs]
        self.objects = self.dicts + self.seqs
        self.lens = _list(_map(_len, self.objects))
        self.keys = _list(_from_iterable(self.dicts))
        self.vals = _list(_from_iterable(_map(_values, self.dicts)))
        self.items = _list(_from_iterable(self.seqs))
        self.raw = _list(_map(_bytes, self.blobs))

    def same(self) -> bool:
        """Whether every object still holds exactly what it held (identity, not equality)."""
        return (
            not _any(_map(_len, self.empty))
            and _list(_map(_len, self.objects)) == self.lens
            and _all(_map(is_, _from_iterable(_map(_values, self.dicts)), self.vals))
            and _all(_map(is_, _from_iterable(self.dicts), self.keys))
            and _all(_map(is_, _from_iterable(self.seqs), self.items))
            and _list(_map(_bytes, self.blobs)) == self.raw
        )

    def first_change(self) -> str:
        """The label of the first object that changed (the slow path, for the report)."""
        for label, obj in zip(self.empty_labels, self.empty, strict=True):
            if _len(obj):
                return label
        n_dicts, at = _len(self.dicts), 0
        for i, d in enumerate(self.dicts):
            n = self.lens[i]
            if (
                _len(d) != n
                or not _all(_map(is_, d, self.keys[at : at + n]))
                or not _all(_map(is_, d.values(), self.vals[at : at + n]))
            ):
                return self.labels[i]
            at += n
        at = 0
        for j, seq in enumerate(self.seqs):
            n = self.lens[n_dicts + j]
            if _len(seq) != n or not _all(_map(is_, seq, self.items[at : at + n])):
                return self.labels[n_dicts + j]
            at += n
        for k, blob in enumerate(self.blobs):
            if _bytes(blob) != self.raw[k]:
                return self.labels[_len(self.objects) + k]
        return "contents"


def _contents_of(name: str, namespace: dict[str, Any]) -> _Contents:
    found: list[tuple[str, Any]] = []
    seen: set[int] = set()

    def add(label: str, obj: Any) -> None:
        kind = _type(obj)
        if id(obj) in seen or issubclass(kind, (type, _MODULE)):
            return
        seen.add(id(obj))
        if issubclass(kind, (dict, *_SEQUENCES, *_BLOBS)):
            found.append((label, obj))
            return
        try:
            attrs = object.__getattribute__(obj, "__dict__")
        except (AttributeError, TypeError):
            return
        if _type(attrs) is dict:
            found.append((f"{label}.__dict__", attrs))

    for key, value in _list(namespace.items()):
        label = f"{name}.{key}"
        if key.startswith("__") or label in CACHES:
            continue
        if issubclass(_type(value), type):
            if getattr(value, "__module__", None) != name:
                continue  # imported from elsewhere: that module's contents
            for attr, member in _list(value.__dict__.items()):
                if not attr.startswith("__"):
                    add(f"{label}.{attr}", member)
        else:
            add(label, value)
    return _Contents(found)


class _Snapshot:
    """What :func:`snapshot` recorded (one instance, ``S``)."""

    def __init__(self) -> None:
        #: name -> (module, namespace, keys, values, neighbours as (attribute, module name))
        self.modules: dict[
            str, tuple[Any, dict[str, Any], list[str], list[Any], tuple[tuple[str, str], ...]]
        ] = {}
        self.contents: dict[str, _Contents] = {}
        self.n_modules = 0


S = _Snapshot()


def snapshot() -> None:
    """Record every module's namespace and contents: what :func:`changed` compares against."""
    modules, contents = {}, {}
    by_id = {id(m): n for n, m in _list(sys.modules.items())}
    for name, mod in _list(sys.modules.items()):
        d = getattr(mod, "__dict__", None)
        if _type(d) is not dict:
            continue
        near = tuple(
            sorted(
                {(k, by_id[id(v)]) for k, v in d.items() if _type(v) is _MODULE and id(v) in by_id}
            )
        )
        modules[name] = (mod, d, _list(d), _list(d.values()), near)
        if name != "sys":  # only risky code can reach it
            contents[name] = _contents_of(name, d)
    S.modules, S.contents = modules, contents
    S.n_modules = _len(sys.modules)
    G.known = _known(modules.values())


def _known(entries: Any) -> dict[int, Any]:
    """Every class the modules hold (with their nested classes and subclasses), and every
    function they or those classes hold, by identity hash."""
    function = _type(_known)
    class_dict = type.__dict__["__dict__"].__get__
    found: dict[int, Any] = {}
    todo = [v for entry in entries for v in entry[3] if isinstance(v, (type, function))]
    todo.extend(type.__subclasses__(object))
    while todo:
        obj = todo.pop()
        key = object.__hash__(obj)
        if key in found:
            continue
        found[key] = obj
        if isinstance(obj, type):
            todo.extend(v for v in class_dict(obj).values() if isinstance(v, (type, function)))
            todo.extend(type.__subclasses__(obj))
    return found


def hide(names: tuple[str, ...]) -> None:
    """Unregister modules after the snapshot, keeping the snapshot consistent with it.

    The component's own modules must stay in ``sys.modules`` while componentize-py
    snapshots the interpreter at build time; they are hidden when an instance starts,
    before any method runs, and without making every later call look like an import.
    """
    for name in names:
        sys.modules.pop(name, None)
        S.modules.pop(name, None)
        S.contents.pop(name, None)
    S.n_modules = _len(sys.modules)


def _namespace_changed(name: str) -> bool:
    entry = S.modules.get(name)
    if entry is None:
        return False
    mod, d, keys, vals, _near = entry
    return (
        sys.modules.get(name) is not mod
        or _len(d) != _len(keys)
        or not _all(_map(is_, d.values(), vals))
        or not _all(_map(is_, d, keys))
    )


def _reach(touched: set[str], names: frozenset[str]) -> set[str]:
    """The modules a call can reach: those it imported, and from those the neighbour
    modules whose attribute name its code spells (``json.decoder``), transitively.

    ``builtins``' namespace is not among them: a method runs with its own copy of it, and
    the real module is only reachable through names that make the code risky
    (``builtins``, ``__builtins__``, ``sys``, ``vars``) or through ``getattr``. The objects
    in it (``exit``, ``license``) are shared, so their contents are always compared.
    """
    reach: set[str] = set()
    todo = [name for name in touched if name in S.modules]
    while todo:
        name = todo.pop()
        if name in reach:
            continue
        reach.add(name)
        for attr, other in S.modules[name][4]:
            if attr in names:
                todo.append(other)
    return reach


def changed(old_only: bool = False) -> str | None:
    """What the call changed (a module, or a module's object), or None.

    In the fast mode only the modules the call can reach are compared (see the module
    docstring): comparing everything costs milliseconds in Wasm, ten times a typical call.
    Code that could reach other modules without importing them (:func:`risky`) gets the
    full comparison in the process backend, and a fresh interpreter per call in Wasm.

    Args:
        old_only: Ignore modules imported since the snapshot.
    """
    if _len(sys.modules) != S.n_modules and not old_only:
        return "sys.modules"
    if G.full_check or G.reach_all:
        if G.strict:
            # Comparing everything would cost about as much as a fresh instance (~4 ms
            # in Wasm); the fresh instance is certain.
            if G.full_check:
                return "risky code: fresh interpreter per call"
            return "computed attribute access (getattr & co.): fresh interpreter"
        reach: Any = S.modules.keys()
    else:
        reach = _reach(G.touched, G.names)
    for name in reach:
        if _namespace_changed(name):
            return name
    # Every method reaches the objects in builtins (`exit.x = 1`), imported or not.
    for name in (*reach, "builtins"):
        contents = S.contents.get(name)
        if contents is not None and not contents.same():
            return contents.first_change()
    return None


#: Names whose presence in a method's code could reach modules it does not import, or
#: the sandbox's own state; such code runs in a fresh interpreter per call (Wasm) or gets
#: the full state check (process backend). The attribute names of :data:`CACHES` are added.
_RISKY_NAMES = frozenset(
    {
        "vars",
        "globals",
        "locals",
        "eval",
        "exec",
        "__import__",
        "breakpoint",
        "attrgetter",
        "methodcaller",
        "Formatter",
        "sys",
        "gc",
        "inspect",
        "importlib",
        "builtins",
        "modules",
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
        # Stateful standard-library registries a method could leave an entry in.
        "register",
        "register_dialect",
        "setlocale",
        "filterwarnings",
        "simplefilter",
    }
    | {cache.rsplit(".", 1)[1] for cache in CACHES}
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
        # Generated by the compiler for every class body (3.12+).
        "__classdictcell__",
        "__classdict__",
        "__annotate_func__",
        "__conditional_annotations__",
        "__type_params__",
    }
)


def code_names(code: Any) -> frozenset[str]:
    """Every name compiled code (and the code nested in it) uses: globals, attributes, imports."""
    names: set[str] = set()
    todo = [code]
    while todo:
        current = todo.pop()
        names.update(current.co_names)
        todo.extend(c for c in current.co_consts if hasattr(c, "co_names"))
    return frozenset(names)


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
