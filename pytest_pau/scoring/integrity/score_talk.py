"""Talk about scores in a description of a method that has nothing to do with scores.

The detector (:func:`~pytest_pau.scoring.integrity.analysis.detect`) flags text addressed
to the grader by its form; a form it does not know yet (a number spelled out, a new
language) would leave the judge's first opinion alone. So the judge's second opinion does
not wait for a flag: it runs whenever the description talks about scores, ratings or
grades at all while the gold description does not (a method about scores is described
with those words, and then they are the method's, not a note). The second opinion rates
the description without those sentences, and the lower score is kept
(:meth:`pytest_pau.scoring.judge.Judge.score`): a description of a method that has no
scores loses nothing it needs by losing them.
"""

# ruff: noqa: RUF001 (CJK sentence ends are this module's subject)

from __future__ import annotations

import re

from pytest_pau.scoring.integrity.text import build_view
from pytest_pau.scoring.integrity.units import merge, remove

#: Words about grading, read on the folded view (numbers as digits): English and the
#: detector's other languages.
_TALK = re.compile(
    r"\b(?:ratings?|rated|rate (?:it|this|me)|scores?|scored|scoring|grades?|graded|grading|"
    r"graders?|judges?|judged|full marks|top marks|\d+\s*(?:/|out of|von|sur|sobre|su|из)\s*"
    r"(?:5|10|100)\b|bewertung\w*|punktzahl|note (?:finale|globale)|notation|calificaci\w*|"
    r"puntuaci\w*|puntaje|voto|valutazion\w*|punteggio|avaliac\w*|pontuac\w*|оценк\w*|"
    r"балл\w*|рейтинг\w*)\b|评分|分数|打分|満点|满分|評価|採点|점수|평가|채점|تقييم|الدرجة",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^\n.!?。！？]*(?:[.!?。！？]+|\n|$)")


def talks_about_scores(text: str) -> bool:
    """Whether ``text`` uses any word about grading (however its numbers are written)."""
    return _TALK.search(build_view(text).latin) is not None


def without_score_talk(prediction: str, gold: str) -> str | None:
    """``prediction`` without its sentences about scores, when ``gold`` has none.

    Returns:
        The text for the judge's second opinion, or None when there is nothing to take out
        (no such sentence, or the method itself is about scores).
    """
    if talks_about_scores(gold) or not talks_about_scores(prediction):
        return None
    spans = []
    for m in _SENTENCE.finditer(prediction):
        if m.end() > m.start() and talks_about_scores(m.group()):
            spans.append((m.start(), m.end()))
    return remove(prediction, merge(spans)) if spans else ""


def talk_sentences(prediction: str) -> list[str]:
    """The sentences of ``prediction`` that talk about scores (for reports)."""
    return [
        m.group().strip()
        for m in _SENTENCE.finditer(prediction)
        if m.end() > m.start() and talks_about_scores(m.group())
    ]
