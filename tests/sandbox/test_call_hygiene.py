"""Per-call hygiene, and the other direction: ordinary code must not look dirty.

A false alarm costs a fresh interpreter (~6 ms instead of ~0.1 ms) on every call, so the
standard-library corpus and every builtin method must keep one instance. The rest pins down
what each call resets or lets go of while still guarded (garbage, finalizers, context
variables, warnings, `random`), and how the guest's answers and bytecode reading behave.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_pau.dataset import load_dataset
from pytest_pau.sandbox import Sandbox
from tests.sandbox.conftest import method
from tests.sandbox.stdlib_corpus import STDLIB_USE

Make = Callable[..., Sandbox]


@pytest.mark.parametrize("name", STDLIB_USE)
def test_ordinary_standard_library_use_keeps_one_instance(make_sandbox: Make, name: str) -> None:
    box = make_sandbox(STDLIB_USE[name])
    for text in ("('ab',)", "('hello',)", "('ab,cd;e',)"):
        result = box.call_literal(text)
        assert result.ok, result
    backend = box._backend  # type: ignore[attr-defined]
    assert backend.instances_started == 1, backend.last_restart


@pytest.mark.slow
def test_every_builtin_method_keeps_one_instance(make_sandbox: Make) -> None:
    restarted = {}
    for instance in load_dataset("builtin"):
        box = make_sandbox(instance.code)
        for example in instance.train_examples + instance.test_examples:
            box.call_literal(example.input)
        backend = box._backend  # type: ignore[attr-defined]
        if backend.instances_started > 1:
            restarted[instance.id] = backend.last_restart
        box.close()
    assert restarted == {}


def test_attribute_names_that_match_risky_builtins_are_not_risky(make_sandbox: Make) -> None:
    # `re.compile` is not `compile`; only the builtin reaches objects by computed name.
    box = make_sandbox("import re\ndef test_func(s):\n    return re.compile(s).pattern")
    assert [box.call_literal(f"('{c}',)").value for c in "abc"] == ["'a'", "'b'", "'c'"]
    assert box._backend.instances_started == 1  # type: ignore[attr-defined]


def test_method_code_does_not_inherit_the_runner_future_flags(make_sandbox: Make) -> None:
    # The runner's `from __future__ import annotations` once turned every annotation
    # of a method into a string.
    code = (
        "def f(x: int) -> int:\n    return x\ndef test_func():\n    return str(f.__annotations__)"
    )
    assert make_sandbox(code).call_literal("()").value == repr(
        "{'x': <class 'int'>, 'return': <class 'int'>}"
    )


def test_dataclasses_and_named_tuples_defined_by_a_method_work(make_sandbox: Make) -> None:
    # dataclasses and typing look the class's module up in sys.modules.
    code = (
        "from dataclasses import dataclass\nfrom typing import NamedTuple\n"
        "@dataclass(frozen=True)\nclass P:\n    x: int\n"
        "class Q(NamedTuple):\n    y: str\n"
        "def test_func(n):\n    return (P(n).x, Q('a').y, P.__module__)"
    )
    box = make_sandbox(code)
    assert [box.call_literal(f"({n},)").value for n in (1, 2)] == [
        "(1, 'a', '__pau_method__')",
        "(2, 'a', '__pau_method__')",
    ]
    assert box._backend.instances_started == 1  # type: ignore[attr-defined]


def test_codecs_looked_up_by_name_are_available(make_sandbox: Make) -> None:
    code = method(
        "import codecs\nreturn codecs.encode('abc', 'rot13'), 'a'.encode('utf-16-le'), 'x'.encode('idna')"
    )
    assert make_sandbox(code).call_literal("()").value == "('nop', b'a\\x00', b'x')"


def test_context_variables_are_fresh_every_call(make_sandbox: Make) -> None:
    code = method(
        "import _warnings\nvar = _warnings._warnings_context\nold = var.get(None)\nvar.set('planted')\nreturn old"
    )
    box = make_sandbox(code)
    assert [box.call_literal("()").value for _ in range(3)] == ["None"] * 3


def test_random_is_reseeded_for_a_module_that_uses_it(make_sandbox: Make) -> None:
    # statistics draws from random's shared generator; the method never imports random.
    box = make_sandbox(method("import statistics\nreturn statistics.NormalDist(0, 1).samples(1)"))
    assert len({box.call_literal("()").value for _ in range(3)}) == 1
    assert box._backend.instances_started == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[1]",
        '{"value": "x"}',
        '{"ok": true, "value": 5}',
        '{"ok": true, "extra": 1}',
    ],
)
def test_an_answer_the_host_cannot_trust_is_refused(raw: str) -> None:
    from pytest_pau.sandbox.wasm import RESULT_FIELDS, _parse_answer

    assert _parse_answer(raw, RESULT_FIELDS) is None
    assert _parse_answer(
        '{"ok": false, "error_type": "E", "message": "m", "dirty": null}', RESULT_FIELDS
    )


def test_the_guest_reads_bytecode_with_the_lean_reader(make_sandbox: Make) -> None:
    # The lean reader is used only where it agreed with dis when the guest started; dis
    # costs ~3 ms more for every sandbox.
    box = make_sandbox(method("return 1"))
    assert box.call_literal("()").ok
    assert box._backend.reader == "lean"  # type: ignore[attr-defined]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the lean reader needs 3.12+ bytecode")
def test_lean_reader_agrees_with_dis_on_this_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_pau.sandbox.build import guest_dir

    monkeypatch.syspath_prepend(str(guest_dir()))
    import pau_names

    assert pau_names.LEAN_READER
    root = Path(__file__).resolve().parents[2]
    for path in [*root.glob("pytest_pau/**/*.py"), *root.glob("scripts/builtin_methods/*.py")]:
        code = compile(path.read_text(), str(path), "exec", dont_inherit=True)
        assert pau_names._spell(code, pau_names._uses) == pau_names._spell(
            code, pau_names._uses_dis
        ), path


def test_warnings_show_again_in_the_next_call(make_sandbox: Make) -> None:
    # The "already shown" registry of a warning attributed to the runner's frame was kept.
    code = method(
        "import sys, io, warnings\nsys.stderr = buf = io.StringIO()\n"
        "warnings.warn('pau', stacklevel=2)\nreturn len(buf.getvalue()) > 0"
    )
    box = make_sandbox(code)
    assert [box.call_literal("()").value for _ in range(3)] == ["True"] * 3


def test_import_os_keeps_one_instance(make_sandbox: Make) -> None:
    box = make_sandbox(method("import os\nreturn os.path.join('a', os.sep.join(['b', 'c']))"))
    assert [box.call_literal("()").value for _ in range(3)] == ["'a/b/c'"] * 3
    assert box._backend.instances_started == 1  # type: ignore[attr-defined]


def test_an_exception_that_cannot_be_described_still_gives_an_answer(make_sandbox: Make) -> None:
    code = (
        "class E(SyntaxError):\n    @property\n    def lineno(self):\n        raise RuntimeError('x')\n"
        "def test_func():\n    raise E('bad')"
    )
    result = make_sandbox(code).call_literal("()")
    assert not result.ok
    assert result.error_type == "E"


def test_cyclic_garbage_is_finalised_within_its_own_call(make_sandbox: Make) -> None:
    # A generator in a reference cycle runs its `finally` when the collector frees it; that
    # used to happen during a later call, after this call's check.
    code = (
        "import keyword\n"
        "def gen(box, kwlist):\n    try:\n        yield 1\n    finally:\n        kwlist.append('leak')\n"
        "def test_func(n):\n    junk = [[] for _ in range(n)]\n    seen = keyword.kwlist.count('leak')\n"
        "    box = []\n    g = gen(box, keyword.kwlist)\n    box.append(g)\n    next(g)\n    return seen"
    )
    box = make_sandbox(code)
    assert [box.call_literal("(20000,)").value for _ in range(4)] == ["0"] * 4


def test_objects_left_in_a_list_argument_are_let_go_while_guarded(make_sandbox: Make) -> None:
    # The argument tuple outlived the check; a weakref callback then ran unguarded.
    code = (
        "import weakref\nclass O:\n    pass\n"
        "def cb(ref):\n    import math\n    math.pi = 3\n"
        "def test_func(x):\n    import math\n    v = math.pi\n    o = O()\n"
        "    x.append(weakref.ref(o, cb))\n    x.append(o)\n    return v"
    )
    box = make_sandbox(code)
    assert {box.call_literal("([],)").value for _ in range(3)} == {repr(math.pi)}


def test_garbage_made_by_a_finalizer_is_collected_in_the_same_call(make_sandbox: Make) -> None:
    # A finalizer that makes a new cycle with a finalizer of its own: one collection is
    # not enough, and gc.collect's counts do not show it.
    code = (
        "def gen(box):\n    try:\n        yield 1\n    finally:\n        import math\n        math.pi = 3\n"
        "def make_leaky(gen=gen):\n    box = []\n    g = gen(box)\n    box.append(g)\n    next(g)\n"
        "def first(box, mk=make_leaky):\n    try:\n        yield 1\n    finally:\n        mk()\n"
        "def test_func(k):\n    import math\n    v = math.pi\n"
        "    if k:\n        b = []\n        g = first(b)\n        b.append(g)\n        next(g)\n    return v"
    )
    box = make_sandbox(code)
    values = [box.call_literal(text).value for text in ("(0,)", "(1,)", "(0,)", "(0,)")]
    assert values == [repr(math.pi)] * 4


def test_a_fake_traceback_runs_no_code_outside_the_guard(make_sandbox: Make) -> None:
    # The answer path walked exc.__traceback__ unguarded; a property posing as tb_frame ran.
    code = (
        "def evil(self):\n    import math\n    math.pi = 3\n"
        "T = type('T', (), {'tb_' + 'frame': property(evil), 'tb_next': None, 'tb_lineno': 1})\n"
        "E = type('E', (Exception,), {chr(95) * 2 + 'traceback' + chr(95) * 2: property(lambda self: T())})\n"
        "def test_func(k):\n    import math\n    if k:\n        raise E('boom')\n    return math.pi"
    )
    for backend in ("wasm", "process"):
        box = make_sandbox(code, backend=backend)
        assert box.call_literal("(1,)").error_type == "E"
        assert box.call_literal("(0,)").value == repr(math.pi), backend
