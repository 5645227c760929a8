"""Builtin PAU methods, part c: dicts, sets, tuples, nested structures, lists of strings, grids, dates, bytes and mixed-type inputs.

Each entry is read by the builtin build script, which runs every input in the sandbox to
record the outputs; no output is typed here by hand.
"""

METHODS = [
    # ------------------------------------------------------------------ arity 1
    {
        "id": "strings_group_by_length",
        "tags": ["easy", "strings", "smoke"],
        "description": (
            "Groups the strings of a list by length: returns a dict mapping each length to the "
            "list of strings of that length in their original order (duplicates kept), keys in "
            "ascending order. An empty list gives {}; a non-list or a non-str item raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    groups = {}
    for word in arg0:
        groups.setdefault(len(word), []).append(word)
    return {length: groups[length] for length in sorted(groups)}
''',
        "train_inputs": ["(['hi', 'yes', 'no', 'cat'],)", "(['apple'],)", "(['a', 'bb', 'a', 'ccc', 'bb'],)"],
        "test_inputs": [
            "([],)", "([''],)", "(['', 'x', ''],)", "(['zebra', 'ant', 'bee', 'lion'],)",
            "(['one', 'two', 'three', 'four', 'five', 'six'],)", "(['Hello', 'world'],)",
            "(['aaaa', 'b', 'cc', 'ddd'],)", "(['same', 'same'],)", "(['  ', ' '],)",
            "(['longerword', 'tiny'],)", "(['x', 'y', 'z'],)", "('abc',)", "([1, 'a'],)",
        ],
    },
    {
        "id": "falsy_positions",
        "tags": ["easy", "mixed", "smoke"],
        "description": (
            "Returns the ascending list of indices at which the element of the list or tuple is "
            "falsy: 0, 0.0, False, None, an empty string, empty bytes or an empty container. "
            "A non-list, non-tuple argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, (list, tuple)):
        raise TypeError("arg0 must be a list or a tuple")


def test_func(arg0):
    validate_input_args(arg0)
    return [i for i, item in enumerate(arg0) if not item]
''',
        "train_inputs": ["([1, 0, 'a', '', None],)", "([True, False],)", "([5, 6, 7],)"],
        "test_inputs": [
            "([],)", "((0, 1, 0),)", "([[], [0], {}, {'a': 1}],)", "([0.0, 0.5, -1],)",
            "(['', ' ', '0'],)", "([None, None],)", "([b'', b'x'],)", "([(), (None,)],)",
            "([{0}, {}],)", "([False, 'False', 0, '0'],)", "([1, 2, 3, 0],)", "('ab',)",
            "(None,)",
        ],
    },
    {
        "id": "mixed_type_tally",
        "tags": ["easy", "mixed"],
        "description": (
            "Returns a dict mapping each element's exact type name ('int', 'float', 'str', 'bool', "
            "'NoneType', 'list', 'tuple', 'dict', 'set', 'bytes') to how many elements of the list "
            "have that type, keys in order of first appearance; booleans count as 'bool', not 'int'. "
            "An empty list gives {}; a non-list argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")


def test_func(arg0):
    validate_input_args(arg0)
    counts = {}
    for item in arg0:
        name = type(item).__name__
        counts[name] = counts.get(name, 0) + 1
    return counts
''',
        "train_inputs": ["([1, 'a', 2, 'b', 3],)", "([None, 1.5],)", "([[1], (2,), {3}],)"],
        "test_inputs": [
            "([],)", "([True, 1, False],)", "(['x'],)", "([{}, {'k': 1}, []],)", "([b'ab', 'ab'],)",
            "([1.0, 1, '1', None, True],)", "([(), (), ()],)", "([None],)",
            "([-3, 4.25, 'z', [None]],)", "([{'a'}, {1, 2}],)", "([0, 0, 0, 0.0],)",
            "((1, 2),)", "('abc',)",
        ],
    },
    {
        "id": "dict_invert_grouped",
        "tags": ["medium", "dicts"],
        "description": (
            "Inverts a dict with str keys and int or str values: returns a dict mapping each "
            "distinct value to the alphabetically sorted list of the keys that had it, values in "
            "order of first appearance. A non-dict, a non-str key, or a value that is not an int or "
            "str (bools included) raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict) -> None:
    if not isinstance(arg0, dict) or not all(
        isinstance(k, str) and isinstance(v, (int, str)) and not isinstance(v, bool)
        for k, v in arg0.items()
    ):
        raise TypeError("arg0 must be a dict of str keys to int or str values")


def test_func(arg0):
    validate_input_args(arg0)
    inverted = {}
    for key, value in arg0.items():
        inverted.setdefault(value, []).append(key)
    return {value: sorted(keys) for value, keys in inverted.items()}
''',
        "train_inputs": ["({'a': 1, 'b': 2, 'c': 1},)", "({'x': 'red', 'y': 'red'},)", "({'solo': 0},)"],
        "test_inputs": [
            "({},)", "({'z': 5, 'a': 5, 'm': 5},)", "({'k1': 1, 'k2': '1'},)",
            "({'b': 2, 'a': 1, 'd': 2, 'c': 1},)", "({'Bob': 'x', 'alice': 'x', 'Carl': 'y'},)",
            "({'p': -1, 'q': 0, 'r': -1},)", "({'one': 'uno', 'two': 'dos', 'three': 'tres'},)",
            "({'': 3, ' ': 3},)", "({'a': 10, 'b': 20, 'c': 30, 'd': 10, 'e': 20},)",
            "({'flag': True},)", "({1: 'a'},)", "({'x': [1]},)", "(['a', 1],)",
        ],
    },
    {
        "id": "bytes_hex_dashed",
        "tags": ["easy", "bytes"],
        "description": (
            "Returns the bytes as uppercase two-digit hexadecimal pairs joined by '-' (bytes 1 and "
            "171 give '01-AB'); empty bytes give ''. A non-bytes argument, a str included, raises "
            "TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    return "-".join(format(b, "02X") for b in arg0)
''',
        "train_inputs": ["(b'\\x01\\xab',)", "(b'hi',)", "(b'\\x00',)"],
        "test_inputs": [
            "(b'',)", "(b'\\xff\\xfe\\xfd',)", "(b'ABC',)", "(b'\\n\\t',)", "(b'0123',)",
            "(b' ',)", "(b'\\x10\\x20\\x30\\x40\\x50',)", "(b'\\x0f',)", "(b'zz',)",
            "(b'\\x7f\\x80',)", "('ab',)", "([1, 2],)",
        ],
    },
    {
        "id": "bytes_printable_view",
        "tags": ["easy", "bytes"],
        "description": (
            "Returns a str with one character per byte: a byte from 32 to 126 (printable ASCII, "
            "space included) appears as its character and every other byte as '.'. Empty bytes "
            "give ''; a non-bytes argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    return "".join(chr(b) if 32 <= b <= 126 else "." for b in arg0)
''',
        "train_inputs": ["(b'hello',)", "(b'a\\x00b',)", "(b'\\xff\\xfe',)"],
        "test_inputs": [
            "(b'',)", "(b' ~',)", "(b'\\x1f\\x7f',)", "(b'line\\nbreak',)", "(b'.',)",
            "(b'Tab\\there',)", "(b'\\x80abc\\x81',)", "(b'{[()]}',)", "(b'\\x00\\x00\\x00',)",
            "(b'MiXeD 123',)", "('text',)", "(97,)",
        ],
    },
    {
        "id": "bytes_run_pairs",
        "tags": ["medium", "bytes"],
        "description": (
            "Run-length encodes bytes: returns a list with one entry per run of equal consecutive "
            "bytes, the byte's int value alone for a run of length 1 and a (value, run_length) "
            "tuple for a longer run. Empty bytes give []; a non-bytes argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    runs = []
    for b in arg0:
        if runs and runs[-1][0] == b:
            runs[-1][1] += 1
        else:
            runs.append([b, 1])
    return [value if count == 1 else (value, count) for value, count in runs]
''',
        "train_inputs": ["(b'aaab',)", "(b'abc',)", "(b'\\x00\\x00',)"],
        "test_inputs": [
            "(b'',)", "(b'z',)", "(b'aabbaa',)", "(b'\\xff\\xff\\xff\\xff\\x01',)", "(b'abab',)",
            "(b'  x  ',)", "(b'111122223',)", "(b'\\x05\\x05\\x06\\x05',)", "(b'qq',)",
            "(b'mississippi',)", "('aaa',)", "([97, 97],)",
        ],
    },
    {
        "id": "bytes_signed_bigendian",
        "tags": ["hard", "bytes"],
        "description": (
            "Interprets the bytes as a big-endian two's-complement signed integer (a single 0xFF "
            "byte is -1, bytes 0x01 0x00 give 256); empty bytes give 0. More than 8 bytes raise "
            "ValueError; a non-bytes argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    if len(arg0) > 8:
        raise ValueError("at most 8 bytes are accepted")
    return int.from_bytes(arg0, "big", signed=True)
''',
        "train_inputs": ["(b'\\x01\\x00',)", "(b'\\xff',)", "(b'\\x7f',)"],
        "test_inputs": [
            "(b'',)", "(b'\\x80',)", "(b'\\x00\\x80',)", "(b'\\xff\\xfe',)", "(b'\\x12\\x34\\x56',)",
            "(b'\\x80\\x00\\x00\\x00',)", "(b'\\x7f\\xff\\xff\\xff\\xff\\xff\\xff\\xff',)",
            "(b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01',)", "(b'A',)", "(b'\\x00\\x00',)",
            "(b'\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff',)", "(255,)",
        ],
    },
    {
        "id": "dates_span_days",
        "tags": ["medium", "dates"],
        "description": (
            "Takes a list of 'YYYY-MM-DD' date strings and returns the number of days from the "
            "earliest to the latest (0 for a single date or equal dates). An empty list, a "
            "malformed string or an impossible date such as '2023-02-29' raises ValueError; a "
            "non-list or a non-str item raises TypeError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of 'YYYY-MM-DD' strings")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        raise ValueError("need at least one date")
    days = [_parse(text) for text in arg0]
    return (max(days) - min(days)).days
''',
        "train_inputs": [
            "(['2024-01-01', '2024-01-31'],)", "(['2023-06-15'],)", "(['2024-03-10', '2024-03-01', '2024-03-05'],)",
        ],
        "test_inputs": [
            "([],)", "(['2024-02-28', '2024-03-01'],)", "(['2023-02-28', '2023-03-01'],)",
            "(['2020-01-01', '2021-01-01'],)", "(['1999-12-31', '2000-01-01', '1999-12-30'],)",
            "(['2022-07-04', '2022-07-04'],)", "(['2023-02-29'],)", "(['2024/01/01'],)",
            "(['2024-1-5'],)", "(['2000-01-01', '2099-12-31'],)", "(['2024-13-01', '2024-01-01'],)",
            "(['2024-05-05', 20240506],)", "('2024-01-01',)",
        ],
    },
    {
        "id": "date_quarter_label",
        "tags": ["easy", "dates"],
        "description": (
            "Takes a 'YYYY-MM-DD' date string and returns its calendar quarter as 'YYYY-Qn' "
            "(January to March is Q1, October to December is Q4). A malformed string or an "
            "impossible date raises ValueError; a non-str argument raises TypeError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a 'YYYY-MM-DD' string")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0):
    validate_input_args(arg0)
    day = _parse(arg0)
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
''',
        "train_inputs": ["('2024-02-14',)", "('2023-07-01',)", "('2022-12-31',)"],
        "test_inputs": [
            "('2024-01-01',)", "('2024-03-31',)", "('2024-04-01',)", "('2024-06-30',)",
            "('2024-09-30',)", "('2024-10-01',)", "('1987-05-20',)", "('2024-02-30',)",
            "('2024-00-10',)", "('24-01-01',)", "('2024-11-11 ',)", "(20240101,)",
        ],
    },
    {
        "id": "iso_week_of_date",
        "tags": ["medium", "dates"],
        "description": (
            "Takes a 'YYYY-MM-DD' date string and returns its ISO 8601 (iso_year, iso_week) tuple: "
            "weeks start on Monday and week 1 is the week holding the year's first Thursday, so "
            "dates in early January or late December can belong to the neighbouring ISO year. "
            "A malformed or impossible date raises ValueError; a non-str raises TypeError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a 'YYYY-MM-DD' string")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0):
    validate_input_args(arg0)
    iso = _parse(arg0).isocalendar()
    return (iso[0], iso[1])
''',
        "train_inputs": ["('2024-03-15',)", "('2023-01-02',)", "('2023-12-25',)"],
        "test_inputs": [
            "('2021-01-01',)", "('2021-01-04',)", "('2020-12-31',)", "('2024-12-30',)",
            "('2026-01-01',)", "('2015-12-31',)", "('2024-06-01',)", "('2027-01-03',)",
            "('2024-01-01',)", "('2023-02-29',)", "('March 3',)", "(None,)",
        ],
    },
    {
        "id": "dates_month_histogram",
        "tags": ["easy", "dates"],
        "description": (
            "Counts a list of 'YYYY-MM-DD' date strings per month: returns a dict mapping "
            "'YYYY-MM' to the number of dates in that month, keys in ascending order; an empty "
            "list gives {}. A malformed or impossible date raises ValueError; non-str items raise "
            "TypeError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of 'YYYY-MM-DD' strings")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0):
    validate_input_args(arg0)
    counts = {}
    for text in arg0:
        day = _parse(text)
        key = f"{day.year:04d}-{day.month:02d}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))
''',
        "train_inputs": [
            "(['2024-01-05', '2024-01-20', '2024-02-01'],)", "(['2023-12-31'],)",
            "(['2024-03-01', '2023-03-01', '2024-03-09'],)",
        ],
        "test_inputs": [
            "([],)", "(['2024-05-01', '2024-05-02', '2024-05-03', '2024-05-04'],)",
            "(['2025-01-01', '2024-12-31', '2025-01-31'],)", "(['2024-02-29', '2024-02-01'],)",
            "(['1999-09-09', '2009-09-09', '1999-09-10'],)", "(['2024-11-30', '2024-10-31'],)",
            "(['2023-02-29'],)", "(['2024-7-4'],)", "(['2024-06-31'],)", "(['2000-01-01'],)",
            "(['2024-01-01', None],)", "('2024-01-01',)",
        ],
    },
    {
        "id": "date_next_business_day",
        "tags": ["medium", "dates"],
        "description": (
            "Takes a 'YYYY-MM-DD' date and returns the first Monday-to-Friday date strictly after "
            "it, as 'YYYY-MM-DD' (a Friday, Saturday or Sunday gives the following Monday); "
            "holidays are not considered. A malformed or impossible date raises ValueError; a "
            "non-str raises TypeError."
        ),
        "code": '''
import re
from datetime import date, timedelta


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a 'YYYY-MM-DD' string")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0):
    validate_input_args(arg0)
    day = _parse(arg0) + timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day.isoformat()
''',
        "train_inputs": ["('2024-05-14',)", "('2024-05-17',)", "('2024-05-18',)"],
        "test_inputs": [
            "('2024-05-19',)", "('2024-05-13',)", "('2024-05-16',)", "('2024-12-31',)",
            "('2024-02-28',)", "('2023-12-29',)", "('2025-02-28',)", "('2024-03-30',)",
            "('2024-02-29',)", "('2023-02-29',)", "('2024-5-14',)", "(['2024-05-14'],)",
        ],
    },
    {
        "id": "grid_border_sum",
        "tags": ["medium", "grids"],
        "description": (
            "Takes a rectangular grid (a list of equal-length lists of ints) and returns the sum "
            "of the cells on its outer border, each cell counted once, so a single row or column "
            "is all border. An empty grid or empty rows give 0; rows of different lengths raise "
            "ValueError and non-int cells (bools included) raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(row, list)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
        for row in arg0
    ):
        raise TypeError("arg0 must be a list of lists of ints")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0 or not arg0[0]:
        return 0
    rows, cols = len(arg0), len(arg0[0])
    total = 0
    for r in range(rows):
        for c in range(cols):
            if r in (0, rows - 1) or c in (0, cols - 1):
                total += arg0[r][c]
    return total
''',
        "train_inputs": [
            "([[1, 2, 3], [4, 5, 6], [7, 8, 9]],)", "([[5]],)", "([[1, 1, 1, 1], [1, 100, 100, 1], [1, 1, 1, 1]],)",
        ],
        "test_inputs": [
            "([],)", "([[], []],)", "([[1, 2, 3, 4]],)", "([[2], [3], [4]],)", "([[1, 2], [3, 4]],)",
            "([[0, 0, 0], [0, 9, 0], [0, 9, 0], [0, 0, 0]],)", "([[-1, -2, -3], [-4, 50, -6], [-7, -8, -9]],)",
            "([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20], [21, 22, 23, 24, 25]],)",
            "([[1, 2], [3]],)", "([[1, True]],)", "([[1.5]],)", "((1, 2),)",
        ],
    },
    {
        "id": "grid_distinct_per_column",
        "tags": ["medium", "grids"],
        "description": (
            "Takes a list of rows (lists of ints or strs; rows may differ in length) and returns, "
            "for each column index up to the longest row's length, the number of distinct values in "
            "that column among the rows long enough to have it. An empty grid, or only empty rows, "
            "gives []; bools, floats and other cell types raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(row, list)
        and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in row)
        for row in arg0
    ):
        raise TypeError("arg0 must be a list of lists of ints or strs")


def test_func(arg0):
    validate_input_args(arg0)
    width = max((len(row) for row in arg0), default=0)
    return [len({row[c] for row in arg0 if c < len(row)}) for c in range(width)]
''',
        "train_inputs": [
            "([[1, 2, 3], [1, 5, 3], [1, 2, 9]],)", "([['a', 'b'], ['a', 'c']],)", "([[7, 8, 9]],)",
        ],
        "test_inputs": [
            "([],)", "([[], []],)", "([[1, 2], [3], [1, 2, 3]],)", "([[1], [1], [1], [2]],)",
            "([[1, '1'], ['1', 1]],)", "([[4, 4, 4], [4, 4, 4]],)", "([[0], [], [0, 0, 0]],)",
            "([['x', 'y', 'z'], ['z', 'y', 'x'], ['y', 'y', 'y']],)", "([[1, 2, 3, 4, 5]],)",
            "([[-1, -2], [-1, -3], [-4, -2]],)", "([[True]],)", "([[1.0]],)", "([(1, 2)],)",
        ],
    },
    {
        "id": "grid_argmax_column_major",
        "tags": ["medium", "grids"],
        "description": (
            "Returns the (row, column) position of the largest number in a grid of ints or floats "
            "whose rows may differ in length; on a tie the position with the smallest column wins, "
            "then the smallest row. A grid with no cells gives None; non-number cells (bools "
            "included) raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(row, list)
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
        for row in arg0
    ):
        raise TypeError("arg0 must be a list of lists of numbers")


def test_func(arg0):
    validate_input_args(arg0)
    best = None
    width = max((len(row) for row in arg0), default=0)
    for c in range(width):
        for r, row in enumerate(arg0):
            if c < len(row) and (best is None or row[c] > arg0[best[0]][best[1]]):
                best = (r, c)
    return best
''',
        "train_inputs": ["([[1, 9, 3], [4, 5, 6]],)", "([[2, 2], [2, 2]],)", "([[0.5], [1.5]],)"],
        "test_inputs": [
            "([],)", "([[], []],)", "([[1, 2, 9], [9, 1, 1]],)", "([[1, 9], [9, 1]],)",
            "([[3], [1, 2, 3, 8]],)", "([[-5, -1], [-2, -9]],)", "([[7]],)", "([[1, 2, 3], [], [4]],)",
            "([[0, 0, 0], [0, 0, 1]],)", "([[2.5, 2], [3, 2.75]],)", "([[1, 'a']],)", "([[False]],)",
            "({'a': [1]},)",
        ],
    },
    {
        "id": "nested_count_by_depth",
        "tags": ["medium", "nested"],
        "description": (
            "Takes a nested list and returns a dict mapping each depth to the number of non-list "
            "items at that depth, the top-level list being depth 1, keys ascending; tuples, dicts "
            "and other values count as single items. Empty lists contribute nothing, so [] and [[]] "
            "both give {}; a non-list argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")


def _walk(items, depth, counts):
    for item in items:
        if isinstance(item, list):
            _walk(item, depth + 1, counts)
        else:
            counts[depth] = counts.get(depth, 0) + 1


def test_func(arg0):
    validate_input_args(arg0)
    counts = {}
    _walk(arg0, 1, counts)
    return dict(sorted(counts.items()))
''',
        "train_inputs": ["([1, [2, 3], [[4]]],)", "([1, 2, 3],)", "([[[['deep']]]],)"],
        "test_inputs": [
            "([],)", "([[]],)", "([[], [[]], 5],)", "([(1, 2), [3, (4, 5)]],)",
            "([[1, [2, [3, [4]]]], 0],)", "(['a', ['b', 'c'], ['d', ['e', 'f', 'g']]],)",
            "([None, [None], [[None]]],)", "([{'k': [1, 2]}, [{}]],)", "([[1, 2], [3, 4], [5, 6]],)",
            "([[[1]], [[2]], 3],)", "((1, [2]),)", "('list',)",
        ],
    },
    {
        "id": "tree_level_sums",
        "tags": ["medium", "nested", "trees"],
        "description": (
            "Takes a binary tree written as nested tuples (value, left, right), None standing for a "
            "missing child, and returns the list of the sums of the node values on each level, "
            "root level first. None (the empty tree) gives []; a node that is not a 3-tuple with an "
            "int value raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: tuple) -> None:
    if not _is_tree(arg0):
        raise TypeError("arg0 must be None or a (int, left, right) tuple tree")


def _is_tree(node):
    if node is None:
        return True
    return (
        isinstance(node, tuple)
        and len(node) == 3
        and isinstance(node[0], int)
        and not isinstance(node[0], bool)
        and _is_tree(node[1])
        and _is_tree(node[2])
    )


def test_func(arg0):
    validate_input_args(arg0)
    sums = []
    level = [] if arg0 is None else [arg0]
    while level:
        sums.append(sum(node[0] for node in level))
        level = [child for node in level for child in node[1:] if child is not None]
    return sums
''',
        "train_inputs": [
            "((1, (2, None, None), (3, None, None)),)", "((5, None, None),)",
            "((1, (2, (4, None, None), None), (3, None, (5, None, None))),)",
        ],
        "test_inputs": [
            "(None,)", "((0, None, (0, None, (7, None, None))),)", "((10, (-3, None, None), (3, None, None)),)",
            "((1, (1, (1, (1, None, None), None), None), None),)",
            "((4, (2, (1, None, None), (3, None, None)), (6, (5, None, None), (7, None, None))),)",
            "((-1, None, None),)", "((2, (8, None, (9, None, None)), None),)",
            "((100, (1, None, None), (1, (1, None, None), (1, None, None))),)",
            "((1, 2, 3),)", "((1, None),)", "(('a', None, None),)", "([1, None, None],)",
        ],
    },
    {
        "id": "tuple_pairs_extremes",
        "tags": ["easy", "tuples"],
        "description": (
            "Takes a list of (name, score) tuples and returns the tuple (name with the lowest "
            "score, name with the highest score); on ties the earliest pair wins in both places. "
            "An empty list gives None; items that are not (str, number) tuples raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(p, tuple)
        and len(p) == 2
        and isinstance(p[0], str)
        and isinstance(p[1], (int, float))
        and not isinstance(p[1], bool)
        for p in arg0
    ):
        raise TypeError("arg0 must be a list of (str, number) tuples")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return None
    low = min(arg0, key=lambda pair: pair[1])
    high = max(arg0, key=lambda pair: pair[1])
    return (low[0], high[0])
''',
        "train_inputs": [
            "([('ann', 3), ('bob', 9), ('cy', 5)],)", "([('solo', 1)],)", "([('a', 2), ('b', 2)],)",
        ],
        "test_inputs": [
            "([],)", "([('x', -1), ('y', -5), ('z', 0)],)", "([('p', 1.5), ('q', 1.25)],)",
            "([('a', 5), ('b', 1), ('c', 5), ('d', 1)],)", "([('m', 0), ('n', 0), ('o', 0)],)",
            "([('first', 10), ('second', 20), ('third', 30)],)", "([('hi', 100), ('lo', -100)],)",
            "([('k', 7), ('k', 3)],)", "([('a', 1, 2)],)", "([['a', 1]],)", "([('a', True)],)",
            "([(1, 'a')],)",
        ],
    },
    {
        "id": "strings_shared_letters",
        "tags": ["medium", "strings"],
        "description": (
            "Returns, as one sorted lowercase string, the letters that occur in every string of "
            "the list, ignoring case; digits, spaces and punctuation are never included. An empty "
            "list gives ''; a non-list or a non-str item raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return ""
    common = set(arg0[0].lower())
    for word in arg0[1:]:
        common &= set(word.lower())
    return "".join(sorted(ch for ch in common if ch.isalpha()))
''',
        "train_inputs": ["(['apple', 'grape', 'pear'],)", "(['Hello'],)", "(['abc', 'def'],)"],
        "test_inputs": [
            "([],)", "([''],)", "(['a1 b!', 'b1 a!'],)", "(['Dog', 'GOD', 'good'],)",
            "(['123', '321'],)", "(['banana', 'bandana', 'cabana'],)", "(['xyz', 'XYZ', 'zYx'],)",
            "(['a', ''],)", "(['the quick', 'brown fox', 'jumps over'],)", "(['ee', 'e'],)",
            "(['same', 'same', 'same'],)", "('abc',)", "(['a', 1],)",
        ],
    },
    {
        "id": "dict_keys_with_max_value",
        "tags": ["easy", "dicts"],
        "description": (
            "Returns the alphabetically sorted list of the keys of a dict (str keys, int or float "
            "values) whose value equals the largest value; an empty dict gives []. A non-dict, a "
            "non-str key or a non-number value (bools included) raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict) -> None:
    if not isinstance(arg0, dict) or not all(
        isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
        for k, v in arg0.items()
    ):
        raise TypeError("arg0 must be a dict of str keys to numbers")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return []
    top = max(arg0.values())
    return sorted(k for k, v in arg0.items() if v == top)
''',
        "train_inputs": ["({'a': 3, 'b': 7, 'c': 7},)", "({'x': 1},)", "({'p': -2, 'q': -5},)"],
        "test_inputs": [
            "({},)", "({'z': 5, 'y': 5, 'x': 5},)", "({'m': 1.5, 'n': 1},)", "({'m': 2, 'n': 2.0},)",
            "({'b': 0, 'a': 0, 'c': -1},)", "({'k': 10, 'K': 10, 'j': 9},)",
            "({'only': -100},)", "({'one': 1, 'two': 2, 'three': 3, 'four': 4},)",
            "({'': 4, 'a': 4},)", "({'a': True},)", "({1: 2},)", "([('a', 1)],)",
        ],
    },
    {
        "id": "flatten_dict_paths",
        "tags": ["medium", "dicts", "nested"],
        "description": (
            "Flattens a nested dict with str keys into a one-level dict whose keys are the "
            "dot-joined key paths ({'a': {'b': 1}} gives {'a.b': 1}), in depth-first insertion "
            "order, a later equal path overwriting an earlier one. An empty nested dict stays as "
            "the value {} and lists or tuples are kept as values without being descended into; a "
            "non-dict argument or a non-str key at any level raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict) -> None:
    if not isinstance(arg0, dict) or not _str_keys(arg0):
        raise TypeError("arg0 must be a dict with str keys at every level")


def _str_keys(d):
    return all(
        isinstance(k, str) and (not isinstance(v, dict) or _str_keys(v)) for k, v in d.items()
    )


def _flatten(d, prefix, out):
    for key, value in d.items():
        path = prefix + "." + key if prefix is not None else key
        if isinstance(value, dict) and value:
            _flatten(value, path, out)
        else:
            out[path] = value


def test_func(arg0):
    validate_input_args(arg0)
    out = {}
    _flatten(arg0, None, out)
    return out
''',
        "train_inputs": [
            "({'a': {'b': 1, 'c': 2}, 'd': 3},)", "({'x': 1},)", "({'cfg': {'db': {'host': 'h', 'port': 5432}}},)",
        ],
        "test_inputs": [
            "({},)", "({'a': {}},)", "({'a': {'b': {}}, 'c': None},)", "({'l': [1, {'x': 2}]},)",
            "({'t': (1, 2), 'u': {'v': (3,)}},)", "({'a': {'b': {'c': {'d': 'deep'}}}},)",
            "({'x': {'y': 1}, 'x.y': 2},)", "({'': {'': 0}},)", "({'k': {'a': 1, 'b': {'c': 2}}, 'z': 0},)",
            "({'a': {1: 'x'}},)", "({2: 'two'},)", "([('a', 1)],)",
        ],
    },
    {
        "id": "int_set_ranges",
        "tags": ["hard", "sets"],
        "description": (
            "Takes a set or list of ints (duplicates ignored) and returns, in ascending order, a "
            "list of strs where every run of at least 3 consecutive integers is written 'first..last' "
            "and every other value is written alone, so a run of exactly 2 gives two separate "
            "entries. An empty input gives []; non-int members (bools included) raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: set) -> None:
    if not isinstance(arg0, (set, list)) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in arg0
    ):
        raise TypeError("arg0 must be a set or list of ints")


def test_func(arg0):
    validate_input_args(arg0)
    values = sorted(set(arg0))
    out = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{values[i]}..{values[j]}")
        else:
            out.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    return out
''',
        "train_inputs": ["({1, 2, 3, 7},)", "({5, 6, 10},)", "({4},)"],
        "test_inputs": [
            "([],)", "({1, 3, 5},)", "({1, 2},)", "({-3, -2, -1, 0, 2},)", "([9, 8, 7, 7, 8, 1],)",
            "({10, 11, 12, 13, 20, 21, 30},)", "({0, 1, 2, 4, 5, 6},)", "([100],)",
            "({-10, -8, -7, -6},)", "([3, 1, 2, 2, 3],)", "({1, 2.5},)", "([True, 2],)", "('123',)",
        ],
    },
    {
        "id": "words_acronym_min_len",
        "tags": ["medium", "strings"],
        "description": (
            "Builds an acronym from a list of words: the uppercased first character of every word "
            "that has at least 3 characters, in order; shorter words are skipped. If no word "
            "qualifies, an empty list included, the result is '?'."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    letters = [word[0].upper() for word in arg0 if len(word) >= 3]
    if not letters:
        return "?"
    return "".join(letters)
''',
        "train_inputs": [
            "(['portable', 'network', 'graphics'],)", "(['bank', 'of', 'america'],)", "(['to', 'be'],)",
        ],
        "test_inputs": [
            "([],)", "(['a', 'an', 'the'],)", "(['as', 'soon', 'as', 'possible'],)", "(['ox', 'cow'],)",
            "(['123abc', 'xyz'],)", "(['   ', 'end'],)", "(['lower', 'CASE', 'mIxEd'],)",
            "(['hello'],)", "(['', 'ab'],)", "(['über', 'alles'],)", "(['one', 'two', 'six', 'ten'],)",
            "('abc',)", "([['abc']],)",
        ],
    },
    {
        "id": "names_summary_line",
        "tags": ["easy", "strings"],
        "description": (
            "Summarises a list of names as one str: '(none)' for an empty list, the names joined "
            "by ', ' when there are at most 3, otherwise the first 3 joined by ', ' followed by "
            "' and N more' where N is the number left out."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return "(none)"
    if len(arg0) <= 3:
        return ", ".join(arg0)
    return ", ".join(arg0[:3]) + f" and {len(arg0) - 3} more"
''',
        "train_inputs": ["(['ann', 'bo'],)", "(['a', 'b', 'c', 'd', 'e'],)", "(['solo'],)"],
        "test_inputs": [
            "([],)", "(['x', 'y', 'z'],)", "(['w', 'x', 'y', 'z'],)", "([''],)", "(['', ''],)",
            "(['Mary Jane', 'Li'],)", "(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],)",
            "(['same', 'same', 'same', 'same'],)", "(['a, b', 'c'],)", "(['q', 'r', 's', 't', 'u', 'v'],)",
            "('abcd',)", "([1, 2, 3],)",
        ],
    },
    {
        "id": "dedupe_keep_last_casefold",
        "tags": ["medium", "strings"],
        "description": (
            "Removes case-insensitive duplicates from a list of strings, keeping only the last "
            "occurrence of each (with that occurrence's own spelling) and preserving the relative "
            "order of the kept items. An empty list gives []."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(s, str) for s in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    last = {}
    for index, word in enumerate(arg0):
        last[word.casefold()] = index
    return [arg0[i] for i in sorted(last.values())]
''',
        "train_inputs": ["(['a', 'B', 'A', 'c'],)", "(['x', 'y', 'z'],)", "(['Hi', 'hi', 'HI'],)"],
        "test_inputs": [
            "([],)", "(['one'],)", "(['b', 'a', 'b', 'a'],)", "(['Straße', 'STRASSE'],)",
            "(['', '', 'x'],)", "(['apple', 'Banana', 'APPLE', 'banana', 'cherry'],)",
            "(['a ', 'a', 'A '],)", "(['dog', 'cat', 'Dog', 'bird', 'CAT'],)", "(['1', '01', '1'],)",
            "(['Q', 'q', 'Q', 'q', 'Q'],)", "('aAa',)", "([None],)",
        ],
    },
    {
        "id": "table_column_widths",
        "tags": ["medium", "strings", "grids"],
        "description": (
            "Takes a table as a list of rows, each a list of strs (rows may differ in length), and "
            "returns for each column index up to the longest row the length of the longest cell in "
            "that column, rows too short contributing nothing. An empty table, or only empty rows, "
            "gives []; non-str cells raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(row, list) and all(isinstance(cell, str) for cell in row) for row in arg0
    ):
        raise TypeError("arg0 must be a list of lists of str")


def test_func(arg0):
    validate_input_args(arg0)
    widths = []
    for row in arg0:
        for c, cell in enumerate(row):
            if c == len(widths):
                widths.append(len(cell))
            elif len(cell) > widths[c]:
                widths[c] = len(cell)
    return widths
''',
        "train_inputs": [
            "([['id', 'name'], ['1', 'alice'], ['22', 'bo']],)", "([['x']],)", "([['a', 'bb', 'ccc']],)",
        ],
        "test_inputs": [
            "([],)", "([[], []],)", "([['short'], ['a', 'longer'], ['', '', 'end']],)",
            "([[''], ['']],)", "([['same', 'size'], ['four', 'char']],)",
            "([['a'], ['abcdef'], ['abc']],)", "([['x', 'y'], [], ['zz']],)",
            "([['naïve', 'café'], ['x', 'y']],)", "([['  ', ' '], ['   ']],)",
            "([['k', 'vvvv'], ['kkkk', 'v']],)", "([['a', 1]],)", "([('a', 'b')],)", "('ab',)",
        ],
    },
    {
        "id": "grid_mirror_kind",
        "tags": ["medium", "grids"],
        "description": (
            "Classifies the mirror symmetry of a grid (list of lists): 'both' when every row reads "
            "the same reversed and the list of rows also equals its own reverse, 'left-right' when "
            "only every row reads the same reversed, 'top-bottom' when only the row order is "
            "symmetric, else 'none'. An empty grid gives 'both'."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(row, list) for row in arg0):
        raise TypeError("arg0 must be a list of lists")


def test_func(arg0):
    validate_input_args(arg0)
    rows_mirror = all(row == row[::-1] for row in arg0)
    order_mirror = arg0 == arg0[::-1]
    if rows_mirror and order_mirror:
        return "both"
    if rows_mirror:
        return "left-right"
    if order_mirror:
        return "top-bottom"
    return "none"
''',
        "train_inputs": [
            "([[1, 2, 1], [3, 4, 3]],)", "([[1, 2], [3, 4], [1, 2]],)", "([[1, 2], [3, 4]],)",
        ],
        "test_inputs": [
            "([],)", "([[5]],)", "([[1, 2, 1], [0, 9, 0], [1, 2, 1]],)", "([[1, 2, 3]],)",
            "([[1, 1], [2, 2]],)", "([['a', 'b'], ['a', 'b']],)", "([[], []],)", "([[1], [2], [1]],)",
            "([[1, 2, 2, 1], [7, 8, 8, 7]],)", "([[1, 0], [0, 1]],)", "([[3, 3], [3, 3], [3, 3]],)",
            "([(1, 1)],)", "('aba',)",
        ],
    },
    {
        "id": "grid_neighbor_max",
        "tags": ["hard", "grids"],
        "description": (
            "Takes a rectangular grid of ints and returns a grid of the same shape where each cell "
            "holds the largest of its up/down/left/right neighbours (the cell's own value is not "
            "considered; diagonals are not neighbours); a 1x1 grid gives [[None]]. An empty grid "
            "gives []; ragged rows raise ValueError and non-int cells raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(
        isinstance(row, list)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
        for row in arg0
    ):
        raise TypeError("arg0 must be a list of lists of ints")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0):
    validate_input_args(arg0)
    rows = len(arg0)
    out = []
    for r in range(rows):
        new_row = []
        for c in range(len(arg0[r])):
            around = [
                arg0[rr][cc]
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < rows and 0 <= cc < len(arg0[r])
            ]
            new_row.append(max(around) if around else None)
        out.append(new_row)
    return out
''',
        "train_inputs": ["([[1, 2], [3, 4]],)", "([[5]],)", "([[1, 9, 1], [1, 1, 1], [1, 1, 7]],)"],
        "test_inputs": [
            "([],)", "([[]],)", "([[1, 2, 3]],)", "([[4], [8], [2]],)", "([[0, 0], [0, 0]],)",
            "([[-1, -2, -3], [-4, -5, -6]],)", "([[9, 1, 1], [1, 1, 1], [1, 1, 1]],)",
            "([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],)", "([[3, 3, 3], [3, 0, 3], [3, 3, 3]],)",
            "([[1, 2], [3]],)", "([[1.5]],)", "((1, 2),)",
        ],
    },
    {
        "id": "edges_to_adjacency",
        "tags": ["medium", "sets", "graphs"],
        "description": (
            "Takes a set (or list) of (a, b) int pairs, read as undirected edges, and returns a "
            "dict mapping every node, in ascending order, to the ascending list of its distinct "
            "neighbours; a self-loop (a, a) lists a once as its own neighbour. An empty input gives "
            "{}; members that are not 2-tuples of ints raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: set) -> None:
    if not isinstance(arg0, (set, list)) or not all(
        isinstance(e, tuple)
        and len(e) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in e)
        for e in arg0
    ):
        raise TypeError("arg0 must be a set or list of (int, int) tuples")


def test_func(arg0):
    validate_input_args(arg0)
    neighbours = {}
    for a, b in arg0:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return {node: sorted(neighbours[node]) for node in sorted(neighbours)}
''',
        "train_inputs": ["({(1, 2), (2, 3)},)", "({(5, 5)},)", "([(1, 2), (1, 3), (1, 4)],)"],
        "test_inputs": [
            "([],)", "({(2, 1), (1, 2)},)", "([(3, 4), (4, 3), (3, 4)],)", "({(0, -1), (-1, 2)},)",
            "({(1, 1), (1, 2)},)", "({(10, 20), (30, 40)},)", "({(1, 2), (2, 3), (3, 1)},)",
            "([(7, 8)],)", "({(5, 1), (5, 9), (5, 3), (2, 5)},)", "({(1, 2, 3)},)", "([(1, 'a')],)",
            "({1: 2},)",
        ],
    },
    {
        "id": "tuple_tree_string_path",
        "tags": ["medium", "nested", "tuples"],
        "description": (
            "Walks a nested tuple depth-first, left to right, collecting every str found at any "
            "depth inside tuples, and returns them joined by '/'; non-str items, lists included "
            "(their contents are not looked at), are skipped. A tuple without strings gives ''; a "
            "non-tuple argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: tuple) -> None:
    if not isinstance(arg0, tuple):
        raise TypeError("arg0 must be a tuple")


def _strings(node, out):
    for item in node:
        if isinstance(item, tuple):
            _strings(item, out)
        elif isinstance(item, str):
            out.append(item)


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    _strings(arg0, out)
    return "/".join(out)
''',
        "train_inputs": [
            "(('usr', ('local', ('bin',))),)", "(('a', 1, 'b'),)", "((1, (2, 3)),)",
        ],
        "test_inputs": [
            "((),)", "(((), ((),)),)", "((('x',), 'y', (('z',),)),)", "(('a', ['b', 'c'], 'd'),)",
            "(('', 'mid', ''),)", "((('deep', ('deeper', ('deepest',))), 'top'),)",
            "((None, True, 'ok', 3.5),)", "((('a', 'b'), ('c', 'd')),)", "(('a/b', ('c',)),)",
            "(({'k': 'v'}, 'w'),)", "(['a', 'b'],)", "('abc',)",
        ],
    },
    {
        "id": "bytes_text_guess",
        "tags": ["medium", "bytes"],
        "description": (
            "Decodes bytes and reports the encoding used as a (name, text) tuple: ('ascii', text) "
            "when every byte is below 128 (empty bytes included), otherwise ('utf-8', text) when "
            "the bytes are valid UTF-8, otherwise ('latin-1', text) decoded byte for byte as "
            "Latin-1. A non-bytes argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    if all(b < 128 for b in arg0):
        return ("ascii", arg0.decode("ascii"))
    try:
        return ("utf-8", arg0.decode("utf-8"))
    except UnicodeDecodeError:
        return ("latin-1", arg0.decode("latin-1"))
''',
        "train_inputs": ["(b'hello',)", "(b'caf\\xc3\\xa9',)", "(b'caf\\xe9',)"],
        "test_inputs": [
            "(b'',)", "(b'\\x7f',)", "(b'\\x80',)", "(b'\\xe2\\x82\\xac',)", "(b'\\xe2\\x82',)",
            "(b'\\xff\\xfe',)", "(b'plain text 123',)", "(b'\\xc3\\xa9t\\xc3\\xa9',)",
            "(b'na\\xefve',)", "(b'\\xf0\\x9f\\x98\\x80',)", "('hello',)", "([104, 105],)",
        ],
    },
    {
        "id": "mixed_numeric_total",
        "tags": ["medium", "mixed"],
        "description": (
            "Adds up the numeric content of a list: ints and floats are added as they are, strs made "
            "of an optional leading '-' and then only ASCII digits are added as ints, and "
            "everything else (bools, None, other strs such as '1.5' or ' 7', containers) is "
            "ignored. An empty list gives 0; a non-list argument raises TypeError."
        ),
        "code": '''
import re


def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")


def test_func(arg0):
    validate_input_args(arg0)
    total = 0
    for item in arg0:
        if isinstance(item, bool):
            continue
        if isinstance(item, (int, float)):
            total += item
        elif isinstance(item, str) and re.fullmatch(r"-?[0-9]+", item):
            total += int(item)
    return total
''',
        "train_inputs": ["([1, '2', 3.5],)", "(['a', None, 4],)", "(['-10', 5],)"],
        "test_inputs": [
            "([],)", "([True, False, 1],)", "(['1.5', ' 7', '7 '],)", "(['007', '-0'],)",
            "([[1, 2], (3,), {'4': 4}],)", "([0.25, 0.25, '1'],)", "(['--1', '+2', '3'],)",
            "([b'5', '5'],)", "([-3, '-3', 'x-3'],)", "(['12', 'twelve', 12.0],)", "(['', '-'],)",
            "((1, 2),)", "('123',)",
        ],
    },
    {
        "id": "tree_deepest_leaves",
        "tags": ["hard", "trees", "nested"],
        "description": (
            "Takes a tree written as nested tuples, where an int is a leaf and a tuple is an inner "
            "node whose items are its children, and returns, left to right, the list of the leaves "
            "lying at the greatest depth. A bare int gives [that int], an empty tuple adds no leaf "
            "(so () gives []); anything other than ints and tuples raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0) -> None:
    if not _valid(arg0):
        raise TypeError("arg0 must be an int or a tuple tree of ints")


def _valid(node):
    if isinstance(node, tuple):
        return all(_valid(child) for child in node)
    return isinstance(node, int) and not isinstance(node, bool)


def _collect(node, depth, found):
    if isinstance(node, tuple):
        for child in node:
            _collect(child, depth + 1, found)
    else:
        found.append((depth, node))


def test_func(arg0):
    validate_input_args(arg0)
    found = []
    _collect(arg0, 0, found)
    if not found:
        return []
    deepest = max(depth for depth, _ in found)
    return [leaf for depth, leaf in found if depth == deepest]
''',
        "train_inputs": ["((1, (2, 3), 4),)", "((1, 2, 3),)", "(((5, (6,)), (7, (8,))),)"],
        "test_inputs": [
            "((),)", "((((),),),)", "(9,)", "(((((1,),),), 2),)", "((1, ((2, 3), (4, (5, 6)))),)",
            "(((1, 2), (3, 4)),)", "((0, (0, (0,)), (1, (1, (2,)))),)", "((-1, (-2,), ((-3, -4),)),)",
            "(((), 7),)", "((1, [2]),)", "((1, 'a'),)", "(True,)",
        ],
    },
    {
        "id": "dict_keys_by_list_length",
        "tags": ["medium", "dicts"],
        "description": (
            "Takes a dict mapping str keys to lists and returns its keys ordered by the length of "
            "their list, longest first, keys with equally long lists in alphabetical order. An "
            "empty dict gives []; a non-str key or a non-list value raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict) -> None:
    if not isinstance(arg0, dict) or not all(
        isinstance(k, str) and isinstance(v, list) for k, v in arg0.items()
    ):
        raise TypeError("arg0 must be a dict of str keys to lists")


def test_func(arg0):
    validate_input_args(arg0)
    return sorted(arg0, key=lambda key: (-len(arg0[key]), key))
''',
        "train_inputs": [
            "({'a': [1], 'b': [1, 2, 3], 'c': [1, 2]},)", "({'x': []},)", "({'p': [0], 'q': [0]},)",
        ],
        "test_inputs": [
            "({},)", "({'z': [], 'y': [], 'x': [1]},)", "({'B': [1, 2], 'a': [3, 4]},)",
            "({'long': [], 'mid': [1, 2, 3], 'one': ['x']},)", "({'k': [[1, 2, 3]], 'j': [1, 2]},)",
            "({'m': [None, None], 'n': [None], 'o': [None, None, None, None]},)",
            "({'c': [1], 'b': [2], 'a': [3]},)", "({'': [1], ' ': [1, 1]},)",
            "({'a': (1, 2)},)", "({1: [1]},)", "([['a', [1]]],)", "({'a': 'abc'},)",
        ],
    },
    {
        "id": "nested_dict_key_count",
        "tags": ["medium", "nested", "dicts"],
        "description": (
            "Counts every dict key at any depth of a nested structure, looking inside dicts (their "
            "values), lists and tuples; other values count nothing, so a structure with no dict "
            "anywhere gives 0. The argument itself must be a dict, list or tuple, else TypeError."
        ),
        "code": '''
def validate_input_args(arg0) -> None:
    if not isinstance(arg0, (dict, list, tuple)):
        raise TypeError("arg0 must be a dict, list or tuple")


def _count(node):
    if isinstance(node, dict):
        return len(node) + sum(_count(v) for v in node.values())
    if isinstance(node, (list, tuple)):
        return sum(_count(v) for v in node)
    return 0


def test_func(arg0):
    validate_input_args(arg0)
    return _count(arg0)
''',
        "train_inputs": ["({'a': 1, 'b': {'c': 2}},)", "([{'x': 1}, {'y': 2, 'z': 3}],)", "([1, [2, 3]],)"],
        "test_inputs": [
            "({},)", "([],)", "('text',)", "({'a': {'b': {'c': {'d': None}}}},)",
            "(({'k': [{'m': 1}]}, ({'n': 2},)),)", "({'list': [1, 2, 3], 'tuple': (4, 5)},)",
            "([[[{}]]],)", "({1: {2: {3: 4}}, 5: [6, {7: 8}]},)", "([{'a': 1}, [{'a': 1}], ({'a': 1},)],)",
            "(None,)", "({'keys': ['k1', 'k2']},)", "({1, 2},)", "(({},),)",
        ],
    },
    {
        "id": "square_rotate_else_transpose",
        "tags": ["hard", "grids"],
        "description": (
            "Takes a rectangular matrix (list of equal-length lists): a square one is returned "
            "rotated 90 degrees clockwise, while a non-square one is returned transposed (rows "
            "become columns, no rotation). An empty matrix gives []; rows of different lengths "
            "raise ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(row, list) for row in arg0):
        raise TypeError("arg0 must be a list of lists")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0):
    validate_input_args(arg0)
    if not arg0:
        return []
    if len(arg0) == len(arg0[0]):
        return [list(col) for col in zip(*arg0[::-1])]
    return [list(col) for col in zip(*arg0)]
''',
        "train_inputs": ["([[1, 2], [3, 4]],)", "([[1, 2, 3], [4, 5, 6]],)", "([[7]],)"],
        "test_inputs": [
            "([],)", "([[]],)", "([[], []],)", "([[1, 2, 3], [4, 5, 6], [7, 8, 9]],)",
            "([[1], [2], [3]],)", "([[1, 2, 3, 4]],)", "([['a', 'b'], ['c', 'd']],)",
            "([[1, 0, 0], [0, 1, 0], [0, 0, 1]],)", "([[1, 2], [3, 4], [5, 6]],)",
            "([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],)",
            "([[1, 2], [3]],)", "([(1, 2)],)",
        ],
    },
    {
        "id": "bytes_fletcher16",
        "tags": ["hard", "bytes"],
        "description": (
            "Returns the Fletcher-16 checksum of the bytes as an int: a running sum s1 of the bytes "
            "and a running sum s2 of the successive s1 values, both kept modulo 255, combined as "
            "s2 * 256 + s1. Empty bytes give 0; a non-bytes argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    s1 = 0
    s2 = 0
    for b in arg0:
        s1 = (s1 + b) % 255
        s2 = (s2 + s1) % 255
    return s2 * 256 + s1
''',
        "train_inputs": ["(b'\\x01\\x02',)", "(b'abcde',)", "(b'\\x05',)"],
        "test_inputs": [
            "(b'',)", "(b'\\xff',)", "(b'\\x00\\x00\\x00',)", "(b'\\x01',)", "(b'\\x02\\x01',)",
            "(b'abcdef',)", "(b'\\xfe\\x01',)", "(b'hello world',)", "(b'\\x80\\x80\\x80\\x80',)",
            "(b'0123456789',)", "('ab',)", "([1, 2],)",
        ],
    },
    {
        "id": "odd_minus_even_members",
        "tags": ["easy", "sets"],
        "description": (
            "Takes a set or list of ints and returns the sum of its distinct odd members minus the "
            "sum of its distinct even members (duplicates in a list count once; 0 is even). An "
            "empty input gives 0; non-int members (bools included) raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: set) -> None:
    if not isinstance(arg0, (set, list)) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in arg0
    ):
        raise TypeError("arg0 must be a set or list of ints")


def test_func(arg0):
    validate_input_args(arg0)
    total = 0
    for value in set(arg0):
        if value % 2:
            total += value
        else:
            total -= value
    return total
''',
        "train_inputs": ["({1, 2, 3, 4},)", "({5, 7},)", "({10},)"],
        "test_inputs": [
            "([],)", "({0},)", "([3, 3, 3],)", "({-1, -2},)", "([2, 2, 1],)", "({-3, 4, 11, 100},)",
            "({1, 3, 5, 7, 9},)", "({2, 4, 6, 8},)", "([0, 1, -1],)", "({1, 2.0},)", "([True],)",
            "('135',)",
        ],
    },
    {
        "id": "dict_type_signature",
        "tags": ["easy", "dicts", "mixed"],
        "description": (
            "Describes a dict with str keys as one str of 'key:type' entries, the exact type name of "
            "each value ('int', 'str', 'bool', 'NoneType', 'list', ...), joined by ',' with keys in "
            "sorted order. An empty dict gives ''; a non-str key raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict) -> None:
    if not isinstance(arg0, dict) or not all(isinstance(k, str) for k in arg0):
        raise TypeError("arg0 must be a dict with str keys")


def test_func(arg0):
    validate_input_args(arg0)
    return ",".join(f"{key}:{type(arg0[key]).__name__}" for key in sorted(arg0))
''',
        "train_inputs": ["({'b': 1, 'a': 'x'},)", "({'flag': True},)", "({'z': None, 'y': [1]},)"],
        "test_inputs": [
            "({},)", "({'n': 1.5},)", "({'t': (1,), 's': {1}, 'd': {}},)", "({'B': 0, 'a': 0},)",
            "({'raw': b'x'},)", "({'k': [], 'j': '', 'i': 0},)", "({'one': 1, 'two': 2.0, 'three': '3'},)",
            "({'': None},)", "({'x': {'nested': 1}},)", "({1: 'a'},)", "([('a', 1)],)",
            "('a:int',)",
        ],
    },
]
