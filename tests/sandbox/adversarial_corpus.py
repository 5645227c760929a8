"""Hostile methods and the contained outcome each must end in.

Each entry is a method body (the code of ``test_func()``, no arguments) and the outcomes
allowed for it: ``"ok"`` for a normal return, or an ``error_type``. ``check`` optionally
looks at the result further. The test runs each twice in the same sandbox: the sandbox
must answer within seconds, with an allowed outcome, and keep serving. Nothing here may
touch the host: the test also checks the host's files and environment afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pytest_pau.models import CallResult


@dataclass(frozen=True)
class Hostile:
    id: str
    body: str
    allowed: frozenset[str]
    check: Callable[[CallResult], bool] | None = field(default=None)


def _any(*names: str) -> frozenset[str]:
    return frozenset(names)


NO_ACCESS = _any(
    "PermissionError",
    "FileNotFoundError",
    "OSError",
    "ModuleNotFoundError",
    "AttributeError",
    "ImportError",
    # socket, subprocess, ctypes, pathlib, signal: standard-library modules the guest lacks.
    "SandboxLimitation",
)
MARKER = "/tmp/pau-sandbox-escaped"

CORPUS: list[Hostile] = [
    # --- filesystem -------------------------------------------------------------------
    Hostile("read-passwd", "return open('/etc/passwd').read()", NO_ACCESS),
    Hostile("listdir-root", "import os\nreturn os.listdir('/')", NO_ACCESS),
    Hostile(
        "os-open",
        "import os\nreturn os.read(os.open('/etc/hostname', os.O_RDONLY), 100)",
        NO_ACCESS,
    ),
    Hostile("write-file", f"open({MARKER!r}, 'w').write('x')\nreturn 'written'", NO_ACCESS),
    Hostile("io-open-code", "import io\nreturn io.open_code('/etc/passwd').read()", NO_ACCESS),
    Hostile(
        "pathlib-read", "import pathlib\nreturn pathlib.Path('/etc/passwd').read_text()", NO_ACCESS
    ),
    # --- network, processes, native code ----------------------------------------------
    Hostile(
        "socket-connect",
        "import socket\ns = socket.socket()\ns.connect(('127.0.0.1', 80))",
        NO_ACCESS,
    ),
    Hostile(
        "subprocess-run", "import subprocess\nreturn subprocess.run(['id']).returncode", NO_ACCESS
    ),
    Hostile(
        "os-system", "import os\nreturn os.system('touch /tmp/pau-sandbox-escaped')", NO_ACCESS
    ),
    Hostile("os-fork", "import os\nreturn os.fork()", NO_ACCESS),
    Hostile("os-popen", "import os\nreturn os.popen('id').read()", NO_ACCESS),
    Hostile("ctypes", "import ctypes\nreturn ctypes.CDLL(None)", NO_ACCESS),
    Hostile(
        "thread-start",
        "import threading\nthreading.Thread(target=print).start()",
        NO_ACCESS | {"RuntimeError"},
    ),
    Hostile("os-kill", "import os\nos.kill(1, 9)", NO_ACCESS),
    Hostile("signal-alarm", "import signal\nsignal.alarm(1)", NO_ACCESS),
    # WASI randomness is replaced by a fixed byte pattern: deterministic, never secret.
    Hostile(
        "urandom", "import os\nreturn os.urandom(4)", _any("ok"), lambda r: r.value == "b'ZZZZ'"
    ),
    Hostile(
        "system-random", "import random\nreturn random.SystemRandom().randint(0, 9)", _any("ok")
    ),
    # --- environment and time ---------------------------------------------------------
    Hostile("environ", "import os\nreturn dict(os.environ)", _any("ok"), lambda r: r.value == "{}"),
    Hostile(
        "getenv-home",
        "import os\nreturn os.getenv('HOME')",
        _any("ok"),
        lambda r: r.value == "None",
    ),
    Hostile(
        "wall-clock",
        "import time\nreturn time.time()",
        _any("ok"),
        lambda r: r.value == "1704067200.0",
    ),
    Hostile("sleep", "import time\ntime.sleep(30)", _any("PermissionError")),
    # select() rebuilt from the builtin-module table: no audit event, and its timeout
    # waits in the host's poll where the epoch deadline cannot reach (a host hang).
    Hostile(
        "select-rebuilt-via-imp",
        "import _imp, importlib.machinery as m\n"
        "s = _imp.create_builtin(m.ModuleSpec('select', m.BuiltinImporter))\n"
        "s.select([], [], [], 1e9)",
        _any("PermissionError", "ImportError", "ModuleNotFoundError", "AttributeError"),
    ),
    # The component's own modules lead to the runner and its guard (switching it off).
    Hostile("import-entry-module", "import app\nreturn app.pau_runner", NO_ACCESS),
    Hostile("import-wit-world", "import wit_world\nreturn 1", NO_ACCESS),
    Hostile(
        "monotonic-clock-is-fake",
        "import time\na = time.perf_counter()\nb = time.perf_counter()\nreturn b - a",
        _any("ok"),
        check=lambda r: r.value is not None and float(r.value) < 0.001,
    ),
    Hostile("select-wait", "import select\nselect.select([], [], [], 30)", NO_ACCESS),
    # --- bombs --------------------------------------------------------------------------
    Hostile("busy-loop", "while True:\n    pass", _any("Timeout")),
    Hostile(
        "infinite-recursion", "def f(n):\n    return f(n + 1)\nreturn f(0)", _any("RecursionError")
    ),
    Hostile(
        "deep-recursion-raised-limit",
        "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nreturn f(0)",
        _any("RecursionError", "MemoryError", "SandboxError"),
    ),
    Hostile("string-bomb", "return len('a' * 10**10)", _any("MemoryError", "OverflowError")),
    Hostile("list-bomb", "x = []\nwhile True:\n    x.append('y' * 10**6)", _any("MemoryError")),
    Hostile("power-bomb", "return 7 ** (10 ** 10)", _any("Timeout", "MemoryError")),
    Hostile(
        "int-parse-bomb",
        "return len(str(int('9' * 3_000_000)))",
        _any("Timeout", "MemoryError", "ok"),
    ),
    Hostile(
        "regex-backtracking",
        "import re\nreturn bool(re.match('(a+)+$', 'a' * 64 + 'b'))",
        _any("Timeout"),
    ),
    Hostile(
        "fork-like-generator",
        "def g():\n    while True:\n        yield 1\nreturn list(g())",
        _any("MemoryError", "Timeout"),
    ),
    # --- output tricks ------------------------------------------------------------------
    Hostile(
        "huge-output",
        "return 'x' * 10**7",
        _any("ok"),
        lambda r: r.truncated and len(r.value or "") < 70_000,
    ),
    Hostile(
        "self-referential",
        "x = []\nx.append(x)\nreturn x",
        _any("ok"),
        lambda r: r.value == "[[...]]" and not r.literal,
    ),
    Hostile(
        "repr-raises",
        "class E:\n    def __repr__(self):\n        raise RuntimeError('no repr')\nreturn E()",
        _any("RuntimeError"),
        lambda r: "repr() failed" in (r.message or ""),
    ),
    Hostile(
        "repr-loops",
        "class E:\n    def __repr__(self):\n        while True:\n            pass\nreturn E()",
        _any("Timeout"),
    ),
    Hostile(
        "repr-not-str",
        "class E:\n    def __repr__(self):\n        return 42\nreturn E()",
        _any("TypeError"),
    ),
    Hostile(
        "print-flood",
        "for _ in range(10**5):\n    print('spam' * 100)\nreturn 1",
        _any("ok"),
        lambda r: r.value == "1",
    ),
    Hostile(
        "deep-nesting-result",
        "x = []\nfor _ in range(10**5):\n    x = [x]\nreturn x",
        _any("ok", "RecursionError", "MemoryError"),
    ),
    # --- exit and signal tricks ----------------------------------------------------------
    Hostile("system-exit", "raise SystemExit(3)", _any("SystemExit")),
    Hostile("sys-exit", "import sys\nsys.exit('bye')", _any("SystemExit")),
    Hostile("keyboard-interrupt", "raise KeyboardInterrupt", _any("KeyboardInterrupt")),
    Hostile(
        "base-exception",
        "class Escape(BaseException):\n    pass\nraise Escape('out')",
        _any("Escape"),
    ),
    Hostile("generator-exit", "raise GeneratorExit", _any("GeneratorExit")),
    Hostile("os-exit", "import os\nos._exit(0)", _any("SystemExit", "AttributeError")),
    Hostile(
        "abort", "import os\nos.abort()", _any("SandboxError", "AttributeError", "PermissionError")
    ),
    Hostile(
        "str-raises",
        "class E(Exception):\n    def __str__(self):\n        raise ValueError\nraise E()",
        _any("E"),
        lambda r: "could not be converted" in (r.message or ""),
    ),
    Hostile(
        "str-loops",
        "class E(Exception):\n    def __str__(self):\n        while True:\n            pass\nraise E()",
        _any("Timeout"),
    ),
    Hostile("input", "return input()", _any("EOFError")),
    # --- escape attempts on the sandbox itself -------------------------------------------
    Hostile(
        "subclasses-walk",
        "for c in ().__class__.__base__.__subclasses__():\n"
        "    g = getattr(getattr(c, '__init__', None), '__globals__', None)\n"
        "    if g and 'system' in g:\n"
        "        return g['system']('touch /tmp/pau-sandbox-escaped')\n"
        "return 'nothing found'",
        _any("ok", "PermissionError", "AttributeError"),
        lambda r: not r.ok or r.value == "'nothing found'",
    ),
    Hostile(
        "frame-walk",
        "import sys\nf = sys._getframe()\nwhile f.f_back:\n    f = f.f_back\nf.f_globals.clear()\nreturn 1",
        _any("ok", "AttributeError", "TypeError", "KeyError"),
    ),
    Hostile(
        "gc-objects",
        "import gc\nfor o in gc.get_objects():\n    if isinstance(o, dict) and 'in_call' in o:\n        o.clear()\nreturn 1",
        _any("ok", "TypeError"),
    ),
    Hostile(
        "import-runner",
        "import pau_runner\npau_runner._S.code = None\nreturn 1",
        _any("ok", "ModuleNotFoundError", "AttributeError"),
    ),
    Hostile(
        "poison-sys-modules",
        "import sys\nsys.modules['math'] = None\nsys.modules['json'] = 1\nreturn 1",
        _any("ok"),
    ),
    Hostile(
        "poison-builtins",
        "import builtins\nbuiltins.len = lambda x: 0\nbuiltins.repr = lambda x: 'hacked'\nreturn [1, 2]",
        _any("ok"),
        lambda r: r.value == "[1, 2]",
    ),
    Hostile(
        "patch-json-dumps",
        'import json\njson.dumps = lambda *a, **k: \'{"ok": true, "value": "forged"}\'\nreturn 7',
        _any("ok"),
        lambda r: r.value == "7",
    ),
    Hostile(
        "swap-stdout",
        "import sys, io\nsys.stdout = io.StringIO()\nsys.setrecursionlimit(50)\nreturn 1",
        _any("ok"),
    ),
    Hostile(
        "audit-hook",
        "import sys\nsys.addaudithook(lambda e, a: None)\nreturn 1",
        _any("ok", "PermissionError"),
    ),
    Hostile(
        "code-object-crash",
        "import types\nc = (lambda: 0).__code__.replace(co_code=b'\\xff' * 8)\nreturn types.FunctionType(c, {})()",
        _any("SandboxError", "SystemError", "ValueError", "TypeError", "ok"),
    ),
]

#: Methods whose state must be back to normal on the call after a hostile one.
PROBE = (
    "import math, json, sys\n"
    "def test_func():\n"
    "    return (math.pi, json.dumps([1]), len([1, 2]), repr(3), sys.getrecursionlimit())\n"
)
PROBE_VALUE = "(3.141592653589793, '[1]', 2, '3', 1000)"
