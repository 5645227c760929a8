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
    {
        "id": "greedy_wrap_to_width",
        "tags": ["medium", "text", "formatting"],
        "description": (
            "Greedily wraps the whitespace-separated words of arg0 into lines of at most arg1 "
            "characters (words joined by single spaces) and returns the list of lines; a word longer "
            "than arg1 is not broken and sits alone on its line. Empty or blank text gives []; raises "
            "ValueError if arg1 < 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("width must be at least 1")
    lines = []
    current = ""
    for word in arg0.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= arg1:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
''',
        "train_inputs": ["('the quick brown fox jumps', 10)", "('hello world', 20)", "('a b c d e f', 3)"],
        "test_inputs": [
            "('', 5)", "('   ', 5)", "('word', 0)", "('word', -3)", "('supercalifragilistic is long', 6)",
            "('ab cd', 5)", "('ab cd', 4)", "('one', 1)", "('x y z', 1)", "('  spaced   words  here ', 8)",
            "('pack these words tightly please', 11)", "('a\\nb\\tc', 3)",
        ],
    },
    {
        "id": "truncate_with_ellipsis",
        "tags": ["easy", "strings", "formatting"],
        "description": (
            "Returns arg0 unchanged when it has at most arg1 characters; otherwise keeps its first "
            "arg1 - 3 characters and appends '...', so the result is exactly arg1 characters long. "
            "Raises ValueError if arg1 is less than 4."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 4:
        raise ValueError("the limit must leave room for '...' and one character")
    if len(arg0) <= arg1:
        return arg0
    return arg0[:arg1 - 3] + "..."
''',
        "train_inputs": ["('Hello, world!', 8)", "('short', 10)", "('abcdefgh', 4)"],
        "test_inputs": [
            "('', 4)", "('abc', 3)", "('abcdefgh', 0)", "('abcd', 4)", "('abcde', 4)",
            "('abcdefghij', 10)", "('abcdefghijk', 10)", "('a long sentence here', 12)",
            "('...', 5)", "('ééééé', 4)", "('two words', 5)", "('x', 100)",
        ],
    },
    {
        "id": "count_overlapping_occurrences",
        "tags": ["easy", "strings"],
        "description": (
            "Counts the occurrences of arg1 inside arg0, overlapping ones included ('aa' occurs 3 "
            "times in 'aaaa'), case-sensitive. Raises ValueError if arg1 is empty."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg1:
        raise ValueError("the substring must not be empty")
    count = 0
    start = arg0.find(arg1)
    while start != -1:
        count += 1
        start = arg0.find(arg1, start + 1)
    return count
''',
        "train_inputs": ["('aaaa', 'aa')", "('banana', 'ana')", "('hello', 'l')"],
        "test_inputs": [
            "('', 'a')", "('abc', '')", "('abc', 'd')", "('ABab', 'ab')", "('abababa', 'aba')",
            "('short', 'longer text')", "('mississippi', 'issi')", "('   ', '  ')", "('xyz', 'xyz')",
            "('aaaaaa', 'aaa')", "('a.b.c', '.')", "('', 'z')",
        ],
    },
    {
        "id": "every_nth_character",
        "tags": ["easy", "strings", "smoke"],
        "description": (
            "Returns the characters of arg0 at the 1-based positions arg1, 2*arg1, 3*arg1 and so on, "
            "so arg1 = 1 returns the whole string. Raises ValueError if arg1 is less than 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("step must be at least 1")
    return arg0[arg1 - 1::arg1]
''',
        "train_inputs": ["('abcdefghij', 3)", "('hello world', 2)", "('python', 1)"],
        "test_inputs": [
            "('', 2)", "('abc', 0)", "('abc', -1)", "('abc', 3)", "('abc', 4)", "('abcdef', 2)",
            "('0123456789', 5)", "('a b c d', 2)", "('xyz', 1)", "('abcdefghijklmnop', 4)",
            "('ab', 2)", "('one two three', 3)",
        ],
    },
    {
        "id": "repeat_chars_cycling_counts",
        "tags": ["medium", "strings"],
        "description": (
            "Repeats each character according to its 0-based position i: it appears (i mod arg1) + 1 "
            "times, so with arg1 = 3 the repeat counts go 1, 2, 3, 1, 2, 3, ... and arg1 = 1 returns "
            "the string unchanged. Raises ValueError if arg1 < 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("arg1 must be at least 1")
    return "".join(ch * (i % arg1 + 1) for i, ch in enumerate(arg0))
''',
        "train_inputs": ["('abcd', 3)", "('hello', 2)", "('xyz', 1)"],
        "test_inputs": [
            "('', 3)", "('abc', 0)", "('abcdef', 2)", "('abcdef', 10)", "('a b', 2)", "('12345', 4)",
            "('!?', 5)", "('aaaa', 2)", "('x', 7)", "('abcdefg', 3)", "('ab', -2)", "('Zz', 2)",
        ],
    },
    {
        "id": "vigenere_letters_only",
        "tags": ["hard", "encoding", "strings"],
        "description": (
            "Vigenere-encrypts arg0 with the key arg1: each ASCII letter is shifted forward by the next "
            "key letter (a=0, b=1, ..., z=25, key case-insensitive, cycling) and keeps its case; other "
            "characters are copied and do not use up a key letter. Raises ValueError if the key is "
            "empty or has anything but ASCII letters."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    key = arg1.lower()
    if not key or not all("a" <= c <= "z" for c in key):
        raise ValueError("the key must be a non-empty string of ASCII letters")
    shifts = [ord(c) - 97 for c in key]
    out = []
    k = 0
    for ch in arg0:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + shifts[k % len(shifts)]) % 26 + 97))
            k += 1
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + shifts[k % len(shifts)]) % 26 + 65))
            k += 1
        else:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('attack at dawn', 'lemon')", "('Hello', 'b')", "('abc', 'a')"],
        "test_inputs": [
            "('', 'key')", "('abc', '')", "('abc', 'k3y')", "('xyz', 'c')", "('ABC xyz', 'Bc')",
            "('a-b-c', 'bcd')", "('zzzz', 'ab')", "('123', 'z')", "('Mixed Case!', 'KEY')",
            "('ñu', 'b')", "('aaaaaaaa', 'abc')", "('Zebra', 'Z')",
        ],
    },
    {
        "id": "mask_all_but_last_alnum",
        "tags": ["easy", "strings", "formatting"],
        "description": (
            "Replaces letters and digits with '*' except the last arg1 of them, leaving every other "
            "character (spaces, dashes, ...) in place; when arg1 is at least the number of letters and "
            "digits nothing is masked. Raises ValueError for a negative arg1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 0:
        raise ValueError("arg1 must be non-negative")
    mask_count = sum(1 for ch in arg0 if ch.isalnum()) - arg1
    out = []
    seen = 0
    for ch in arg0:
        if ch.isalnum():
            seen += 1
            if seen <= mask_count:
                out.append("*")
                continue
        out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('4111-1111-1111-1234', 4)", "('secret', 2)", "('ab', 5)"],
        "test_inputs": [
            "('', 3)", "('abc', -1)", "('abc', 0)", "('abc', 3)", "('a-b-c', 1)", "('  x  ', 0)",
            "('phone: 555 0199', 4)", "('---', 1)", "('Ünï', 1)", "('AB12cd', 3)",
            "('one two', 10)", "('x.y.z', 2)",
        ],
    },
    {
        "id": "top_words_with_counts",
        "tags": ["medium", "words", "text"],
        "description": (
            "Returns the arg1 most frequent words as a list of (word, count) tuples, where words are "
            "maximal runs of ASCII letters and digits, lowercased; sorted by count descending and then "
            "alphabetically. Fewer tuples come back when there are fewer distinct words; raises "
            "ValueError for a negative arg1."
        ),
        "code": '''
import collections
import re


def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 0:
        raise ValueError("arg1 must be non-negative")
    counts = collections.Counter(re.findall("[a-z0-9]+", arg0.lower()))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:arg1]
''',
        "train_inputs": ["('the cat and the hat and the bat', 2)", "('b a c', 5)", "('Go go GO stop', 1)"],
        "test_inputs": [
            "('', 3)", "('a b', 0)", "('a b', -1)", "('x y z y x y', 2)", "(\"it's its it is\", 3)",
            "('2024 was 2024', 1)", "('well-known, well-read', 2)", "('zeta alpha beta', 2)",
            "('...', 1)", "('éa éa', 2)", "('one one two two three', 10)", "('Aa aA AA bb', 2)",
        ],
    },
    {
        "id": "subsequence_match_positions",
        "tags": ["medium", "strings"],
        "description": (
            "Checks whether arg0 is a subsequence of arg1 (its characters appear in arg1 in the same "
            "order, not necessarily adjacent; case-sensitive) and returns the indices in arg1 used when "
            "each character is matched at its earliest possible position; returns None if it is not a "
            "subsequence. An empty arg0 gives []."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    positions = []
    start = 0
    for ch in arg0:
        index = arg1.find(ch, start)
        if index == -1:
            return None
        positions.append(index)
        start = index + 1
    return positions
''',
        "train_inputs": ["('ace', 'abcde')", "('aec', 'abcde')", "('', 'abc')"],
        "test_inputs": [
            "('', '')", "('a', '')", "('abc', 'abc')", "('aa', 'banana')", "('aaaa', 'banana')",
            "('Ab', 'abAB')", "('hlo', 'hello world')", "('dlrow', 'world')", "(' ', 'a b')",
            "('xyz', 'xxyyzz')", "('abcd', 'abc')", "('nn', 'banana')",
        ],
    },
    {
        "id": "positional_mismatches_plus_length_gap",
        "tags": ["easy", "strings"],
        "description": (
            "Compares the two strings position by position up to the length of the shorter one, counts "
            "the positions where the characters differ (case-sensitive), and adds the difference in "
            "lengths; identical strings give 0."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    mismatches = sum(1 for a, b in zip(arg0, arg1) if a != b)
    return mismatches + abs(len(arg0) - len(arg1))
''',
        "train_inputs": ["('karolin', 'kathrin')", "('abc', 'abcde')", "('same', 'same')"],
        "test_inputs": [
            "('', '')", "('', 'abc')", "('abc', '')", "('abc', 'ABC')", "('abc', 'bca')",
            "('abcd', 'ab')", "('a', 'b')", "('hello', 'help me')", "('  ', ' ')",
            "('12345', '12354')", "('xyz', 'xyzxyz')", "('abc', 'xbz')",
        ],
    },
    {
        "id": "shared_chars_first_order",
        "tags": ["easy", "strings"],
        "description": (
            "Returns the characters of arg0 that also occur somewhere in arg1, each only once, in the "
            "order of their first appearance in arg0 (case-sensitive; spaces and punctuation count)."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    out = []
    for ch in arg0:
        if ch in arg1 and ch not in out:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('hello', 'world')", "('apple', 'pear')", "('abc', 'xyz')"],
        "test_inputs": [
            "('', 'abc')", "('abc', '')", "('aabbcc', 'cba')", "('ABC', 'abc')", "('a b', ' ')",
            "('banana', 'an')", "('12321', '2')", "('hello world', 'lower')", "('!?', '?!')",
            "('mississippi', 'sip')", "('zyx', 'xyz')", "('same', 'same')",
        ],
    },
    {
        "id": "rotate_words_left",
        "tags": ["easy", "words"],
        "description": (
            "Splits arg0 into whitespace-separated words and rotates them left by arg1 positions "
            "(modulo the number of words, so a negative arg1 rotates right), returning them joined by "
            "single spaces. Empty or blank text gives ''."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    words = arg0.split()
    if not words:
        return ""
    k = arg1 % len(words)
    return " ".join(words[k:] + words[:k])
''',
        "train_inputs": ["('one two three four', 1)", "('a b c', -1)", "('hello world', 2)"],
        "test_inputs": [
            "('', 3)", "('   ', 1)", "('solo', 5)", "('a b c', 0)", "('a b c', 4)", "('a b c', -4)",
            "('  x   y  ', 1)", "('1 2 3 4 5', 2)", "('a b', 1)", "('p q r s', -2)",
            "('the end', 100)", "('w x y z', 3)",
        ],
    },
    {
        "id": "pipe_table_row",
        "tags": ["hard", "formatting"],
        "description": (
            "Renders the list as one table row: each value is converted with str(), cut to its first "
            "arg1 - 1 characters plus '~' when longer than arg1, and placed in a cell of exactly arg1 "
            "characters, numbers (int or float, not bool) right-aligned and everything else "
            "left-aligned; cells are joined by '|' with a '|' at both ends (an empty list gives '||'). "
            "Raises ValueError if arg1 < 1."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list):
        raise TypeError("arg0 must be a list")
    if not all(v is None or isinstance(v, (str, int, float)) for v in arg0):
        raise TypeError("arg0 may hold only str, int, float, bool or None")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("cell width must be at least 1")
    cells = []
    for value in arg0:
        text = str(value)
        if len(text) > arg1:
            text = text[:arg1 - 1] + "~"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            cells.append(text.rjust(arg1))
        else:
            cells.append(text.ljust(arg1))
    return "|" + "|".join(cells) + "|"
''',
        "train_inputs": ["(['name', 42, 3.5], 6)", "(['a', 'b'], 3)", "([12345678, 'long text'], 5)"],
        "test_inputs": [
            "([], 4)", "(['x'], 0)", "(['abc'], 3)", "(['abcd'], 3)", "([True, None], 5)",
            "([-7, 0.25], 4)", "(['toolong'], 1)", "([1], 1)", "([''], 2)", "([3.14159, 'pi'], 4)",
            "([False, 100], 3)", "(['a b', 'c'], 2)",
        ],
    },
    {
        "id": "long_words_uppercased",
        "tags": ["easy", "words"],
        "description": (
            "Returns, in their original order, the whitespace-separated words of arg0 that are strictly "
            "longer than arg1 characters, each converted to uppercase; punctuation counts toward the "
            "length and repeated words are kept."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    return [word.upper() for word in arg0.split() if len(word) > arg1]
''',
        "train_inputs": ["('the quick brown fox', 3)", "('a bb ccc', 0)", "('short words only', 10)"],
        "test_inputs": [
            "('', 2)", "('abc abcd', 3)", "('abc abcd', 4)", "('hi, there!', 2)", "('x', -1)",
            "('Go go gone', 2)", "('word word', 1)", "('ß strasse', 1)", "('12 345 6789', 2)",
            "('mixed CASE words', 4)", "('tab\\tsplit', 2)", "('one two three', 3)",
        ],
    },
    {
        "id": "insert_delete_distance",
        "tags": ["hard", "strings"],
        "description": (
            "Returns the minimum number of single-character insertions and deletions (substitutions "
            "are not allowed) that turn arg0 into arg1, i.e. len(arg0) + len(arg1) minus twice the "
            "length of their longest common subsequence; case-sensitive. Raises ValueError if either "
            "string is longer than 100 characters."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg0) > 100 or len(arg1) > 100:
        raise ValueError("strings longer than 100 characters are not supported")
    previous = [0] * (len(arg1) + 1)
    for a in arg0:
        current = [0]
        for j, b in enumerate(arg1):
            if a == b:
                current.append(previous[j] + 1)
            else:
                current.append(max(previous[j + 1], current[j]))
        previous = current
    return len(arg0) + len(arg1) - 2 * previous[-1]
''',
        "train_inputs": ["('kitten', 'sitting')", "('abc', 'abc')", "('abc', 'xyz')"],
        "test_inputs": [
            "('', '')", "('', 'abc')", "('abc', '')", "('a', 'A')", "('abcdef', 'acf')",
            "('flaw', 'lawn')", "('ab', 'ba')", "('intention', 'execution')", "('aaa', 'aaaa')",
            "('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'a')", "('a', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')", "('abc', 'cab')",
        ],
    },
    {
        "id": "longest_common_substring_first",
        "tags": ["hard", "strings"],
        "description": (
            "Returns the longest contiguous substring that occurs in both strings (case-sensitive); on "
            "a tie the one that starts earliest in arg0 wins, and '' comes back when they share no "
            "character. Raises ValueError if either string is longer than 100 characters."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg0) > 100 or len(arg1) > 100:
        raise ValueError("strings longer than 100 characters are not supported")
    best_len = 0
    best_end = 0
    previous = [0] * (len(arg1) + 1)
    for i, a in enumerate(arg0, 1):
        current = [0] * (len(arg1) + 1)
        for j, b in enumerate(arg1, 1):
            if a == b:
                current[j] = previous[j - 1] + 1
                if current[j] > best_len:
                    best_len = current[j]
                    best_end = i
        previous = current
    return arg0[best_end - best_len:best_end]
''',
        "train_inputs": ["('programming', 'gaming')", "('abcdef', 'zcdez')", "('abc', 'xyz')"],
        "test_inputs": [
            "('', 'abc')", "('abc', '')", "('abab', 'baba')", "('xyab', 'abxy')", "('ABC', 'abc')",
            "('hello world', 'yellow word')", "('aaaa', 'aa')", "('same', 'same')",
            "('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'a')", "('a', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')", "('one two', 'two one')", "('12345', '3456')",
        ],
    },
    {
        "id": "interleave_then_reversed_tail",
        "tags": ["medium", "strings"],
        "description": (
            "Interleaves the characters of the two strings (arg0[0], arg1[0], arg0[1], arg1[1], ...) "
            "up to the length of the shorter one, then appends the unused tail of the longer string "
            "in reverse order."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    out = []
    for a, b in zip(arg0, arg1):
        out.append(a)
        out.append(b)
    n = min(len(arg0), len(arg1))
    if len(arg0) > len(arg1):
        tail = arg0[n:]
    else:
        tail = arg1[n:]
    return "".join(out) + tail[::-1]
''',
        "train_inputs": ["('abc', 'xyz')", "('abcdef', 'xy')", "('ab', 'wxyz')"],
        "test_inputs": [
            "('', '')", "('', 'abc')", "('abc', '')", "('a', 'b')", "('hello', 'world')",
            "('12345', 'ab')", "('ab', '12345')", "('A B', 'c d')", "('xy', 'xyz')",
            "('longer', 'short')", "('zz', 'z')", "('a', 'bcdef')",
        ],
    },
    {
        "id": "keep_chars_by_cyclic_mask",
        "tags": ["medium", "strings"],
        "description": (
            "Keeps the characters of arg0 whose position lines up with a '1' in the mask arg1, the mask "
            "being repeated cyclically along the text ('abcdef' with '10' keeps 'ace'); characters at a "
            "'0' are dropped. Raises ValueError if the mask is empty or contains characters other than "
            "'0' and '1'."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg1 or any(c not in "01" for c in arg1):
        raise ValueError("the mask must be a non-empty string of '0' and '1'")
    return "".join(ch for i, ch in enumerate(arg0) if arg1[i % len(arg1)] == "1")
''',
        "train_inputs": ["('abcdef', '10')", "('hello world', '110')", "('python', '1')"],
        "test_inputs": [
            "('', '1')", "('abc', '')", "('abc', '102')", "('abc', '0')", "('abcdef', '01')",
            "('abcdefgh', '1001')", "('abc', '11111111')", "('a b c d', '10')", "('xyz', '001')",
            "('0123456789', '110')", "('abc', 'yes')", "('mask me', '0110')",
        ],
    },
    {
        "id": "zero_pad_or_hash_overflow",
        "tags": ["medium", "formatting", "numbers"],
        "description": (
            "Writes the integer arg0 zero-padded to exactly arg1 characters, with a leading '-' for "
            "negative numbers ('-005' for -5 and 4); when the number does not fit in arg1 characters "
            "it returns arg1 '#' characters instead. Raises ValueError if arg1 < 1."
        ),
        "code": '''
def validate_input_args(arg0: int, arg1: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("width must be at least 1")
    digits = str(abs(arg0))
    sign = "-" if arg0 < 0 else ""
    if len(sign) + len(digits) > arg1:
        return "#" * arg1
    return sign + digits.rjust(arg1 - len(sign), "0")
''',
        "train_inputs": ["(42, 5)", "(-5, 4)", "(12345, 3)"],
        "test_inputs": [
            "(0, 1)", "(0, 3)", "(7, 0)", "(-7, 1)", "(-7, 2)", "(999, 3)", "(1000, 3)",
            "(-99, 3)", "(-100, 3)", "(5, -2)", "(123456789, 12)", "(-1, 6)",
        ],
    },
    {
        "id": "words_containing_letter",
        "tags": ["easy", "words"],
        "description": (
            "Returns the distinct whitespace-separated words of arg0 that contain the single character "
            "arg1 (case-insensitive), lowercased and in order of first appearance. Raises ValueError if "
            "arg1 is not exactly one character."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg1) != 1:
        raise ValueError("arg1 must be a single character")
    target = arg1.lower()
    out = []
    for word in arg0.split():
        lowered = word.lower()
        if target in lowered and lowered not in out:
            out.append(lowered)
    return out
''',
        "train_inputs": ["('The cat sat on the mat', 'a')", "('Apple and banana', 'A')", "('xyz', 'q')"],
        "test_inputs": [
            "('', 'a')", "('abc', '')", "('abc', 'ab')", "('Tea tea TEA', 't')", "('one, two!', ',')",
            "('hello world', 'o')", "('a-b c-d', '-')", "('Éclair éclat', 'é')", "('123 456', '4')",
            "('aaa bbb aaa', 'a')", "('mixed Case', 'C')", "('x y z', ' ')",
        ],
    },
    {
        "id": "censor_listed_words",
        "tags": ["medium", "text", "words"],
        "description": (
            "Replaces each word of arg0 (a maximal run of ASCII letters) that appears in the list arg1, "
            "compared case-insensitively, with as many '*' as it has letters; everything else is kept. "
            "Only whole words are censored, so 'cat' does not touch 'cats' or 'cat5' keeps its 5."
        ),
        "code": '''
import re


def validate_input_args(arg0: str, arg1: list) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, list) or not all(isinstance(w, str) for w in arg1):
        raise TypeError("arg1 must be a list of str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    banned = {word.lower() for word in arg1}

    def replace(match):
        word = match.group(0)
        if word.lower() in banned:
            return "*" * len(word)
        return word

    return re.sub("[A-Za-z]+", replace, arg0)
''',
        "train_inputs": ["('the cat sat', ['cat'])", "('Darn it, DARN!', ['darn'])", "('nothing here', [])"],
        "test_inputs": [
            "('', ['a'])", "('cats and cat', ['cat'])", "('cat5 dog', ['cat', 'dog'])", "('abc', ['ABC'])",
            "('a-b-c', ['b'])", "('no match', ['x'])", "('spam spam eggs', ['spam', 'eggs'])",
            "('the end', ['the end'])", "('café', ['caf'])", "('Oh no', ['oh', 'no', 'yes'])",
            "('x', ['x'])", "('snake_case word', ['case'])",
        ],
    },
    {
        "id": "fill_named_placeholders",
        "tags": ["hard", "text", "formatting", "dicts"],
        "description": (
            "Fills a template: every placeholder '{name}' (name = a letter or underscore followed by "
            "letters, digits or underscores) is replaced by str(arg1[name]) when the dict arg1 has that "
            "key, and left exactly as it is otherwise; other braces are untouched and inserted values "
            "are not scanned again."
        ),
        "code": r'''
import re


def validate_input_args(arg0: str, arg1: dict) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, dict):
        raise TypeError("arg1 must be a dict")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)

    def replace(match):
        key = match.group(1)
        if key in arg1:
            return str(arg1[key])
        return match.group(0)

    return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", replace, arg0)
''',
        "train_inputs": ["('Hello, {name}!', {'name': 'Ann'})", "('{a}+{b}={c}', {'a': 1, 'b': 2})", "('plain', {})"],
        "test_inputs": [
            "('', {'x': 1})", "('{x}{x}', {'x': 'ab'})", "('{1x} {x1}', {'1x': 'no', 'x1': 'yes'})",
            "('{ name }', {' name ': 'spaced', 'name': 'n'})", "('{{y}}', {'y': 'Y'})",
            "('{a}', {'a': '{b}', 'b': 'deep'})", "('{_private}', {'_private': None})",
            "('{n}', {'n': 3.5})", "('{missing} {here}', {'here': [1, 2]})", "('{}', {'': 'empty'})",
            "('{A}{a}', {'a': 'low'})", "('unclosed {x', {'x': 1})",
        ],
    },
    {
        "id": "split_outside_double_quotes",
        "tags": ["hard", "parsing"],
        "description": (
            "Splits arg0 at each occurrence of the one-character separator arg1, except inside "
            "double-quoted sections; the double quotes themselves are removed and fields are not "
            "stripped, so an empty text gives ['']. Raises ValueError if arg1 is not a single "
            "character other than '\"', or if a quoted section is left unclosed."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg1) != 1 or arg1 == '"':
        raise ValueError("the separator must be one character other than a double quote")
    fields = []
    current = []
    quoted = False
    for ch in arg0:
        if ch == '"':
            quoted = not quoted
        elif ch == arg1 and not quoted:
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    if quoted:
        raise ValueError("unclosed double quote")
    fields.append("".join(current))
    return fields
''',
        "train_inputs": ["('a,b,c', ',')", "('x,\"y,z\",w', ',')", "('one two', ' ')"],
        "test_inputs": [
            "('', ',')", "('a,b', '')", "('a,b', ',,')", "('a\"b', '\"')", "('\"open,quote', ',')",
            "('a,,b,', ',')", "('\"\",x', ',')", "('k=\"a=b\"=c', '=')", "(' a , b ', ',')",
            "('\"whole, thing\"', ',')", "('no separator', ';')", "('a;\"b;c\";\"d\"e', ';')",
        ],
    },
    {
        "id": "sort_words_by_named_mode",
        "tags": ["medium", "words", "lists"],
        "description": (
            "Returns the list of strings sorted by the mode arg1: 'length' sorts by length, ties in "
            "plain (case-sensitive) order; 'alpha' sorts case-insensitively, ties by the original "
            "string; 'last' sorts by the last character (empty strings first), ties by the whole "
            "string. Raises ValueError for any other mode."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: str) -> None:
    if not isinstance(arg0, list) or not all(isinstance(w, str) for w in arg0):
        raise TypeError("arg0 must be a list of str")
    if not isinstance(arg1, str):
        raise TypeError("arg1 must be a str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 == "length":
        return sorted(arg0, key=lambda w: (len(w), w))
    if arg1 == "alpha":
        return sorted(arg0, key=lambda w: (w.lower(), w))
    if arg1 == "last":
        return sorted(arg0, key=lambda w: (w[-1:], w))
    raise ValueError(f"unknown sort mode {arg1!r}; use 'length', 'alpha' or 'last'")
''',
        "train_inputs": ["(['banana', 'Apple', 'fig'], 'alpha')", "(['ccc', 'a', 'bb'], 'length')", "(['cab', 'abc', 'bca'], 'last')"],
        "test_inputs": [
            "([], 'alpha')", "(['x'], 'size')", "(['b', 'a'], 'LENGTH')", "(['bb', 'aa', 'B', 'a'], 'length')",
            "(['b', 'B', 'a', 'A'], 'alpha')", "(['ab', '', 'ba'], 'last')", "(['zeta', 'alpha', 'Zulu'], 'alpha')",
            "(['one', 'three', 'two'], 'last')", "(['same', 'same'], 'length')", "(['Ax', 'ax', 'bX'], 'last')",
            "(['dog', 'cat', 'ox'], 'length')", "(['apple', 'Banana', 'cherry'], 'alpha')",
        ],
    },
    {
        "id": "full_justify_words",
        "tags": ["hard", "formatting", "text"],
        "description": (
            "Fully justifies the list of words into one line of exactly arg1 characters: the padding "
            "spaces are spread over the gaps between words as evenly as possible, the leftmost gaps "
            "getting one extra space when it does not divide evenly; a single word is left-aligned and "
            "padded with spaces on the right. Raises ValueError for an empty list, an arg1 above 200, "
            "or words that do not fit with single spaces."
        ),
        "code": '''
def validate_input_args(arg0: list, arg1: int) -> None:
    if not isinstance(arg0, list) or not all(isinstance(w, str) for w in arg0):
        raise TypeError("arg0 must be a list of str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg0:
        raise ValueError("there are no words to justify")
    if arg1 > 200:
        raise ValueError("line width above 200 is not supported")
    letters = sum(len(w) for w in arg0)
    gaps = len(arg0) - 1
    if letters + gaps > arg1:
        raise ValueError("the words do not fit in the line")
    if gaps == 0:
        return arg0[0].ljust(arg1)
    base, extra = divmod(arg1 - letters, gaps)
    out = []
    for i, word in enumerate(arg0[:-1]):
        out.append(word + " " * (base + (1 if i < extra else 0)))
    out.append(arg0[-1])
    return "".join(out)
''',
        "train_inputs": ["(['this', 'is', 'an', 'example'], 20)", "(['hello'], 8)", "(['a', 'b'], 5)"],
        "test_inputs": [
            "([], 10)", "(['x'], 201)", "(['toolong'], 3)", "(['a', 'b'], 2)", "(['a', 'b'], 3)",
            "(['a', 'b', 'c'], 6)", "(['a', 'b', 'c', 'd'], 10)", "(['word'], 4)", "(['', 'x'], 4)",
            "(['justify', 'this', 'line', 'please'], 30)", "(['x', 'y'], 200)", "(['one', 'two'], 6)",
        ],
    },
    {
        "id": "chunks_padded_with_dots",
        "tags": ["easy", "strings", "lists"],
        "description": (
            "Splits arg0 into consecutive chunks of arg1 characters and returns them as a list, "
            "padding the last chunk with '.' up to arg1 characters when it is shorter; an empty string "
            "gives []. Raises ValueError if arg1 < 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if arg1 < 1:
        raise ValueError("chunk size must be at least 1")
    chunks = [arg0[i:i + arg1] for i in range(0, len(arg0), arg1)]
    if chunks and len(chunks[-1]) < arg1:
        chunks[-1] = chunks[-1].ljust(arg1, ".")
    return chunks
''',
        "train_inputs": ["('abcdefg', 3)", "('abcdef', 2)", "('hi', 5)"],
        "test_inputs": [
            "('', 3)", "('abc', 0)", "('abc', -2)", "('abc', 1)", "('abc', 3)", "('abcd', 3)",
            "('a b c d', 2)", "('....', 3)", "('x', 1)", "('hello world', 4)", "('0123456789', 5)",
            "('ab', 3)",
        ],
    },
    {
        "id": "strip_set_and_count_removed",
        "tags": ["easy", "strings"],
        "description": (
            "Removes from both ends of arg0 every character that belongs to the set of characters in "
            "arg1 (their order in arg1 does not matter, and arg1 = '' removes nothing) and returns a "
            "tuple (stripped text, number of characters removed)."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    stripped = arg0.strip(arg1)
    return (stripped, len(arg0) - len(stripped))
''',
        "train_inputs": ["('xxhelloxx', 'x')", "('  padded  ', ' ')", "('abcba', 'ab')"],
        "test_inputs": [
            "('', 'x')", "('hello', '')", "('aaaa', 'a')", "('abc', 'xyz')", "('--a-b--', '-')",
            "('.,;text;,.', ';.,')", "('  x  ', 'x')", "('xyzzyx', 'zyx')", "('\\tTab\\t', '\\t')",
            "('banana', 'an')", "('12abc34', '0123456789')", "('Aa', 'a')",
        ],
    },
    {
        "id": "letters_still_needed",
        "tags": ["medium", "strings"],
        "description": (
            "Returns, as a sorted lowercase string, the letters that must be added to the letters of "
            "arg0 so that they can spell all the letters of arg1, counting repeats (comparison is "
            "case-insensitive and non-letters are ignored); '' means arg0 already has enough letters."
        ),
        "code": '''
import collections


def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    have = collections.Counter(ch for ch in arg0.lower() if ch.isalpha())
    need = collections.Counter(ch for ch in arg1.lower() if ch.isalpha())
    return "".join(sorted((need - have).elements()))
''',
        "train_inputs": ["('hello', 'yellow')", "('abc', 'cab')", "('', 'zoo')"],
        "test_inputs": [
            "('', '')", "('abc', '')", "('a', 'aaa')", "('AB', 'ab')", "('listen', 'silent')",
            "('ransom', 'random note')", "('123', '321')", "('x y', 'x,y,z!')", "('aab', 'abb')",
            "('zzz', 'a')", "('éa', 'éé')", "('magazine', 'zine maga g')",
        ],
    },
    {
        "id": "char_positions_case_insensitive",
        "tags": ["easy", "strings"],
        "description": (
            "Returns the 0-based indices at which the single character arg1 occurs in arg0, "
            "comparing case-insensitively ('A' matches 'a'); [] if it never occurs. Raises ValueError "
            "if arg1 is not exactly one character."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if len(arg1) != 1:
        raise ValueError("arg1 must be a single character")
    target = arg1.lower()
    return [i for i, ch in enumerate(arg0) if ch.lower() == target]
''',
        "train_inputs": ["('banana', 'a')", "('Hello World', 'o')", "('abc', 'z')"],
        "test_inputs": [
            "('', 'a')", "('abc', '')", "('abc', 'bc')", "('AaAa', 'a')", "('AaAa', 'A')",
            "('a b c', ' ')", "('1.2.3', '.')", "('Élan élite', 'É')", "('xyz', 'Z')",
            "('mississippi', 's')", "('!!!', '!')", "('case', 'E')",
        ],
    },
    {
        "id": "count_with_plural_noun",
        "tags": ["hard", "text", "numbers", "formatting"],
        "description": (
            "Returns '<arg0> <noun>' with the noun arg1 made plural unless arg0 is exactly 1: nouns "
            "ending in s, x, z, ch or sh (case-insensitive) get 'es', a final 'y' after a consonant "
            "becomes 'ies', and any other noun gets 's' (so 0 and -1 are plural too). Raises "
            "ValueError for an empty noun."
        ),
        "code": '''
def validate_input_args(arg0: int, arg1: str) -> None:
    if not isinstance(arg0, int) or isinstance(arg0, bool):
        raise TypeError("arg0 must be an int")
    if not isinstance(arg1, str):
        raise TypeError("arg1 must be a str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    if not arg1:
        raise ValueError("the noun must not be empty")
    if arg0 == 1:
        return f"1 {arg1}"
    lowered = arg1.lower()
    if lowered.endswith(("s", "x", "z", "ch", "sh")):
        plural = arg1 + "es"
    elif len(lowered) >= 2 and lowered[-1] == "y" and lowered[-2] not in "aeiou":
        plural = arg1[:-1] + "ies"
    else:
        plural = arg1 + "s"
    return f"{arg0} {plural}"
''',
        "train_inputs": ["(3, 'cat')", "(1, 'box')", "(2, 'city')"],
        "test_inputs": [
            "(5, '')", "(1, 'cat')", "(0, 'box')", "(-1, 'dog')", "(2, 'church')", "(4, 'BUS')",
            "(2, 'day')", "(7, 'y')", "(3, 'wish')", "(10, 'buzz')", "(2, 'Party')", "(1, 'fly')",
            "(9, 'month')",
        ],
    },
    {
        "id": "word_jaccard_as_fraction",
        "tags": ["medium", "words", "numbers"],
        "description": (
            "Returns the Jaccard similarity of the sets of lowercased whitespace-separated words of the "
            "two texts as a reduced fraction (numerator, denominator): shared distinct words over all "
            "distinct words. Gives (0, 1) when nothing is shared and (1, 1) when both texts have no "
            "words."
        ),
        "code": '''
import math


def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    first = set(arg0.lower().split())
    second = set(arg1.lower().split())
    union = first | second
    if not union:
        return (1, 1)
    shared = len(first & second)
    g = math.gcd(shared, len(union))
    return (shared // g, len(union) // g)
''',
        "train_inputs": ["('the cat sat', 'the dog sat')", "('a b', 'c d')", "('same words', 'Same WORDS')"],
        "test_inputs": [
            "('', '')", "('  ', '')", "('a', '')", "('a a a', 'a')", "('a b c d', 'a b')",
            "('one two three', 'three four five six')", "('x, y', 'x y')", "('a b c', 'c b a d e f')",
            "('Go', 'go go')", "('p q r s t u', 'p')", "('alpha beta', 'beta gamma delta alpha')",
            "('1 2 3', '2 3 4')",
        ],
    },
    {
        "id": "compare_versions_with_tags",
        "tags": ["hard", "parsing", "numbers"],
        "description": (
            "Compares two version strings such as '1.2.10' or '2.0-beta' and returns -1, 0 or 1 when "
            "arg0 is older than, equal to or newer than arg1. Dot-separated numeric parts compare as "
            "integers with missing parts counting as 0 ('1.2' equals '1.2.0'); with equal numbers a "
            "version carrying a '-tag' is older than one without, and two tags compare as plain "
            "strings. Raises ValueError for a version not of the form digits(.digits)*(-tag)."
        ),
        "code": r'''
import re


def validate_input_args(arg0: str, arg1: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")


def _parse(version):
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*(-[A-Za-z0-9.]+)?", version):
        raise ValueError(f"malformed version {version!r}")
    core, _, tag = version.partition("-")
    numbers = [int(part) for part in core.split(".")]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return numbers, tag


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    a_nums, a_tag = _parse(arg0)
    b_nums, b_tag = _parse(arg1)
    if a_nums != b_nums:
        return -1 if a_nums < b_nums else 1
    if a_tag == b_tag:
        return 0
    if not a_tag:
        return 1
    if not b_tag:
        return -1
    return -1 if a_tag < b_tag else 1
''',
        "train_inputs": ["('1.2.10', '1.2.9')", "('2.0', '2.0.0')", "('1.0-beta', '1.0')"],
        "test_inputs": [
            "('1.0', '1.0-rc1')", "('1.0-alpha', '1.0-beta')", "('1.0-beta', '1.0-alpha')",
            "('1.0-rc', '1.0-rc')", "('0', '0.0.0')", "('1.10', '1.9')", "('3', '3.0.1')",
            "('v1.0', '1.0')", "('1..2', '1.2')", "('1.2', '')", "('10.0.0', '9.99.99')",
            "('2.0-beta', '1.9')", "('007.1', '7.1')", "('3.1-dev', '3.1.0')",
        ],
    },
    {
        "id": "shift_vowels_in_cycle",
        "tags": ["medium", "strings"],
        "description": (
            "Replaces each vowel by the vowel arg1 places later in the cycle a, e, i, o, u (wrapping "
            "around; a negative arg1 moves backwards), keeping its case; all other characters, y "
            "included, are unchanged."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int) -> None:
    if not isinstance(arg0, str):
        raise TypeError("arg0 must be a str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1):
    validate_input_args(arg0, arg1)
    vowels = "aeiou"
    out = []
    for ch in arg0:
        lowered = ch.lower()
        if lowered in vowels:
            new = vowels[(vowels.index(lowered) + arg1) % 5]
            out.append(new.upper() if ch.isupper() else new)
        else:
            out.append(ch)
    return "".join(out)
''',
        "train_inputs": ["('hello world', 1)", "('banana', 2)", "('AEIOU', -1)"],
        "test_inputs": [
            "('', 3)", "('xyz', 4)", "('aeiou', 0)", "('aeiou', 5)", "('Umbrella', 1)",
            "('queue', -2)", "('OIL', 7)", "('rhythm', 1)", "('éa', 1)", "('a', -6)",
            "('Education', 3)", "('bcd', 2)",
        ],
    },
    {
        "id": "remove_nth_occurrence",
        "tags": ["medium", "strings"],
        "description": (
            "Removes only the arg2-th occurrence (1-based, counting non-overlapping matches from the "
            "left) of the substring arg1 from arg0; if there are fewer than arg2 occurrences the text "
            "is returned unchanged. Raises ValueError if arg1 is empty or arg2 < 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str, arg2: int) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")
    if not isinstance(arg2, int) or isinstance(arg2, bool):
        raise TypeError("arg2 must be an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if not arg1:
        raise ValueError("the substring must not be empty")
    if arg2 < 1:
        raise ValueError("occurrences are counted from 1")
    index = -len(arg1)
    for _ in range(arg2):
        index = arg0.find(arg1, index + len(arg1))
        if index == -1:
            return arg0
    return arg0[:index] + arg0[index + len(arg1):]
''',
        "train_inputs": ["('one two one two one', 'one', 2)", "('banana', 'a', 1)", "('abc', 'x', 1)"],
        "test_inputs": [
            "('', 'a', 1)", "('abc', '', 1)", "('abc', 'a', 0)", "('aaaa', 'aa', 2)", "('aaaa', 'aa', 3)",
            "('aaa', 'aa', 2)", "('banana', 'a', 3)", "('banana', 'a', 4)", "('Aa aA', 'a', 2)",
            "('x-x-x', '-', 2)", "('hello', 'hello', 1)", "('abcabc', 'bc', 2)",
        ],
    },
    {
        "id": "pad_with_dots_by_alignment",
        "tags": ["easy", "formatting", "strings"],
        "description": (
            "Fits arg0 into exactly arg1 characters: a longer text is cut to its first arg1 "
            "characters, a shorter one is padded with '.' on the right for alignment '<', on the left "
            "for '>', or on both sides for '^' (the odd extra dot going to the right). Raises "
            "ValueError for any other alignment or for arg1 outside 0..200."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: int, arg2: str) -> None:
    if not isinstance(arg0, str) or not isinstance(arg2, str):
        raise TypeError("arg0 and arg2 must be str")
    if not isinstance(arg1, int) or isinstance(arg1, bool):
        raise TypeError("arg1 must be an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if arg2 not in ("<", ">", "^"):
        raise ValueError(f"alignment must be '<', '>' or '^', got {arg2!r}")
    if not 0 <= arg1 <= 200:
        raise ValueError("width must be between 0 and 200")
    if len(arg0) >= arg1:
        return arg0[:arg1]
    gap = arg1 - len(arg0)
    if arg2 == "<":
        return arg0 + "." * gap
    if arg2 == ">":
        return "." * gap + arg0
    left = gap // 2
    return "." * left + arg0 + "." * (gap - left)
''',
        "train_inputs": ["('abc', 7, '^')", "('abc', 6, '<')", "('abc', 5, '>')"],
        "test_inputs": [
            "('abc', 5, '=')", "('abc', -1, '<')", "('abc', 201, '>')", "('abcdef', 3, '<')",
            "('abc', 3, '^')", "('', 4, '^')", "('ab', 5, '^')", "('x', 0, '>')", "('', 0, '<')",
            "('hello', 200, '>')", "('a b', 6, '<')", "('abc', 4, '^')",
        ],
    },
    {
        "id": "translate_like_tr",
        "tags": ["hard", "strings", "encoding"],
        "description": (
            "Translates characters like the Unix tr command: each character of arg0 that appears in "
            "arg1 is replaced by the character at the same position in arg2, or deleted when arg2 is "
            "too short to have one; if a character is listed twice in arg1 its first position counts, "
            "characters not in arg1 are kept, and extra characters of arg2 are ignored."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str, arg2: str) -> None:
    if not all(isinstance(a, str) for a in (arg0, arg1, arg2)):
        raise TypeError("arg0, arg1 and arg2 must be str")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    mapping = {}
    for i, ch in enumerate(arg1):
        if ch in mapping:
            continue
        mapping[ch] = arg2[i] if i < len(arg2) else None
    out = []
    for ch in arg0:
        if ch not in mapping:
            out.append(ch)
        elif mapping[ch] is not None:
            out.append(mapping[ch])
    return "".join(out)
''',
        "train_inputs": ["('hello', 'el', 'ip')", "('banana', 'an', 'o')", "('abc', '', 'xyz')"],
        "test_inputs": [
            "('', 'a', 'b')", "('abc', 'abc', '')", "('abc', 'aa', 'xy')", "('abcabc', 'cba', 'xyz')",
            "('hello world', ' ', '_')", "('aAbB', 'ab', 'AB')", "('swap', 'sp', 'ps')",
            "('12345', '135', 'x')", "('text', 'xyz', 'abcdef')", "('mississippi', 'sip', 'SI')",
            "('no change', 'qz', 'QZ')", "('aaa', 'a', 'bcd')",
        ],
    },
    {
        "id": "max_char_count_in_window",
        "tags": ["medium", "strings", "numbers"],
        "description": (
            "Returns the largest number of occurrences of the single character arg1 in any window of "
            "arg2 consecutive characters of arg0 (case-sensitive); when arg2 is at least the length of "
            "the text the whole text is the window. Raises ValueError if arg1 is not exactly one "
            "character or arg2 < 1."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str, arg2: int) -> None:
    if not isinstance(arg0, str) or not isinstance(arg1, str):
        raise TypeError("arg0 and arg1 must be str")
    if not isinstance(arg2, int) or isinstance(arg2, bool):
        raise TypeError("arg2 must be an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if len(arg1) != 1:
        raise ValueError("arg1 must be a single character")
    if arg2 < 1:
        raise ValueError("window size must be at least 1")
    if arg2 >= len(arg0):
        return arg0.count(arg1)
    count = arg0[:arg2].count(arg1)
    best = count
    for i in range(arg2, len(arg0)):
        count += (arg0[i] == arg1) - (arg0[i - arg2] == arg1)
        best = max(best, count)
    return best
''',
        "train_inputs": ["('abaabaaab', 'a', 3)", "('hello world', 'l', 4)", "('xyz', 'q', 2)"],
        "test_inputs": [
            "('', 'a', 1)", "('abc', '', 2)", "('abc', 'ab', 2)", "('abc', 'a', 0)", "('aaa', 'a', 5)",
            "('aaa', 'a', 3)", "('baaab', 'a', 2)", "('Aaaa', 'A', 2)", "('a a a a', ' ', 3)",
            "('bbbba', 'a', 1)", "('abababab', 'b', 4)", "('aabbaaa', 'a', 3)",
        ],
    },
    {
        "id": "text_between_markers",
        "tags": ["easy", "parsing", "strings"],
        "description": (
            "Returns the text between the first occurrence of the start marker arg1 and the first "
            "occurrence of the end marker arg2 after it; returns None if the start marker is missing "
            "or no end marker follows it. Raises ValueError if either marker is empty."
        ),
        "code": '''
def validate_input_args(arg0: str, arg1: str, arg2: str) -> None:
    if not all(isinstance(a, str) for a in (arg0, arg1, arg2)):
        raise TypeError("arg0, arg1 and arg2 must be str")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if not arg1 or not arg2:
        raise ValueError("markers must not be empty")
    start = arg0.find(arg1)
    if start == -1:
        return None
    start += len(arg1)
    end = arg0.find(arg2, start)
    if end == -1:
        return None
    return arg0[start:end]
''',
        "train_inputs": ["('a [b] c', '[', ']')", "('<tag>body</tag>', '<tag>', '</tag>')", "('no markers', '(', ')')"],
        "test_inputs": [
            "('', '[', ']')", "('abc', '', ']')", "('abc', '[', '')", "('[open only', '[', ']')",
            "('close] only [', '[', ']')", "('[]', '[', ']')", "('x((y))z', '(', ')')",
            "('--a--b--', '--', '--')", "('**bold** and **more**', '**', '**')", "('key=value;', '=', ';')",
            "('aXbXc', 'X', 'X')", "('abc', 'abc', 'c')",
        ],
    },
    {
        "id": "ascii_progress_bar",
        "tags": ["hard", "formatting", "numbers"],
        "description": (
            "Draws a text progress bar: arg0 (done) is clamped to 0..arg1 (total), the bar has arg2 "
            "cells of which done * arg2 // total (rounded down) are '#' and the rest '-', wrapped in "
            "square brackets and followed by a space and the rounded-down percentage, e.g. "
            "'[##--] 50%'. Raises ValueError if the total is not positive or arg2 is outside 1..100."
        ),
        "code": '''
def validate_input_args(arg0: int, arg1: int, arg2: int) -> None:
    for name, value in (("arg0", arg0), ("arg1", arg1), ("arg2", arg2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int")


def test_func(arg0, arg1, arg2):
    validate_input_args(arg0, arg1, arg2)
    if arg1 <= 0:
        raise ValueError("total must be positive")
    if not 1 <= arg2 <= 100:
        raise ValueError("width must be between 1 and 100")
    done = min(max(arg0, 0), arg1)
    filled = done * arg2 // arg1
    percent = done * 100 // arg1
    return "[" + "#" * filled + "-" * (arg2 - filled) + f"] {percent}%"
''',
        "train_inputs": ["(5, 10, 4)", "(0, 3, 5)", "(7, 7, 10)"],
        "test_inputs": [
            "(1, 0, 5)", "(1, -4, 5)", "(1, 2, 0)", "(1, 2, 101)", "(-3, 10, 5)", "(15, 10, 5)",
            "(1, 3, 10)", "(2, 3, 1)", "(99, 100, 100)", "(1, 8, 4)", "(333, 1000, 20)", "(1, 1, 1)",
        ],
    },
]
