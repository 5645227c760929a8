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
    {
        "id": "utf8_set_bit_count",
        "tags": ["medium", "encoding"],
        "description": (
            "Encodes the string as UTF-8 and returns the total number of 1 bits over all the bytes "
            "(for example 'A', byte 0x41, has 2). An empty string gives 0."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    return sum(bin(byte).count("1") for byte in arg0.encode("utf-8"))
''',
        "train_inputs": ["('A',)", "('hello',)", "('é',)"],
        "test_inputs": [
            "('',)", "(' ',)", "('\\x00',)", "('\\x7f',)", "('€',)", "('abc',)", "('ABC',)",
            "('0123456789',)", "('ü',)", "('~~~',)", "('Hi!',)", "('日本',)",
        ],
    },
    {
        "id": "bytes_hex_in_pairs",
        "tags": ["medium", "encoding", "formatting"],
        "description": (
            "Returns the bytes as lowercase hex digits grouped two bytes (four hex digits) per group, "
            "groups separated by single spaces; with an odd number of bytes the last group holds just "
            "two digits, and empty bytes give ''."
        ),
        "code": '''
def validate_input_args(arg0: bytes) -> None:
    if not isinstance(arg0, bytes):
        raise TypeError("arg0 must be bytes")


def test_func(arg0):
    validate_input_args(arg0)
    hexed = arg0.hex()
    return " ".join(hexed[i:i + 4] for i in range(0, len(hexed), 4))
''',
        "train_inputs": ["(b'\\xde\\xad\\xbe\\xef',)", "(b'hello',)", "(b'\\x00',)"],
        "test_inputs": [
            "(b'',)", "(b'AB',)", "(b'ABC',)", "(b'\\xff\\xfe\\xfd\\xfc\\xfb',)", "(b' ',)",
            "(b'0123',)", "(b'\\n\\r\\t',)", "(b'\\x10\\x20',)", "(b'Zz',)", "(b'abcdefgh',)",
            "(b'\\x01\\x02\\x03\\x04\\x05\\x06\\x07',)", "(b'~',)",
        ],
    },
    {
        "id": "rot13_letters_rot5_digits",
        "tags": ["medium", "strings", "encoding"],
        "description": (
            "Applies ROT13 to ASCII letters (keeping case) and ROT5 to ASCII digits (d becomes "
            "(d + 5) mod 10); every other character is unchanged, so applying it twice gives back the "
            "original text."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    for ch in arg0:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + 13) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + 13) % 26 + 65))
        elif "0" <= ch <= "9":
            out.append(chr((ord(ch) - 48 + 5) % 10 + 48))
        else:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('Hello',)", "('abc123',)", "('Uryyb',)"],
        "test_inputs": [
            "('',)", "('z',)", "('N',)", "('0 5 9',)", "('2024-12-31',)", "('ROT13 rules!',)",
            "('why?',)", "('ñ',)", "('MnOp',)", "('4',)", "('a.b.c',)", "('The End 7',)",
        ],
    },
    {
        "id": "cap_char_runs_at_two",
        "tags": ["medium", "strings"],
        "description": (
            "Shortens every run of 3 or more identical consecutive characters to exactly 2 of that "
            "character ('aaab' -> 'aab', 'looooong' -> 'loong'); runs of 1 or 2 are kept as they are. "
            "Case-sensitive, and spaces and punctuation are treated like any other character."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    for ch in arg0:
        if len(out) >= 2 and out[-1] == ch and out[-2] == ch:
            continue
        out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('looooong',)", "('aabb',)", "('!!!!!',)"],
        "test_inputs": [
            "('',)", "('a',)", "('aa',)", "('aaa',)", "('aAaAaA',)", "('AAAaaa',)",
            "('so    many   spaces',)", "('abcabc',)", "('zzzzzzzzzzzzz',)", "('1112223334',)",
            "('ab',)", "('xxyyyzzzz',)",
        ],
    },
    {
        "id": "middle_two_or_three",
        "tags": ["medium", "strings"],
        "description": (
            "Returns the middle of the string: the middle three characters when its length is odd, "
            "the middle two when its length is even. Strings of length 0, 1 or 2 are returned whole "
            "(and a 3-character string is its own middle three)."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    n = len(arg0)
    if n <= 2:
        return arg0
    mid = n // 2
    if n % 2:
        return arg0[mid - 1:mid + 2]
    return arg0[mid - 1:mid + 1]
''',
        "train_inputs": ["('abcdefg',)", "('abcdef',)", "('middle',)"],
        "test_inputs": [
            "('',)", "('x',)", "('xy',)", "('xyz',)", "('abcd',)", "('abcde',)", "('12345678',)",
            "('123456789',)", "('a b c',)", "('racecar',)", "('two words',)", "('ab cd',)",
        ],
    },
    {
        "id": "letter_score_caps_double",
        "tags": ["medium", "strings", "numbers"],
        "description": (
            "Sums the alphabet positions of the ASCII letters (a=1 ... z=26), where an uppercase letter "
            "counts double (A=2 ... Z=52); every other character adds nothing, so a text without ASCII "
            "letters gives 0."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    total = 0
    for ch in arg0:
        if "a" <= ch <= "z":
            total += ord(ch) - 96
        elif "A" <= ch <= "Z":
            total += 2 * (ord(ch) - 64)
    return total
''',
        "train_inputs": ["('abc',)", "('ABC',)", "('Hello',)"],
        "test_inputs": [
            "('',)", "('a',)", "('Z',)", "('z',)", "('123 !',)", "('aA',)", "('Zebra',)",
            "('éa',)", "('the END',)", "('xYz',)", "('mM nN',)", "('a1b2',)",
        ],
    },
    {
        "id": "count_sentences_by_terminators",
        "tags": ["medium", "text", "parsing"],
        "description": (
            "Counts sentences: splits the text at every run of '.', '!' and '?' characters and counts "
            "the pieces that contain at least one letter or digit. Repeated terminators count once, "
            "text with no terminator is one sentence, a decimal point also splits ('3.14' counts as "
            "two), and empty or punctuation-only text gives 0."
        ),
        "code": r'''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    pieces = re.split(r"[.!?]+", arg0)
    return sum(1 for piece in pieces if any(ch.isalnum() for ch in piece))
''',
        "train_inputs": ["('Hi. How are you? Fine!',)", "('No terminator here',)", "('Wait... what?!',)"],
        "test_inputs": [
            "('',)", "('...',)", "('?!',)", "('One.',)", "('3.14',)", "('a.b.c.d',)",
            "('  .  .  ',)", "('Hello!!! World???',)", "('- . -',)", "('End. ',)",
            "('Ünïcode. Fine',)", "('x',)",
        ],
    },
    {
        "id": "ipv4_address_class",
        "tags": ["hard", "parsing", "numbers"],
        "description": (
            "Parses a dotted IPv4 address (exactly four parts, each 1-3 ASCII digits with value 0-255, "
            "leading zeros allowed, no spaces) and returns its classful network class from the first "
            "octet: 'A' for 0-127, 'B' for 128-191, 'C' for 192-223, 'D' for 224-239, 'E' for 240-255. "
            "Raises ValueError for any malformed address."
        ),
        "code": '''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    parts = arg0.split(".")
    if len(parts) != 4:
        raise ValueError("expected four dot-separated parts")
    octets = []
    for part in parts:
        if not re.fullmatch("[0-9]{1,3}", part):
            raise ValueError(f"bad octet {part!r}")
        if int(part) > 255:
            raise ValueError(f"octet out of range {part!r}")
        octets.append(int(part))
    first = octets[0]
    if first < 128:
        return "A"
    if first < 192:
        return "B"
    if first < 224:
        return "C"
    if first < 240:
        return "D"
    return "E"
''',
        "train_inputs": ["('10.0.0.1',)", "('192.168.1.1',)", "('172.16.0.5',)"],
        "test_inputs": [
            "('',)", "('1.2.3',)", "('1.2.3.4.5',)", "('256.1.1.1',)", "('1.2.3.x',)",
            "('1..2.3',)", "('127.255.255.255',)", "('128.0.0.0',)", "('223.1.2.3',)",
            "('224.0.0.1',)", "('239.9.9.9',)", "('240.0.0.0',)", "('255.255.255.255',)",
            "('0000.1.1.1',)", "('007.0.0.1',)", "('1.2.3.-4',)",
        ],
    },
    {
        "id": "duration_text_to_seconds",
        "tags": ["hard", "parsing", "numbers"],
        "description": (
            "Parses a duration such as '1h30m15s' into total seconds: integer amounts each followed by "
            "a unit h (3600 s), m (60 s) or s (1 s), units in any order and case-insensitive, spaces "
            "ignored. An empty or spaces-only string gives 0; raises ValueError if the text has any "
            "other form (e.g. a bare number or an unknown unit) or if a unit appears twice."
        ),
        "code": '''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    text = arg0.replace(" ", "").lower()
    if not text:
        return 0
    if not re.fullmatch("([0-9]+[hms])+", text):
        raise ValueError(f"cannot parse duration {arg0!r}")
    factors = {"h": 3600, "m": 60, "s": 1}
    seen = []
    total = 0
    for amount, unit in re.findall("([0-9]+)([hms])", text):
        if unit in seen:
            raise ValueError(f"unit {unit!r} given twice")
        seen.append(unit)
        total += int(amount) * factors[unit]
    return total
''',
        "train_inputs": ["('1h30m15s',)", "('45s',)", "('2m 5s',)"],
        "test_inputs": [
            "('',)", "('   ',)", "('90',)", "('1d',)", "('5s5s',)", "('10S 2H',)", "('0h0m0s',)",
            "('100m',)", "('1h',)", "('s1',)", "('3m2h1s',)", "('1.5h',)",
        ],
    },
    {
        "id": "seconds_to_clock_text",
        "tags": ["easy", "formatting", "numbers"],
        "description": (
            "Formats a non-negative integer number of seconds as a clock string: 'M:SS' below one hour "
            "(minutes not zero-padded) and 'H:MM:SS' from 3600 seconds on (hours not padded and may "
            "exceed 24). Raises ValueError for a negative number."
        ),
        "code": '''
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    if arg0 < 0:
        raise ValueError("seconds must be non-negative")
    hours, rest = divmod(arg0, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours == 0:
        return f"{minutes}:{seconds:02d}"
    return f"{hours}:{minutes:02d}:{seconds:02d}"
''',
        "train_inputs": ["(75,)", "(3725,)", "(5,)"],
        "test_inputs": [
            "(0,)", "(59,)", "(60,)", "(3599,)", "(3600,)", "(3661,)", "(86399,)", "(90000,)",
            "(-1,)", "(600,)", "(36000,)", "(1000000,)",
        ],
    },
    {
        "id": "thousands_dots_parenthesised_negatives",
        "tags": ["medium", "formatting", "numbers"],
        "description": (
            "Formats an integer with '.' as the thousands separator ('1234567' -> '1.234.567'); a "
            "negative number is written without its minus sign and wrapped in parentheses instead "
            "(-1234 -> '(1.234)'). Numbers below 1000 in absolute value have no separator."
        ),
        "code": '''
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    digits = str(abs(arg0))
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    body = ".".join(groups)
    if arg0 < 0:
        return f"({body})"
    return body
''',
        "train_inputs": ["(1234567,)", "(-1234,)", "(42,)"],
        "test_inputs": [
            "(0,)", "(999,)", "(1000,)", "(-999,)", "(-1000000,)", "(100000,)", "(-5,)",
            "(12345678901,)", "(1001,)", "(-10000,)", "(7,)", "(999999,)",
        ],
    },
    {
        "id": "ordinal_word_up_to_ten",
        "tags": ["hard", "formatting", "numbers"],
        "description": (
            "Returns the English ordinal of a positive integer: a word for 1-10 ('first' ... "
            "'tenth'), and from 11 on the digits with a suffix ('21st', '22nd', '23rd', '24th'), "
            "using 'th' whenever the number ends in 11, 12 or 13 ('111th', '212th'). Raises "
            "ValueError for numbers below 1."
        ),
        "code": '''
def validate_input_args(arg0: int) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")


def test_func(arg0):
    validate_input_args(arg0)
    if arg0 < 1:
        raise ValueError("ordinals start at 1")
    words = ["first", "second", "third", "fourth", "fifth",
             "sixth", "seventh", "eighth", "ninth", "tenth"]
    if arg0 <= 10:
        return words[arg0 - 1]
    if 11 <= arg0 % 100 <= 13:
        return f"{arg0}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(arg0 % 10, "th")
    return f"{arg0}{suffix}"
''',
        "train_inputs": ["(3,)", "(21,)", "(12,)"],
        "test_inputs": [
            "(0,)", "(-4,)", "(1,)", "(10,)", "(11,)", "(13,)", "(22,)", "(23,)", "(100,)",
            "(101,)", "(111,)", "(212,)", "(1003,)", "(44,)",
        ],
    },
    {
        "id": "syllable_estimate",
        "tags": ["hard", "text"],
        "description": (
            "Estimates the number of syllables of the string (treated as one word): counts runs of "
            "consecutive vowels a, e, i, o, u, y (case-insensitive), subtracts one for a final 'e' that "
            "is not part of a final 'le' when more than one run was found, and returns at least 1 for "
            "any text containing an ASCII letter. Text without ASCII letters gives 0."
        ),
        "code": '''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    word = arg0.lower()
    if not any("a" <= ch <= "z" for ch in word):
        return 0
    count = len(re.findall("[aeiouy]+", word))
    if word.endswith("e") and not word.endswith("le") and count > 1:
        count -= 1
    return max(count, 1)
''',
        "train_inputs": ["('banana',)", "('make',)", "('table',)"],
        "test_inputs": [
            "('',)", "('123',)", "('psst',)", "('the',)", "('rhythm',)", "('beautiful',)",
            "('queueing',)", "('LIKE',)", "('apple pie',)", "('ée',)", "('moose',)", "('a',)",
        ],
    },
    {
        "id": "name_to_initials_and_surname",
        "tags": ["medium", "words", "formatting"],
        "description": (
            "Abbreviates a full name: every whitespace-separated word except the last becomes its "
            "uppercased first character followed by '.', and the last word is kept in full with its "
            "first letter uppercased and the rest lowercased; the parts are joined by single spaces. "
            "A single word is just capitalised and an empty or blank name gives ''."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    words = arg0.split()
    if not words:
        return ""
    initials = [w[0].upper() + "." for w in words[:-1]]
    return " ".join(initials + [words[-1].capitalize()])
''',
        "train_inputs": ["('john ronald tolkien',)", "('Ada Lovelace',)", "('plato',)"],
        "test_inputs": [
            "('',)", "('   ',)", "('MCDONALD',)", "('jean-luc picard',)", "('a b c d',)",
            "('  spaced   out  name ',)", "('émile zola',)", "('x',)", "('o neill',)",
            "('Guido van ROSSUM',)", "('1st place',)", "('marie SKLODOWSKA curie',)",
        ],
    },
    {
        "id": "character_class_mask",
        "tags": ["easy", "strings"],
        "description": (
            "Maps each character to a class symbol and returns the symbols as a string of the same "
            "length: 'A' for an uppercase letter, 'a' for a lowercase letter, '9' for a digit, '_' for "
            "whitespace and '#' for anything else (punctuation, and letters without case)."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    out = []
    for ch in arg0:
        if ch.isupper():
            out.append("A")
        elif ch.islower():
            out.append("a")
        elif ch.isdigit():
            out.append("9")
        elif ch.isspace():
            out.append("_")
        else:
            out.append("#")
    return "".join(out)
''',
        "train_inputs": ["('Hello World 42',)", "('abc-DEF',)", "('2024',)"],
        "test_inputs": [
            "('',)", "('A',)", "('z',)", "('7',)", "(' ',)", "('!',)", "('\\t\\n',)",
            "('Ünïcode',)", "('中文',)", "('pass@word1',)", "('MiXeD 123 ?',)", "('_',)",
        ],
    },
    {
        "id": "parse_semicolon_key_values",
        "tags": ["hard", "parsing", "dicts"],
        "description": (
            "Parses 'key=value' pairs separated by ';' into a dict: whitespace around keys and values "
            "is stripped, empty chunks are skipped, the value is everything after the first '=', "
            "values that are ASCII integers (optional leading '-') become ints while all others stay "
            "strings, and a repeated key keeps its last value. Raises ValueError for a non-empty chunk "
            "without '=' or with an empty key."
        ),
        "code": '''
import re


def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    result = {}
    for chunk in arg0.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        if "=" not in chunk:
            raise ValueError(f"missing '=' in {chunk!r}")
        key, value = chunk.split("=", 1)
        key = key.strip()
        value = value.strip()
        if not key:
            raise ValueError("empty key")
        if re.fullmatch("-?[0-9]+", value):
            result[key] = int(value)
        else:
            result[key] = value
    return result
''',
        "train_inputs": ["('a=1;b=two',)", "('x = 5 ; y = -3',)", "('name=Ann',)"],
        "test_inputs": [
            "('',)", "(';;',)", "('novalue',)", "('=5',)", "('k=',)", "('a=1;a=2',)",
            "('url=http://x?a=b',)", "('n=1.5',)", "('neg=-0;pos=+3',)", "('a=1;;b=2;',)",
            "('sp = hello world ',)", "('a=1;oops',)",
        ],
    },
    {
        "id": "position_weighted_checksum_97",
        "tags": ["hard", "strings", "encoding"],
        "description": (
            "Returns a checksum of the string: the sum over its characters of (1-based position times "
            "the character's Unicode code point), taken modulo 97. An empty string gives 0."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    return sum((i + 1) * ord(ch) for i, ch in enumerate(arg0)) % 97
''',
        "train_inputs": ["('a',)", "('ab',)", "('hello',)"],
        "test_inputs": [
            "('',)", "('b',)", "('ba',)", "('A',)", "('aa',)", "('\\x00',)", "('\\x01',)",
            "('zzz',)", "('€',)", "('checksum',)", "(' ',)", "('0123456789',)",
        ],
    },
    {
        "id": "luhn_check_digit",
        "tags": ["hard", "numbers", "parsing"],
        "description": (
            "Computes the Luhn check digit to append to a number written as a string (spaces and "
            "dashes ignored): walking from the rightmost digit, every other digit starting with the "
            "rightmost is doubled (9 subtracted when the double exceeds 9), all are summed, and the "
            "result is the digit 0-9 that brings the sum to a multiple of 10. Raises ValueError when "
            "no digit is left or any other character appears."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    digits = [ch for ch in arg0 if ch not in " -"]
    if not digits or not all(ch in "0123456789" for ch in digits):
        raise ValueError("expected digits, optionally separated by spaces or dashes")
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return (10 - total % 10) % 10
''',
        "train_inputs": ["('7992739871',)", "('1234',)", "('0',)"],
        "test_inputs": [
            "('',)", "(' - ',)", "('12a4',)", "('5',)", "('9',)", "('4111-1111-1111-111',)",
            "('0000',)", "('1 2 3',)", "('99',)", "('18',)", "('123456789',)", "('+1',)",
        ],
    },
    {
        "id": "digits_moved_to_end",
        "tags": ["easy", "strings", "smoke"],
        "description": (
            "Moves all ASCII digits to the end of the string, keeping the digits in their original "
            "order and the other characters in theirs ('a1b2c' -> 'abc12')."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    digits = [ch for ch in arg0 if ch in "0123456789"]
    others = [ch for ch in arg0 if ch not in "0123456789"]
    return "".join(others + digits)
''',
        "train_inputs": ["('a1b2c',)", "('2024 year',)", "('abc',)"],
        "test_inputs": [
            "('',)", "('123',)", "('9x',)", "('x9',)", "('3 2 1',)", "('r2d2 c3po',)",
            "('-4.5',)", "('007 bond',)", "('no digits here',)", "('1a1a1a',)", "('!0!',)",
            "('route 66 west',)",
        ],
    },
    {
        "id": "digit_words_to_integer",
        "tags": ["easy", "parsing", "numbers"],
        "description": (
            "Reads English digit words ('zero' to 'nine', case-insensitive, separated by spaces or "
            "hyphens) as the digits of one integer and returns it, so 'three one four' gives 314 and "
            "leading zeros vanish ('zero seven' gives 7). Raises ValueError for text with no words or "
            "with any word that is not a digit name."
        ),
        "code": '''
def validate_input_args(arg0: str) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")


def test_func(arg0):
    validate_input_args(arg0)
    names = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4",
             "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
    words = arg0.lower().replace("-", " ").split()
    if not words:
        raise ValueError("no digit words found")
    digits = []
    for word in words:
        if word not in names:
            raise ValueError(f"unknown digit word {word!r}")
        digits.append(names[word])
    return int("".join(digits))
''',
        "train_inputs": ["('three one four',)", "('nine',)", "('one-two-three',)"],
        "test_inputs": [
            "('',)", "(' - ',)", "('zero',)", "('zero seven',)", "('ONE Two',)", "('ten',)",
            "('five five five five',)", "('eight 8',)", "('six  -  six',)", "('four-',)",
            "('nine eight seven six five four three two one zero',)", "('onetwo',)",
        ],
    },
    {
        "id": "anagram_group_count",
        "tags": ["hard", "words", "lists"],
        "description": (
            "Counts the anagram groups in the list of words: words are compared case-insensitively by "
            "their sorted characters (every character counts, spaces included), and a group counts only "
            "if it holds at least two different words ignoring case, so repeats of one word do not "
            "form a group. An empty list gives 0."
        ),
        "code": '''
def validate_input_args(arg0: list) -> None:
    if not isinstance(arg0, list) or not all(isinstance(w, str) for w in arg0):
        raise TypeError("arg0 must be a list of str")


def test_func(arg0):
    validate_input_args(arg0)
    classes = {}
    for word in arg0:
        lowered = word.lower()
        classes.setdefault("".join(sorted(lowered)), set()).add(lowered)
    return sum(1 for members in classes.values() if len(members) >= 2)
''',
        "train_inputs": ["(['listen', 'silent', 'enlist', 'google'],)", "(['abc', 'cab', 'xyz', 'zyx'],)", "(['one'],)"],
        "test_inputs": [
            "([],)", "(['a', 'a'],)", "(['Tea', 'eat'],)", "(['Ab', 'ab', 'BA'],)", "(['', ''],)",
            "(['dusty', 'study', 'night', 'thing', 'solo'],)", "(['a b', 'ba ', 'ab'],)",
            "(['stop', 'pots', 'tops', 'opts'],)", "(['x', 'y', 'z'],)", "(['aab', 'aba', 'abb'],)",
            "(['Stop', 'STOP', 'stop'],)", "(['rat', 'tar', 'art', 'car', 'arc'],)",
        ],
    },
]
