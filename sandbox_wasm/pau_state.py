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
from array import array as _array
from collections import deque as _deque
from itertools import chain
from itertools import count as _count
from operator import getitem as _getitem
from operator import is_
from typing import Any

import pau_guard
from pau_names import CACHES, CLASS_CACHES

G = pau_guard.G
#: Objects not compared: the standard library's caches, and ``random``'s shared instance,
#: which the runner re-seeds (and clears of attributes) before a call that may use it.
_SKIPPED = CACHES | {"random._inst"}
_SEQUENCES = (list, set, _deque)
_BLOBS = (bytearray, _array)
_MODULE = type(sys)
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_all, _any, _len, _list, _map, _type, _bytes = all, any, len, list, map, type, bytes
_from_iterable, _values = chain.from_iterable, dict.values
_count_repr = _count.__repr__
_freeze = gc.freeze
_FUNCTION = _type(lambda: None)
_METHOD_WRAPPER = _type(_count().__next__)


class _Contents:
    """Mutable objects, and what they held at the snapshot.

    Built per module by :func:`_contents_of`; :meth:`merge` joins the parts a call
    reached into one, so the check is a few C passes whatever the number of modules.
    """

    __slots__ = (
        "blob_labels",
        "blobs",
        "counter_labels",
        "counter_reprs",
        "counters",
        "dict_labels",
        "dict_lens",
        "dicts",
        "empty",
        "empty_labels",
        "items",
        "keys",
        "raw",
        "seq_labels",
        "seq_lens",
        "seqs",
        "vals",
    )

    def __init__(
        self, found: list[tuple[str, Any]], counters: list[tuple[str, Any]] | None = None
    ) -> None:
        # itertools.count objects keep their state in C: compared by their repr.
        self.counter_labels = [label for label, _ in counters or ()]
        self.counters = [c for _, c in counters or ()]
        self.counter_reprs = _list(_map(_count_repr, self.counters))
        # Most are empty (the __dict__ of a function): one C pass over their lengths.
        self.empty_labels = [label for label, o in found if not _len(o)]
        self.empty = [o for _, o in found if not _len(o)]
        found = [(label, o) for label, o in found if _len(o)]
        dicts = [(label, o) for label, o in found if issubclass(_type(o), dict)]
        seqs = [(label, o) for label, o in found if issubclass(_type(o), _SEQUENCES)]
        blobs = [(label, o) for label, o in found if issubclass(_type(o), _BLOBS)]
        self.dict_labels = [label for label, _ in dicts]
        self.dicts = [o for _, o in dicts]
        self.dict_lens = _list(_map(_len, self.dicts))
        self.keys = _list(_from_iterable(self.dicts))
        self.vals = _list(_from_iterable(_map(_values, self.dicts)))
        self.seq_labels = [label for label, _ in seqs]
        self.seqs = [o for _, o in seqs]
        self.seq_lens = _list(_map(_len, self.seqs))
        self.items = _list(_from_iterable(self.seqs))
        self.blob_labels = [label for label, _ in blobs]
        self.blobs = [o for _, o in blobs]
        self.raw = _list(_map(_bytes, self.blobs))

    @classmethod
    def merge(cls, parts: list[_Contents]) -> _Contents:
        """One record of all of ``parts`` (every field is a list, kept in part order)."""
        merged = cls.__new__(cls)
        for field in cls.__slots__:
            setattr(merged, field, [x for part in parts for x in getattr(part, field)])
        return merged

    @classmethod
    def of_namespaces(cls, names: list[str]) -> _Contents:
        """Module namespaces as they were at the snapshot, as a record of dicts."""
        record = cls([])
        entries = [S.modules[name] for name in names]
        record.dict_labels = _list(names)
        record.dicts = [entry[1] for entry in entries]
        record.dict_lens = [_len(entry[2]) for entry in entries]
        record.keys = [key for entry in entries for key in entry[2]]
        record.vals = [value for entry in entries for value in entry[3]]
        return record

    def same(self) -> bool:
        """Whether every object still holds exactly what it held (identity, not equality)."""
        return (
            not _any(_map(_len, self.empty))
            and _list(_map(_len, self.dicts)) == self.dict_lens
            and _list(_map(_len, self.seqs)) == self.seq_lens
            and _all(_map(is_, _from_iterable(_map(_values, self.dicts)), self.vals))
            and _all(_map(is_, _from_iterable(self.dicts), self.keys))
            and _all(_map(is_, _from_iterable(self.seqs), self.items))
            and _list(_map(_bytes, self.blobs)) == self.raw
            and _list(_map(_count_repr, self.counters)) == self.counter_reprs
        )

    def first_change(self) -> str:
        """The label of the first object that changed (the slow path, for the report)."""
        for label, obj in zip(self.empty_labels, self.empty, strict=True):
            if _len(obj):
                return label
        for label, counter, text in zip(
            self.counter_labels, self.counters, self.counter_reprs, strict=True
        ):
            if _count_repr(counter) != text:
                return label
        at = 0
        for label, d, n in zip(self.dict_labels, self.dicts, self.dict_lens, strict=True):
            if (
                _len(d) != n
                or not _all(_map(is_, d, self.keys[at : at + n]))
                or not _all(_map(is_, d.values(), self.vals[at : at + n]))
            ):
                return label
            at += n
        at = 0
        for label, seq, n in zip(self.seq_labels, self.seqs, self.seq_lens, strict=True):
            if _len(seq) != n or not _all(_map(is_, seq, self.items[at : at + n])):
                return label
            at += n
        for label, blob, raw in zip(self.blob_labels, self.blobs, self.raw, strict=True):
            if _bytes(blob) != raw:
                return label
        return "contents"


def _contents_of(
    name: str, namespace: dict[str, Any], instance_types: set[type] | None = None
) -> _Contents:
    """The mutable objects ``namespace`` holds; the classes of the instances among them
    are added to ``instance_types`` (their class attributes are compared too)."""
    found: list[tuple[str, Any]] = []
    counters: list[tuple[str, Any]] = []
    seen: set[int] = set()

    def add(label: str, obj: Any) -> None:
        kind = _type(obj)
        if id(obj) in seen or issubclass(kind, (type, _MODULE)):
            return
        seen.add(id(obj))
        if issubclass(kind, (dict, *_SEQUENCES, *_BLOBS)):
            found.append((label, obj))
            return
        if kind is _count:
            counters.append((label, obj))
            return
        if kind is _METHOD_WRAPPER and _type(getattr(obj, "__self__", None)) is _count:
            counters.append((label, obj.__self__))  # threading._counter = count().__next__
            return
        try:
            attrs = object.__getattribute__(obj, "__dict__")
        except (AttributeError, TypeError):
            return
        if _type(attrs) is dict:
            found.append((f"{label}.__dict__", attrs))
            if instance_types is not None and kind is not _FUNCTION:
                instance_types.add(kind)

    for key, value in _list(namespace.items()):
        label = f"{name}.{key}"
        if key.startswith("__") or label in _SKIPPED:
            continue
        if issubclass(_type(value), type):
            # Also the classes it imported: `json.JSONDecoder` is reached through json.
            for attr, member in _list(value.__dict__.items()):
                if not attr.startswith("__") and attr not in CLASS_CACHES:
                    add(f"{label}.{attr}", member)
        else:
            add(label, value)
    # One level further in: the objects those containers and attribute dicts hold
    # (`functools._convert['__lt__']`, `os.environ._data`, `copy._deepcopy_dispatch[list]`).
    for label, obj in _list(found):
        if issubclass(_type(obj), dict):
            for key, value in _list(obj.items()):
                add(f"{label}[{key!r}]" if _type(key) is str else f"{label}[...]", value)
        elif issubclass(_type(obj), _SEQUENCES):
            for value in _list(obj):
                add(f"{label}[...]", value)
    return _Contents(found, counters)


#: The pseudo-module of the sandbox's own reachable classes (``pau_guard.INTERNAL``).
_INTERNAL = "<sandbox>"
#: Compared after every call, whatever the call imported.
_ALWAYS = ("builtins", _INTERNAL)
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in types refuse new attributes
_class_dict = type.__dict__["__dict__"].__get__
_DATA = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)


class _Classes:
    """The classes one module binds (and the classes nested in those), as they were.

    Setting an attribute on a class raises no audit event, so a method could replace
    ``Counter.most_common``, and a library function could bump a class-level counter
    (``difflib.HtmlDiff``). Compared after a call: how many entries each class has, its
    data attributes (numbers, strings, tuples), and every entry whose name the method's
    code spells.
    """

    __slots__ = (
        "by_key",
        "data_keys",
        "data_proxies",
        "data_vals",
        "keys",
        "labels",
        "lens",
        "proxies",
    )

    def __init__(self, name: str, classes: list[type]) -> None:
        self.labels = [f"{name}.{c.__qualname__}" for c in classes]
        self.proxies = [_class_dict(c) for c in classes]
        self.lens = _list(_map(_len, self.proxies))
        data = [
            (proxy, key, value)
            for proxy in self.proxies
            for key, value in proxy.items()
            if _type(value) in _DATA and not key.startswith("__") and key not in CLASS_CACHES
        ]
        self.data_proxies = [d[0] for d in data]
        self.data_keys = [d[1] for d in data]
        self.data_vals = [d[2] for d in data]
        self.by_key: dict[str, list[tuple[Any, Any]]] = {}
        for proxy in self.proxies:
            for key, value in proxy.items():
                if key not in CLASS_CACHES:
                    self.by_key.setdefault(key, []).append((proxy, value))
        self.keys = frozenset(self.by_key)

    @classmethod
    def merge(cls, parts: list[_Classes]) -> _Classes:
        """One record of all of ``parts``."""
        merged = cls.__new__(cls)
        for field in ("labels", "proxies", "lens", "data_proxies", "data_keys", "data_vals"):
            setattr(merged, field, [x for part in parts for x in getattr(part, field)])
        merged.by_key = {}
        for part in parts:
            for key, entries in part.by_key.items():
                merged.by_key.setdefault(key, []).extend(entries)
        merged.keys = frozenset(merged.by_key)
        return merged

    def first_change(self, names: frozenset[str]) -> str | None:
        """The first class that changed, or None."""
        if _list(_map(_len, self.proxies)) != self.lens:
            for label, proxy, n in zip(self.labels, self.proxies, self.lens, strict=True):
                if _len(proxy) != n:
                    return label
        try:
            same = _all(
                _map(is_, _map(_getitem, self.data_proxies, self.data_keys), self.data_vals)
            )
        except KeyError:
            same = False
        if not same:
            return self._label_of_data_change()
        for key in names & self.keys:
            for proxy, value in self.by_key[key]:
                if proxy.get(key) is not value:
                    return f"{self.labels[self.proxies.index(proxy)]}.{key}"
        return None

    def _label_of_data_change(self) -> str:
        for proxy, key, value in zip(
            self.data_proxies, self.data_keys, self.data_vals, strict=True
        ):
            if proxy.get(key) is not value:
                return f"{self.labels[self.proxies.index(proxy)]}.{key}"
        return "class attribute"


def _classes_of(name: str, namespace: dict[str, Any], extra: set[type] = frozenset()) -> _Classes:  # type: ignore[assignment]
    """The classes a method reaches from a module without spelling another module: those
    it binds, the classes nested in those, and, for all of them and for the classes of
    its instances (``extra``), their bases and metaclasses (``type(type(re.I))``)."""
    found: list[type] = []
    seen: set[int] = set()
    bound = [v for v in _list(namespace.values()) if issubclass(_type(v), type)]
    nested = [
        m for c in bound for m in _list(_class_dict(c).values()) if issubclass(_type(m), type)
    ]
    todo = [*bound, *nested, *extra]
    while todo:
        cls = todo.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        todo.extend(cls.__mro__[1:])
        todo.append(_type(cls))
        if not cls.__flags__ & _IMMUTABLE_TYPE:
            found.append(cls)
    return _Classes(name, found)


class _Snapshot:
    """What :func:`snapshot` recorded (one instance, ``S``)."""

    def __init__(self) -> None:
        #: name -> (module, namespace, keys, values, neighbours as (attribute, module name))
        self.modules: dict[
            str, tuple[Any, dict[str, Any], list[str], list[Any], tuple[tuple[str, str], ...]]
        ] = {}
        self.contents: dict[str, _Contents] = {}
        self.classes: dict[str, _Classes] = {}
        #: (modules a call imported, names its code spells) -> what to compare.
        self.checks: dict[tuple[frozenset[str], frozenset[str]], _Check] = {}
        self.n_modules = 0
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
            instance_types: set[type] = set()
            contents[name] = _contents_of(name, d, instance_types)
            classes[name] = _classes_of(name, d, instance_types)
    # The guard's and runner's own classes a method can reach (`type(getattr)`,
    # `type(sys.stdout)`), compared with builtins' objects after every call.
    internal = {f"{cls.__name__}#{i}": cls for i, cls in enumerate(pau_guard.INTERNAL)}
    contents[_INTERNAL] = _contents_of(_INTERNAL, internal)
    classes[_INTERNAL] = _classes_of(_INTERNAL, internal)
    S.modules, S.contents, S.classes = modules, contents, classes
    S.checks = {}
    S.n_modules = _len(sys.modules)
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
    S.n_modules = _len(sys.modules)
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


class _Check:
    """Everything to compare after a call that reached a given set of modules, merged
    into one record of each kind (built once per set, see :func:`_check_for`)."""

    __slots__ = ("classes", "contents", "module_names", "modules")

    def __init__(self, reach: Any) -> None:
        names = [name for name in reach if name in S.modules]
        self.module_names = names
        self.modules = [S.modules[name][0] for name in names]
        parts = [*names, *_ALWAYS]
        self.contents = _Contents.merge(
            [_Contents.of_namespaces(names), *(S.contents[n] for n in parts if n in S.contents)]
        )
        self.classes = _Classes.merge([S.classes[n] for n in parts if n in S.classes])

    def first_change(self, code_names: frozenset[str]) -> str | None:
        if not _all(_map(is_, _map(sys.modules.get, self.module_names), self.modules)):
            for name, module in zip(self.module_names, self.modules, strict=True):
                if sys.modules.get(name) is not module:
                    return name
        if not self.contents.same():
            return self.contents.first_change()
        return self.classes.first_change(code_names)


_EVERYTHING: Any = ("*",)


def _check_for(touched: frozenset[str], names: frozenset[str]) -> _Check:
    key = (touched, names)
    check = S.checks.get(key)
    if check is None:
        if _len(S.checks) > 64:
            S.checks.clear()
        check = S.checks[key] = _Check(_reach(touched, names))
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
    if _len(sys.modules) != S.n_modules:
        return "sys.modules"
    if G.full_check or G.reach_all:
        if G.strict:
            # Comparing everything would cost about as much as a fresh instance (~4 ms
            # in Wasm); the fresh instance is certain.
            if G.full_check:
                return "risky code: fresh interpreter per call"
            return "computed attribute access (getattr & co.): fresh interpreter"
        check = S.checks.get(_EVERYTHING)
        if check is None:
            check = S.checks[_EVERYTHING] = _Check(S.modules.keys())
            _freeze()
    else:
        check = _check_for(frozenset(G.touched), G.names)
    return check.first_change(G.names)
