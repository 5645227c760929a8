"""Builtin PAU methods, part a: strings and text processing (words, characters, encodings, simple parsing, formatting), with some numbers."""

# Each entry is one hidden method. The build script runs every input in the sandbox to
# compute outputs, so no outputs are written here. Test inputs are chosen to reach every
# branch of ``test_func`` and its helpers (the ``validate_input_args`` type guard aside).

METHODS = [
    {
        "id": "vowels_minus_consonants",
        "tags": ["easy", "strings"],
        "description": (
            "Returns the number of vowels (a, e, i, o, u, case-insensitive) minus the number of other "
            "ASCII letters (y counts as a consonant). Digits, spaces, punctuation and non-ASCII "
            "characters are ignored; the result may be negative and an empty string gives 0."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    vowels = 0
    consonants = 0
    for ch in arg0.lower():
        if ch in "aeiou":
            vowels += 1
        elif "a" <= ch <= "z":
            consonants += 1
    return vowels - consonants
''',
        "train_inputs": ["('banana',)", "('Queue',)", "('rhythm',)"],
        "test_inputs": [
            "('',)", "('AEIOU',)", "('xyz',)", "('Hello, World!',)", "('a1e2',)", "('audio',)",
            "('strengths',)", "('Y',)", "('12345',)", "('Eye',)", "('café',)", "('Io',)",
        ],
    },
    {
        "id": "capitalize_words_of_four_plus",
        "tags": ["easy", "strings", "words"],
        "description": (
            "Splits the string on single spaces and uppercases the first character of every piece that "
            "is at least 4 characters long; shorter pieces (1-3 characters) and the rest of each piece "
            "are left unchanged, and the spacing is preserved exactly."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    for word in arg0.split(" "):
        if len(word) >= 4:
            out.append(word[0].upper() + word[1:])
        else:
            out.append(word)
    return " ".join(out)
''',
        "train_inputs": ["('the quick brown fox',)", "('a tale of two cities',)", "('hello',)"],
        "test_inputs": [
            "('',)", "('cat',)", "('word',)", "('abc abcd',)", "('HELLO there',)",
            "('multiple  spaces here',)", "('4ever young',)", "('xyz.',)", "('one two six',)",
            "('élan vital',)", "('already Capital',)", "('a b c d e f',)",
        ],
    },
    {
        "id": "run_length_count_before_char",
        "tags": ["medium", "strings", "encoding"],
        "description": (
            "Run-length encodes the string: each run of 2 or more identical consecutive characters "
            "becomes the run length followed by the character ('aaa' -> '3a'), while a character that "
            "is not repeated stays as it is (no '1'). Case-sensitive; raises ValueError if the string "
            "contains an ASCII digit 0-9."
        ),
        "code": '''
import itertools


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    if any(ch in "0123456789" for ch in arg0):
        raise ValueError("digits cannot be run-length encoded unambiguously")
    parts = []
    for ch, group in itertools.groupby(arg0):
        n = len(list(group))
        if n > 1:
            parts.append(f"{n}{ch}")
        else:
            parts.append(ch)
    return "".join(parts)
''',
        "train_inputs": ["('aaabcc',)", "('hello',)", "('abc',)"],
        "test_inputs": [
            "('',)", "('zzzzzzzzzzzz',)", "('aAaa',)", "('  x  ',)", "('a1',)", "('mississippi',)",
            "('!!??',)", "('bookkeeper',)", "('x',)", "('abba',)", "('2',)", "('..-..',)",
        ],
    },
    {
        "id": "run_length_decode_counted",
        "tags": ["medium", "strings", "encoding", "parsing"],
        "description": (
            "Decodes a run-length string where an optional decimal count comes before each character: "
            "a bare character means one copy, '3b' means 'bbb', counts may have several digits and a "
            "count of 0 drops the character. Raises ValueError if the string ends with digits that "
            "have no character after them, or if any count is larger than 99."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    count = ""
    for ch in arg0:
        if ch in "0123456789":
            count += ch
            continue
        n = int(count) if count else 1
        if n > 99:
            raise ValueError("run counts above 99 are not allowed")
        out.append(ch * n)
        count = ""
    if count:
        raise ValueError("the string ends with a count but no character")
    return "".join(out)
''',
        "train_inputs": ["('3ab2c',)", "('abc',)", "('10x',)"],
        "test_inputs": [
            "('',)", "('0a',)", "('a3',)", "('100a',)", "('99z',)", "('2 3-',)", "('007q',)",
            "('12',)", "('1a1b1c',)", "('4!',)", "('x2y',)", "('2aa2a',)",
        ],
    },
    {
        "id": "caesar_shift_by_own_length",
        "tags": ["medium", "strings", "encoding"],
        "description": (
            "Shifts every ASCII letter forward in the alphabet by the length of the whole string "
            "(modulo 26), wrapping around and keeping case; all other characters are copied unchanged "
            "but still count toward the length. A string of length 26 (or 52...) comes back unchanged."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    shift = len(arg0) % 26
    out = []
    for ch in arg0:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + shift) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + shift) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('abc',)", "('Hello',)", "('xyz!',)"],
        "test_inputs": [
            "('',)", "('a',)", "('Z',)", "('abcdefghijklmnopqrstuvwxyz',)", "('hi there',)",
            "('1234',)", "('Zebra Crossing',)", "('ñandu',)", "('aaaaaaaaaaaaaaaaaaaaaaaaaaa',)",
            "('Yy',)", "('A-B',)", "('shift me by length',)",
        ],
    },
    {
        "id": "word_length_histogram",
        "tags": ["easy", "words", "smoke"],
        "description": (
            "Splits the string on whitespace and returns a dict mapping each word length to the number "
            "of words with that length, keys in ascending order. Punctuation counts as part of a word; "
            "an empty or all-whitespace string gives {}."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    counts = {}
    for word in arg0.split():
        counts[len(word)] = counts.get(len(word), 0) + 1
    return dict(sorted(counts.items()))
''',
        "train_inputs": ["('the cat sat on the mat',)", "('hello world',)", "('a bb ccc bb a',)"],
        "test_inputs": [
            "('',)", "('   ',)", "('one',)", "('Hi, there!',)", "('tab\\tseparated  words',)",
            "('a a a a',)", "('extraordinary',)", "('x yy zzz wwww',)", "('12 345 6',)",
            "('line\\nbreak here',)", "('big small big',)", "('. .. ...',)",
        ],
    },
    {
        "id": "longest_word_last_on_tie",
        "tags": ["easy", "words"],
        "description": (
            "Returns the longest whitespace-separated word (punctuation counts as part of it); when "
            "several words share the greatest length, the last of them is returned. Returns '' for an "
            "empty or all-whitespace string."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    best = ""
    for word in arg0.split():
        if len(word) >= len(best):
            best = word
    return best
''',
        "train_inputs": ["('a quick brown fox',)", "('sun moon star',)", "('elephant ant',)"],
        "test_inputs": [
            "('',)", "('  ',)", "('one',)", "('cat dog',)", "('tiny enormous big',)",
            "('hello, world',)", "('ab cd ef gh',)", "('x  yz  w',)", "('longer short',)",
            "('12345 abcd',)", "('same size here',)", "('zz z',)",
        ],
    },
    {
        "id": "alternate_case_letters_only",
        "tags": ["medium", "strings"],
        "description": (
            "Rewrites the letters so they alternate upper, lower, upper, ... starting with uppercase "
            "for the first letter. Non-letter characters are copied unchanged and do not advance the "
            "alternation, so 'ab cd' becomes 'Ab Cd'."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    upper = True
    for ch in arg0:
        if ch.isalpha():
            out.append(ch.upper() if upper else ch.lower())
            upper = not upper
        else:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('hello world',)", "('ABCDEF',)", "('a1b2c3',)"],
        "test_inputs": [
            "('',)", "('x',)", "('ab cd',)", "('123',)", "('  leading',)", "('MiXeD CaSe',)",
            "('a-b-c-d',)", "('über cool',)", "('one',)", "('...!',)", "('zZ',)", "('A B C',)",
        ],
    },
    {
        "id": "signed_integers_total",
        "tags": ["medium", "parsing", "numbers"],
        "description": (
            "Finds every maximal run of ASCII digits in the text, makes it negative when a '-' sits "
            "directly before it (even between numbers, so '3-4' gives 3 + -4), and returns the sum of "
            "these integers, 0 when there are none. Decimal points are not understood: '1.5' counts as "
            "1 + 5."
        ),
        "code": '''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    return sum(int(token) for token in re.findall(r"-?[0-9]+", arg0))
''',
        "train_inputs": ["('a12b3',)", "('temp -5 to 10',)", "('no numbers',)"],
        "test_inputs": [
            "('',)", "('3-4',)", "('1.5',)", "('--7',)", "('007',)", "('x-0',)", "('100 -100',)",
            "('a1b2c3d4',)", "('- 5',)", "('99 bottles, 1 less',)", "('-1-2-3',)", "('12345678901234567890',)",
        ],
    },
    {
        "id": "acronym_words_and_hyphens",
        "tags": ["easy", "words"],
        "description": (
            "Builds an acronym: splits the text on runs of whitespace and hyphens and joins the "
            "uppercased first character of each piece, whatever that character is (digits and "
            "punctuation included). Empty text gives ''."
        ),
        "code": r'''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    pieces = [p for p in re.split(r"[\s-]+", arg0) if p]
    return "".join(p[0].upper() for p in pieces)
''',
        "train_inputs": ["('portable network graphics',)", "('read-only memory',)", "('as soon as possible',)"],
        "test_inputs": [
            "('',)", "('   ',)", "('x',)", "('self-contained under-water',)", "('--double--hyphen',)",
            "('3 d printing',)", "('(hello) world',)", "('Already Upper',)", "('tab\\tand\\nnewline',)",
            "('ünïcode text',)", "('one - two',)", "('a-b-c-d-e',)",
        ],
    },
    {
        "id": "most_frequent_char_no_spaces",
        "tags": ["medium", "strings"],
        "description": (
            "Returns the most frequent character of the string, ignoring space characters ' ' (tabs, "
            "punctuation and digits do count), case-sensitive; on a tie the character that first "
            "appears earliest in the string wins. Returns None for an empty or all-space string."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    counts = {}
    for ch in arg0:
        if ch != " ":
            counts[ch] = counts.get(ch, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    return next(ch for ch in counts if counts[ch] == best)
''',
        "train_inputs": ["('hello world',)", "('banana',)", "('abc',)"],
        "test_inputs": [
            "('',)", "('     ',)", "('a a a b',)", "('AaAa a',)", "('xyyx',)", "('112233 3',)",
            "('!!..!',)", "('\\t\\t x',)", "('mississippi',)", "('z',)", "('ab ba c',)", "('Zz zZ',)",
        ],
    },
    {
        "id": "letters_missing_from_text",
        "tags": ["easy", "strings"],
        "description": (
            "Returns, in alphabetical order as one string, the lowercase letters a-z that do not occur "
            "in the text (case-insensitive). A pangram gives '' and an empty string gives the whole "
            "alphabet."
        ),
        "code": '''
import string


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    present = set(arg0.lower())
    return "".join(ch for ch in string.ascii_lowercase if ch not in present)
''',
        "train_inputs": ["('the quick brown fox',)", "('hello',)", "('Sphinx of black quartz, judge my vow',)"],
        "test_inputs": [
            "('',)", "('abcdefghijklm',)", "('NOPQRSTUVWXYZ',)", "('12345!?',)", "('aeiou',)",
            "('The five boxing wizards jump quickly',)", "('zzz',)", "('éèê',)", "('Mississippi',)",
            "('a b c',)", "('QWERTY',)", "('jackdaws love my big sphinx of quartz',)",
        ],
    },
    {
        "id": "snake_case_to_lower_camel",
        "tags": ["easy", "strings", "formatting"],
        "description": (
            "Converts snake_case to lowerCamelCase: splits on underscores and drops empty pieces (so "
            "leading, trailing and doubled underscores vanish), lowercases the first piece and "
            "capitalises every later piece (first character upper, rest lower). Returns '' when no "
            "piece is left (empty string or only underscores)."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    parts = [p for p in arg0.split("_") if p]
    if not parts:
        return ""
    return parts[0].lower() + "".join(p[:1].upper() + p[1:].lower() for p in parts[1:])
''',
        "train_inputs": ["('hello_world',)", "('parse_http_request',)", "('single',)"],
        "test_inputs": [
            "('',)", "('___',)", "('_leading_under',)", "('trailing_',)", "('double__under',)",
            "('SHOUTING_CASE',)", "('mixed_CaSe_parts',)", "('with_2_digits',)", "('a_b_c',)",
            "('already camel',)", "('x',)", "('__init__',)",
        ],
    },
    {
        "id": "camel_case_to_kebab",
        "tags": ["easy", "strings", "formatting"],
        "description": (
            "Converts camelCase to kebab-case: inserts '-' before every uppercase letter except one at "
            "position 0 and lowercases everything, so each capital of an acronym gets its own hyphen "
            "('parseHTTP' -> 'parse-h-t-t-p') and 'Hello' becomes 'hello'. Other characters are kept."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    for i, ch in enumerate(arg0):
        if ch.isupper() and i > 0:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)
''',
        "train_inputs": ["('helloWorld',)", "('parseHTTP',)", "('simple',)"],
        "test_inputs": [
            "('',)", "('Hello',)", "('A',)", "('ABC',)", "('getX2Value',)", "('already-kebab',)",
            "('two Words',)", "('x',)", "('myÉcole',)", "('snake_caseToo',)", "('aB',)", "('iPhone',)",
        ],
    },
    {
        "id": "distinct_words_case_insensitive",
        "tags": ["medium", "words"],
        "description": (
            "Counts distinct words case-insensitively: splits on whitespace, strips ASCII punctuation "
            "from both ends of each word (inner punctuation such as apostrophes or hyphens is kept), "
            "and ignores pieces that become empty. Returns 0 for an empty string."
        ),
        "code": '''
import string


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    seen = set()
    for raw in arg0.split():
        word = raw.strip(string.punctuation).lower()
        if word:
            seen.add(word)
    return len(seen)
''',
        "train_inputs": ["('The cat and the hat',)", "('Hello, hello! HELLO?',)", "('one two three',)"],
        "test_inputs": [
            "('',)", "('... !!! ???',)", "('a A a.',)", "(\"don't dont\",)", "('well-known well known',)",
            "('x',)", "('(paren) paren',)", "('Go go GO going',)", "('1 1.0 1',)", "('  spaced   out  ',)",
            "('end. End! END',)", "('-dash- dash',)",
        ],
    },
    {
        "id": "nines_complement_digits",
        "tags": ["easy", "strings", "numbers", "smoke"],
        "description": (
            "Replaces every ASCII digit d with 9 - d (0 <-> 9, 1 <-> 8, 2 <-> 7, 3 <-> 6, 4 <-> 5), "
            "leaving all other characters unchanged."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    return "".join(str(9 - int(ch)) if ch in "0123456789" else ch for ch in arg0)
''',
        "train_inputs": ["('0123',)", "('abc',)", "('route 66',)"],
        "test_inputs": [
            "('',)", "('9',)", "('4455',)", "('a1b2c3',)", "('-17',)", "('3.14',)", "('999',)",
            "('2024-01-31',)", "('no digits!',)", "('0',)", "('7 8 9',)", "('x0y9',)",
        ],
    },
    {
        "id": "group_words_by_initial",
        "tags": ["medium", "words", "lists"],
        "description": (
            "Groups the words of the list by their first character, lowercased, and returns a dict "
            "whose keys are in sorted order and whose values list the original words in input order "
            "(duplicates kept, case unchanged). Empty strings are skipped."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(w, str) for w in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    groups = {}
    for word in arg0:
        if not word:
            continue
        groups.setdefault(word[0].lower(), []).append(word)
    return {key: groups[key] for key in sorted(groups)}
''',
        "train_inputs": ["(['apple', 'banana', 'avocado'],)", "(['Cat', 'cow', 'dog'],)", "(['x'],)"],
        "test_inputs": [
            "([],)", "([''],)", "(['', 'a', ''],)", "(['b', 'a', 'c'],)", "(['same', 'same'],)",
            "(['Zed', 'zoo', 'Apple'],)", "(['1st', '2nd', '10th'],)", "([' space', 'space'],)",
            "(['Élan', 'élite'],)", "(['ab', 'Ab', 'AB', 'aB'],)", "(['-x', 'x-'],)", "(['q', 'r', 's', 'q'],)",
        ],
    },
    {
        "id": "bracket_depth_or_minus_one",
        "tags": ["hard", "parsing"],
        "description": (
            "Returns the maximum nesting depth of the brackets (), [] and {} in the string, ignoring "
            "every other character; a string without brackets gives 0. Returns -1 if the brackets do "
            "not balance: a closer with no opener, a closer of the wrong kind, or an opener left "
            "unclosed."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    openers = {")": "(", "]": "[", "}": "{"}
    stack = []
    deepest = 0
    for ch in arg0:
        if ch in "([{":
            stack.append(ch)
            deepest = max(deepest, len(stack))
        elif ch in openers:
            if not stack or stack.pop() != openers[ch]:
                return -1
    if stack:
        return -1
    return deepest
''',
        "train_inputs": ["('(a[b]c)',)", "('()()',)", "('no brackets',)"],
        "test_inputs": [
            "('',)", "(')(',)", "('(]',)", "('((',)", "('{[()]}',)", "('f(x) = [y{z}]',)",
            "('(()())',)", "('([)]',)", "('}',)", "('((((x))))',)", "('[][][]',)", "('<>',)",
        ],
    },
    {
        "id": "spell_digits_or_none",
        "tags": ["easy", "strings", "numbers"],
        "description": (
            "Spells out each ASCII digit of the string in English, in order, joined by single spaces "
            "('a1b20' -> 'one two zero'); all other characters are ignored. A string with no digits "
            "gives the word 'none'."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    words = [names[int(ch)] for ch in arg0 if ch in "0123456789"]
    if not words:
        return "none"
    return " ".join(words)
''',
        "train_inputs": ["('a1b20',)", "('42',)", "('hello',)"],
        "test_inputs": [
            "('',)", "('0',)", "('9 8 7',)", "('3.14',)", "('-5',)", "('route 66',)",
            "('none',)", "('x9',)", "('1234567890',)", "('!!',)", "('007',)", "('two',)",
        ],
    },
    {
        "id": "hex_to_printable_text",
        "tags": ["medium", "encoding", "parsing"],
        "description": (
            "Decodes a hex string (spaces ignored, digits a-f in either case) into bytes and returns "
            "them as text where each printable ASCII byte (32-126) becomes its character and every "
            "other byte becomes '.'. Raises ValueError for an odd number of hex digits or any "
            "non-hex character."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    text = arg0.replace(" ", "")
    if len(text) % 2:
        raise ValueError("odd number of hex digits")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise ValueError("not a hex string") from None
    return "".join(chr(b) if 32 <= b < 127 else "." for b in data)
''',
        "train_inputs": ["('48656c6c6f',)", "('41 42 43',)", "('00ff',)"],
        "test_inputs": [
            "('',)", "('4',)", "('zz',)", "('7E7F',)", "('20',)", "('0a0d',)", "('313233',)",
            "('4A4b',)", "('0x41',)", "('6 1',)", "('c3a9',)", "('5e5f60',)",
        ],
    },
]
