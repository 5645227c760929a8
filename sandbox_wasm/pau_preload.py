"""What the guest imports, and runs once, before the snapshot.

The Wasm component only contains what is imported when it is built, so every module a
method may import is imported here (:data:`PRELOAD`). Some standard-library paths bind a
module global, or fill a class attribute, the first time they run; run after the snapshot,
that looks like a method leaving state behind and costs a fresh interpreter on every call,
so :func:`run` exercises them first (:func:`_warm_lazy_globals`).

Any other standard-library module is missing from the guest: :class:`MissingStdlib` notes
a call that looks one up, and the runner reports that call as a ``SandboxLimitation``
rather than as the method's behaviour.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import os
import sys
from typing import Any

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
    "warnings",
    "logging",
    "traceback",
    "ipaddress",
    "queue",
    "threading",
    "_ast_unparse",
    # Codecs found by name at run time (`s.encode('utf-16')`, `codecs.encode(s, 'rot13')`).
    "encodings.ascii",
    "encodings.base64_codec",
    "encodings.cp1250",
    "encodings.cp1251",
    "encodings.cp1252",
    "encodings.cp850",
    "encodings.cp866",
    "encodings.koi8_r",
    "encodings.koi8_u",
    "encodings.utf_7",
    "encodings.cp437",
    "encodings.hex_codec",
    "encodings.idna",
    "encodings.iso8859_15",
    "encodings.latin_1",
    "encodings.mac_roman",
    "encodings.punycode",
    "encodings.quopri_codec",
    "encodings.raw_unicode_escape",
    "encodings.rot_13",
    "encodings.unicode_escape",
    "encodings.utf_16",
    "encodings.utf_16_be",
    "encodings.utf_16_le",
    "encodings.utf_32",
    "encodings.utf_32_be",
    "encodings.utf_32_le",
    "encodings.utf_8",
    "encodings.utf_8_sig",
    "encodings.zlib_codec",
)


def _warm_lazy_globals() -> None:
    """Run the stdlib paths that bind a module global on first use, before the snapshot.

    ``Counter.most_common(n)`` imports ``heapq`` into ``collections``' namespace the first
    time; after the snapshot that looked like a method changing shared state, so every
    call using it got a fresh interpreter (6.4 ms instead of 0.28 ms per call). Found by
    running the builtin dataset and ``tests/sandbox/test_call_hygiene.py``'s stdlib corpus with
    one instance per method.
    """
    with contextlib.suppress(Exception):
        collections.Counter("ab").most_common(1)
    with contextlib.suppress(Exception):
        import typing

        # typing binds `annotationlib` over its `_lazy_annotationlib` placeholder on the
        # first repr of a generic alias (`str(List[int])`).
        str(typing.List[int])  # noqa: UP006 (typing.List is the point)
    with contextlib.suppress(Exception):
        import string

        # Template compiles its pattern, and sets its flags, on first use (3.14).
        string.Template("$a").substitute(a=1)
    with contextlib.suppress(Exception):
        import base64

        # The base32/base85/ascii85 tables are built on first use.
        for encode, decode in (
            (base64.b32encode, base64.b32decode),
            (base64.b32hexencode, base64.b32hexdecode),
            (base64.b85encode, base64.b85decode),
            (base64.a85encode, base64.a85decode),
        ):
            decode(encode(b"pau"))
    with contextlib.suppress(Exception):
        import ast

        ast.unparse(ast.parse("a + 1"))  # imports its unparser into ast on first use
    with contextlib.suppress(Exception):
        import ipaddress

        # Netmasks are cached per prefix length on the class, on first use of each.
        for prefix in range(33):
            ipaddress.IPv4Network(f"0.0.0.0/{prefix}")
        for prefix in range(129):
            ipaddress.IPv6Network(f"::/{prefix}")
    with contextlib.suppress(Exception):
        import locale

        locale.format_string("%d", 1234567, grouping=True)


def run() -> None:
    """Import :data:`PRELOAD` (a module this build of CPython lacks is skipped) and warm up."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    _warm_lazy_globals()


#: Standard-library modules of other platforms: a method probing them (``try: import
#: msvcrt``) fails as it would in CPython on Linux, not because of the guest.
_OTHER_PLATFORMS = frozenset(
    {"_overlapped", "_scproxy", "_winapi", "_wmi", "msvcrt", "nt", "winreg", "winsound"}
)


def stdlib_names() -> str:
    """Every module of the standard library the build sees, one per line between newlines.

    Run at build time, when the library's files are there (``/python`` in componentize-py):
    its packages and modules, with the built-in and extension modules CPython names in
    ``sys.stdlib_module_names``. One string, searched with ``in``, is the smallest record
    to carry in every instance (about 60 KiB).
    """
    names = set(sys.stdlib_module_names) - _OTHER_PLATFORMS
    # componentize-py maps the library at /python but names os.py after its install path.
    roots = [p for p in sys.path if isinstance(p, str) and os.path.isfile(f"{p}/os.py")]
    root = roots[0] if roots else os.path.dirname(os.__file__)
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        prefix = "" if rel == "." else rel.replace(os.sep, ".") + "."
        for name in files:
            if name.endswith(".py"):
                module = name[:-3]
                names.add(prefix[:-1] if module == "__init__" else prefix + module)
        # Only packages hold modules (not site-packages, __pycache__ or data folders).
        dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.py")))
    names.discard("")
    return "\n" + "\n".join(sorted(names)) + "\n"


class MissingStdlib:
    """The last finder on ``sys.meta_path`` in the Wasm guest: it finds nothing, and notes
    the first standard-library module that nothing else found since :meth:`reset`.

    Every lookup that fails reaches it: the method's own imports (also those it catches),
    a module it removed from ``sys.modules`` and imports again, and the library's lazy
    imports (``'x'.encode('cp1253')`` looks up ``encodings.cp1253``). A module the standard
    library lacks (``numpy``) is not noted: its ``ModuleNotFoundError`` is the method's, as
    it would be in CPython without it.
    """

    def __init__(self, names: str) -> None:
        self._names = names
        #: The first standard-library module looked up and not found, or None.
        self.missing: str | None = None

    def reset(self) -> None:
        self.missing = None

    def find_spec(self, fullname: Any, path: Any = None, target: Any = None) -> None:
        if (
            self.missing is None
            and _type(fullname) is str
            and "\n" not in fullname
            and f"\n{fullname}\n" in self._names
        ):
            self.missing = fullname


_type = type
