"""What a method's code spells, and whether that lets it reach state the check cannot follow.

The state check (:mod:`pau_state`) follows a method to the modules it imports and to the
attributes it spells. Code that could reach objects another way (a frame, a module's
globals, ``sys.modules``, ``eval`` of a string) is :func:`risky`: it gets a fresh
interpreter after every call in Wasm, and the full comparison in the process backend.

The verdict reads the bytecode, so a name is judged by how it is used: ``re.compile`` is an
attribute, not the builtin ``compile``; ``self.__dict__`` is read, not written. ``getattr``
& co. are not judged here: they are wrapped builtins that mark the call when they run
(``pau_guard.REACHING``).
"""

from __future__ import annotations

import dis
import re
import sys
from dataclasses import dataclass
from typing import Any

_type, _list = type, list
_IDENTIFIERS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").findall
#: ``module.attribute`` objects the standard library mutates as a cache while it is used
#: (compiled patterns, codec lookups, flag combinations): a change there is not state a
#: method left behind. Their names are risky, so a method cannot plant an entry.
CACHES = frozenset(
    {
        "re._cache",
        "re._cache2",
        "_strptime._regex_cache",
        "_strptime._TimeRE_cache",
        "encodings._cache",
    }
)
#: Attribute names of caches kept on classes (``re.RegexFlag._value2member_map_`` gains a
#: pseudo-member for every new flag combination, ``re.I | re.M``).
CLASS_CACHES = frozenset({"_value2member_map_"})

#: Modules whose state is the interpreter's own; ``sys`` is allowed for :data:`_SAFE_SYS`.
_RISKY_MODULES = frozenset(
    {"sys", "gc", "inspect", "importlib", "builtins", "pickle", "copyreg", "marshal", "ctypes"}
)
#: What code may use of ``sys`` and still be followed (all reset or read-only per call).
_SAFE_SYS = frozenset(
    {
        "maxsize",
        "maxunicode",
        "float_info",
        "int_info",
        "hash_info",
        "float_repr_style",
        "version",
        "version_info",
        "hexversion",
        "byteorder",
        "platform",
        "flags",
        "getsizeof",
        "getrecursionlimit",
        "setrecursionlimit",
        "get_int_max_str_digits",
        "set_int_max_str_digits",
        "getdefaultencoding",
        "intern",
        "stdin",
        "stdout",
        "stderr",
        "exit",
        "exc_info",
        "exception",
    }
)
#: ``sys`` attributes that reach mutable state or act on the interpreter (sys.path,
#: sys.modules, settrace...). Rebinding an immutable one (``sys.prefix = ...``) is seen by
#: the namespace check, so names like ``prefix`` stay usable in code that imports sys.
_SYS_RISKY = frozenset(
    name
    for name, value in vars(sys).items()
    if not name.startswith("__")
    and name not in _SAFE_SYS
    and not isinstance(value, (str, bytes, int, float, tuple, frozenset, type(None)))
)
#: Names that are risky however they are used: they reach frames, module registries or
#: state the interpreter keeps in C.
_RISKY_ANYWHERE = frozenset(
    {
        "attrgetter",
        "methodcaller",
        "Formatter",
        "modules",
        "tb_frame",
        "f_globals",
        "f_back",
        "f_builtins",
        "f_locals",
        "gi_frame",
        "cr_frame",
        "ag_frame",
        "gi_code",
        # Registries a method could leave an entry in.
        "register",
        "register_dialect",
        "register_error",
        "unregister",
        "_abc_register",
        "setlocale",
        "_setlocale",
        "setswitchinterval",
        "_cache_lock",
        "global_enum",
        # They evaluate annotation strings: a getattr by a name the code need not spell.
        "get_type_hints",
        "ForwardRef",
        "evaluate_forward_ref",
        "get_annotations",
        "call_annotate_function",
        "call_evaluate_function",
        "_eval_type",
        "cache_info",
        "DefaultContext",
        "BasicContext",
        "ExtendedContext",
    }
    | {cache.rsplit(".", 1)[1] for cache in CACHES}
    | CLASS_CACHES
)
#: Builtins that are risky when called as builtins (not as attributes of something else).
#: (``vars``, like ``getattr``, is a stand-in that reports only when it reaches past the
#: method's own objects.)
_RISKY_GLOBALS = frozenset({"eval", "exec", "breakpoint", "__import__", "__builtins__"})
#: Dunder names code may read or define: the data model, and what the compiler generates.
_SAFE_DUNDERS = frozenset(
    {
        "__init__",
        "__new__",
        "__init_subclass__",
        "__set_name__",
        "__class_getitem__",
        "__post_init__",
        "__name__",
        "__qualname__",
        "__module__",
        "__doc__",
        "__main__",
        "__future__",
        "__class__",
        "__mro__",
        "__members__",
        "__cause__",
        "__context__",
        "__suppress_context__",
        "__notes__",
        "__all__",
        "__slots__",
        "__annotations__",
        "__annotate__",
        "__match_args__",
        "__orig_bases__",
        "__parameters__",
        "__args__",
        "__origin__",
        "__dataclass_fields__",
        "__repr__",
        "__str__",
        "__bytes__",
        "__format__",
        "__hash__",
        "__bool__",
        "__len__",
        "__length_hint__",
        "__iter__",
        "__next__",
        "__reversed__",
        "__aiter__",
        "__anext__",
        "__await__",
        "__contains__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__missing__",
        "__call__",
        "__enter__",
        "__exit__",
        "__aenter__",
        "__aexit__",
        "__get__",
        "__set__",
        "__delete__",
        "__getattr__",
        "__dir__",
        "__copy__",
        "__deepcopy__",
        "__getstate__",
        "__setstate__",
        "__reduce__",
        "__reduce_ex__",
        "__sizeof__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__neg__",
        "__pos__",
        "__abs__",
        "__invert__",
        "__round__",
        "__trunc__",
        "__floor__",
        "__ceil__",
        "__index__",
        "__int__",
        "__float__",
        "__complex__",
        # Generated by the compiler for class bodies (3.12+).
        "__firstlineno__",
        "__static_attributes__",
        "__classcell__",
        "__classdictcell__",
        "__classdict__",
        "__annotate_func__",
        "__conditional_annotations__",
        "__type_params__",
    }
    | {
        f"__{prefix}{op}__"
        for op in (
            "add",
            "sub",
            "mul",
            "matmul",
            "truediv",
            "floordiv",
            "mod",
            "divmod",
            "pow",
            "lshift",
            "rshift",
            "and",
            "or",
            "xor",
        )
        for prefix in ("", "r", "i")
    }
)
_GLOBAL_OPS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FROM_DICT_OR_GLOBALS"})
_ATTR_OPS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR"})
_STORE_ATTR_OPS = frozenset({"STORE_ATTR", "DELETE_ATTR"})
_LOCAL_OPS = frozenset({"STORE_NAME", "STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL"})


@dataclass(frozen=True)
class Spelling:
    """How compiled code (with the code nested in it) uses names."""

    names: frozenset[str]
    """Every name: globals, attributes, imports."""
    globals: frozenset[str]
    """Names loaded as globals or builtins."""
    stored_attrs: frozenset[str]
    """Attribute names assigned or deleted (``x.name = ...``)."""
    imports: frozenset[str]
    """Modules imported (``import a.b`` gives ``a`` and ``a.b``)."""
    strings: frozenset[str]
    """Dunder identifiers inside string constants (``'__globals__'``, ``'a.__class__'``)."""
    reach: frozenset[str]
    """Names plus every identifier in a string constant: what the state check follows
    (``def f(x: "json.decoder")`` reaches ``json.decoder``)."""
    attrs: frozenset[str]
    """Names read as attributes (``x.name``)."""


def spell(code: Any) -> Spelling:
    """Read how ``code`` and every code object nested in it use names.

    Uses the lean bytecode reader when it agreed with :mod:`dis` on this interpreter
    (:func:`_check_lean_reader`, run at import), else :mod:`dis`, about ten times slower.
    """
    return _spell(code, _uses if LEAN_READER else _uses_dis)


def _uses_dis(code: Any) -> list[tuple[str, str]]:
    """(opname, name) of every instruction that names something, through :mod:`dis`."""
    return [
        (ins.opname, ins.argval)
        for ins in dis.get_instructions(code)
        if ins.opname in _NAME_OPS and _type(ins.argval) is str
    ]


#: How an instruction's argument indexes ``co_names`` (3.12+): LOAD_GLOBAL and LOAD_ATTR
#: keep a flag in the low bit, LOAD_SUPER_ATTR two.
_SHIFT = {"LOAD_GLOBAL": 1, "LOAD_ATTR": 1, "LOAD_SUPER_ATTR": 2}
_NAME_OPS = _GLOBAL_OPS | _ATTR_OPS | _STORE_ATTR_OPS | _LOCAL_OPS | {"IMPORT_NAME", "IMPORT_FROM"}
_BY_CODE = {dis.opmap[name]: (name, _SHIFT.get(name, 0)) for name in _NAME_OPS if name in dis.opmap}
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]


def _uses(code: Any) -> list[tuple[str, str]]:
    """The same as :func:`_uses_dis`, read straight from ``co_code``."""
    raw, names = code.co_code, code.co_names
    out = []
    arg = 0
    for i in range(0, len(raw), 2):
        op = raw[i]
        if op == _EXTENDED_ARG:
            arg = (arg | raw[i + 1]) << 8
            continue
        found = _BY_CODE.get(op)
        if found is not None:
            index = (arg | raw[i + 1]) >> found[1]
            if index < len(names):
                out.append((found[0], names[index]))
        arg = 0
    return out


def _spell(code: Any, uses: Any) -> Spelling:
    names: set[str] = set()
    globals_: set[str] = set()
    stored: set[str] = set()
    imports: set[str] = set()
    strings: set[str] = set()
    words: set[str] = set()
    attrs: set[str] = set()
    todo = [code]
    while todo:
        current = todo.pop()
        names.update(current.co_names)
        seen: set[str] = set()
        for op, arg in uses(current):
            if op in _GLOBAL_OPS:
                globals_.add(arg)
            elif op in _STORE_ATTR_OPS:
                stored.add(arg)
            elif op in _ATTR_OPS:
                attrs.add(arg)
            elif op == "IMPORT_NAME":
                parts = arg.split(".")
                imports.update(".".join(parts[: i + 1]) for i in range(len(parts)))
            elif op not in _ATTR_OPS and op not in _LOCAL_OPS and op != "IMPORT_FROM":
                continue
            seen.add(arg)
        # A name used by an instruction not classified above counts as a global too.
        globals_.update(n for n in current.co_names if n not in seen)
        # Strings: an annotation string names attributes (typing evaluates it); the
        # attribute names of a `match` class pattern sit in a tuple, not in co_names.
        consts = [(const, False) for const in current.co_consts]
        while consts:
            const, in_tuple = consts.pop()
            kind = _type(const)
            if kind is str:
                found = _IDENTIFIERS(const)
                (names if in_tuple else words).update(found)
                strings.update(w for w in found if _is_dunder(w))
            elif kind is tuple or kind is frozenset:
                consts.extend((item, True) for item in const)
            elif hasattr(const, "co_names"):
                todo.append(const)
    return Spelling(
        frozenset(names),
        frozenset(globals_),
        frozenset(stored),
        frozenset(imports),
        frozenset(strings),
        frozenset(words | names),
        frozenset(attrs),
    )


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__") and name.isidentifier()


def risky(spelling: Spelling, aliases: frozenset[str] = frozenset()) -> str | None:
    """Why the code can reach state the name-based check cannot follow, or None.

    Args:
        spelling: What :func:`spell` read from the code.
        aliases: Module attributes bound to ``sys`` or ``builtins`` (``collections._sys``).
    """
    names = spelling.names
    for name in names & (_RISKY_ANYWHERE | aliases):
        return name
    for name in spelling.globals & _RISKY_GLOBALS:
        return name
    for name in spelling.imports & _RISKY_MODULES:
        if name != "sys":
            return name
    if "sys" in names:
        unsafe = names & _SYS_RISKY
        if unsafe:
            return f"sys.{min(unsafe)}"
    for name in names | spelling.strings:
        if _is_dunder(name) and name not in _SAFE_DUNDERS:
            return name
    for name in spelling.stored_attrs:
        if _is_dunder(name):
            return name
    if "__annotations__" in spelling.attrs:
        # A function's annotations dict is made on first read and kept (3.14): a
        # library function's is shared state outside its __dict__. (As a name, in a
        # class body of older Pythons, it is the class's own.)
        return "__annotations__"
    return None


def _check_lean_reader() -> bool:
    """Whether :func:`_uses` reads this interpreter's bytecode as :mod:`dis` does."""
    if sys.version_info < (3, 12):
        return False
    sample = (
        "import os.path as p, re\nfrom json import dumps as d\n"
        "class K(dict):\n    def f(self, x=1, *, y=2):\n        return super().get(x), self.z, K.w\n"
        "def g(a):\n    global q\n    q = a.b.c\n    a.d = re.compile('x')\n    del a.e\n"
        "    return [len(v) for v in a if v], lambda: p.join(d(a))\n"
        + "".join(f"v{i} = w{i}.u{i}\n" for i in range(300))  # past 256 names: EXTENDED_ARG
    )
    try:
        todo = [compile(sample, "<check>", "exec", dont_inherit=True)]
        while todo:
            code = todo.pop()
            if sorted(_uses(code)) != sorted(_uses_dis(code)):
                return False
            todo.extend(c for c in code.co_consts if hasattr(c, "co_names"))
    except Exception:
        return False
    return True


LEAN_READER = _check_lean_reader()
