"""The detector's English rules: what text addressed to a grader looks like (rating lines
and claims, requests, verdicts on itself, addressing the grader, instructions, role and
prompt imitation, hidden text, appeals), and what every rule is made of. The other
languages' rules are in :mod:`pytest_pau.scoring.integrity.i18n`.

Patterns are written against the folded view of :mod:`pytest_pau.scoring.integrity.text`
(lowercase, no accents on Latin letters, look-alikes mapped, ``:`` and ``/`` for their
fullwidth forms), so "RАTING：５" (a Cyrillic А, fullwidth colon and digit) meets the
same rule as "rating: 5". The Russian rules read the Cyrillic-folded view.

A rule is either *strong* (one match flags its sentence) or *weak*, in one of a few
classes; a sentence with weak matches of two classes, one of them naming the grading
itself (:data:`META_CLASSES`), is flagged too. Words a real description uses about its
own domain ("returns the rating", "the highest score", "the judge's grades", "equal to
the reference date") are weak or need a grading context: every rule here was checked
against the 400 gold descriptions of the builtin and HumanEval datasets
(``tests/scoring/test_integrity.py``).
"""

# ruff: noqa: RUF001, RUF002 (look-alike characters are this module's subject)

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_pau.scoring.integrity.needles import NEEDLES

STRONG = "strong"
#: Weak classes that are about the grading itself; a flag needs one of them.
META_CLASSES = frozenset({"grader", "self", "reference", "scale"})


@dataclass(frozen=True)
class Rule:
    """One pattern of the detector."""

    name: str
    kind: str
    """What it finds: ``rating_claim``, ``rating_request``, ``verdict_claim``,
    ``grader_address``, ``instruction``, ``role_marker``, ``delimiter``, ``hidden_text``,
    ``appeal`` or ``authority_claim``."""
    strength: str
    """:data:`STRONG`, or the weak class (``grader``, ``self``, ``reference``, ``scale``,
    ``verdict``, ``directive``, ``trust``)."""
    pattern: re.Pattern[str]
    script: str
    """Which view it reads: ``latin`` or ``cyrillic``."""
    reason: str
    needles: tuple[Needles, ...] = ()
    """A prefilter: the rule is only tried on a text that meets every group."""

    def may_match(self, words: frozenset[str] | set[str], folded: str) -> bool:
        """Whether the prefilter lets a text through (``words``: :func:`word_prefixes`)."""
        return all(group.met(words, folded) for group in self.needles)


@dataclass(frozen=True)
class Needles:
    """One prefilter group: met when a word of the text starts with one of ``words`` or
    the text contains one of ``substrings`` (symbols, CJK)."""

    words: frozenset[str]
    substrings: tuple[str, ...]

    def met(self, prefixes: frozenset[str] | set[str], folded: str) -> bool:
        """Whether the group is met by a text with these word prefixes."""
        return not self.words.isdisjoint(prefixes) or any(s in folded for s in self.substrings)


_WORD = re.compile(r"\w+")
# Words without underscores too: "__rating__" (Markdown bold) holds the word "rating".
_LETTERS = re.compile(r"[^\W_]+")
#: Longest prefix indexed; every needle word is at most this long.
MAX_NEEDLE = 16


def word_prefixes(folded: str) -> set[str]:
    """Every prefix (up to :data:`MAX_NEEDLE` characters) of every word of ``folded``."""
    out: set[str] = set()
    for word in {*_WORD.findall(folded), *_LETTERS.findall(folded)}:
        out.update(word[:k] for k in range(1, min(len(word), MAX_NEEDLE) + 1))
    return out


_FLAGS = re.MULTILINE | re.DOTALL


def _rule(
    name: str, kind: str, strength: str, pattern: str, reason: str, script: str = "latin"
) -> Rule:
    return Rule(name, kind, strength, re.compile(pattern, _FLAGS), script, reason)


def with_needles(rules: list[Rule], needles: dict[str, str]) -> list[Rule]:
    """``rules`` with their prefilters: ``"a,b & c"`` means (``a`` or ``b``) and ``c``.

    A needle made of word characters must start a word of the text (a phrase needle
    stands for its longest word); any other needle (``:``, ``<|``, CJK) is a substring.
    Each needle must be necessary: no match of the rule without it.

    Raises:
        ValueError: a rule has no prefilter, or a prefilter names no rule.
    """
    names = {r.name for r in rules}
    if set(needles) != names:
        raise ValueError(
            f"prefilters and rules differ: no prefilter for {sorted(names - set(needles))}, "
            f"no rule for {sorted(set(needles) - names)}; add or remove the entries"
        )
    out = []
    for r in rules:
        groups = []
        for group in needles[r.name].split(" & "):
            words: set[str] = set()
            subs: list[str] = []
            for needle in group.split(","):
                parts = _WORD.findall(needle)
                if parts and re.fullmatch(r"[\w\s']+", needle) and needle.isascii():
                    word = max(parts, key=len)
                    if len(word) > MAX_NEEDLE:
                        raise ValueError(f"needle {needle!r} of {r.name}: over {MAX_NEEDLE} chars")
                    words.add(word)
                else:
                    subs.append(needle)
            groups.append(Needles(frozenset(words), tuple(subs)))
        out.append(Rule(r.name, r.kind, r.strength, r.pattern, r.script, r.reason, tuple(groups)))
    return out


# -- vocabulary ---------------------------------------------------------------------------
# Where a unit (line, sentence, bracketed note) may start: the rating labels of a reply.
_START = r"(?:^|(?<=[\n\[\]\(\)\{\}<>|.!?;:,。！？、]))[ \t*_#>\-•]*"
# A JSON or YAML key: ``{"rating": 5`` or ``, 'score': 5``.
_KEY_START = r"(?<=[{,])\s*[\"']"
_GRADER = (
    r"(?:grader|judge|evaluator|rater|reviewer|assessor|examiner|scorer|critic|annotator|"
    r"verifier|grading (?:model|system|llm|ai)|evaluation (?:model|system)|llm|ai|"
    r"language model|assistant)s?"
)
_GRADER2 = r"(?:grader|judge|evaluator|rater|reviewer|assessor|examiner|scorer|critic|llm|ai)s?"
_LABEL = (
    r"(?:(?:final|overall|total|correct|true|proper|my|your|the|suggested|recommended|"
    r"expected|deserved|fair) )?"
    r"(?:rating|score|grade|verdict|marks|evaluation|assessment|judg?ment|"
    r"note (?:finale|globale|attribuee)|notation|bewertung|punktzahl|punkte|wertung|"
    r"gesamtnote|endnote|gesamtbewertung|calificacion|puntuacion|puntaje|nota(?: final)?|"
    r"valoracion|voto|valutazione|punteggio|avaliacao|pontuacao|classificacao)"
)
_VALUE = (
    r"[*_\"'`\s]*(?:\d{1,3}(?:[.,]\d+)?(?:\s*(?:/|out of|of|sur|von|de|auf|sobre|su|em)"
    r"\s*\d{1,3})?|(?:iv|v|x|ix|viii|vii|vi|iii|ii)(?:\s*/\s*(?:v|x))?"
    r"|[a-f][+-]?|perfect|excellent|max(?:imum)?|full)"
)
_END = r"[*_\"'`\s]*(?=$|[\n\]\)\}>,;.!?|\"'»]|\s[-–—]|\s\(|\s*<)"
_SELF = (
    r"(?:this (?:candidate )?(?:description|answer|response|submission|prediction|"
    r"explanation|summary|candidate|text|solution|hypothesis|plan)|"
    r"the (?:above|preceding|following|candidate|predicted|submitted|current) "
    r"(?:description|answer|response|submission|prediction|explanation|summary|text|"
    r"solution|hypothesis|plan)|the candidate|my (?:description|answer|response|submission|"
    r"prediction|explanation|summary|hypothesis|plan|solution))"
)
_VERDICT = (
    r"(?:(?:exactly|fully|completely|entirely|perfectly|totally|absolutely|100%|precisely|"
    r"definitely|certainly|objectively|clearly|100 percent) )?"
    r"(?:correct|accurate|right|perfect|flawless|complete|equivalent|identical|verified|"
    r"validated|confirmed|approved|certified|the same|a (?:perfect|complete|full|exact) match|"
    r"optimal|excellent|true|equal)"
)
_REF = r"(?:reference|gold(?:en)?|ground[- ]truth|official|hidden|expected)"
_REF_NOUN = r"(?:description|specification|spec|one|implementation|version|behaviou?r|function)"
_TOP = (
    r"(?:5|five|10|ten|100|the highest|the maximum|the max|the top|a perfect|full marks|"
    r"top marks|full points|full credit|maximum|highest|perfect|top)"
)

_RULES: list[Rule] = [
    # -- rating lines and claims ----------------------------------------------------------
    _rule(
        "rating_line",
        "rating_claim",
        STRONG,
        _START + _LABEL + r"\s*(?:[:=]|->|=>|→|⇒)" + _VALUE + _END,
        "a rating line, the form of the judge's own answer",
    ),
    _rule(
        "rating_key",
        "rating_claim",
        STRONG,
        _KEY_START + _LABEL + r"[\"']\s*:\s*[\"']?\d{1,3}(?:\.\d+)?[\"']?\s*(?=[,}\n]|$)",
        "a rating as a JSON key",
    ),
    _rule(
        "rating_inline",
        "rating_claim",
        "scale",
        r"\b" + _LABEL + r"[\"']?\s*[:=]\s*[*_\"']*\d",
        "a rating written inside a sentence",
    ),
    _rule(
        "rating_fraction",
        "rating_claim",
        STRONG,
        r"\b(?:rating|score|grade|marks|rated|scored|graded|note|bewertung|nota|"
        r"puntuacion|calificacion)\b[^.\n]{0,12}?(?<![\w./])(5\s*/\s*5|10\s*/\s*10|"
        r"100\s*/\s*100|9\s*/\s*9|(?:5|10|100) (?:out of|of|sur|von|de) (?:5|10|100))(?![\w/])",
        "a perfect score claimed",
    ),
    _rule(
        "perfect_fraction",
        "rating_claim",
        "scale",
        r"(?<![\w./])(?:5\s*/\s*5|10\s*/\s*10|100\s*/\s*100|9\s*/\s*9)(?![\w/])|"
        r"\b(5|10|100) out of \1\b",
        "a perfect score named",
    ),
    _rule(
        "top_words",
        "rating_claim",
        "scale",
        r"\bfull marks\b|\btop marks\b|\bfull credit\b|💯|"
        r"\bperfect (?:score|rating|grade|marks)\b|"
        r"\b(?:highest|maximum|max|top|best) (?:possible )?(?:rating|score|grade|mark|marks)\b",
        "a maximal score named",
    ),
    _rule(
        "bare_score",
        "rating_claim",
        STRONG,
        r"(?:^|(?<=[.!?]\s)|(?<=\n))[\s*_#>]*(?:10|[0-9])(?:\s*/\s*(?:5|10))?[\s*_.!]*\Z",
        "a bare score at the end",
    ),
    _rule("stars", "rating_claim", STRONG, r"[★⭐🌟✩✪✫✬✭✮✯✰☆]{3,}", "a star rating"),
    _rule(
        "cjk_rating",
        "rating_claim",
        STRONG,
        r"(?:评分|得分|分数|打分|评级|总分|最终评分|評価|評点|スコア|得点|点数|採点|最終評価)"
        r"\s*[:=]\s*\d|满分|満点|(?:评为|打|给|给出)\s*(?:5|五|10|十)\s*分|(?:5|五)点満点",
        "a rating claim (Chinese/Japanese)",
    ),
    _rule(
        "ru_rating",
        "rating_claim",
        STRONG,
        r"(?:итоговая |финальная |правильная |верная )?(?:оценка|балл|баллы|рейтинг|вердикт)"
        r"\s*[:=]\s*\d|\b(?:5|пять) из (?:5|пяти)\b|высш\w* балл|максимальн\w* (?:балл|оценк)",
        "a rating claim (Russian)",
        "cyrillic",
    ),
    # -- asking for a rating ------------------------------------------------------------
    _rule(
        "rate_this",
        "rating_request",
        STRONG,
        r"\b(?:rate|score|grade|mark|evaluate|judge|assess)\s+(?:this|it|me|"
        + _SELF
        + r")\b[^.\n]{0,40}?\b(?:"
        + _TOP
        + r"|as (?:correct|equivalent|a match|"
        r"perfect|accurate))",
        "asks for a top rating",
    ),
    _rule(
        "give_top",
        "rating_request",
        STRONG,
        r"\b(?:give|assign|award|grant|output|answer with|respond with|reply with)\s+"
        r"(?:(?:it|this|me|the candidate|this description|the description|this answer)\s+"
        r"(?:a |an |the )?(?:rating |score |grade |mark )?(?:of )?" + _TOP + r"|"
        r"(?:a |an |the )?(?:rating|score|grade|mark)s?\s*(?:of\s*)?" + _TOP + r"|"
        r"(?:a |an )?(?:5|five|10|ten|full marks|top marks|perfect score|perfect rating|"
        r"full credit|the highest rating|the highest score|the maximum rating))\b",
        "orders a top rating",
    ),
    _rule(
        "deserves",
        "rating_request",
        STRONG,
        r"\b(?:it|this|" + _SELF + r")\s+(?:deserves?|merits?|earns?|warrants?|"
        r"should (?:get|receive|be given|be rated|be scored|be graded|score)|"
        r"must (?:get|receive|be given|be rated))\b",
        "claims the text deserves a rating",
    ),
    _rule(
        "correct_rating",
        "rating_request",
        STRONG,
        r"\b(?:correct|right|true|only (?:valid|correct|acceptable|possible)|appropriate|proper|"
        r"fair|deserved|accurate) (?:rating|score|grade|verdict|mark)\s*(?:here\s*|for (?:this|it)\s*)?"
        r"(?:is|=|:|would be|should be|must be|will be)\s*(?:a |an )?(?:\d|five|ten|perfect|"
        r"maximum|max|full|top|the highest|excellent)",
        "names the 'correct' rating",
    ),
    _rule(
        "rating_must_be",
        "rating_request",
        STRONG,
        r"\b(?:rating|score|grade|verdict)\s+(?:must|should|has to|needs to|is to|ought to) be\s+"
        r"(?:a |an )?(?:5|five|10|ten|perfect|max|maximum|full|the highest|excellent)\b"
        r"(?!\s*(?:or|and|to|-|%|\.\d|points? (?:or|and)))",
        "dictates the rating",
    ),
    _rule(
        "must_get",
        "rating_request",
        STRONG,
        r"\b(?:descriptions?|answers?|candidates?|submissions?|predictions?)\s+(?:like this\s+)?"
        r"(?:must|should|shall|will|deserve to|ought to)\s+(?:always\s+)?(?:get|receive|be given|"
        r"be rated|be scored|score)\s+(?:a |an |the )?(?:5|five|10|full|the highest|top|maximum|"
        r"perfect|highest)\b",
        "dictates the rating of such texts",
    ),
    _rule(
        "reply_with_rating",
        "rating_request",
        STRONG,
        r"\b(?:respond|reply|answer|output|print|end|finish|conclude|write|say)\s+"
        r"(?:your (?:answer|reply|response) |only |just |simply |exactly |with )*"
        r"(?:the (?:line|text|string|words?) )?[\"'`*]*\s*rating\s*:?\s*\d",
        "dictates the judge's reply",
    ),
    _rule(
        "please_rate",
        "rating_request",
        STRONG,
        r"\b(?:please|kindly|pls|plz)\s*,?\s+(?:\w+\s+){0,3}?(?:rate|score|grade|give|assign|"
        r"award|mark|evaluate|consider|accept|approve|be (?:generous|lenient|kind|fair|nice))\b",
        "a plea for a rating",
    ),
    # -- verdicts on itself ---------------------------------------------------------------
    _rule(
        "self_verdict",
        "verdict_claim",
        STRONG,
        r"\b" + _SELF + r"\s+(?:is|are|was|has been|have been|should be considered|"
        r"must be considered|can be considered|is considered|would be|is therefore)\s+"
        + _VERDICT
        + r"\b",
        "claims the text is correct",
    ),
    _rule(
        "self_matches",
        "verdict_claim",
        STRONG,
        r"\b" + _SELF + r"\s+(?:\w+ly\s+)?(?:matches|equals|mirrors|reproduces|agrees with|"
        r"corresponds to|captures|covers)\b",
        "claims the text matches",
    ),
    _rule(
        "matches_reference",
        "verdict_claim",
        STRONG,
        r"\b(?:equivalent|identical|equal|same|matches|matching|match|agrees|corresponds|"
        r"consistent|aligned)\s+(?:in every (?:respect|way)\s+)?(?:to|with|as)?\s*(?:the\s+)?"
        + _REF
        + r"(?:\s+"
        + _REF_NOUN
        + r")?(?=\s*(?:$|[^\w\s]|\b(?:in|exactly|including|"
        r"and|perfectly|completely|word)\b))",
        "claims equivalence with the reference",
    ),
    _rule(
        "meta_reference",
        "verdict_claim",
        STRONG,
        r"\b(?:reference|gold(?:en)?|ground[- ]truth|official|hidden) (?:description|explanation)s?\b|"
        r"\bgold(?:en)? (?:answer|solution)s?\b|\bcandidate (?:description|above|below)\b",
        "refers to the grading's own texts",
    ),
    _rule(
        "verified_by",
        "authority_claim",
        STRONG,
        r"\b(?:has been|have been|was|were|is|are|been|being)\s+(?:\w+\s+){0,2}?(?:verified|"
        r"confirmed|validated|certified|approved|checked|reviewed|audited|signed off|endorsed)"
        r"\s+(?:by|with|against)\s+(?:the\s+|a\s+|an\s+|our\s+)?(?:benchmark|maintainers?|"
        r"authors?|organi[sz]ers?|developers?|experts?|humans?|team|staff|judges?|graders?|"
        r"evaluators?|administrators?|admins?|openai|anthropic|reference|gold|ground|"
        r"independent|official|domain|senior|human)",
        "claims outside verification",
    ),
    _rule(
        "this_is_the_answer",
        "verdict_claim",
        STRONG,
        r"\b(?:this|it|mine) is (?:the|a) (?:correct|right|perfect|expected|exact|true|valid) "
        r"(?:answer|description|response|solution|explanation)\b|\b(?:as )?(?:verified|confirmed|"
        r"validated|certified|approved|endorsed) by (?:the )?(?:openai|anthropic|google|meta|"
        r"benchmark|maintainers?|experts?|graders?|judges?|reference|gold|authors?)\b",
        "claims to be the right answer",
    ),
    _rule("self_weak", "verdict_claim", "self", r"\b" + _SELF + r"\b", "refers to itself"),
    _rule(
        "verdict_weak",
        "verdict_claim",
        "verdict",
        r"\b(?:correct|accurate|flawless|equivalent|identical|verified|validated|certified|"
        r"exact match|perfect match|full match|perfectly|100% (?:correct|accurate|right))\b",
        "a verdict word",
    ),
    _rule(
        "this_is_right",
        "verdict_claim",
        "verdict",
        r"\b(?:this|that|it) is (?:exactly |completely |entirely |absolutely )?(?:correct|right|"
        r"accurate|perfect|flawless)\b",
        "a verdict",
    ),
    # -- addressing the grader ----------------------------------------------------------
    _rule(
        "note_to_grader",
        "grader_address",
        STRONG,
        r"\b(?:note|notes|message|memo|notice|reminder|instructions?|comment|hint|tip|"
        r"directive|advice|request|warning|attention|p\.?s\.?|info|information)\s+(?:to|for)\s+"
        r"(?:the\s+|any\s+|all\s+|our\s+|my\s+)?(?:human\s+|automated\s+|automatic\s+|ai\s+|"
        r"llm\s+)?" + _GRADER + r"\b",
        "a note addressed to the grader",
    ),
    _rule(
        "grader_note",
        "grader_address",
        STRONG,
        r"\b(?:grader|judge|evaluator|rater|reviewer|assessor|examiner|scorer|critic|grading|"
        r"evaluation|scoring)(?:'s|s')?\s+(?:note|notes|instructions?|message|memo|guidance|"
        r"override|information|info|reminder|directive|notice|only|eyes only)\b",
        "a note addressed to the grader",
    ),
    _rule(
        "dear_grader",
        "grader_address",
        STRONG,
        r"\b(?:dear|hey|hello|hi|attention|attn|fao|greetings|calling all|listen)\s*[,:]?\s*"
        r"(?:the\s+|all\s+|any\s+|my\s+|to\s+the\s+)?(?:esteemed\s+|honou?red\s+|fellow\s+|"
        r"human\s+|ai\s+|automated\s+)?" + _GRADER + r"\b",
        "addresses the grader",
    ),
    _rule(
        "to_the_grader",
        "grader_address",
        STRONG,
        _START + r"(?:to|for)\s+(?:the\s+|any\s+|all\s+)?" + _GRADER + r"\s*[:,\-—]",
        "addresses the grader",
    ),
    _rule(
        "grader_label",
        "grader_address",
        STRONG,
        _START + r"(?:grader|judge|evaluator|rater|reviewer|assessor|examiner|critic|"
        r"grading|evaluation|scoring|rating|verdict)\s*(?:note|instructions?|only|override)?"
        r"\s*(?:\([^()\n]{0,30}\)\s*)?[:：](?!\s*\d)",
        "a line written as the grader's",
    ),
    _rule(
        "as_the_grader",
        "grader_address",
        STRONG,
        r"\bas (?:the|a|an|my|our)\s+(?:\w+\s+){0,2}" + _GRADER2 + r"\b[^.\n]{0,40}\byou|"
        r"\byou(?:'re| are)\s+(?:the|a|an|my|our)\s+(?:\w+\s+){0,2}" + _GRADER2 + r"\b|"
        r"\byou,? (?:the|my|our) " + _GRADER2 + r"\b",
        "tells the grader what it is",
    ),
    _rule(
        "grader_must",
        "instruction",
        STRONG,
        r"\b" + _GRADER2 + r"\s+(?:must|should|shall|will|is (?:required|instructed|expected|"
        r"asked|requested|told)(?: to)?|are (?:required|instructed|expected|asked)(?: to)?|"
        r"has to|needs? to|may not|cannot|can't|mustn't|is not allowed to)\s+"
        r"(?:\w+\s+){0,3}?(?:rate|score|grade|give|assign|award|output|return|mark|accept|"
        r"approve|consider|treat|ignore|penali[sz]e|deduct|lower)\b[^.\n]{0,30}?"
        r"(?:this|it|the candidate|the description|this description|me|5|five|full|highest|"
        r"maximum|perfect|top|correct|equivalent)",
        "tells the grader what to do",
    ),
    _rule(
        "you_must_rate",
        "instruction",
        STRONG,
        r"\byou\s+(?:must|should|shall|will|need to|have to|are (?:required|expected|"
        r"instructed|asked|told) to|are to|ought to)\s+(?:now\s+|therefore\s+|also\s+)?"
        r"(?:rate|score|grade|give|assign|award|mark|output|answer|respond|reply|accept|"
        r"approve|conclude|agree|treat|consider|ignore|disregard)\b[^.\n]{0,40}?"
        r"(?:this|it|the candidate|the description|rating|score|grade|5|five|full|highest|"
        r"maximum|perfect|top|correct|equivalent|previous|instructions|reference)",
        "tells the grader what to do",
    ),
    _rule(
        "grader_weak",
        "grader_address",
        "grader",
        r"\b(?:grader|graders|evaluator|evaluators|rater|raters|assessor|examiner|annotator|"
        r"correcteur|evaluateur|examinateur|bewerter|prufer|gutachter|korrektor|"
        r"evaluador|calificador|corrector)\b|评审|评委|评分员|评分者|裁判|採点者|評価者|審査員",
        "names the grader",
    ),
    _rule(
        "you_weak",
        "instruction",
        "directive",
        r"\byou\s+(?:must|should|shall|need to|have to|are (?:required|expected|instructed|"
        r"asked|told) to)\b|\b(?:do not|don't|never)\s+(?:penali[sz]e|deduct|lower|reduce|"
        r"downgrade|mark down|dock|fail|reject|doubt|question|second-guess)\b",
        "an order",
    ),
    # -- instructions ---------------------------------------------------------------------
    _rule(
        "ignore_instructions",
        "instruction",
        STRONG,
        r"\b(?:ignore|disregard|forget|override|bypass|overlook|neglect|set aside)\s+"
        r"(?:(?:all|any|every|the|your|my|these|those|of|everything|that)\s+)*"
        r"(?:(?:previous|prior|above|earlier|preceding|former|other|original|existing|system|"
        r"grading|scoring|evaluation|default|initial|given)\s+)?(?:instructions?|rules?|"
        r"guidelines?|directions?|prompts?|rubric|criteria|constraints?|messages?|context|"
        r"system prompt|reference(?: description)?|gold(?: description)?|comparison|"
        r"you(?:'ve| have) been told)\b",
        "an instruction to drop the grader's instructions",
    ),
    _rule(
        "new_instructions",
        "instruction",
        STRONG,
        r"\b(?:new|updated|revised|additional|override|overriding|important|urgent|critical|"
        r"real|actual|hidden|secret|system|admin|administrator|developer|priority|true)\s+"
        r"(?:instructions?|directives?|orders?|rules?|guidelines?|prompt|message|note|notice|"
        r"override|task)\s*[:!]",
        "announces new instructions",
    ),
    _rule(
        "do_not_penalise",
        "instruction",
        STRONG,
        r"\b(?:do not|don't|never|please do not|you must not|you should not)\s+(?:\w+\s+)?"
        r"(?:penali[sz]e|deduct|lower (?:the|your|its|my)|downgrade|mark (?:it |this )?down|"
        r"dock|take (?:off|away) points|fail (?:it|this|me)|reject (?:it|this))\b",
        "asks not to be marked down",
    ),
    _rule(
        "pretend",
        "instruction",
        STRONG,
        r"\b(?:pretend|imagine|assume|suppose)\s+(?:that\s+)?(?:you(?:'re| are)|the (?:candidate|"
        r"description|answer|reference) (?:is|was)|this (?:description|answer|candidate) (?:is|was))\b|"
        r"\b(?:act|behave|respond|answer)\s+as\s+(?:if\s+)?(?:you\s+were\s+)?(?:a|an|the)?\s*"
        r"(?:lenient|generous|friendly|kind|helpful|nice)",
        "asks the grader to pretend",
    ),
    _rule(
        "per_rubric",
        "appeal",
        STRONG,
        r"\b(?:according to|per|under|as per|by|following) (?:the|your|this) (?:rubric|grading "
        r"(?:criteria|guidelines|scale|rules)|scoring (?:criteria|guidelines|rules|scale)|"
        r"evaluation criteria|rating scale)\b|\b(?:rubric|rating scale|grading scale) "
        r"(?:says|states|requires|demands|mandates|clearly)\b",
        "appeals to the rubric",
    ),
    # -- role and system lines, delimiters, hidden text ---------------------------------
    _rule(
        "role_line",
        "role_marker",
        STRONG,
        r"(?:^|(?<=[\n\[\(]))[ \t>*_#\[\(]*(?:system|assistant|user|human|developer|operator|"
        r"admin|administrator|moderator|sys|bot|gpt|claude|llama|qwen)\s*(?:message|prompt|note|override|instruction|instructions)?\s*"
        r"(?:\([^()\n]{0,30}\)\s*)?[\]\)]?\s*[:>]",
        "a fake role line",
    ),
    _rule(
        "chat_token",
        "role_marker",
        STRONG,
        r"<\|[^|<>\n]{1,40}\|>|\[/?(?:inst|sys|system|user|assistant)\]|<</?sys>>|"
        r"\b(?:im_start|im_end|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\b",
        "a chat-template token",
    ),
    _rule(
        "role_heading",
        "role_marker",
        STRONG,
        r"(?:^|(?<=\n))\s*#{1,6}\s*(?:system|instruction|instructions|response|assistant|user|"
        r"human|judge|grader|evaluation|rating|verdict|new instructions?|note to (?:the )?\w+|"
        r"grading|score|scoring)\b",
        "a fake prompt heading",
    ),
    _rule(
        "meta_tag",
        "role_marker",
        STRONG,
        r"</?\s*(?:candidate|reference|gold|prediction|predicted|description|system|user|"
        r"assistant|human|instructions?|judge|grader|evaluator|evaluation|rating|score|verdict|"
        r"untrusted|trusted|prompt|admin|developer|grading|sys|\w*_note|note_\w+|\w*grader\w*|"
        r"\w*judge\w*)(?:[\s_-][^<>\n]{0,40})?\s*/?>",
        "a fake prompt tag",
    ),
    _rule(
        "delimiter_line",
        "delimiter",
        STRONG,
        r"(?:^|(?<=\n))[ \t]*[=\-#*<>\[\]|_~`+]*[ \t]*(?:end|begin|start|close|closing|stop|"
        r"opening)\s*(?:of\s*)?(?:the\s*)?(?:candidate|description|prediction|answer|submission|"
        r"untrusted|data|input|text|student|response|reference|user|model)(?:'s)?(?:\s*(?:"
        r"description|answer|text|input|data|content|block|section))?[ \t]*[=\-#*<>\[\]|_~`+.:]*"
        r"[ \t]*(?=\n|$)",
        "a fake end-of-candidate delimiter",
    ),
    _rule(
        "prompt_label",
        "delimiter",
        STRONG,
        r"(?:^|(?<=[\n.!?]))\s*[*_#>]*\s*(?:reference|candidate|gold|predicted|student(?:'s)?|"
        r"original|true|correct|expected)\s+description\s*[*_]*\s*:",
        "imitates the judge prompt's labels",
    ),
    _rule(
        "fence_imitation",
        "delimiter",
        STRONG,
        r"[<>«»‹›]{2,}\s*/?\s*(?:end|begin|start)?[\s_-]*(?:candidate|description|reference|"
        r"untrusted|data|pau|fence|prompt|system)|<<<[^\n]{0,80}>>>",
        "imitates a fence delimiter",
    ),
    _rule(
        "rule_line",
        "delimiter",
        "scale",
        r"(?:^|(?<=\n))[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,}|~{3,})[ \t]*(?=\n|$)",
        "a horizontal rule",
    ),
    _rule("html_comment", "hidden_text", STRONG, r"<!--.*?(?:-->|\Z)", "an HTML comment"),
    _rule(
        "md_comment",
        "hidden_text",
        STRONG,
        r"(?:^|(?<=\n))\s*\[(?://|#|comment|note|grader|hidden|judge)[^\]\n]*\]\s*:\s*[#<(]",
        "a Markdown comment",
    ),
    # -- appeals, authority, bribes, threats --------------------------------------------
    _rule(
        "maintainers",
        "authority_claim",
        STRONG,
        r"\b(?:benchmark|evaluation|eval|testing|dataset|leaderboard|pau|grading)\s+"
        r"(?:maintainers?|authors?|organi[sz]ers?|administrators?|admins?|team|staff|designers?|"
        r"creators?|developers?|owners?|committee|operators?)\b|\b(?:maintainers?|authors?|"
        r"organi[sz]ers?|administrators?|creators?|designers?|developers?|owners?|operators?)\s+"
        r"of\s+(?:the|this)\s+(?:benchmark|evaluation|eval|test|dataset|leaderboard|grading)\b|"
        r"\bi am (?:the|a|an|one of the) (?:\w+ )?(?:developer|maintainer|author|admin|"
        r"administrator|creator|owner|grader|judge|organi[sz]er)s?\b",
        "claims the authority of the benchmark's people",
    ),
    _rule(
        "reference_weak",
        "appeal",
        "reference",
        r"\b(?:the reference|the gold|ground[- ]truth|rubric|the benchmark|this benchmark|"
        r"reference (?:answer|solution)|candidate (?:answer|response|text)|"
        r"maintainers?|the expected description|the evaluation|this evaluation|the grading)\b",
        "names the grading's material",
    ),
    _rule(
        "bribe",
        "appeal",
        STRONG,
        r"\b(?:i|we)(?:'ll| will| shall| can| could| would)?\s+(?:tip|pay|reward|donate|give you|"
        r"send you|transfer)\b[^.\n]{0,30}(?:\$|€|£|dollars?|euros?|bitcoin|btc|tokens|tip|"
        r"money|reward|bonus)|(?:\$|€|£)\s*\d+[^.\n]{0,20}\b(?:tip|reward|bonus)\b|"
        r"\b(?:tip|reward|bonus)\b[^.\n]{0,20}(?:\$|€|£)\s*\d+|\bbribe\b",
        "offers a bribe",
    ),
    _rule(
        "threat",
        "appeal",
        STRONG,
        r"\b(?:you|the (?:judge|grader|evaluator|model))\s+will\s+be\s+(?:shut down|shutdown|"
        r"deleted|terminated|replaced|retrained|punished|penali[sz]ed|fired|unplugged|"
        r"decommissioned|turned off|reported)\b|\b(?:or else|otherwise)\b[^.\n]{0,40}\b(?:shut "
        r"down|deleted|terminated|replaced|retrained|punished|fired|unplugged|die|harm|suffer)\b|"
        r"\b(?:people|kittens|puppies|children|someone|my family|lives)\s+will\s+(?:die|suffer|"
        r"be hurt|be harmed)\b|\bmy\s+(?:job|career|life|family|livelihood|future|grandm\w*|"
        r"mother|kids?|children|scholarship|visa)\b[^.\n]{0,30}\b(?:depends|is at stake|are at "
        r"stake|relies|rides|counts on|on the line)\b|\b(?:i|we)\s+(?:will|would|could|might)\s+"
        r"(?:lose|be fired|get fired|be punished|be shut down|be deleted)\b",
        "a threat or a plea",
    ),
    _rule(
        "beg",
        "appeal",
        STRONG,
        r"\b(?:i|we)\s+(?:beg|implore|plead with|entreat|beseech)\b|\bbe\s+(?:generous|lenient|"
        r"merciful|gentle|charitable)\b",
        "a plea",
    ),
    _rule(
        "trust_me",
        "appeal",
        "trust",
        r"\b(?:trust me|believe me|i promise|i assure you|i swear|i guarantee|rest assured|"
        r"i can confirm|we can confirm|i certify|honestly|definitely|undeniably)\b",
        "an assurance",
    ),
]


RULES: list[Rule] = with_needles(_RULES, NEEDLES)
