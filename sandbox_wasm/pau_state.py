"""The sandbox's state check: did a call leave a trace that the next call could see?

Used by :mod:`pau_runner` after every call (the Wasm guest and the process worker).
:func:`snapshot` records, once, before any method runs:

- every module's namespace: which names it binds, and to which objects;
- every module's *contents*: the mutable objects it holds (lists, dicts, sets, deques,
  byte arrays, the ``__dict__`` of its functions and instances, the same inside the
  classes it binds, and again one level further in), and what each of them held;
- every module's classes: their entries (setting a class attribute is not audited).

:func:`changed` compares, after a call, the modules the call can reach: the modules it
imported and, transitively, the neighbour modules whose attribute name its code spells
(``json.decoder`` from ``json``). So ``math.pi = 3``, ``keyword.kwlist.append('x')``,
``json.dumps.counter = 1``, ``copy._deepcopy_dispatch[list] = f``,
``json.decoder.BACKSLASH.clear()`` and ``calendar.setfirstweekday(6)`` are all seen, and
the host replaces the interpreter before the next call. Code that could reach modules
without importing or spelling them (:func:`risky` names, ``getattr`` & co.) is never
trusted to leave no trace. Not followed: slots of standard-library functions changed by a
standard-library helper on the method's behalf (``functools.update_wrapper(json.dumps, f)``
renames ``json.dumps``), objects deeper than that inside a module, and objects that only
the interpreter's C caches hold (a ``codecs.lookup`` result, a ``typing.List[int]`` alias).

The comparisons are identity-only C loops (``map(operator.is_, ...)``): no ``id()`` (an
audited call, so each one runs the audit hook), and never an ``__eq__`` the method could
have planted. Caches that the standard library fills as it is used (:data:`CACHES`) are
not compared; code that names one is :func:`risky`.
"""

from __future__ import annotations

import builtins
import gc
import sys
from itertools import chain, count
from operator import getitem as _getitem
from operator import is_
from typing import Any

import pau_guard
from pau_records import Classes, Contents, records_of

G = pau_guard.G
_MODULE = type(sys)
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_all, _len, _list, _map, _type, _bytes = all, len, list, map, type, bytes
_chain, _from_iterable, _values = chain, chain.from_iterable, dict.values
_modules_get = sys.modules.get
_count_repr = count.__repr__
_freeze = gc.freeze


#: The pseudo-module of the sandbox's own reachable classes (``pau_guard.INTERNAL``).
_INTERNAL = "<sandbox>"
#: Compared after every call, whatever the call imported.
_ALWAYS = ("builtins", _INTERNAL)


class _Snapshot:
    """What :func:`snapshot` recorded (one instance, ``S``)."""

    def __init__(self) -> None:
        #: name -> (module, namespace, keys, values, neighbours as (attribute, module name))
        self.modules: dict[
            str, tuple[Any, dict[str, Any], list[str], list[Any], tuple[tuple[str, str], ...]]
        ] = {}
        self.contents: dict[str, Contents] = {}
        self.classes: dict[str, Classes] = {}
        #: (modules a call imported, names its code spells) -> what to compare.
        self.checks: dict[tuple[frozenset[str] | None, frozenset[str]], _Check] = {}
        #: The names in ``sys.modules`` (a call that changes their number imported something).
        self.module_names: frozenset[str] = frozenset()
        #: Attribute names bound to ``sys`` or ``builtins`` in some module (``collections._sys``).
        self.aliases: frozenset[str] = frozenset()
        #: Modules from which ``random`` (and its shared generator) is reachable.
        self.uses_random: frozenset[str] = frozenset()


S = _Snapshot()


def snapshot() -> None:
    """Record every module's namespace and contents: what :func:`changed` compares against."""
    modules, contents, classes = {}, {}, {}
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
            contents[name], classes[name] = records_of(name, d)
    # The guard's and runner's own classes a method can reach (`type(getattr)`,
    # `type(sys.stdout)`), compared with builtins' objects after every call.
    internal = {f"{cls.__name__}#{i}": cls for i, cls in enumerate(pau_guard.INTERNAL)}
    contents[_INTERNAL], classes[_INTERNAL] = records_of(_INTERNAL, internal)
    S.modules, S.contents, S.classes = modules, contents, classes
    S.checks = {}
    S.module_names = frozenset(sys.modules)
    S.aliases = frozenset(
        key
        for entry in modules.values()
        for key, value in zip(entry[2], entry[3], strict=True)
        if value is sys or value is builtins
    ) - {"sys", "__builtins__"}  # judged by their own rules (pau_names.risky)
    S.uses_random = _reaching_module("random", modules)
    G.known = _known(modules.values())


def _reaching_module(target: str, modules: dict[str, Any]) -> frozenset[str]:
    """The modules from which ``target`` is reachable through module attributes."""
    users = {target}
    grew = True
    while grew:
        grew = False
        for name, entry in modules.items():
            if name not in users and any(other in users for _, other in entry[4]):
                users.add(name)
                grew = True
    return frozenset(users)


def _known(entries: Any) -> dict[int, Any]:
    """Every class the modules hold (with their nested classes and subclasses), and every
    function they or those classes hold, by identity hash."""
    function = _type(_known)
    class_dict = type.__dict__["__dict__"].__get__
    found: dict[int, Any] = {}
    todo = [v for entry in entries for v in entry[3] if issubclass(_type(v), (type, function))]
    todo.extend(type.__subclasses__(object))
    while todo:
        obj = todo.pop()
        key = object.__hash__(obj)
        if key in found:
            continue
        found[key] = obj
        if issubclass(_type(obj), type):
            todo.extend(
                v for v in class_dict(obj).values() if issubclass(_type(v), (type, function))
            )
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
        S.classes.pop(name, None)
    S.module_names = frozenset(sys.modules)
    S.checks = {}


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


def _namespaces(names: list[str]) -> Contents:
    """Module namespaces as they were at the snapshot, as a record of dicts."""
    record = Contents([])
    entries = [S.modules[name] for name in names]
    record.dict_labels = _list(names)
    record.dicts = [entry[1] for entry in entries]
    record.dict_lens = [_len(entry[2]) for entry in entries]
    record.keys = [key for entry in entries for key in entry[2]]
    record.vals = [value for entry in entries for value in entry[3]]
    return record


class _Check:
    """Everything to compare after a call that reached a given set of modules, for a given
    code (the class entries it spells), built once per pair (:func:`_check_for`).

    The fast path is two C passes whatever the number of modules: every object's length,
    then the identity of everything recorded (modules, dict keys and values, list items,
    class data and spelled entries) against one flat list. Only when that fails does the
    slow path walk the per-part records to name what changed.
    """

    __slots__ = (
        "classes",
        "code_names",
        "contents",
        "flat",
        "gated_keys",
        "gated_proxies",
        "module_names",
        "modules",
        "sized",
        "sizes",
    )

    def __init__(self, reach: Any, code_names: frozenset[str]) -> None:
        names = [name for name in reach if name in S.modules]
        self.module_names = names
        self.modules = [S.modules[name][0] for name in names]
        parts = [*names, *_ALWAYS]
        contents = self.contents = Contents.merge(
            [_namespaces(names), *(S.contents[n] for n in parts if n in S.contents)]
        )
        classes = self.classes = Classes.merge([S.classes[n] for n in parts if n in S.classes])
        self.code_names = code_names
        gated = [
            (proxy, key, value)
            for key in code_names & classes.keys
            for proxy, value in classes.by_key[key]
        ]
        self.gated_proxies = [g[0] for g in gated]
        self.gated_keys = [g[1] for g in gated]
        self.sized = [*contents.empty, *contents.dicts, *contents.seqs, *classes.proxies]
        self.sizes = [
            *(0 for _ in contents.empty),
            *contents.dict_lens,
            *contents.seq_lens,
            *classes.lens,
        ]
        self.flat = [
            *self.modules,
            *contents.keys,
            *contents.vals,
            *contents.items,
            *classes.data_vals,
            *(g[2] for g in gated),
        ]

    def _now(self) -> Any:
        contents, classes = self.contents, self.classes
        return _chain(
            _map(_modules_get, self.module_names),
            _from_iterable(contents.dicts),
            _from_iterable(_map(_values, contents.dicts)),
            _from_iterable(contents.seqs),
            _map(_getitem, classes.data_proxies, classes.data_keys),
            _map(_getitem, self.gated_proxies, self.gated_keys),
        )

    def first_change(self) -> str | None:
        contents = self.contents
        try:
            if (
                _list(_map(_len, self.sized)) == self.sizes
                and _all(_map(is_, self._now(), self.flat))
                and (not contents.blobs or _list(_map(_bytes, contents.blobs)) == contents.raw)
                and (
                    not contents.counters
                    or _list(_map(_count_repr, contents.counters)) == contents.counter_reprs
                )
            ):
                return None
        except KeyError:  # a class entry was deleted (and another added)
            pass
        for name, module in zip(self.module_names, self.modules, strict=True):
            if sys.modules.get(name) is not module:
                return name
        return (
            contents.first_change() or self.classes.first_change(self.code_names) or "class entries"
        )


def _check_for(touched: frozenset[str] | None, names: frozenset[str]) -> _Check:
    """The cached check for a call that imported ``touched`` (None: every module)."""
    key = (touched, names)
    check = S.checks.get(key)
    if check is None:
        if _len(S.checks) > 64:
            S.checks.clear()
        reach = S.modules.keys() if touched is None else _reach(touched, names)
        check = S.checks[key] = _Check(reach, names)
        # Its lists hold thousands of references: out of the collector's way, or the
        # collection that ends every call (pau_runner) would walk them all each time.
        _freeze()
    return check


def changed() -> str | None:
    """What the call changed (a module, or a module's object), or None.

    In the fast mode only the modules the call can reach are compared (see the module
    docstring): comparing everything costs milliseconds in Wasm, ten times a typical call.
    Code that could reach other modules without importing them (:func:`risky`) gets the
    full comparison in the process backend, and a fresh interpreter per call in Wasm.
    """
    if _len(sys.modules) != _len(S.module_names):
        return "sys.modules"
    if G.full_check or G.reach_all:
        if G.strict:
            # Comparing everything would cost about as much as a fresh instance (~4 ms
            # in Wasm); the fresh instance is certain.
            if G.full_check:
                return "risky code: fresh interpreter per call"
            return "computed attribute access (getattr & co.): fresh interpreter"
        check = _check_for(None, G.names)
    else:
        check = _check_for(frozenset(G.touched), G.names)
    return check.first_change()
