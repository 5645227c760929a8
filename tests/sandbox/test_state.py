"""The state check: no call leaves a trace the next can see, and ordinary calls stay cheap.

Each leak below was a real one before the check compared module *contents* (reviewer's
reproducers and their relatives): a method changed a standard-library object in place,
and the next call of the same sandbox saw it. Now the guest reports the call ``dirty`` and
the host starts a fresh interpreter. The other direction matters as much: ordinary use of
the standard library must not look dirty, or every call pays ~4 ms for a fresh instance.
"""

from __future__ import annotations

from collections.abc import Callable

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
