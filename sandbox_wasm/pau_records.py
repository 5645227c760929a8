"""Records of mutable state, and their identity-only comparison (used by :mod:`pau_state`).

:class:`Contents`: mutable objects (dicts, lists, sets, deques, byte arrays, attribute
dicts, ``itertools.count`` state) and what they held. :class:`Classes`: classes and their
entries. Both are built per module at the snapshot and merged per reach set; the check
(``pau_state._Check``) is a few C passes (``map(operator.is_, ...)``): no ``id()`` (audited: each call would run
the audit hook) and never an ``__eq__`` or ``__len__`` a method could have planted.
"""

from __future__ import annotations

import sys
from array import array as _array
from collections import deque as _deque
from itertools import chain
from itertools import count as _count
from operator import getitem as _getitem
from operator import is_
from typing import Any

from pau_names import CACHES, CLASS_CACHES

#: Objects not compared: the standard library's caches, and ``random``'s shared instance,
#: which the runner re-seeds (and clears of attributes) before a call that may use it.
_SKIPPED = CACHES | {"random._inst"}
_SEQUENCES = (list, set, _deque)
_BLOBS = (bytearray, _array)
_MODULE = type(sys)
# Bound once, so a method that rebinds builtins cannot change how its call is checked.
_all, _len, _list, _map, _type, _bytes = all, len, list, map, type, bytes
_from_iterable, _values = chain.from_iterable, dict.values
_count_repr = _count.__repr__
_FUNCTION = _type(lambda: None)
_METHOD_WRAPPER = _type(_count().__next__)
_CONTAINERS = (dict, list, set, _deque, bytearray, _array)


class Contents:
    """Mutable objects, and what they held at the snapshot.

    Built per module by :func:`records_of`; :meth:`merge` joins the parts a call
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
    def merge(cls, parts: list[Contents]) -> Contents:
        """One record of all of ``parts`` (every field is a list, kept in part order)."""
        merged = cls.__new__(cls)
        for field in cls.__slots__:
            setattr(merged, field, [x for part in parts for x in getattr(part, field)])
        return merged

    def first_change(self) -> str | None:
        """The label of the first object that changed, or None (the slow path: the check's
        fast path is in ``pau_state._Check``)."""
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
        return None


def records_of(name: str, namespace: dict[str, Any]) -> tuple[Contents, Classes]:
    """The mutable objects and the classes a method reaches from a module without
    spelling another module.

    Objects: the module's values, the members of its classes, and one level further in
    (``functools._convert['__lt__']``, ``os.environ._data``); containers under dunder names
    too (``__all__``, a class's ``__slots__``), but not ``__builtins__``. Classes: those it
    binds and their nested classes, the classes of its instances, and for all of them their
    bases and metaclasses (``type(type(re.I))``), whichever module defined them.
    """
    found: list[tuple[str, Any]] = []
    counters: list[tuple[str, Any]] = []
    seen: set[int] = set()
    instance_types: list[type] = []

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
            if kind is not _FUNCTION:
                instance_types.append(kind)

    def expand(start: int) -> None:
        # One level further in, for what was found since ``start``.
        for label, obj in _list(found[start:]):
            if issubclass(_type(obj), dict):
                for key, value in _list(obj.items()):
                    add(f"{label}[{key!r}]" if _type(key) is str else f"{label}[...]", value)
            elif issubclass(_type(obj), _SEQUENCES):
                for value in _list(obj):
                    add(f"{label}[...]", value)

    bound: list[type] = []
    for key, value in _list(namespace.items()):
        label = f"{name}.{key}"
        if label in _SKIPPED or key == "__builtins__":
            continue
        if key.startswith("__") and not issubclass(_type(value), _CONTAINERS):
            continue  # `__loader__`, `__spec__`: only dunder names, which are risky, reach them
        if issubclass(_type(value), type):
            bound.append(value)
        else:
            add(label, value)
    expand(0)
    classes: list[type] = []
    class_seen: set[int] = set()
    todo = [*bound, *(m for c in bound for m in _class_members(c) if issubclass(_type(m), type))]
    while todo or instance_types:
        todo.extend(instance_types)
        instance_types.clear()
        start = _len(found)
        while todo:
            cls = todo.pop()
            if id(cls) in class_seen:
                continue
            class_seen.add(id(cls))
            todo.extend(cls.__mro__[1:])
            todo.append(_type(cls))
            if cls.__flags__ & _IMMUTABLE_TYPE:
                continue
            classes.append(cls)
            for attr, member in _list(_class_dict(cls).items()):
                if attr in CLASS_CACHES or (
                    attr.startswith("__") and not issubclass(_type(member), _CONTAINERS)
                ):
                    continue
                add(f"{name}.{cls.__qualname__}.{attr}", member)
        expand(start)  # may find instances of more classes: another round
    return Contents(found, counters), Classes(name, classes)


def _class_members(cls: type) -> list[Any]:
    return _list(_class_dict(cls).values())


_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in types refuse new attributes
_class_dict = type.__dict__["__dict__"].__get__
_DATA = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)


class Classes:
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
    def merge(cls, parts: list[Classes]) -> Classes:
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
