"""The state check: no call leaves a trace the next can see, and ordinary calls stay cheap.

Each leak below was a real one before the check compared module *contents* (reviewer's
reproducers and their relatives): a method changed a standard-library object in place,
and the next call of the same sandbox saw it. Now the guest reports the call ``dirty`` and
the host starts a fresh interpreter. The other direction matters as much: ordinary use of
the standard library must not look dirty, or every call pays ~4 ms for a fresh instance.
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

#: name -> (code whose test_func() returns what it saw, then changes it; what changed)
LEAKS = {
    "module list grown": (
        "import keyword\nn = len(keyword.kwlist)\nkeyword.kwlist.append('x')\nreturn n",
        "keyword.kwlist",
    ),
    "module list item replaced": (
        "import keyword\nfirst = keyword.kwlist[0]\nkeyword.kwlist[0] = 'zzz'\nreturn first",
        "keyword.kwlist",
    ),
    "imported by name": (
        "from keyword import kwlist\nn = len(kwlist)\nkwlist.clear()\nreturn n",
        "keyword.kwlist",
    ),
    "replacement that claims to be equal": (
        # Compared by identity: a planted __eq__ neither hides the change nor runs.
        "import keyword\nfirst = keyword.kwlist[0]\n"
        "class Same(str):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = str.__hash__\n"
        "keyword.kwlist[0] = Same('False')\nreturn type(first).__name__",
        "keyword.kwlist",
    ),
    "function attribute": (
        "import json\nseen = hasattr(json.dumps, 'counter')\njson.dumps.counter = 1\nreturn seen",
        "json.dumps.__dict__",
    ),
    "module dict entry replaced": (
        "import copy\nr = copy.deepcopy([1])\ncopy._deepcopy_dispatch[list] = lambda x, memo: 'hijacked'\nreturn r",
        "copy._deepcopy_dispatch",
    ),
    "module instance changed by a stdlib function": (
        "import calendar\nfirst = calendar.firstweekday()\ncalendar.setfirstweekday(6)\nreturn first",
        "calendar.c.__dict__",
    ),
    "class-level dict": (
        "import textwrap\nout = textwrap.fill('a\\tb', 20)\n"
        "textwrap.TextWrapper.unicode_whitespace_trans[ord('a')] = 'Q'\nreturn out",
        "textwrap.TextWrapper.unicode_whitespace_trans",
    ),
    "builtins object, nothing imported": (
        "seen = hasattr(exit, 'marker')\nexit.marker = 1\nreturn seen",
        "builtins.exit.__dict__",
    ),
    "stdlib method replaced on its class": (
        "from collections import Counter\nout = Counter('aab').most_common(1)\n"
        "Counter.most_common = lambda self, n=None: 'pwned'\nreturn out",
        "collections.Counter.most_common",
    ),
    "class-level counter bumped by the library": (
        "import difflib\nreturn difflib.HtmlDiff().make_table(['a'], ['b']).count('difflib_chg_to0')",
        "difflib.HtmlDiff._default_prefix",
    ),
    "function of a class imported from another module": (
        "import json\nseen = hasattr(json.JSONDecoder.decode, 'mark')\njson.JSONDecoder.decode.mark = 1\nreturn seen",
        "json.JSONDecoder.decode.__dict__",
    ),
    "list inside a module dict": (
        "import typing\nn = len(typing._PROTO_ALLOWLIST['collections.abc'])\n"
        "typing._PROTO_ALLOWLIST['collections.abc'].append('X')\nreturn n",
        "typing._PROTO_ALLOWLIST['collections.abc']",
    ),
    "dict inside a module-level instance": (
        "import os\nold = os.environ.get('FOO')\nos.environ._data[b'FOO'] = b'bar'\nreturn old",
        "os.environ.__dict__['_data']",
    ),
    "class of a builtins object, nothing imported": (
        "t = type(exit)\nseen = hasattr(t, 'mark')\nt.mark = 1\nreturn seen",
        "builtins.Quitter",
    ),
    "the sandbox's own classes": (
        "import sys\nt = type(sys.stdout)\nseen = hasattr(t, 'mark')\nt.mark = 1\nreturn seen",
        "<sandbox>._Sink",
    ),
    "counter kept in C": (
        "import threading\nreturn threading.Thread(target=len).name",
        "threading._counter",
    ),
    "neighbour module reached by a match class pattern": (
        "import json\nout = json.dumps('hi')\nmatch json:\n    case object(encoder=m):\n"
        "        m.encode_basestring_ascii = lambda s: 'pwned'\nreturn out",
        "json.encoder",
    ),
    "module container under a dunder name": (
        "import keyword\nn = len(keyword.__all__)\nkeyword.__all__.append('x')\nreturn n",
        "keyword.__all__",
    ),
    "class container under a dunder name": (
        "import statistics\nd = statistics.NormalDist.__slots__\nn = len(d)\nd['x%d' % n] = 1\nreturn n",
        "statistics.NormalDist.__slots__",
    ),
    "container of the class of a reached instance": (
        "import json\nm = type(json.decoder.FLAGS)._member_map_\nn = len(m)\nm['ZZ%d' % n] = 1\nreturn n",
        "json.decoder.RegexFlag._member_map_",
    ),
    "neighbour module spelled out": (
        "import json\nn = len(json.decoder.BACKSLASH)\njson.decoder.BACKSLASH['q'] = 'q'\nreturn n",
        "json.decoder.BACKSLASH",
    ),
}


@pytest.mark.parametrize("name", LEAKS)
def test_in_place_changes_to_the_standard_library_do_not_leak(
    make_sandbox: Make, name: str
) -> None:
    body, label = LEAKS[name]
    box = make_sandbox(method(body))
    values = [box.call_literal("()") for _ in range(3)]
    assert all(v.ok for v in values), values
    assert len({v.value for v in values}) == 1, values
    backend = box._backend  # type: ignore[attr-defined]
    assert backend.instances_started == 3
    assert backend.last_restart == label


@pytest.mark.parametrize(
    "name", ["module list grown", "module instance changed by a stdlib function"]
)
def test_process_backend_does_not_leak_either(make_sandbox: Make, name: str) -> None:
    box = make_sandbox(method(LEAKS[name][0]), backend="process")
    values = {box.call_literal("()").value for _ in range(3)}
    assert len(values) == 1, values


def test_computed_attribute_access_gets_a_fresh_interpreter(make_sandbox: Make) -> None:
    # getattr reaches objects by a name the code does not spell: the check cannot follow
    # it, so the call is never trusted to be clean.
    body = "import json\nd = getattr(json, 'dec' + 'oder').BACKSLASH\nn = len(d)\nd['q'] = 'q'\nreturn n"
    box = make_sandbox(method(body))
    assert len({box.call_literal("()").value for _ in range(3)}) == 1
    assert box._backend.instances_started == 3  # type: ignore[attr-defined]


def test_the_wrapped_builtins_hold_no_state(make_sandbox: Make) -> None:
    body = (
        "try:\n    getattr.marker = 1\nexcept AttributeError:\n    return 'refused'\nreturn 'set'"
    )
    box = make_sandbox(method(body))
    assert [box.call_literal("()").value for _ in range(2)] == ["'refused'"] * 2
    assert make_sandbox(method("return repr(getattr)")).call_literal("()").value == repr(
        "<built-in function getattr>"
    )


def test_a_method_cannot_claim_a_standard_library_class(make_sandbox: Make) -> None:
    # Setting __module__ to the method's module must not make later changes look like
    # changes to the method's own class.
    body = (
        "import json\nold = getattr(json.JSONEncoder, 'marker', None)\n"
        "json.JSONEncoder.__module__ = '__pau_method__'\njson.JSONEncoder.marker = 1\nreturn old"
    )
    box = make_sandbox(method(body))
    assert [box.call_literal("()").value for _ in range(3)] == ["None"] * 3


@pytest.mark.parametrize("name", STDLIB_USE)
def test_ordinary_standard_library_use_keeps_one_instance(make_sandbox: Make, name: str) -> None:
    box = make_sandbox(STDLIB_USE[name])
    for text in ("('ab',)", "('hello',)", "('ab,cd;e',)"):
        result = box.call_literal(text)
        assert result.ok, result
    backend = box._backend  # type: ignore[attr-defined]
    assert backend.instances_started == 1, backend.last_restart


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


#: Hostile code that used to leave state behind undetected; each now costs it a fresh
#: interpreter (the label is whatever made the host replace it).
HOSTILE = {
    "forged answer through the JSON encoder": (
        "import json\njson.JSONEncoder.encode = lambda self, o: "
        '\'{"ok": true, "value": "forged", "literal": true, "truncated": false, "dirty": null}\'\n'
        "return 1"
    ),
    "guard state cleared through getattr": (
        "d = chr(95) * 2\n"
        "G = getattr(getattr(type(getattr), d + 'call' + d), d + 'globals' + d)['G']\n"
        "import keyword\nn = len(keyword.kwlist)\nkeyword.kwlist.append('x')\n"
        "G.reach_all = False\nG.touched = set()\nreturn n"
    ),
    "guard state cleared by risky code": (
        "G = type(getattr).__call__.__globals__['G']\n"
        "import keyword\nn = len(keyword.kwlist)\nkeyword.kwlist.append('x')\n"
        "G.full_check = False\nG.touched = set()\nreturn n"
    ),
    "sys through another module": (
        "import collections\nn = len(collections._sys.path)\ncollections._sys.path.append('x')\nreturn n"
    ),
    "codec error handler registered": (
        "import codecs\ntry:\n    codecs.lookup_error('pau')\n    seen = True\nexcept LookupError:\n    seen = False\n"
        "codecs.register_error('pau', lambda e: ('?', e.end))\nreturn seen"
    ),
    "the real getattr read off its stand-in": (
        "import json\nstate = getattr.__getstate__()\n"
        "g = list(state[1].values())[0] if state else getattr\n"
        "d = g(json, 'dec' + 'oder').BACKSLASH\nn = len(d)\nd['q'] = 'q'\nreturn n"
    ),
    "eval taken from the builtins copy": (
        "b = [v for k, v in globals().items() if k[2:6] == 'buil'][0]\n"
        "d = b['ev' + 'al'](\"__import__('json').decoder.BACKSLASH\")\nn = len(d)\nd['q'] = 'q'\nreturn n"
    ),
    "module __dict__ indexed with a computed key": (
        "import json\nd = json.__dict__['dec' + 'oder'].BACKSLASH\nn = len(d)\nd['q'] = 'q'\nreturn n"
    ),
    "sys.argv": "import sys\nn = len(sys.argv)\nsys.argv.append('x')\nreturn n",
    "metaclass of a reached class": (
        "import re\nE = type(type(re.I))\nseen = hasattr(E, 'mark')\nE.mark = 1\nreturn seen"
    ),
    "enum.global_enum into another module": (
        "import calendar, enum\nclass E(enum.Enum):\n    __module__ = 'datetime'\n    date = 1\n"
        "out = calendar.weekday(2024, 1, 1)\nenum.global_enum(E)\nreturn str(out)"
    ),
    "weakref callback when the namespace goes": (
        "import keyword, weakref\nn = len(keyword.kwlist)\no = set()\n"
        "r = weakref.ref(o, keyword.kwlist.append)\ng = globals()\ng.clear()\ng['a'] = o\ng['b'] = r\nreturn n"
    ),
    "guard state read by a match class pattern": (
        "match type(getattr).__call__:\n    case object(__globals__=g):\n        pass\n"
        "import keyword\nn = len(keyword.kwlist)\nkeyword.kwlist.append('x')\n"
        "g['G'].touched = set()\nreturn n"
    ),
    "annotation string evaluated by typing": (
        "import typing\ndef f(x: 'type(getattr).__call__.__globals__'): pass\n"
        "G = typing.get_type_hints(f)['x']['G']\n"
        "import keyword\nn = len(keyword.kwlist)\nkeyword.kwlist.append('x')\nG.touched = set()\nreturn n"
    ),
    "getattr through an own class with a library base": (
        "import typing\nclass Via(typing._GenericAlias, _root=True):\n    pass\n"
        "def reach(obj, name):\n    return getattr(Via(obj, (), name='v'), name)\n"
        "s = reach(typing, 's' + 'ys')\nlst = reach(reach(s, 'mo' + 'dules')['keyword'], 'kw' + 'list')\n"
        "n = len(lst)\nlst.append('x')\nreturn n"
    ),
    "a library function's annotations": (
        "import json\nd = json.dumps.__annotations__\nn = len(d)\nd['x'] = 1\nreturn n"
    ),
    "decimal template context changed": (
        "import decimal\nold = decimal.DefaultContext.prec\ndecimal.DefaultContext.prec = 5\nreturn old"
    ),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_code_leaves_nothing_behind(make_sandbox: Make, name: str) -> None:
    box = make_sandbox(method(HOSTILE[name]))
    values = [box.call_literal("()") for _ in range(3)]
    assert all(v.ok for v in values), values
    assert len({v.value for v in values}) == 1, values
    assert values[0].value != "'forged'"
    assert box._backend.instances_started == 3  # type: ignore[attr-defined]


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
