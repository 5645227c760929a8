"""The state check: no call leaves a trace the next call of the same sandbox can see.

Each leak below was a real one, found by a review or by the adversarial reviews that
followed: a method changed a standard-library object in place (or reached the guard's own
state), and the next call saw it. Now the guest reports the call ``dirty``, or the host's
own latch does, and the host starts a fresh interpreter.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pytest_pau.sandbox import Sandbox
from tests.sandbox.conftest import method

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


@pytest.mark.slow
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
