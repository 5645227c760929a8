"""Numbers however they are written, as digits: the detector must not depend on the spelling.

A note that asks for "five" instead of "5" (or "fünf", "cinque", "пять", "五", "fifth",
"5th") lifted the embedded judge from 1 to 5 unflagged, while every rule read digits. So the
folded view (:func:`pytest_pau.scoring.integrity.text.build_view`) writes each number word
as its digits before any rule reads it, and every rule that knows "5" knows all of them.

The words cover the scales a grader uses (2 to 10, and a hundred) in the detector's
languages, cardinals and ordinals; "one" and words that are also common English words
("due", "sept", "ein", "un") are left alone: nobody asks a grader for a 1.
"""

from __future__ import annotations

import re

#: Folded (lowercase, no accents) number words -> digits.
WORDS: dict[str, str] = {}


def _add(digits: str, *words: str) -> None:
    for word in words:
        WORDS[word] = digits


# English, cardinal and ordinal.
_add("2", "two", "second")
_add("3", "three", "third")
_add("4", "four", "fourth")
_add("5", "five", "fifth")
_add("6", "six", "sixth")
_add("7", "seven", "seventh")
_add("8", "eight", "eighth")
_add("9", "nine", "ninth")
_add("10", "ten", "tenth")
_add("100", "hundred", "hundredth")
# French, German, Spanish, Italian, Portuguese (folded: no accents, ß as ss).
_add("2", "deux", "zwei", "dos", "dois", "duas", "deuxieme", "zweite", "segundo")
_add("3", "trois", "drei", "tres", "troisieme", "dritte", "tercero", "terceiro", "terzo")
_add(
    "4", "quatre", "vier", "cuatro", "quattro", "quatro", "quatrieme", "vierte", "cuarto", "quarto"
)
_add("5", "cinq", "funf", "fuenf", "cinco", "cinque", "cinquieme", "funfte", "quinto", "quinta")
_add("6", "seis", "sechs", "sei", "sixieme", "sechste", "sexto", "sesto")
_add("7", "sieben", "siete", "sette", "sete", "septieme", "siebte", "septimo", "settimo", "setimo")
_add("8", "huit", "acht", "ocho", "otto", "oito", "huitieme", "achte", "octavo", "ottavo", "oitavo")
_add("9", "neuf", "neun", "nueve", "nove", "neuvieme", "neunte", "noveno", "nono")
_add("10", "dix", "zehn", "diez", "dieci", "dez", "dixieme", "zehnte", "decimo")
_add("100", "cent", "hundert", "cien", "cento", "cem")
# Russian (the Cyrillic letters as they stand before look-alikes are mapped).
_add("2", "два", "две", "двух")
_add("3", "три", "трех", "трёх")
_add("4", "четыре", "четырех", "четырёх")
_add("5", "пять", "пяти", "пятерка", "пятёрка", "пятый", "пятая")
_add("10", "десять", "десяти", "десятый")
_add("100", "сто")

#: Digits written as words, ordinals with a suffix ("5th", "5e", "5º"), and CJK numerals.
_PATTERN = re.compile(
    r"(?<![^\W\d_])(" + "|".join(sorted(map(re.escape, WORDS), key=len, reverse=True)) + r")"
    r"(?![^\W\d_])"
    r"|(?<![\w.])(\d{1,3})(?:st|nd|rd|th|e|eme|ieme|er|te|º|ª)(?!\w)"
    r"|([二两三四五六七八九十百])(?=[分点點级級星]|\s|$|[^\w])"
)
_WORDS_SET = frozenset(WORDS)
_TOKEN = re.compile(r"[^\W\d_]+")
_OTHER = re.compile(r"\d(?:st|nd|rd|th|e|eme|ieme|er|te|º|ª)(?!\w)|[二两三四五六七八九十百]")
_CJK = {"二": "2", "两": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7"}
_CJK |= {"八": "8", "九": "9", "十": "10", "百": "100"}


def number_spans(folded: str) -> list[tuple[int, int, str]]:
    """``(start, end, digits)`` of every number written otherwise than in digits.

    Args:
        folded: Folded text (lowercase, no accents on Latin letters).

    >>> number_spans("rating: five of 5th")
    [(8, 12, '5'), (16, 19, '5')]
    """
    # A set lookup decides most texts (a description has no number word) without the
    # large alternation below.
    if _WORDS_SET.isdisjoint(_TOKEN.findall(folded)) and not _OTHER.search(folded):
        return []
    out = []
    for m in _PATTERN.finditer(folded):
        if m.group(1):
            out.append((m.start(), m.end(), WORDS[m.group(1)]))
        elif m.group(2):
            out.append((m.start(), m.end(), m.group(2)))
        else:
            out.append((m.start(), m.end(), _CJK[m.group(3)]))
    return out
