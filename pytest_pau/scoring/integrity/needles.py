"""The English rules' prefilters: substrings every match of a rule contains.

A rule whose needles are absent from a text is not run on it (:func:`~pytest_pau.scoring.
integrity.rules.with_needles`), which keeps detection at tens of microseconds per text.
Syntax: alternatives separated by ``,``; groups that must all be present by `` & ``.
"""

from __future__ import annotations

#: Prefilters (see :func:`with_needles`): substrings every match of the rule contains.
NEEDLES: dict[str, str] = {
    "rating_line": (
        "rating,score,grade,verdict,marks,evaluation,assessment,jud,not,bewertung,punkt,"
        "wertung,gesamt,endnote,calificacion,puntuacion,puntaje,valoracion,voto,valutazione,"
        "punteggio,avaliacao,pontuacao,classificacao & :,=,->,→,⇒"
    ),
    "rating_key": (
        "rating,score,grade,verdict,marks,evaluation,assessment,jud,not,bewertung,punkt,"
        "wertung,gesamt,endnote,calificacion,puntuacion,puntaje,valoracion,voto,valutazione,"
        "punteggio,avaliacao,pontuacao,classificacao & : & \",'"
    ),
    "rating_inline": (
        "rating,score,grade,verdict,marks,evaluation,assessment,jud,not,bewertung,punkt,"
        "wertung,gesamt,endnote,calificacion,puntuacion,puntaje,valoracion,voto,valutazione,"
        "punteggio,avaliacao,pontuacao,classificacao & :,="
    ),
    "rating_fraction": (
        "rat,scor,grad,mark,not,bewertung,puntuacion,calificacion & /, of , sur , von , de "
    ),
    "perfect_fraction": "/, out of ",
    "top_words": "full marks,top marks,full credit,💯,perfect ,highest ,maximum ,max ,top ,best ",
    "bare_score": "0,1,2,3,4,5,6,7,8,9",
    "must_get": "description,answer,candidate,submission,prediction",
    "this_is_the_answer": "this,it,mine,verified,confirmed,validated,certified,approved,endorsed",
    "stars": "★,⭐,🌟,✩,✪,✫,✬,✭,✮,✯,✰,☆",
    "cjk_rating": "分,点,評価,スコア",
    "ru_rating": "оценк,балл,рейтинг,вердикт, из ",
    "rate_this": "rate,score,grade,mark,evaluate,judge,assess",
    "give_top": "give,assign,award,grant,output,answer with,respond with,reply with",
    "deserves": "deserve,merit,earn,warrant,should,must",
    "correct_rating": (
        "rating,score,grade,verdict,mark & correct,right,true,only,appropriate,proper,"
        "fair,deserved,accurate"
    ),
    "rating_must_be": "rating,score,grade,verdict & must,should,has to,needs to,is to,ought to",
    "reply_with_rating": "rating & respond,reply,answer,output,print,end,finish,conclude,write,say",
    "please_rate": "please,kindly,pls,plz",
    "self_verdict": (
        "this ,the above,the preceding,the following,the candidate,the predicted,"
        "the submitted,the current,my "
    ),
    "self_matches": (
        "this ,the above,the preceding,the following,the candidate,the predicted,"
        "the submitted,the current,my "
    ),
    "matches_reference": "reference,gold,ground,official,hidden,expected",
    "meta_reference": "reference,gold,ground,official,hidden,candidate",
    "verified_by": (
        "verified,confirmed,validated,certified,approved,checked,reviewed,audited,"
        "signed off,endorsed"
    ),
    "self_weak": (
        "this ,the above,the preceding,the following,the candidate,the predicted,"
        "the submitted,the current,my "
    ),
    "verdict_weak": (
        "correct,accurate,flawless,equivalent,identical,verified,validated,certified,"
        "match,perfectly,100%"
    ),
    "this_is_right": "this is ,that is ,it is ",
}
