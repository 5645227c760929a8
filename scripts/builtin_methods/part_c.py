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
]
