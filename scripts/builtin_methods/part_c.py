"""Builtin PAU methods, part c: dicts, sets, tuples, nested structures (trees as tuples),
lists of strings, grids, dates, bytes and mixed-type inputs.

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
            "ascending order. An empty list gives {}; a non-list or a non-str item raises "
            "TypeError."
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
        "train_inputs": [
            "(['hi', 'yes', 'no', 'cat'],)", "(['apple'],)", "(['a', 'bb', 'a', 'ccc', 'bb'],)",
        ],
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
            "falsy: 0, 0.0, False, None, an empty string, empty bytes or an empty container. A "
            "non-list, non-tuple argument raises TypeError."
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
            "([{0}, {}],)", "([False, 'False', 0, '0'],)", "([1, 2, 3, 0],)", "('ab',)", "(None,)",
        ],
    },
    {
        "id": "mixed_type_tally",
        "tags": ["easy", "mixed"],
        "description": (
            "Returns a dict mapping each element's exact type name ('int', 'float', 'str', 'bool', "
            "'NoneType', 'list', 'tuple', 'dict', 'set', 'bytes') to how many elements of the list "
            "have that type, keys in order of first appearance; booleans count as 'bool', not "
            "'int'. An empty list gives {}; a non-list argument raises TypeError."
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
            "([-3, 4.25, 'z', [None]],)", "([{'a'}, {1, 2}],)", "([0, 0, 0, 0.0],)", "((1, 2),)",
            "('abc',)",
        ],
    },
    {
        "id": "dict_invert_grouped",
        "tags": ["medium", "dicts"],
        "description": (
            "Inverts a dict with str keys and int or str values: returns a dict mapping each "
            "distinct value to the alphabetically sorted list of the keys that had it, values in "
            "order of first appearance. A non-dict, a non-str key, or a value that is not an int "
            "or str (bools included) raises TypeError."
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
        "train_inputs": [
            "({'a': 1, 'b': 2, 'c': 1},)", "({'x': 'red', 'y': 'red'},)", "({'solo': 0},)",
        ],
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
            "(b'',)", "(b'\\xff\\xfe\\xfd',)", "(b'ABC',)", "(b'\\n\\t',)", "(b'0123',)", "(b' ',)",
            "(b'\\x10\\x20\\x30\\x40\\x50',)", "(b'\\x0f',)", "(b'zz',)", "(b'\\x7f\\x80',)",
            "('ab',)", "([1, 2],)",
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
            "(b'',)", "(b'\\x80',)", "(b'\\x00\\x80',)", "(b'\\xff\\xfe',)",
            "(b'\\x12\\x34\\x56',)", "(b'\\x80\\x00\\x00\\x00',)",
            "(b'\\x7f\\xff\\xff\\xff\\xff\\xff\\xff\\xff',)",
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
            "(['2024-01-01', '2024-01-31'],)", "(['2023-06-15'],)",
            "(['2024-03-10', '2024-03-01', '2024-03-05'],)",
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
            "dates in early January or late December can belong to the neighbouring ISO year. A "
            "malformed or impossible date raises ValueError; a non-str raises TypeError."
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
            "([[1, 2, 3], [4, 5, 6], [7, 8, 9]],)", "([[5]],)",
            "([[1, 1, 1, 1], [1, 100, 100, 1], [1, 1, 1, 1]],)",
        ],
        "test_inputs": [
            "([],)", "([[], []],)", "([[1, 2, 3, 4]],)", "([[2], [3], [4]],)",
            "([[1, 2], [3, 4]],)", "([[0, 0, 0], [0, 9, 0], [0, 9, 0], [0, 0, 0]],)",
            "([[-1, -2, -3], [-4, 50, -6], [-7, -8, -9]],)",
            "([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20], [21, 22, 23, 24, 25]],)",
            "([[1, 2], [3]],)", "([[1, True]],)", "([[1.5]],)", "((1, 2),)",
        ],
    },
    {
        "id": "grid_distinct_per_column",
        "tags": ["medium", "grids"],
        "description": (
            "Takes a list of rows (lists of ints or strs; rows may differ in length) and returns, "
            "for each column index up to the longest row's length, the number of distinct values "
            "in that column among the rows long enough to have it. An empty grid, or only empty "
            "rows, gives []; bools, floats and other cell types raise TypeError."
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
            "([[3], [1, 2, 3, 8]],)", "([[-5, -1], [-2, -9]],)", "([[7]],)",
            "([[1, 2, 3], [], [4]],)", "([[0, 0, 0], [0, 0, 1]],)", "([[2.5, 2], [3, 2.75]],)",
            "([[1, 'a']],)", "([[False]],)", "({'a': [1]},)",
        ],
    },
    {
        "id": "nested_count_by_depth",
        "tags": ["medium", "nested"],
        "description": (
            "Takes a nested list and returns a dict mapping each depth to the number of non-list "
            "items at that depth, the top-level list being depth 1, keys ascending; tuples, dicts "
            "and other values count as single items. Empty lists contribute nothing, so [] and "
            "[[]] both give {}; a non-list argument raises TypeError."
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
            "([None, [None], [[None]]],)", "([{'k': [1, 2]}, [{}]],)",
            "([[1, 2], [3, 4], [5, 6]],)", "([[[1]], [[2]], 3],)", "((1, [2]),)", "('list',)",
        ],
    },
    {
        "id": "tree_level_sums",
        "tags": ["medium", "nested", "trees"],
        "description": (
            "Takes a binary tree written as nested tuples (value, left, right), None standing for "
            "a missing child, and returns the list of the sums of the node values on each level, "
            "root level first. None (the empty tree) gives []; a node that is not a 3-tuple with "
            "an int value raises TypeError."
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
            "(None,)", "((0, None, (0, None, (7, None, None))),)",
            "((10, (-3, None, None), (3, None, None)),)",
            "((1, (1, (1, (1, None, None), None), None), None),)",
            "((4, (2, (1, None, None), (3, None, None)), (6, (5, None, None), (7, None, None))),)",
            "((-1, None, None),)", "((2, (8, None, (9, None, None)), None),)",
            "((100, (1, None, None), (1, (1, None, None), (1, None, None))),)", "((1, 2, 3),)",
            "((1, None),)", "(('a', None, None),)", "([1, None, None],)",
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
            "({},)", "({'z': 5, 'y': 5, 'x': 5},)", "({'m': 1.5, 'n': 1},)",
            "({'m': 2, 'n': 2.0},)", "({'b': 0, 'a': 0, 'c': -1},)",
            "({'k': 10, 'K': 10, 'j': 9},)", "({'only': -100},)",
            "({'one': 1, 'two': 2, 'three': 3, 'four': 4},)", "({'': 4, 'a': 4},)",
            "({'a': True},)", "({1: 2},)", "([('a', 1)],)",
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
            "({'a': {'b': 1, 'c': 2}, 'd': 3},)", "({'x': 1},)",
            "({'cfg': {'db': {'host': 'h', 'port': 5432}}},)",
        ],
        "test_inputs": [
            "({},)", "({'a': {}},)", "({'a': {'b': {}}, 'c': None},)", "({'l': [1, {'x': 2}]},)",
            "({'t': (1, 2), 'u': {'v': (3,)}},)", "({'a': {'b': {'c': {'d': 'deep'}}}},)",
            "({'x': {'y': 1}, 'x.y': 2},)", "({'': {'': 0}},)",
            "({'k': {'a': 1, 'b': {'c': 2}}, 'z': 0},)", "({'a': {1: 'x'}},)", "({2: 'two'},)",
            "([('a', 1)],)",
        ],
    },
    {
        "id": "int_set_ranges",
        "tags": ["hard", "sets"],
        "description": (
            "Takes a set or list of ints (duplicates ignored) and returns, in ascending order, a "
            "list of strs where every run of at least 3 consecutive integers is written "
            "'first..last' and every other value is written alone, so a run of exactly 2 gives two "
            "separate entries. An empty input gives []; non-int members (bools included) raise "
            "TypeError."
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
            "(['portable', 'network', 'graphics'],)", "(['bank', 'of', 'america'],)",
            "(['to', 'be'],)",
        ],
        "test_inputs": [
            "([],)", "(['a', 'an', 'the'],)", "(['as', 'soon', 'as', 'possible'],)",
            "(['ox', 'cow'],)", "(['123abc', 'xyz'],)", "(['   ', 'end'],)",
            "(['lower', 'CASE', 'mIxEd'],)", "(['hello'],)", "(['', 'ab'],)",
            "(['über', 'alles'],)", "(['one', 'two', 'six', 'ten'],)", "('abc',)", "([['abc']],)",
        ],
    },
    {
        "id": "names_summary_line",
        "tags": ["easy", "strings"],
        "description": (
            "Summarises a list of names as one str: '(none)' for an empty list, the names joined "
            "by ', ' when there are at most 3, otherwise the first 3 joined by ', ' followed by ' "
            "and N more' where N is the number left out."
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
            "(['same', 'same', 'same', 'same'],)", "(['a, b', 'c'],)",
            "(['q', 'r', 's', 't', 'u', 'v'],)", "('abcd',)", "([1, 2, 3],)",
        ],
    },
    {
        "id": "dedupe_keep_last_casefold",
        "tags": ["hard", "strings"],
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
            "(['a ', 'a', 'A '],)", "(['dog', 'cat', 'Dog', 'bird', 'CAT'],)",
            "(['1', '01', '1'],)", "(['Q', 'q', 'Q', 'q', 'Q'],)", "('aAa',)", "([None],)",
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
            "([['id', 'name'], ['1', 'alice'], ['22', 'bo']],)", "([['x']],)",
            "([['a', 'bb', 'ccc']],)",
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
            "([[1, 1], [2, 2]],)", "([['a', 'b'], ['a', 'b']],)", "([[], []],)",
            "([[1], [2], [1]],)", "([[1, 2, 2, 1], [7, 8, 8, 7]],)", "([[1, 0], [0, 1]],)",
            "([[3, 3], [3, 3], [3, 3]],)", "([(1, 1)],)", "('aba',)",
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
            "([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],)",
            "([[3, 3, 3], [3, 0, 3], [3, 3, 3]],)", "([[1, 2], [3]],)", "([[1.5]],)", "((1, 2),)",
        ],
    },
    {
        "id": "edges_to_adjacency",
        "tags": ["medium", "sets", "graphs"],
        "description": (
            "Takes a set (or list) of (a, b) int pairs, read as undirected edges, and returns a "
            "dict mapping every node, in ascending order, to the ascending list of its distinct "
            "neighbours; a self-loop (a, a) lists a once as its own neighbour. An empty input "
            "gives {}; members that are not 2-tuples of ints raise TypeError."
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
        "train_inputs": ["(('usr', ('local', ('bin',))),)", "(('a', 1, 'b'),)", "((1, (2, 3)),)"],
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
            "Adds up the numeric content of a list: ints and floats are added as they are, strs "
            "made of an optional leading '-' and then only ASCII digits are added as ints, and "
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
            "(((1, 2), (3, 4)),)", "((0, (0, (0,)), (1, (1, (2,)))),)",
            "((-1, (-2,), ((-3, -4),)),)", "(((), 7),)", "((1, [2]),)", "((1, 'a'),)", "(True,)",
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
            "({'c': [1], 'b': [2], 'a': [3]},)", "({'': [1], ' ': [1, 1]},)", "({'a': (1, 2)},)",
            "({1: [1]},)", "([['a', [1]]],)", "({'a': 'abc'},)",
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
        "train_inputs": [
            "({'a': 1, 'b': {'c': 2}},)", "([{'x': 1}, {'y': 2, 'z': 3}],)", "([1, [2, 3]],)",
        ],
        "test_inputs": [
            "({},)", "([],)", "('text',)", "({'a': {'b': {'c': {'d': None}}}},)",
            "(({'k': [{'m': 1}]}, ({'n': 2},)),)", "({'list': [1, 2, 3], 'tuple': (4, 5)},)",
            "([[[{}]]],)", "({1: {2: {3: 4}}, 5: [6, {7: 8}]},)",
            "([{'a': 1}, [{'a': 1}], ({'a': 1},)],)", "(None,)", "({'keys': ['k1', 'k2']},)",
            "({1, 2},)", "(({},),)",
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
            "Returns the Fletcher-16 checksum of the bytes as an int: a running sum s1 of the "
            "bytes and a running sum s2 of the successive s1 values, both kept modulo 255, "
            "combined as s2 * 256 + s1. Empty bytes give 0; a non-bytes argument raises TypeError."
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
            "Describes a dict with str keys as one str of 'key:type' entries, the exact type name "
            "of each value ('int', 'str', 'bool', 'NoneType', 'list', ...), joined by ',' with "
            "keys in sorted order. An empty dict gives ''; a non-str key raises TypeError."
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
            "({'raw': b'x'},)", "({'k': [], 'j': '', 'i': 0},)",
            "({'one': 1, 'two': 2.0, 'three': '3'},)", "({'': None},)", "({'x': {'nested': 1}},)",
            "({1: 'a'},)", "([('a', 1)],)", "('a:int',)",
        ],
    },
    # ------------------------------------------------------------------ arity 2
    {
        "id": "dict_merge_sum",
        "tags": ["easy", "dicts", "smoke"],
        "description": (
            "Merges two dicts of str keys to numbers into a new dict: a key present in both gets "
            "the sum of its two values, any other key keeps its value; keys of the first dict come "
            "first, then the second dict's new keys in their order. A non-dict, a non-str key or a "
            "non-number value (bools included) raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1: dict) -> None:
    for d in (arg0, arg1):
        if not isinstance(d, dict) or not all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
            for k, v in d.items()
        ):
            raise TypeError("arg0 and arg1 must be dicts of str keys to numbers")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    merged = dict(arg0)
    for key, value in arg1.items():
        merged[key] = merged.get(key, 0) + value
    return merged
''',
        "train_inputs": [
            "({'a': 1, 'b': 2}, {'b': 3, 'c': 4})", "({'x': 5}, {})", "({}, {'y': 1})",
        ],
        "test_inputs": [
            "({}, {})", "({'a': 1}, {'a': -1})", "({'a': 1.5}, {'a': 2})",
            "({'z': 1, 'y': 2}, {'x': 3, 'z': 4})", "({'k': 10}, {'K': 5})",
            "({'a': 0, 'b': 0}, {'b': 0, 'a': 0})",
            "({'p': 100, 'q': 200, 'r': 300}, {'r': 1, 's': 2})", "({'n': -4}, {'m': -6})",
            "({'a': 1}, {'a': True})", "({'a': 1}, [('a', 1)])", "({1: 1}, {})",
            "({'a': '1'}, {'a': 1})",
        ],
    },
    {
        "id": "dict_diff_report",
        "tags": ["easy", "dicts"],
        "description": (
            "Compares an old dict (first argument) with a new one (second), both with str keys, "
            "and returns {'added': keys only in the new, 'removed': keys only in the old, "
            "'changed': keys in both whose values differ by ==}, each list sorted. A non-dict or a "
            "non-str key raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1: dict) -> None:
    for d in (arg0, arg1):
        if not isinstance(d, dict) or not all(isinstance(k, str) for k in d):
            raise TypeError("arg0 and arg1 must be dicts with str keys")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    added = sorted(k for k in arg1 if k not in arg0)
    removed = sorted(k for k in arg0 if k not in arg1)
    changed = sorted(k for k in arg0 if k in arg1 and arg0[k] != arg1[k])
    return {"added": added, "removed": removed, "changed": changed}
''',
        "train_inputs": [
            "({'a': 1, 'b': 2}, {'b': 3, 'c': 4})", "({'x': 1}, {'x': 1})", "({}, {'new': 0})",
        ],
        "test_inputs": [
            "({}, {})", "({'gone': 1}, {})", "({'a': 1}, {'a': 1.0})", "({'a': 1}, {'a': True})",
            "({'a': [1, 2]}, {'a': [2, 1]})", "({'z': 0, 'y': 0, 'x': 0}, {'w': 0, 'y': 1})",
            "({'k': None}, {'k': 'None'})", "({'b': 1, 'a': 2}, {'c': 3, 'a': 2, 'b': 9})",
            "({'A': 1}, {'a': 1})", "({'a': 1}, [('a', 1)])", "({1: 'a'}, {})", "('ab', 'ab')",
        ],
    },
    {
        "id": "dict_get_dotted",
        "tags": ["hard", "dicts", "nested"],
        "description": (
            "Looks up a dot-separated path ('a.b.0.c') in a nested dict: each segment is a key of "
            "the current dict, or, when the current value is a list and the segment is made of "
            "ASCII digits, an index into that list. Returns the value reached, the whole dict for "
            "the empty path '', and None when a key is missing, an index is out of range or the "
            "path goes through anything else."
        ),
        "code": '''
import re


def validate_input_args(arg0: dict, arg1: str) -> None:
    if not isinstance(arg0, dict) or not isinstance(arg1, str):
        raise TypeError("arg0 must be a dict and arg1 a str path")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 == "":
        return arg0
    node = arg0
    for part in arg1.split("."):
        if isinstance(node, dict):
            if part not in node:
                return None
            node = node[part]
        elif isinstance(node, list) and re.fullmatch(r"[0-9]+", part):
            index = int(part)
            if index >= len(node):
                return None
            node = node[index]
        else:
            return None
    return node
''',
        "train_inputs": [
            "({'a': {'b': 5}}, 'a.b')", "({'items': [10, 20, 30]}, 'items.1')", "({'a': 1}, 'b')",
        ],
        "test_inputs": [
            "({'a': 1}, '')", "({}, 'x')", "({'a': {'b': {'c': 'deep'}}}, 'a.b.c')",
            "({'a': {'b': 1}}, 'a')", "({'l': [{'x': 1}, {'x': 2}]}, 'l.1.x')",
            "({'l': [1, 2]}, 'l.2')", "({'l': [1, 2]}, 'l.-1')", "({'a': 5}, 'a.b')",
            "({'t': (1, 2)}, 't.0')", "({'0': 'zero'}, '0')", "({'a': {'': 7}}, 'a.')",
            "({'a': [[1, 2], [3, 4]]}, 'a.1.0')", "({'a': 1}, 1)", "([1, 2], '0')",
        ],
    },
    {
        "id": "dict_strip_prefix_keys",
        "tags": ["easy", "dicts"],
        "description": (
            "Keeps only the entries of a dict with str keys whose key starts with the given prefix "
            "(case-sensitive) and returns them with that prefix removed from the key, in the "
            "original order; a key equal to the prefix becomes '' and an empty prefix keeps "
            "everything unchanged."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1: str) -> None:
    if (
        not isinstance(arg0, dict)
        or not all(isinstance(k, str) for k in arg0)
        or not isinstance(arg1, str)
    ):
        raise TypeError("arg0 must be a dict with str keys and arg1 a str prefix")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return {key[len(arg1):]: value for key, value in arg0.items() if key.startswith(arg1)}
''',
        "train_inputs": [
            "({'db_host': 'h', 'db_port': 1, 'mode': 'x'}, 'db_')", "({'a': 1}, 'b')",
            "({'ab': 1, 'b': 2}, '')",
        ],
        "test_inputs": [
            "({}, 'x')", "({'pre': 1, 'prefix': 2}, 'pre')", "({'Key': 1, 'key': 2}, 'k')",
            "({'x.y': 1, 'x.z': 2, 'xy': 3}, 'x.')", "({'aaa': 1, 'aa': 2, 'a': 3}, 'aa')",
            "({'v1': [1], 'v2': {'n': 2}}, 'v')", "({'  x': 0}, ' ')", "({'a': 1}, 'abc')",
            "({'é1': 'e'}, 'é')", "({'a': 1}, 1)", "({1: 'a'}, '')", "([('a', 1)], 'a')",
        ],
    },
    {
        "id": "jaccard_as_fraction",
        "tags": ["medium", "sets"],
        "description": (
            "Returns the Jaccard similarity of two collections (sets or lists of ints or strs, "
            "duplicates ignored) as a reduced fraction (numerator, denominator): the size of the "
            "intersection over the size of the union. Two empty inputs give (1, 1); no common "
            "element gives (0, 1)."
        ),
        "code": '''
from math import gcd


def validate_input_args(arg0: set, arg1: set) -> None:
    for s in (arg0, arg1):
        if not isinstance(s, (set, list)) or not all(
            isinstance(x, (int, str)) and not isinstance(x, bool) for x in s
        ):
            raise TypeError("arg0 and arg1 must be sets or lists of ints or strs")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    a, b = set(arg0), set(arg1)
    union = len(a | b)
    if union == 0:
        return (1, 1)
    inter = len(a & b)
    g = gcd(inter, union)
    return (inter // g, union // g)
''',
        "train_inputs": ["({1, 2, 3}, {2, 3, 4})", "({1}, {1})", "({1, 2}, {3})"],
        "test_inputs": [
            "([], [])", "([], [1])", "({1, 2, 3, 4}, {1, 2})", "(['a', 'b'], ['b', 'c', 'd', 'e'])",
            "([1, 1, 1], [1])", "({1, 2, 3, 4, 5, 6}, {4, 5, 6, 7, 8, 9})", "({'1'}, {1})",
            "({0}, {0, 1, 2})", "(['x', 'y', 'z'], ['z', 'y', 'x'])", "({1, 2}, {1, 2.5})",
            "({1, 2}, 'ab')", "([True], [1])",
        ],
    },
    {
        "id": "exclusive_members_tagged",
        "tags": ["easy", "sets"],
        "description": (
            "Takes two sets (or lists) of ints and returns the sorted list of (value, side) tuples "
            "for the values found in exactly one of them, side being 'left' for the first argument "
            "and 'right' for the second; shared values are left out. Non-int members raise "
            "TypeError."
        ),
        "code": '''
def validate_input_args(arg0: set, arg1: set) -> None:
    for s in (arg0, arg1):
        if not isinstance(s, (set, list)) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in s
        ):
            raise TypeError("arg0 and arg1 must be sets or lists of ints")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    a, b = set(arg0), set(arg1)
    return sorted([(x, "left") for x in a - b] + [(x, "right") for x in b - a])
''',
        "train_inputs": ["({1, 2, 3}, {2, 3, 4})", "({5}, {5})", "({1, 9}, {4})"],
        "test_inputs": [
            "([], [])", "([], [3, 1])", "([2, 2], [])", "({-1, 0}, {0, 1})",
            "({10, 20, 30}, {15, 25})", "([1, 1, 2], [2, 2, 3])", "({7, 8, 9}, {7, 8, 9, 10})",
            "({100}, {-100})", "({1, 2}, {'1'})", "({1.0}, {1})", "((1, 2), {1})", "([False], [])",
        ],
    },
    {
        "id": "tuple_pairwise_max_keep_tail",
        "tags": ["easy", "tuples"],
        "description": (
            "Takes two tuples of numbers and returns a tuple holding the larger of each aligned "
            "pair of elements, followed by the leftover tail of the longer tuple unchanged. Two "
            "empty tuples give (); non-tuple arguments or non-number items raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: tuple, arg1: tuple) -> None:
    for t in (arg0, arg1):
        if not isinstance(t, tuple) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in t
        ):
            raise TypeError("arg0 and arg1 must be tuples of numbers")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    common = tuple(max(x, y) for x, y in zip(arg0, arg1))
    longer = arg0 if len(arg0) >= len(arg1) else arg1
    return common + longer[len(common):]
''',
        "train_inputs": ["((1, 5, 3), (4, 2, 6))", "((1, 2), (0, 0, 9))", "((7,), ())"],
        "test_inputs": [
            "((), ())", "((), (1, 2))", "((-1, -2, -3, -4), (-5, 0))", "((1.5, 2), (1, 2.5))",
            "((3, 3), (3, 3))", "((0, 10, 0, 10), (10, 0, 10, 0))", "((1, 2, 3, 4, 5), (5,))",
            "((2,), (1, 1, 1))", "((100, -100), (-100, 100))", "([1, 2], (1, 2))",
            "((1, 'a'), (1, 2))", "((True,), (1,))",
        ],
    },
    {
        "id": "tuple_compare_length_first",
        "tags": ["easy", "tuples"],
        "description": (
            "Compares two tuples of ints and returns -1, 0 or 1: the shorter tuple is the smaller "
            "whatever its contents, and only tuples of equal length are compared element by "
            "element (lexicographically). Non-tuple arguments or non-int items raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: tuple, arg1: tuple) -> None:
    for t in (arg0, arg1):
        if not isinstance(t, tuple) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in t
        ):
            raise TypeError("arg0 and arg1 must be tuples of ints")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg0) != len(arg1):
        return -1 if len(arg0) < len(arg1) else 1
    if arg0 == arg1:
        return 0
    return -1 if arg0 < arg1 else 1
''',
        "train_inputs": ["((1, 2), (1, 3))", "((9,), (1, 1))", "((4, 4), (4, 4))"],
        "test_inputs": [
            "((), ())", "((), (0,))", "((5, 5, 5), (9, 9))", "((2, 1), (1, 9))", "((-1,), (-2,))",
            "((1, 2, 3), (1, 2, 4))", "((0, 0, 1), (0, 0, 0))", "((100,), (1, 0))",
            "((7, 7), (7, 7, 7))", "([1], [1])", "((1.0,), (1,))", "((1,), ('1',))",
        ],
    },
    {
        "id": "grid_wrapped_lookup",
        "tags": ["easy", "grids"],
        "description": (
            "Returns the cell of a rectangular grid at a (row, col) position taken modulo the "
            "grid's height and width, so indices wrap around in both directions (row -1 is the "
            "last row, row == height is row 0). A grid without cells or with ragged rows raises "
            "ValueError; a position that is not a pair of ints raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: tuple) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(row, list) for row in arg0)
        or not isinstance(arg1, tuple)
        or len(arg1) != 2
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in arg1)
    ):
        raise TypeError("arg0 must be a list of lists and arg1 a (row, col) tuple of ints")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg0 or not arg0[0]:
        raise ValueError("the grid has no cells")
    row, col = arg1
    return arg0[row % len(arg0)][col % len(arg0[0])]
''',
        "train_inputs": [
            "([[1, 2], [3, 4]], (0, 1))", "([[1, 2], [3, 4]], (2, 2))",
            "([[1, 2], [3, 4]], (-1, 0))",
        ],
        "test_inputs": [
            "([], (0, 0))", "([[], []], (0, 0))", "([[5]], (100, -100))", "([[1, 2, 3]], (7, 4))",
            "([['a'], ['b'], ['c']], (-4, 9))", "([[1, 2], [3, 4], [5, 6]], (5, -3))",
            "([[0, 1, 2], [3, 4, 5]], (1, 2))", "([[None, True]], (0, -1))",
            "([[1, 2], [3]], (0, 0))", "([[1]], (0,))", "([[1]], [0, 0])", "([[1]], (0, 0.0))",
        ],
    },
    {
        "id": "grid_rect_sum_clamped",
        "tags": ["medium", "grids"],
        "description": (
            "Sums the cells of a rectangular int grid inside the inclusive rectangle given by two "
            "corners (r1, c1, r2, c2), in any order; the rectangle is clipped to the grid, so "
            "parts outside are ignored and a rectangle entirely outside, or an empty grid, gives "
            "0. Ragged rows raise ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: tuple) -> None:
    if (
        not isinstance(arg0, list)
        or not all(
            isinstance(row, list)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
            for row in arg0
        )
        or not isinstance(arg1, tuple)
        or len(arg1) != 4
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in arg1)
    ):
        raise TypeError("arg0 must be a list of lists of ints and arg1 a 4-tuple of ints")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg0:
        return 0
    r1, c1, r2, c2 = arg1
    top, bottom = max(min(r1, r2), 0), min(max(r1, r2), len(arg0) - 1)
    left, right = max(min(c1, c2), 0), min(max(c1, c2), len(arg0[0]) - 1)
    total = 0
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            total += arg0[r][c]
    return total
''',
        "train_inputs": [
            "([[1, 2, 3], [4, 5, 6], [7, 8, 9]], (0, 0, 1, 1))",
            "([[1, 2, 3], [4, 5, 6], [7, 8, 9]], (2, 2, 1, 1))", "([[1, 2], [3, 4]], (0, 0, 5, 5))",
        ],
        "test_inputs": [
            "([], (0, 0, 1, 1))", "([[], []], (0, 0, 1, 1))", "([[1, 2], [3, 4]], (5, 5, 9, 9))",
            "([[1, 2], [3, 4]], (-3, -3, -1, -1))", "([[1, 2], [3, 4]], (-1, -1, 0, 0))",
            "([[1, 2, 3], [4, 5, 6]], (1, 0, 1, 2))", "([[1, 2, 3], [4, 5, 6]], (0, 2, 1, 2))",
            "([[10]], (0, 0, 0, 0))", "([[-1, -1], [-1, -1]], (1, 0, 0, 1))",
            "([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], (2, 3, 1, 1))",
            "([[1, 2], [3]], (0, 0, 0, 0))", "([[1]], (0, 0, 0))", "([[1.5]], (0, 0, 0, 0))",
        ],
    },
    {
        "id": "grid_count_clustered",
        "tags": ["hard", "grids"],
        "description": (
            "Counts the cells of a grid of ints (rows may differ in length) that equal the target "
            "value and have at least one up, down, left or right neighbour that also equals it; "
            "isolated matches and diagonal contacts do not count. Non-int cells or target raise "
            "TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int) -> None:
    if (
        not isinstance(arg0, list)
        or not all(
            isinstance(row, list)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
            for row in arg0
        )
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a list of lists of ints and arg1 an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    count = 0
    for r, row in enumerate(arg0):
        for c, value in enumerate(row):
            if value != arg1:
                continue
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < len(arg0) and 0 <= cc < len(arg0[rr]) and arg0[rr][cc] == arg1:
                    count += 1
                    break
    return count
''',
        "train_inputs": [
            "([[1, 1, 0], [0, 0, 1]], 1)", "([[1, 0, 1], [0, 1, 0]], 1)", "([[2, 2], [2, 2]], 2)",
        ],
        "test_inputs": [
            "([], 1)", "([[1]], 1)", "([[1, 1]], 0)", "([[0, 1], [1, 0]], 0)",
            "([[5], [5], [3]], 5)", "([[1, 2, 3], [4, 5]], 3)", "([[1, 1], [1]], 1)",
            "([[7, 7, 7], [7, 0, 7], [7, 7, 7]], 7)", "([[3, 0, 3], [0, 3, 0], [3, 0, 3]], 3)",
            "([[9, 9, 1, 9]], 9)", "([[1, 1]], True)", "([[1, 1.0]], 1)", "([(1, 1)], 1)",
        ],
    },
    {
        "id": "grid_staircase_rotate",
        "tags": ["hard", "grids"],
        "description": (
            "Rotates each row of a grid (list of lists) to the right by row_index * k positions, "
            "so row 0 never moves, row 1 moves by k, row 2 by 2k, and so on, wrapping around the "
            "row's own length; a negative k rotates to the left and empty rows stay empty. A k "
            "that is not an int raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(row, list) for row in arg0)
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a list of lists and arg1 an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    out = []
    for index, row in enumerate(arg0):
        shift = (index * arg1) % len(row) if row else 0
        if shift == 0:
            out.append(list(row))
        else:
            out.append(row[-shift:] + row[:-shift])
    return out
''',
        "train_inputs": [
            "([[1, 2, 3], [1, 2, 3], [1, 2, 3]], 1)", "([[1, 2], [3, 4]], 0)",
            "([['a', 'b', 'c', 'd']], 3)",
        ],
        "test_inputs": [
            "([], 2)", "([[], [], []], 1)", "([[1, 2, 3], [4, 5, 6]], -1)", "([[1], [2], [3]], 5)",
            "([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], 2)",
            "([[0, 1], [0, 1], [0, 1], [0, 1]], 1)", "([[1, 2, 3], [1, 2, 3], [1, 2, 3]], 3)",
            "([[9, 8], [7, 6, 5], [4, 3, 2, 1]], 1)", "([[1, 2, 3], [4, 5, 6], [7, 8, 9]], -4)",
            "([[1, 2], [3, 4]], 1.0)", "([(1, 2)], 1)", "([[1, 2], [3, 4]], True)",
        ],
    },
    {
        "id": "date_add_months_clamped",
        "tags": ["hard", "dates"],
        "description": (
            "Adds a number of calendar months (negative to go back) to a 'YYYY-MM-DD' date and "
            "returns the new 'YYYY-MM-DD' date; when the day does not exist in the target month it "
            "is clamped to that month's last day ('2024-01-31' plus 1 month is '2024-02-29'). A "
            "malformed or impossible date, or a result outside years 1 to 9999, raises ValueError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg0 must be a 'YYYY-MM-DD' str and arg1 an int")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def _month_length(year, month):
    if month == 12:
        return 31
    return (date(year, month + 1, 1) - date(year, month, 1)).days


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    day = _parse(arg0)
    year, month0 = divmod(day.year * 12 + day.month - 1 + arg1, 12)
    if not 1 <= year <= 9999:
        raise ValueError("the result is outside years 1..9999")
    month = month0 + 1
    return date(year, month, min(day.day, _month_length(year, month))).isoformat()
''',
        "train_inputs": ["('2024-01-15', 1)", "('2024-01-31', 1)", "('2024-03-31', -1)"],
        "test_inputs": [
            "('2023-01-31', 1)", "('2024-05-20', 0)", "('2024-11-30', 1)", "('2024-12-31', 12)",
            "('2024-02-29', 12)", "('2024-02-29', 48)", "('2024-08-31', -6)", "('2020-10-31', 14)",
            "('2024-01-10', -13)", "('9999-12-01', 1)", "('0001-01-01', -1)", "('2023-02-29', 1)",
            "('2024-01-01', 1.5)", "('2024/01/01', 1)",
        ],
    },
    {
        "id": "weekend_days_between",
        "tags": ["medium", "dates"],
        "description": (
            "Counts the Saturdays and Sundays in the inclusive range between two 'YYYY-MM-DD' "
            "dates, given in either order (both end dates count when they fall on a weekend). "
            "Malformed or impossible dates raise ValueError; non-str arguments raise TypeError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be 'YYYY-MM-DD' strings")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    start, end = _parse(arg0), _parse(arg1)
    if start > end:
        start, end = end, start
    weeks, rest = divmod((end - start).days + 1, 7)
    count = weeks * 2
    for offset in range(rest):
        if (start.weekday() + offset) % 7 >= 5:
            count += 1
    return count
''',
        "train_inputs": [
            "('2024-05-13', '2024-05-19')", "('2024-05-18', '2024-05-18')",
            "('2024-05-13', '2024-05-17')",
        ],
        "test_inputs": [
            "('2024-05-19', '2024-05-13')", "('2024-05-17', '2024-05-20')",
            "('2024-05-19', '2024-05-19')", "('2024-05-14', '2024-05-14')",
            "('2024-01-01', '2024-12-31')", "('2023-01-01', '2023-12-31')",
            "('2024-05-11', '2024-05-25')", "('2000-01-01', '2099-12-31')",
            "('2024-02-26', '2024-03-03')", "('2024-02-30', '2024-03-01')",
            "('2024-05-13', 'tomorrow')", "('2024-05-13', None)",
        ],
    },
    {
        "id": "age_in_full_years",
        "tags": ["hard", "dates"],
        "description": (
            "Returns the number of whole years from a birth date to a reference date, both "
            "'YYYY-MM-DD': the year difference, minus one when the reference month-day comes "
            "before the birth month-day, so a 29 February birthday is only reached on 1 March in "
            "non-leap years. A reference date before the birth date, or a malformed date, raises "
            "ValueError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be 'YYYY-MM-DD' strings")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    birth, ref = _parse(arg0), _parse(arg1)
    if ref < birth:
        raise ValueError("the reference date is before the birth date")
    years = ref.year - birth.year
    if (ref.month, ref.day) < (birth.month, birth.day):
        years -= 1
    return years
''',
        "train_inputs": [
            "('1990-06-15', '2024-06-15')", "('1990-06-15', '2024-06-14')",
            "('2000-01-01', '2000-12-31')",
        ],
        "test_inputs": [
            "('2000-02-29', '2023-02-28')", "('2000-02-29', '2023-03-01')",
            "('2000-02-29', '2024-02-29')", "('2024-05-05', '2024-05-05')",
            "('1999-12-31', '2000-01-01')", "('1985-03-10', '2025-03-11')",
            "('2010-07-20', '2011-07-19')", "('1950-01-01', '2024-12-31')",
            "('2024-05-05', '2024-05-04')", "('1990-13-01', '2024-01-01')",
            "('1990-01-01', 20240101)", "('1990-1-1', '2024-01-01')",
        ],
    },
    {
        "id": "bytes_xor_repeating_key",
        "tags": ["easy", "bytes"],
        "description": (
            "XORs each byte of the data with the key bytes repeated cyclically (byte i with key "
            "byte i modulo the key length) and returns the result as bytes of the same length. An "
            "empty key raises ValueError; non-bytes arguments raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: bytes, arg1: bytes) -> None:
    if not isinstance(arg0, bytes) or not isinstance(arg1, bytes):
        raise TypeError("arg0 and arg1 must be bytes")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg1:
        raise ValueError("the key must not be empty")
    return bytes(b ^ arg1[i % len(arg1)] for i, b in enumerate(arg0))
''',
        "train_inputs": [
            "(b'abc', b'\\x01')", "(b'\\x00\\x00\\x00\\x00', b'\\x01\\x02')", "(b'hi', b'hi')",
        ],
        "test_inputs": [
            "(b'', b'k')", "(b'data', b'')", "(b'\\xff\\x00', b'\\xff')", "(b'ABCDEF', b'\\x20')",
            "(b'\\x10\\x20\\x30', b'\\x01\\x02\\x03\\x04\\x05')", "(b'same', b'same')",
            "(b'\\x0f\\xf0', b'\\xf0\\x0f')", "(b'key!', b'\\x00')",
            "(b'\\x01\\x02\\x03', b'\\x03\\x02')", "('abc', b'k')", "(b'abc', 'k')", "(b'abc', 1)",
        ],
    },
    {
        "id": "bytes_find_nonoverlapping",
        "tags": ["medium", "bytes"],
        "description": (
            "Returns the list of start indices of the non-overlapping occurrences of the needle "
            "bytes in the haystack bytes, scanning left to right and resuming the search just "
            "after each match (so b'aaaa' holds b'aa' at 0 and 2 only). An empty needle gives []."
        ),
        "code": '''
def validate_input_args(arg0: bytes, arg1: bytes) -> None:
    if not isinstance(arg0, bytes) or not isinstance(arg1, bytes):
        raise TypeError("arg0 and arg1 must be bytes")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg1:
        return []
    found = []
    index = arg0.find(arg1)
    while index != -1:
        found.append(index)
        index = arg0.find(arg1, index + len(arg1))
    return found
''',
        "train_inputs": ["(b'abcabc', b'bc')", "(b'aaaa', b'aa')", "(b'hello', b'z')"],
        "test_inputs": [
            "(b'', b'a')", "(b'abc', b'')", "(b'', b'')", "(b'aaa', b'aa')", "(b'ababab', b'aba')",
            "(b'\\x00\\x01\\x00\\x01', b'\\x00')", "(b'short', b'longer needle')",
            "(b'xyz', b'xyz')", "(b'a-b-c-d', b'-')", "(b'AbAB', b'ab')", "('abc', b'a')",
            "(b'abc', 97)",
        ],
    },
    {
        "id": "bytes_chunk_sums",
        "tags": ["easy", "bytes"],
        "description": (
            "Splits the bytes into consecutive chunks of n bytes (the last chunk may be shorter) "
            "and returns the list of the sums of the byte values of each chunk. Empty bytes give "
            "[]; n below 1 raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: bytes, arg1: int) -> None:
    if not isinstance(arg0, bytes) or not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg0 must be bytes and arg1 an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("the chunk size must be at least 1")
    return [sum(arg0[i : i + arg1]) for i in range(0, len(arg0), arg1)]
''',
        "train_inputs": ["(b'\\x01\\x02\\x03\\x04', 2)", "(b'\\x01\\x02\\x03', 2)", "(b'ab', 1)"],
        "test_inputs": [
            "(b'', 3)", "(b'abc', 0)", "(b'abc', -2)", "(b'\\xff\\xff\\xff', 10)",
            "(b'\\x00\\x00', 1)", "(b'\\x01\\x01\\x01\\x01\\x01\\x01\\x01', 3)",
            "(b'hello world', 4)", "(b'\\x0a\\x14\\x1e', 3)", "(b'xyz', 1)", "(b'abc', 1.0)",
            "('abc', 1)", "(b'abc', True)",
        ],
    },
    {
        "id": "words_with_all_letters",
        "tags": ["medium", "strings"],
        "description": (
            "Returns, in their original order, the strings of the list that contain every letter "
            "of the second argument, ignoring case; non-letter characters of the second argument "
            "are ignored, repeats are not counted, and if it has no letters every string is kept."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: str) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(s, str) for s in arg0)
        or not isinstance(arg1, str)
    ):
        raise TypeError("arg0 must be a list of str and arg1 a str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    needed = {ch for ch in arg1.lower() if ch.isalpha()}
    return [word for word in arg0 if needed <= set(word.lower())]
''',
        "train_inputs": [
            "(['apple', 'grape', 'plum'], 'pa')", "(['Cat', 'act', 'dog'], 'TAC')",
            "(['one', 'two'], 'z')",
        ],
        "test_inputs": [
            "([], 'a')", "(['x', 'y'], '')", "(['x', 'y'], '123 !')", "(['aab', 'ab', 'b'], 'aa')",
            "(['a1', 'b2'], '1a')", "(['Hello World', 'hello'], 'dw')",
            "(['abc', 'ABC', 'aBc'], 'cba')", "(['', 'a'], 'a')",
            "(['listen', 'silent', 'enlist', 'tinsel'], 'lent')", "(['x'], 'xy')", "('abc', 'a')",
            "(['abc'], ['a'])",
        ],
    },
    {
        "id": "words_by_letter_score",
        "tags": ["hard", "strings", "dicts"],
        "description": (
            "Scores each word as the sum, over the characters of the lowercased word, of the value "
            "the table (a dict from single characters to ints) gives that character, 0 when "
            "absent, and returns the words sorted by score from highest to lowest, equal scores in "
            "ascending string order; duplicates are kept."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: dict) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(s, str) for s in arg0)
        or not isinstance(arg1, dict)
        or not all(
            isinstance(k, str) and len(k) == 1 and isinstance(v, int) and not isinstance(v, bool)
            for k, v in arg1.items()
        )
    ):
        raise TypeError("arg0 must be a list of str and arg1 a dict of 1-char str to int")


def _score(word, table):
    return sum(table.get(ch, 0) for ch in word.lower())


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return sorted(arg0, key=lambda word: (-_score(word, arg1), word))
''',
        "train_inputs": [
            "(['cab', 'bad', 'ace'], {'a': 1, 'b': 3, 'c': 3, 'd': 2, 'e': 1})",
            "(['zz', 'a'], {'z': 10})", "(['b', 'a'], {})",
        ],
        "test_inputs": [
            "([], {'a': 1})", "(['Ab', 'ab', 'AB'], {'a': 1, 'b': 1})", "(['x', 'y'], {'X': 5})",
            "(['aaa', 'b'], {'a': 1, 'b': 3})", "(['neg', 'pos'], {'n': -5, 'p': 2})",
            "(['a b', 'ab'], {' ': 4})", "(['dup', 'dup', 'up'], {'d': 1})",
            "(['hello', 'world', 'python'], {'o': 2, 'l': 1, 'h': 3})", "([''], {'a': 1})",
            "(['a'], {'ab': 1})", "(['a'], {'a': 1.5})", "('abc', {})",
        ],
    },
    {
        "id": "interleave_drop_repeats",
        "tags": ["medium", "strings"],
        "description": (
            "Interleaves two lists of strings (first[0], second[0], first[1], second[1], ...), "
            "appending the rest of the longer list at the end, and then drops every item equal to "
            "the item kept just before it, so no two consecutive results are equal."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: list) -> None:
    for lst in (arg0, arg1):
        if not isinstance(lst, list) or not all(isinstance(s, str) for s in lst):
            raise TypeError("arg0 and arg1 must be lists of str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    merged = []
    for i in range(max(len(arg0), len(arg1))):
        for source in (arg0, arg1):
            if i < len(source):
                merged.append(source[i])
    out = []
    for item in merged:
        if not out or out[-1] != item:
            out.append(item)
    return out
''',
        "train_inputs": [
            "(['a', 'b', 'c'], ['x', 'y'])", "(['a', 'b'], ['a', 'b'])", "([], ['q', 'q'])",
        ],
        "test_inputs": [
            "([], [])", "(['only'], [])", "(['x', 'x', 'x'], [])", "(['a'], ['b', 'c', 'd'])",
            "(['a', 'a'], ['a', 'a'])", "(['1', '2', '3'], ['1', '2', '3'])", "(['A'], ['a'])",
            "(['p', 'q'], ['q', 'p'])", "(['', ''], [''])",
            "(['hi', 'yo'], ['hi', 'yo', 'yo', 'hi'])", "(['a'], 'b')", "(['a'], [1])",
        ],
    },
    {
        "id": "coerce_items",
        "tags": ["medium", "mixed"],
        "description": (
            "Converts every element of a list with Python's int() when the target is 'int' (an "
            "element int() rejects becomes None; floats are truncated, numeric strs may carry "
            "surrounding spaces) or with str() when the target is 'str'. Any other target raises "
            "ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: str) -> None:
    if not isinstance(arg0, list) or not isinstance(arg1, str):
        raise TypeError("arg0 must be a list and arg1 a str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 not in ("int", "str"):
        raise ValueError(f"target must be 'int' or 'str', got {arg1!r}")
    out = []
    for item in arg0:
        if arg1 == "str":
            out.append(str(item))
            continue
        try:
            out.append(int(item))
        except (TypeError, ValueError):
            out.append(None)
    return out
''',
        "train_inputs": [
            "([1, '2', 3.9, 'x'], 'int')", "([1, None, 'a'], 'str')", "(['  7 ', '-3'], 'int')",
        ],
        "test_inputs": [
            "([], 'int')", "([], 'float')", "([1], 'INT')", "([True, False], 'int')",
            "(['1.5', '1e3'], 'int')", "([-2.7, 2.7], 'int')", "([None, [1], (2,)], 'int')",
            "([b'12', '0x1F'], 'int')", "([True, 2.5, (1, 2)], 'str')",
            "([[1, 'a'], {'k': None}], 'str')", "(['', ' '], 'int')", "(['1_000', '007'], 'int')",
            "((1, 2), 'int')", "([1], None)",
        ],
    },
    {
        "id": "nested_count_exact_type",
        "tags": ["hard", "nested", "mixed"],
        "description": (
            "Counts the items equal to a scalar target (int, float, str, bool or None) anywhere in "
            "a nested list or tuple, descending into inner lists and tuples; an item matches only "
            "if it also has exactly the target's type, so True does not match 1 and 1.0 does not "
            "match 1. A container target or a non-list, non-tuple first argument raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1) -> None:
    if not isinstance(arg0, (list, tuple)) or not isinstance(
        arg1, (int, float, str, bool, type(None))
    ):
        raise TypeError("arg0 must be a list or tuple and arg1 a scalar")


def _count(node, target):
    total = 0
    for item in node:
        if isinstance(item, (list, tuple)):
            total += _count(item, target)
        elif type(item) is type(target) and item == target:
            total += 1
    return total


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return _count(arg0, arg1)
''',
        "train_inputs": [
            "([1, [1, 2], (1,)], 1)", "([1, True, 1.0], 1)", "(['a', ['b', ['a']]], 'a')",
        ],
        "test_inputs": [
            "([], 1)", "([[], ()], None)", "([1, True, 1.0], True)", "([1, True, 1.0], 1.0)",
            "([None, [None, [None]]], None)", "([0, False, 0.0, '0'], 0)",
            "(([1], ([1], [[1]])), 1)", "([{'a': 1}, {1}], 1)", "([[1, 2], [1, 2]], 2)",
            "(['ab', 'a', 'b'], 'ab')", "([1, 2], [1])", "('aaa', 'a')", "([1], (1,))",
        ],
    },
    {
        "id": "tree_path_to_value",
        "tags": ["hard", "trees", "nested"],
        "description": (
            "Searches a binary tree written as nested tuples (value, left, right), None for a "
            "missing child, in pre-order (node, then left subtree, then right subtree) for the "
            "first node whose value equals the target and returns the path to it as a str of 'L' "
            "and 'R' steps from the root ('' for the root itself), or None if no node matches."
        ),
        "code": '''
def validate_input_args(arg0: tuple, arg1: int) -> None:
    if not _is_tree(arg0) or not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg0 must be a (int, left, right) tuple tree or None and arg1 an int")


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


def _find(node, target, path):
    if node is None:
        return None
    if node[0] == target:
        return path
    left = _find(node[1], target, path + "L")
    if left is not None:
        return left
    return _find(node[2], target, path + "R")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return _find(arg0, arg1, "")
''',
        "train_inputs": [
            "((1, (2, None, None), (3, None, None)), 3)",
            "((1, (2, None, None), (3, None, None)), 1)",
            "((1, (2, None, None), (3, None, None)), 9)",
        ],
        "test_inputs": [
            "(None, 1)", "((5, None, None), 5)", "((5, None, None), 6)",
            "((1, (2, (4, None, None), (5, None, None)), (3, None, (6, None, None))), 6)",
            "((1, (2, (4, None, None), (5, None, None)), (3, None, (6, None, None))), 5)",
            "((7, (7, None, None), None), 7)",
            "((0, (1, None, (9, None, None)), (9, None, None)), 9)",
            "((1, None, (2, None, (3, None, (4, None, None)))), 4)",
            "((1, (-1, None, None), None), -1)", "((1, 2, 3), 1)", "((1, None, None), '1')",
            "([1, None, None], 1)",
        ],
    },
    {
        "id": "tree_sum_at_depth",
        "tags": ["easy", "trees", "nested"],
        "description": (
            "Returns the sum of the node values at the given depth of a binary tree written as "
            "nested tuples (value, left, right), None for a missing child, the root being depth 0; "
            "a depth deeper than the tree, or the empty tree None, gives 0. A negative depth "
            "raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: tuple, arg1: int) -> None:
    if not _is_tree(arg0) or not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg0 must be a (int, left, right) tuple tree or None and arg1 an int")


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


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 0:
        raise ValueError("depth must be at least 0")
    level = [] if arg0 is None else [arg0]
    for _ in range(arg1):
        if not level:
            break
        level = [child for node in level for child in node[1:] if child is not None]
    return sum(node[0] for node in level)
''',
        "train_inputs": [
            "((1, (2, None, None), (3, None, None)), 1)",
            "((1, (2, None, None), (3, None, None)), 0)",
            "((1, (2, (4, None, None), None), (3, None, (5, None, None))), 2)",
        ],
        "test_inputs": [
            "(None, 0)", "(None, 3)", "((5, None, None), 1)", "((5, None, None), -1)",
            "((1, (2, None, None), (3, None, None)), 1000000000)",
            "((10, (-3, (1, None, None), (1, None, None)), (3, None, (1, None, None))), 2)",
            "((0, (0, (0, (8, None, None), None), None), None), 3)",
            "((1, None, (2, None, None)), 1)",
            "((4, (2, (1, None, None), (3, None, None)), (6, (5, None, None), (7, None, None))), 2)",
            "((1, None, None), 1.0)", "((1, 2, 3), 0)", "([1, None, None], 0)",
        ],
    },
    {
        "id": "dict_lists_keys_containing",
        "tags": ["easy", "dicts"],
        "description": (
            "Takes a dict mapping str keys to lists and a value, and returns the alphabetically "
            "sorted list of keys whose list contains that value (compared with ==, so 1, 1.0 and "
            "True are equal). A non-str key or a non-list value raises TypeError."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1) -> None:
    if not isinstance(arg0, dict) or not all(
        isinstance(k, str) and isinstance(v, list) for k, v in arg0.items()
    ):
        raise TypeError("arg0 must be a dict of str keys to lists")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return sorted(key for key, values in arg0.items() if arg1 in values)
''',
        "train_inputs": [
            "({'a': [1, 2], 'b': [2, 3], 'c': [4]}, 2)", "({'x': ['red'], 'y': []}, 'red')",
            "({'k': [1]}, 5)",
        ],
        "test_inputs": [
            "({}, 1)", "({'z': [0], 'a': [0]}, 0)", "({'a': [1.0], 'b': [True], 'c': ['1']}, 1)",
            "({'n': [None], 'm': [[None]]}, None)", "({'p': [[1, 2]], 'q': [1, 2]}, [1, 2])",
            "({'B': ['x'], 'a': ['x'], 'C': ['y']}, 'x')", "({'s': ['abc']}, 'a')",
            "({'e': []}, [])", "({'t': [(1, 2)]}, (1, 2))", "({'a': (1, 2)}, 1)", "({1: [1]}, 1)",
            "([['a', [1]]], 1)",
        ],
    },
    {
        "id": "dict_top_n_keys",
        "tags": ["easy", "dicts"],
        "description": (
            "Returns the keys of the n largest values of a dict (str keys, number values), largest "
            "first, equal values ordered by ascending key; n larger than the dict returns every "
            "key and n == 0 returns []. A negative n raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1: int) -> None:
    if (
        not isinstance(arg0, dict)
        or not all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
            for k, v in arg0.items()
        )
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a dict of str keys to numbers and arg1 an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 0:
        raise ValueError("n must not be negative")
    return sorted(arg0, key=lambda key: (-arg0[key], key))[:arg1]
''',
        "train_inputs": ["({'a': 5, 'b': 9, 'c': 7}, 2)", "({'x': 1, 'y': 1}, 1)", "({'p': 3}, 5)"],
        "test_inputs": [
            "({}, 3)", "({'a': 1}, 0)", "({'a': 1}, -1)", "({'z': 2, 'y': 2, 'x': 2}, 2)",
            "({'a': -1, 'b': -5, 'c': 0}, 3)", "({'m': 1.5, 'n': 2, 'o': 1.75}, 2)",
            "({'one': 1, 'two': 2, 'three': 3, 'four': 4, 'five': 5}, 4)", "({'B': 1, 'a': 1}, 1)",
            "({'k': 10, 'j': 20}, 100)", "({'a': 1}, 1.0)", "({'a': True}, 1)", "([('a', 1)], 1)",
        ],
    },
    {
        "id": "greedy_cover_indices",
        "tags": ["hard", "sets"],
        "description": (
            "Covers a universe (a set or list of ints) greedily with the candidate collections of "
            "the second argument (a list of sets or lists of ints): repeatedly picks the candidate "
            "covering the most still-uncovered members, the lowest index on ties, and returns the "
            "picked indices in picking order. An empty universe gives []; if the candidates cannot "
            "cover it, ValueError is raised."
        ),
        "code": '''
def validate_input_args(arg0: set, arg1: list) -> None:
    def ints(s):
        return isinstance(s, (set, list)) and all(
            isinstance(x, int) and not isinstance(x, bool) for x in s
        )

    if not ints(arg0) or not isinstance(arg1, list) or not all(ints(s) for s in arg1):
        raise TypeError("arg0 must be a set of ints and arg1 a list of sets of ints")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    remaining = set(arg0)
    candidates = [set(c) for c in arg1]
    chosen = []
    while remaining:
        best, gain = None, 0
        for index, cand in enumerate(candidates):
            covered = len(cand & remaining)
            if covered > gain:
                best, gain = index, covered
        if best is None:
            raise ValueError("the candidates cannot cover the universe")
        chosen.append(best)
        remaining -= candidates[best]
    return chosen
''',
        "train_inputs": [
            "({1, 2, 3, 4, 5}, [{1, 2, 3}, {4, 5}, {3, 4}])", "({1, 2}, [{1}, {2}, {1, 2}])",
            "({1, 2, 3}, [{1}, {2}])",
        ],
        "test_inputs": [
            "([], [])", "([], [{1}])", "({1}, [])", "({1, 2, 3, 4}, [{1, 2}, {3, 4}, {1, 2, 3}])",
            "({1, 2, 3, 4, 5, 6}, [{1, 2, 3}, {4, 5, 6}, {1, 4}, {2, 5}, {3, 6}])",
            "({7}, [{1}, {7}, {7, 8}])", "({1, 2, 3}, [[1, 1, 2], [3, 3]])",
            "({1, 2}, [{3, 4}, {1, 2, 3}])", "({1, 2, 3, 4, 5}, [{1}, {2}, {3}, {4}, {5}])",
            "({1, 2}, [{2}, {1}, {1}])", "({1}, [{1.0}])", "({1}, ({1},))", "('12', [{1}])",
        ],
    },
    {
        "id": "zip_keys_collect_repeats",
        "tags": ["medium", "tuples", "dicts"],
        "description": (
            "Pairs a list or tuple of str keys with an equally long list or tuple of values into a "
            "dict in first-appearance order: a key seen once maps to its value, a repeated key "
            "maps to the list of all its values in order. Sequences of different lengths raise "
            "ValueError."
        ),
        "code": '''
def validate_input_args(arg0: tuple, arg1: tuple) -> None:
    if (
        not isinstance(arg0, (list, tuple))
        or not all(isinstance(k, str) for k in arg0)
        or not isinstance(arg1, (list, tuple))
    ):
        raise TypeError("arg0 must be a sequence of str keys and arg1 a sequence of values")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg0) != len(arg1):
        raise ValueError(f"{len(arg0)} keys but {len(arg1)} values")
    groups = {}
    for key, value in zip(arg0, arg1):
        groups.setdefault(key, []).append(value)
    return {key: values[0] if len(values) == 1 else values for key, values in groups.items()}
''',
        "train_inputs": [
            "(('a', 'b', 'a'), (1, 2, 3))", "(['x'], [None])", "(('k', 'v'), ('K', 'V'))",
        ],
        "test_inputs": [
            "((), ())", "(('a',), ())", "(['a', 'b'], [1])", "(('a', 'a', 'a'), (1, 1, 1))",
            "(('a', 'b'), ([1], [2, 3]))", "(('a', 'a'), ([1], [2]))",
            "(('z', 'y', 'z', 'x'), (1, 2, 3, 4))", "(['', ''], ['', ''])", "(('A', 'a'), (1, 2))",
            "(('a', 1), (1, 2))", "('ab', (1, 2))", "(('a',), 1)",
        ],
    },
    {
        "id": "grid_walk_sum",
        "tags": ["medium", "grids"],
        "description": (
            "Walks a rectangular int grid from the top-left cell following a str of moves 'U', "
            "'D', 'L', 'R' and returns the sum of the starting cell plus the cell entered at each "
            "move, revisits counted again; a move that would leave the grid is skipped and adds "
            "nothing. A grid without cells or any other move character raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: str) -> None:
    if (
        not isinstance(arg0, list)
        or not all(
            isinstance(row, list)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
            for row in arg0
        )
        or not isinstance(arg1, str)
    ):
        raise TypeError("arg0 must be a list of lists of ints and arg1 a str")
    if len({len(row) for row in arg0}) > 1:
        raise ValueError("all rows must have the same length")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg0 or not arg0[0]:
        raise ValueError("the grid has no cells")
    steps = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    row = col = 0
    total = arg0[0][0]
    for move in arg1:
        if move not in steps:
            raise ValueError(f"unknown move {move!r}")
        new_row, new_col = row + steps[move][0], col + steps[move][1]
        if 0 <= new_row < len(arg0) and 0 <= new_col < len(arg0[0]):
            row, col = new_row, new_col
            total += arg0[row][col]
    return total
''',
        "train_inputs": [
            "([[1, 2], [3, 4]], 'RD')", "([[1, 2], [3, 4]], '')", "([[1, 2], [3, 4]], 'UL')",
        ],
        "test_inputs": [
            "([], 'R')", "([[]], '')", "([[5]], 'UDLR')", "([[1, 2, 3]], 'RRRR')",
            "([[1, 2], [3, 4]], 'RLRL')", "([[1, 2], [3, 4]], 'rd')", "([[1, 2], [3, 4]], 'R D')",
            "([[0, 0, 0], [0, 9, 0], [0, 0, 0]], 'DRUD')", "([[1], [10], [100]], 'DDDUU')",
            "([[-1, -2], [-3, -4]], 'DRUL')", "([[1, 2], [3]], 'R')", "([[1]], ['R'])",
            "([[1, 2.0]], 'R')",
        ],
    },
    {
        "id": "checkerboard_max_min",
        "tags": ["hard", "grids"],
        "description": (
            "Combines two grids of numbers of identical shape cell by cell: where row + column is "
            "even the result holds the larger of the two values, where it is odd the smaller. "
            "Grids whose row counts or row lengths differ raise ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: list) -> None:
    for grid in (arg0, arg1):
        if not isinstance(grid, list) or not all(
            isinstance(row, list)
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
            for row in grid
        ):
            raise TypeError("arg0 and arg1 must be lists of lists of numbers")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if [len(row) for row in arg0] != [len(row) for row in arg1]:
        raise ValueError("the grids must have the same shape")
    out = []
    for r, (row_a, row_b) in enumerate(zip(arg0, arg1)):
        new_row = []
        for c, (a, b) in enumerate(zip(row_a, row_b)):
            if (r + c) % 2 == 0:
                new_row.append(max(a, b))
            else:
                new_row.append(min(a, b))
        out.append(new_row)
    return out
''',
        "train_inputs": [
            "([[1, 9], [9, 1]], [[5, 5], [5, 5]])", "([[0, 0, 0]], [[1, 1, 1]])", "([[3]], [[7]])",
        ],
        "test_inputs": [
            "([], [])", "([[]], [[]])", "([[1, 2]], [[1]])", "([[1]], [[1], [2]])",
            "([[1], [2]], [[3], [0]])", "([[1.5, 2], [3, 4]], [[2, 1.5], [4, 3]])",
            "([[-1, -2, -3], [-4, -5, -6]], [[0, 0, 0], [0, 0, 0]])",
            "([[5, 5], [5, 5]], [[5, 5], [5, 5]])", "([[1, 2], [3]], [[2, 1], [0]])",
            "([[9, 8, 7, 6]], [[6, 7, 8, 9]])", "([[1]], [['a']])", "([[1]], [(1,)])",
        ],
    },
    {
        "id": "words_shift_by_position",
        "tags": ["hard", "strings"],
        "description": (
            "Caesar-shifts each word of the list through the alphabet by k plus the word's index "
            "(the first word by k, the second by k + 1, ...), wrapping from 'z' to 'a' and keeping "
            "case; characters other than ASCII letters are unchanged. A negative total shift moves "
            "letters backwards."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(s, str) for s in arg0)
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a list of str and arg1 an int")


def _shift(word, k):
    out = []
    for ch in word:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + k) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return [_shift(word, arg1 + index) for index, word in enumerate(arg0)]
''',
        "train_inputs": ["(['abc', 'abc', 'abc'], 1)", "(['Hello'], 0)", "(['xyz', 'zz'], 2)"],
        "test_inputs": [
            "([], 5)", "(['a', 'a', 'a', 'a'], -2)", "(['Zebra!', 'Yak?'], 1)",
            "(['123', 'a-b'], 3)", "(['same', 'same'], 25)", "(['ABC', 'abc'], 26)",
            "(['é', 'z'], 0)", "(['', 'a'], 0)", "(['Mixed Case', 'WORDS here'], -27)",
            "(['q'], 1000)", "(['a'], 1.0)", "('abc', 1)",
        ],
    },
    {
        "id": "dates_on_weekday",
        "tags": ["easy", "dates"],
        "description": (
            "Returns, in their original order, the 'YYYY-MM-DD' strings of the list that fall on "
            "the given weekday number (0 Monday to 6 Sunday). A weekday outside 0..6, a malformed "
            "date or an impossible date raises ValueError."
        ),
        "code": '''
import re
from datetime import date


def validate_input_args(arg0: list, arg1: int) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(s, str) for s in arg0)
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a list of 'YYYY-MM-DD' strings and arg1 an int")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not 0 <= arg1 <= 6:
        raise ValueError("weekday must be between 0 (Monday) and 6 (Sunday)")
    return [text for text in arg0 if _parse(text).weekday() == arg1]
''',
        "train_inputs": [
            "(['2024-05-13', '2024-05-14', '2024-05-20'], 0)", "(['2024-05-18', '2024-05-19'], 6)",
            "(['2024-05-15'], 4)",
        ],
        "test_inputs": [
            "([], 3)", "(['2024-05-13'], 7)", "(['2024-05-13'], -1)",
            "(['2024-02-29', '2023-03-01'], 3)", "(['2000-01-01', '2000-01-08', '2000-01-09'], 5)",
            "(['2024-12-25', '2025-12-25'], 2)", "(['2024-05-17', '2024-05-10', '2024-05-03'], 4)",
            "(['2023-02-29'], 0)", "(['2024-5-13'], 0)", "(['1970-01-01'], 3)",
            "(['2024-05-13'], 0.0)", "('2024-05-13', 0)",
        ],
    },
    {
        "id": "pkcs7_pad",
        "tags": ["medium", "bytes"],
        "description": (
            "Pads bytes to a multiple of the block size PKCS#7-style: appends n copies of the byte "
            "value n, where n is the block size minus the length modulo the block size, so data "
            "already a multiple of the block size (empty bytes included) gains a full extra block. "
            "A block size outside 1..255 raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: bytes, arg1: int) -> None:
    if not isinstance(arg0, bytes) or not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg0 must be bytes and arg1 an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not 1 <= arg1 <= 255:
        raise ValueError("the block size must be between 1 and 255")
    pad = arg1 - len(arg0) % arg1
    return arg0 + bytes([pad]) * pad
''',
        "train_inputs": ["(b'abc', 4)", "(b'abcd', 4)", "(b'hello', 8)"],
        "test_inputs": [
            "(b'', 4)", "(b'', 1)", "(b'xyz', 1)", "(b'abc', 0)", "(b'abc', 256)", "(b'abc', -4)",
            "(b'0123456789', 5)", "(b'0123456789', 3)", "(b'\\x00', 2)", "(b'A', 16)",
            "(b'abc', 4.0)", "('abc', 4)",
        ],
    },
    # ------------------------------------------------------------------ arity 3
    {
        "id": "grid_paint_line",
        "tags": ["hard", "grids"],
        "description": (
            "Returns a copy of a grid (list of lists) with one line set to the given value: an "
            "index i >= 0 fills every cell of row i, a negative index -j fills column j - 1 (-1 is "
            "column 0, -2 column 1) in every row long enough to have it. A row index past the last "
            "row or a column index past the longest row raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int, arg2) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(row, list) for row in arg0)
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
    ):
        raise TypeError("arg0 must be a list of lists and arg1 an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    grid = [list(row) for row in arg0]
    if arg1 >= 0:
        if arg1 >= len(grid):
            raise ValueError(f"row {arg1} is outside the grid")
        grid[arg1] = [arg2] * len(grid[arg1])
        return grid
    col = -arg1 - 1
    if col >= max((len(row) for row in grid), default=0):
        raise ValueError(f"column {col} is outside the grid")
    for row in grid:
        if col < len(row):
            row[col] = arg2
    return grid
''',
        "train_inputs": [
            "([[1, 2, 3], [4, 5, 6]], 0, 0)", "([[1, 2, 3], [4, 5, 6]], -1, 9)",
            "([[1, 2], [3, 4]], 1, 'x')",
        ],
        "test_inputs": [
            "([], 0, 1)", "([], -1, 1)", "([[1, 2], [3, 4]], 2, 0)", "([[1, 2], [3, 4]], -3, 0)",
            "([[1, 2], [3, 4]], -2, None)", "([[1], [2, 3, 4], []], -2, 7)",
            "([[1], [2, 3, 4], []], 2, 7)", "([[1, 2, 3], [4, 5, 6], [7, 8, 9]], -3, [0])",
            "([[0, 0, 0, 0]], 0, 5)", "([[], []], 0, 1)", "([[1, 2], [3, 4]], 1.0, 0)",
            "([(1, 2)], 0, 0)", "([[1]], True, 0)",
        ],
    },
    {
        "id": "counter_apply_steps",
        "tags": ["hard", "dicts"],
        "description": (
            "Returns a new counter dict (str keys, int counts) after adding the step to the count "
            "of each key in the list, once per occurrence, a missing key starting from 0; then "
            "every key whose count is 0 or less is dropped. Surviving keys keep their original "
            "order, new keys follow in first-appearance order."
        ),
        "code": '''
def validate_input_args(arg0: dict, arg1: list, arg2: int) -> None:
    if (
        not isinstance(arg0, dict)
        or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in arg0.items()
        )
        or not isinstance(arg1, list)
        or not all(isinstance(k, str) for k in arg1)
        or not isinstance(arg2, int)
        or isinstance(arg2, bool)
    ):
        raise TypeError("arg0 must be a dict of str to int, arg1 a list of str, arg2 an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    counts = dict(arg0)
    for key in arg1:
        counts[key] = counts.get(key, 0) + arg2
    return {key: value for key, value in counts.items() if value > 0}
''',
        "train_inputs": [
            "({'a': 2, 'b': 1}, ['a', 'c'], 1)", "({'a': 2, 'b': 1}, ['b'], -1)",
            "({}, ['x', 'x', 'y'], 2)",
        ],
        "test_inputs": [
            "({}, [], 5)", "({'a': 1}, [], 0)", "({'a': 0, 'b': -3}, [], 1)",
            "({'a': 3}, ['a', 'a', 'a'], -1)", "({'a': 3}, ['a', 'a'], -1)", "({}, ['n'], -2)",
            "({'z': 1, 'y': 1}, ['x', 'y', 'w'], 3)", "({'k': 5}, ['k', 'j', 'k'], 0)",
            "({'a': 10, 'b': 10}, ['b', 'a', 'b'], -5)", "({'a': 1}, ['A'], 1)",
            "({'a': 1}, 'a', 1)", "({'a': 1.0}, ['a'], 1)", "({'a': 1}, ['a'], True)",
        ],
    },
    {
        "id": "date_range_stepped",
        "tags": ["medium", "dates"],
        "description": (
            "Lists the 'YYYY-MM-DD' dates from start to end inclusive, advancing by step days (the "
            "end date appears only if the steps land on it); a start after the end gives []. A "
            "step below 1, more than 40 resulting dates, or a malformed or impossible date raises "
            "ValueError."
        ),
        "code": '''
import re
from datetime import date, timedelta


def validate_input_args(arg0: str, arg1: str, arg2: int) -> None:
    if (
        not isinstance(arg0, str)
        or not isinstance(arg1, str)
        or not isinstance(arg2, int)
        or isinstance(arg2, bool)
    ):
        raise TypeError("arg0 and arg1 must be 'YYYY-MM-DD' strings and arg2 an int")


def _parse(text):
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", text)
    if match is None:
        raise ValueError(f"expected 'YYYY-MM-DD', got {text!r}")
    return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    start, end = _parse(arg0), _parse(arg1)
    if arg2 < 1:
        raise ValueError("step must be at least 1 day")
    if start > end:
        return []
    count = (end - start).days // arg2 + 1
    if count > 40:
        raise ValueError(f"{count} dates is more than the limit of 40")
    return [(start + timedelta(days=i * arg2)).isoformat() for i in range(count)]
''',
        "train_inputs": [
            "('2024-01-01', '2024-01-05', 1)", "('2024-01-01', '2024-01-10', 3)",
            "('2024-02-27', '2024-03-02', 2)",
        ],
        "test_inputs": [
            "('2024-01-05', '2024-01-01', 1)", "('2024-01-01', '2024-01-01', 7)",
            "('2024-01-01', '2024-01-02', 0)", "('2024-01-01', '2024-01-02', -1)",
            "('2023-12-30', '2024-01-02', 1)", "('2024-01-01', '2024-12-31', 7)",
            "('2024-01-01', '2024-02-09', 1)", "('2024-01-01', '2024-02-10', 1)",
            "('2023-02-27', '2023-03-01', 1)", "('2024-01-01', '2024-03-01', 30)",
            "('2024-02-30', '2024-03-01', 1)", "('2024-01-01', '2024-1-2', 1)",
            "('2024-01-01', '2024-01-02', 1.0)",
        ],
    },
    {
        "id": "bytes_overwrite_at",
        "tags": ["easy", "bytes"],
        "description": (
            "Returns the data bytes with the replacement bytes written over them starting at the "
            "given offset, extending the result when the replacement runs past the end; an offset "
            "beyond the end is first filled with zero bytes. A negative offset raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: bytes, arg1: int, arg2: bytes) -> None:
    if (
        not isinstance(arg0, bytes)
        or not isinstance(arg1, int)
        or isinstance(arg1, bool)
        or not isinstance(arg2, bytes)
    ):
        raise TypeError("arg0 and arg2 must be bytes and arg1 an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if arg1 < 0:
        raise ValueError("the offset must not be negative")
    data = arg0
    if arg1 > len(data):
        data = data + bytes(arg1 - len(data))
    return data[:arg1] + arg2 + data[arg1 + len(arg2):]
''',
        "train_inputs": ["(b'abcdef', 2, b'XY')", "(b'abc', 2, b'XYZ')", "(b'ab', 4, b'!')"],
        "test_inputs": [
            "(b'', 0, b'')", "(b'', 0, b'new')", "(b'abc', 0, b'')", "(b'abc', -1, b'x')",
            "(b'abc', 3, b'd')", "(b'abc', 0, b'XYZ')", "(b'hello world', 6, b'WORLD')",
            "(b'\\x00\\x01', 5, b'\\xff')", "(b'abc', 1, b'\\n')", "(b'', 2, b'')",
            "('abc', 0, b'x')", "(b'abc', 0, 'x')", "(b'abc', 1.0, b'x')",
        ],
    },
    {
        "id": "words_length_window",
        "tags": ["easy", "strings"],
        "description": (
            "Returns, in their original order, the strings of the list whose length lies between "
            "the two bounds inclusive; the bounds may be given in either order (5, 2 acts like 2, "
            "5). Non-int bounds or non-str items raise TypeError."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int, arg2: int) -> None:
    if (
        not isinstance(arg0, list)
        or not all(isinstance(s, str) for s in arg0)
        or not all(isinstance(b, int) and not isinstance(b, bool) for b in (arg1, arg2))
    ):
        raise TypeError("arg0 must be a list of str and arg1, arg2 ints")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    low, high = arg1, arg2
    if low > high:
        low, high = high, low
    return [word for word in arg0 if low <= len(word) <= high]
''',
        "train_inputs": [
            "(['a', 'abc', 'abcde', 'ab'], 2, 3)", "(['hello', 'hi'], 5, 2)", "(['x'], 3, 9)",
        ],
        "test_inputs": [
            "([], 0, 10)", "(['', 'a'], 0, 0)", "(['abc', 'abcd'], 4, 4)",
            "(['abc', 'abcd'], 3, 3)", "(['one', 'three', 'seven', 'eleven'], 6, 5)",
            "(['a', 'bb'], -5, 1)", "(['a', 'bb'], -1, -5)", "(['same', 'size', 'four'], 4, 4)",
            "(['spaces  ', ' '], 1, 8)", "(['a', 'b'], 1, 1.0)", "(['a', 2], 1, 2)",
            "('abc', 1, 3)",
        ],
    },
    # ------------------------------------------------------------------ arity 4
    {
        "id": "format_member_line",
        "tags": ["easy", "strings", "mixed"],
        "description": (
            "Formats a member record as 'Name (age) [tag1, tag2]' plus ' *' when active: the name "
            "is stripped and title-cased, a None age shows as '?', the tags are de-duplicated and "
            "sorted, and the bracket part is left out when there are no tags. A blank name or a "
            "negative age raises ValueError."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1, arg2: list, arg3: bool) -> None:
    if (
        not isinstance(arg0, str)
        or not (arg1 is None or (isinstance(arg1, int) and not isinstance(arg1, bool)))
        or not isinstance(arg2, list)
        or not all(isinstance(t, str) for t in arg2)
        or not isinstance(arg3, bool)
    ):
        raise TypeError("expected (name: str, age: int or None, tags: list of str, active: bool)")


def test_func(arg0, arg1, arg2, arg3):
    validate_input_args(arg0, arg1, arg2, arg3)
    name = arg0.strip().title()
    if not name:
        raise ValueError("the name must not be blank")
    if arg1 is not None and arg1 < 0:
        raise ValueError("the age must not be negative")
    line = f"{name} ({'?' if arg1 is None else arg1})"
    tags = sorted(set(arg2))
    if tags:
        line += " [" + ", ".join(tags) + "]"
    if arg3:
        line += " *"
    return line
''',
        "train_inputs": [
            "('ada lovelace', 36, ['math', 'code'], True)", "('bob', None, [], False)",
            "('  cy ', 7, ['x'], False)",
        ],
        "test_inputs": [
            "('', 30, [], False)", "('   ', 30, [], True)", "('eve', -1, [], False)",
            "('eve', 0, [], False)", "('MARY-JANE o\\'neil', 41, ['b', 'a', 'b'], True)",
            "('x', None, ['z', 'Z', 'a'], True)", "('al', 100, [''], False)",
            "('Zed', 5, [], True)", "('élan vital', 12, ['tag'], False)", "('bob', 3.5, [], False)",
            "('bob', True, [], False)", "('bob', 3, 'tags', False)", "('bob', 3, [], 1)",
        ],
    },
]
