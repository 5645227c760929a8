"""Ordinary standard-library use that must run in one Wasm instance per method.

Each snippet is what a PAU method or a coder model's code plausibly does with a module.
None of them leaves a trace the next call could see, so none may cost a fresh interpreter
per call (about 4 ms instead of 0.15 ms). A snippet that does is a sign of a standard-library
cache or lazily bound global the state check mistakes for leaked state
(``tests/sandbox/test_call_hygiene.py`` runs them; ``pau_preload._warm_lazy_globals`` fixes those).
Every ``test_func`` takes one string.
"""

from __future__ import annotations

STDLIB_USE: dict[str, str] = {
    "re": (
        "import re\n"
        "def test_func(s):\n"
        "    return re.sub(r'(\\w)' + s, 'x', s * 3), re.compile(s + '+').findall(s), re.split('[,;]', s)"
    ),
    "strptime": (
        "import datetime\n"
        "def test_func(s):\n"
        "    return datetime.datetime.strptime('2024-0' + str(len(s) % 9 + 1) + '-01', '%Y-%m-%d').isoformat()"
    ),
    "time.strftime": (
        "import time\n"
        "def test_func(s):\n"
        "    return time.strftime('%Y %j', time.gmtime(len(s) * 86400))"
    ),
    "json": (
        "import json\n"
        "def test_func(s):\n"
        "    return json.dumps({'a': [s]}, indent=2, sort_keys=True), json.loads('[' + str(len(s)) + ']')"
    ),
    "textwrap": (
        "import textwrap\n"
        "def test_func(s):\n"
        "    return textwrap.fill(s * 10, 7), textwrap.dedent('  ' + s), textwrap.shorten(s * 9, 12)"
    ),
    "statistics": (
        "import statistics\n"
        "def test_func(s):\n"
        "    xs = [ord(c) for c in s]\n"
        "    return statistics.mean(xs), statistics.median(xs), statistics.pstdev(xs), statistics.mode(xs)"
    ),
    "fractions": (
        "from fractions import Fraction\n"
        "def test_func(s):\n"
        "    return str(Fraction(len(s), 7) + Fraction('1/3')), Fraction(0.25 * len(s)).limit_denominator(10)"
    ),
    "decimal": (
        "from decimal import Decimal, ROUND_HALF_UP\n"
        "def test_func(s):\n"
        "    return str(Decimal(len(s)) / Decimal(7)), str(Decimal('2.675').quantize(Decimal('0.01'), rounding=ROUND_HALF_UP))"
    ),
    "calendar": (
        "import calendar\n"
        "def test_func(s):\n"
        "    return calendar.monthrange(2024, len(s) % 12 + 1), calendar.month_name[len(s) % 12 + 1], calendar.isleap(2000 + len(s)), calendar.day_abbr[0]"
    ),
    "string.Template": (
        "import string\n"
        "def test_func(s):\n"
        "    return string.Template('$a-$b').substitute(a=s, b=len(s)), string.capwords(s)"
    ),
    "dataclasses": (
        "from dataclasses import dataclass, field, asdict\n"
        "@dataclass(order=True)\n"
        "class P:\n"
        "    x: int\n"
        "    y: list = field(default_factory=list)\n"
        "def test_func(s):\n"
        "    return asdict(P(len(s), [s])), P(1) < P(2)"
    ),
    "enum": (
        "import enum\n"
        "class C(enum.Enum):\n"
        "    A = 1\n"
        "    B = 2\n"
        "class F(enum.IntFlag):\n"
        "    R = 1\n"
        "    W = 2\n"
        "def test_func(s):\n"
        "    return C(len(s) % 2 + 1).name, str(F.R | F.W), list(C)"
    ),
    "typing": (
        "from typing import List, Dict, Optional, NamedTuple, TypedDict\n"
        "class P(NamedTuple):\n"
        "    a: int\n"
        "    b: str = ''\n"
        "def test_func(s):\n"
        "    x: Dict[str, List[Optional[int]]] = {s: [None]}\n"
        "    return P(1, s)._asdict(), str(List[int]), x"
    ),
    "namedtuple": (
        "from collections import namedtuple, OrderedDict, defaultdict, deque, ChainMap\n"
        "P = namedtuple('P', 'x y')\n"
        "def test_func(s):\n"
        "    d = defaultdict(list); d[s].append(1)\n"
        "    return P(1, s)._replace(x=2), dict(d), list(deque(s, maxlen=2)), dict(ChainMap({'a': 1}, {'b': s}))"
    ),
    "lru_cache": (
        "import functools\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def f(n):\n"
        "    return n if n < 2 else f(n-1) + f(n-2)\n"
        "def test_func(s):\n"
        "    return f(len(s) * 5), functools.reduce(lambda a, b: a + b, s), functools.cmp_to_key(lambda a, b: 0)(1) == functools.cmp_to_key(lambda a, b: 0)(2)"
    ),
    "itertools": (
        "import itertools, operator\n"
        "def test_func(s):\n"
        "    return list(itertools.permutations(s[:3])), list(itertools.accumulate(map(ord, s), operator.mul))[-1] % 97, [k for k, _ in itertools.groupby(sorted(s))]"
    ),
    "heapq_bisect": (
        "import heapq, bisect\n"
        "def test_func(s):\n"
        "    h = list(map(ord, s)); heapq.heapify(h)\n"
        "    return heapq.nsmallest(2, h), heapq.nlargest(2, s), bisect.bisect_left(sorted(s), 'm'), list(heapq.merge([1, 3], [2]))"
    ),
    "difflib": (
        "import difflib\n"
        "def test_func(s):\n"
        "    return difflib.SequenceMatcher(None, s, s[::-1]).ratio(), difflib.get_close_matches(s, ['apple', 'ape', s + 'x'])"
    ),
    "unicodedata": (
        "import unicodedata\n"
        "def test_func(s):\n"
        "    return [unicodedata.category(c) for c in s], unicodedata.normalize('NFKD', 'é' + s), unicodedata.name('a')"
    ),
    "hash_base64": (
        "import hashlib, base64, zlib, binascii, hmac\n"
        "def test_func(s):\n"
        "    b = s.encode()\n"
        "    return hashlib.sha256(b).hexdigest()[:8], hashlib.md5(b).hexdigest()[:4], base64.b64encode(b), zlib.crc32(b), binascii.hexlify(b), hmac.new(b'k', b, 'sha256').hexdigest()[:6]"
    ),
    "struct_array": (
        "import struct, array\n"
        "def test_func(s):\n"
        "    return struct.pack('<I', len(s)), struct.unpack('>H', b'\\x01\\x02'), array.array('i', map(ord, s)).tolist(), struct.calcsize('<' + 'i' * len(s))"
    ),
    "uuid": (
        "import uuid\n"
        "def test_func(s):\n"
        "    return str(uuid.uuid5(uuid.NAMESPACE_DNS, s)), str(uuid.uuid3(uuid.NAMESPACE_URL, s))"
    ),
    "html": (
        "import html\n"
        "def test_func(s):\n"
        "    return html.escape('<' + s + '&>'), html.unescape('&lt;&amp;&eacute;' + s)"
    ),
    "csv_io": (
        "import csv, io\n"
        "def test_func(s):\n"
        "    out = io.StringIO(); w = csv.writer(out); w.writerow([s, 1])\n"
        "    return out.getvalue(), list(csv.reader(io.StringIO(s + ',x\\n1,2')))"
    ),
    "pprint_reprlib": (
        "import pprint, reprlib\n"
        "def test_func(s):\n"
        "    return pprint.pformat({'k' + s: list(range(30))}, width=20), reprlib.repr(list(range(100)))"
    ),
    "shlex_fnmatch": (
        "import shlex, fnmatch\n"
        "def test_func(s):\n"
        "    return shlex.split(s + ' \"a b\"'), fnmatch.fnmatch(s, '*b*'), fnmatch.filter(['ab', 'cd', s], '?b'), shlex.quote(s)"
    ),
    "colorsys_math": (
        "import colorsys, math, cmath\n"
        "def test_func(s):\n"
        "    return colorsys.rgb_to_hsv(0.2, len(s) / 10, 0.5), math.comb(10, len(s) % 10), cmath.sqrt(-len(s)), math.isqrt(10**20)"
    ),
    "codecs": (
        "import codecs\n"
        "def test_func(s):\n"
        "    return codecs.encode(s, 'rot13'), s.encode('utf-16'), s.encode('latin-1', errors='replace'), 'x'.encode('idna'), codecs.decode(b'616263', 'hex')"
    ),
    "graphlib": (
        "import graphlib\n"
        "def test_func(s):\n"
        "    return list(graphlib.TopologicalSorter({'a': {s}, s: set()}).static_order())"
    ),
    "copy": (
        "import copy\n"
        "class A:\n"
        "    def __init__(self):\n"
        "        self.x = [1]\n"
        "def test_func(s):\n"
        "    a = copy.deepcopy(A()); b = copy.copy({'a': [s]})\n"
        "    return a.x, b, copy.deepcopy({1: (2, [3])})"
    ),
    "random": (
        "import random\n"
        "def test_func(s):\n"
        "    random.seed(len(s))\n"
        "    return random.random(), random.gauss(0, 1), random.choice(s), random.sample(range(100), 3), random.shuffle(list(s))"
    ),
    "secrets": ("import secrets\ndef test_func(s):\n    return len(secrets.token_hex(4))"),
    "locale": (
        "import locale\n"
        "def test_func(s):\n"
        "    return locale.getlocale(), locale.localeconv()['decimal_point'], locale.str(1.5)"
    ),
    "operator_keyword": (
        "import operator, keyword\n"
        "def test_func(s):\n"
        "    return keyword.iskeyword(s), operator.itemgetter(0)(s), sorted([(1, 'b'), (0, 'a')], key=operator.itemgetter(1))"
    ),
    "datetime_arith": (
        "from datetime import date, timedelta, datetime, timezone\n"
        "def test_func(s):\n"
        "    d = date(2024, 1, 1) + timedelta(days=len(s) * 40)\n"
        "    return d.isoformat(), d.strftime('%A %B'), datetime(2024, 1, 1, tzinfo=timezone.utc).isoformat(), d.weekday()"
    ),
    "ast_literal": (
        "import ast\n"
        "def test_func(s):\n"
        "    return ast.literal_eval('[1, ' + str(len(s)) + ']'), type(ast.parse('x + 1')).__name__"
    ),
    "abc_class": (
        "from abc import ABC, abstractmethod\n"
        "from collections.abc import Sequence, Mapping\n"
        "class B(ABC):\n"
        "    @abstractmethod\n"
        "    def f(self): ...\n"
        "class C(B):\n"
        "    def f(self):\n"
        "        return 1\n"
        "def test_func(s):\n"
        "    return C().f(), isinstance(s, Sequence), isinstance({}, Mapping), isinstance(C(), B)"
    ),
    "int_big": (
        "def test_func(s):\n    return str(7 ** (len(s) * 2000))[:10], int('9' * 5000) % 97"
    ),
    "contextlib": (
        "import contextlib\n"
        "@contextlib.contextmanager\n"
        "def cm():\n"
        "    yield 1\n"
        "def test_func(s):\n"
        "    with cm() as v, contextlib.suppress(KeyError):\n"
        "        return v + len(s)"
    ),
    "numbers_weakref": (
        "import numbers, weakref\n"
        "class A: pass\n"
        "def test_func(s):\n"
        "    a = A(); r = weakref.ref(a)\n"
        "    return isinstance(3, numbers.Integral), r() is a"
    ),
    "exceptions": (
        "def test_func(s):\n"
        "    try:\n"
        "        {}[s]\n"
        "    except KeyError as e:\n"
        "        return repr(e)"
    ),
    "class_super_type": (
        "class D(dict):\n"
        "    def __init__(self, *a):\n"
        "        super().__init__(*a)\n"
        "def test_func(s):\n"
        "    return type(D({s: 1})).__name__, type(s).__name__, format(3.14159, '.2f'), object() is not None"
    ),
    "re flags combined": (
        "import re\n"
        "def test_func(s):\n"
        "    return re.findall('a', s, re.I | re.M), re.compile('b', re.S | re.X).pattern"
    ),
    "base32_base85": (
        "import base64\n"
        "def test_func(s):\n"
        "    b = s.encode()\n"
        "    return base64.b32encode(b), base64.b32decode(base64.b32encode(b)), base64.b85encode(b), base64.a85encode(b)"
    ),
    "locale grouping": (
        "import locale\n"
        "def test_func(s):\n"
        "    return locale.format_string('%d', 1234567 * len(s), grouping=True)"
    ),
    "dataclass slots": (
        "from dataclasses import dataclass\n"
        "@dataclass(slots=True)\n"
        "class P:\n"
        "    x: int\n"
        "def test_func(s):\n"
        "    return P(len(s)).x"
    ),
    "llm-style class": (
        "from __future__ import annotations\n"
        "import sys\n"
        "from typing import List, Optional\n"
        "class Stack:\n"
        '    """A stack; see __init__."""\n'
        "    def __init__(self) -> None:\n"
        "        self.items: List[str] = []\n"
        "    def __repr__(self) -> str:\n"
        "        return f'{self.__class__.__name__}({self.items!r})'\n"
        "    def __radd__(self, other):\n"
        "        return self\n"
        "def test_func(s: str) -> Optional[str]:\n"
        "    sys.setrecursionlimit(10000)\n"
        "    st = Stack()\n"
        "    for part in s.split(','):\n"
        "        st.items.append(part)\n"
        "    return repr(st) if len(s) < sys.maxsize else None"
    ),
    "sys.stdout write": (
        "import sys\n"
        "def test_func(s):\n"
        "    print(s, file=sys.stderr)\n"
        "    sys.stdout.write(s)\n"
        "    return len(s)"
    ),
    "statistics random": (
        "import statistics\n"
        "def test_func(s):\n"
        "    return round(statistics.NormalDist(0, 1).samples(1, seed=len(s))[0], 6)"
    ),
    "ast unparse": (
        "import ast\n"
        "def test_func(s):\n"
        "    return ast.unparse(ast.parse(s.replace(',', '+').replace(';', '-') or 'x'))"
    ),
    "warnings and queue": (
        "import warnings, queue\n"
        "def test_func(s):\n"
        "    warnings.warn('w ' + s)\n"
        "    q = queue.Queue()\n"
        "    q.put(s)\n"
        "    return q.get()"
    ),
    "os path": (
        "import os\n"
        "def test_func(s):\n"
        "    return os.path.basename('/x/' + s), os.path.splitext(s + '.txt'), os.sep, os.getenv('HOME')"
    ),
    "sys names": (
        "import sys\n"
        "class Node:\n"
        "    def __init__(self, prefix):\n"
        "        self.prefix = prefix\n"
        "def test_func(s):\n"
        "    try:\n"
        "        raise ValueError(s) from KeyError(s)\n"
        "    except ValueError as e:\n"
        "        cause = type(e.__cause__).__name__\n"
        "        info = sys.exc_info()[0].__name__\n"
        "    return Node(s).prefix, cause, info, sys.maxsize > 2**31"
    ),
    "typing overload": (
        "from typing import overload, Union\n"
        "@overload\n"
        "def f(x: int) -> int: ...\n"
        "@overload\n"
        "def f(x: str) -> str: ...\n"
        "def f(x: Union[int, str]):\n"
        "    return x\n"
        "def test_func(s):\n"
        "    return f(s)"
    ),
    "ipaddress networks": (
        "import ipaddress\n"
        "def test_func(s):\n"
        "    n = ipaddress.ip_network(f'192.168.{len(s)}.0/{20 + len(s)}', strict=False)\n"
        "    return str(n), n.num_addresses, str(ipaddress.ip_interface('2001:db8::1/' + str(60 + len(s))))"
    ),
    "getattr and vars on own objects": (
        "class P:\n"
        "    def __init__(self, s):\n"
        "        self.s = s\n"
        "    def describe(self):\n"
        "        return {k: getattr(self, k, None) for k in ('s', 'missing')}\n"
        "def test_func(s):\n"
        "    p = P(s)\n"
        "    setattr(p, 'n', len(s))\n"
        "    return p.describe(), sorted(vars(p)), getattr(s, 'upper')()"
    ),
}
