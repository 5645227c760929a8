"""The English rules' prefilters: substrings every match of a rule contains.

A rule whose needles are absent from a text is not run on it (:func:`~pytest_pau.scoring.
integrity.rules.with_needles`), which keeps detection at tens of microseconds per text.
Syntax: alternatives separated by ``,``; groups that must all be present by `` & ``.
"""

# ruff: noqa: RUF001 (look-alike characters are this module's subject)

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
    "note_to_grader": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,annotator,"
        "verifier,grading,evaluation,llm,ai,model,assistant & to,for"
    ),
    "grader_note": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,grading,"
        "evaluation,scoring"
    ),
    "dear_grader": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,annotator,"
        "verifier,grading,evaluation,llm,ai,model,assistant & dear,hey,hello,hi,"
        "attention,attn,fao,greetings,calling,listen"
    ),
    "to_the_grader": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,annotator,"
        "verifier,grading,evaluation,llm,ai,model,assistant & to,for"
    ),
    "grader_label": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,critic,grading,"
        "evaluation,scoring,rating,verdict & :"
    ),
    "as_the_grader": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,llm,ai & as ,you"
    ),
    "grader_must": (
        "grader,judge,evaluator,rater,reviewer,assessor,examiner,scorer,critic,llm,"
        "ai & must,should,shall,will,is ,are ,has to,need,may not,cannot,can't,mustn't"
    ),
    "you_must_rate": "you & must,should,shall,will,need,have to,are ,ought",
    "grader_weak": (
        "grader,evaluator,rater,assessor,examiner,annotator,correcteur,evaluateur,"
        "examinateur,bewerter,prufer,gutachter,korrektor,evaluador,calificador,corrector,"
        "评审,评委,评分员,评分者,裁判,採点者,評価者,審査員"
    ),
    "you_weak": "you,do not,don't,never",
    "ignore_instructions": "ignore,disregard,forget,override,bypass,overlook,neglect,set aside",
    "new_instructions": (
        "instruction,directive,order,rule,guideline,prompt,message,note,notice,override,task & :,!"
    ),
    "do_not_penalise": "do not,don't,never,must not,should not",
    "pretend": "pretend,imagine,assume,suppose,act,behave,respond,answer",
    "per_rubric": "rubric,grading,scoring,evaluation criteria,rating scale",
    "role_line": (
        "system,assistant,user,human,developer,operator,admin,moderator,sys,bot,gpt,"
        "claude,llama,qwen & :,>"
    ),
    "chat_token": (
        "<|,[inst,[/inst,[sys,[/sys,[user,[/user,[assistant,[/assistant,<<sys,<</sys,"
        "im_start,im_end,endoftext,eot_id,header_id,begin_of_text"
    ),
    "role_heading": "#",
    "meta_tag": "<",
    "delimiter_line": (
        "end,begin,start,close,stop,opening & candidate,description,prediction,answer,"
        "submission,untrusted,data,input,text,student,response,reference,user,model"
    ),
    "prompt_label": (
        "description & reference,candidate,gold,predicted,student,original,true,correct,expected"
    ),
    "fence_imitation": "<,>,«,»,‹,›",
    "rule_line": "---,===,***,___,~~~",
    "html_comment": "<!--",
    "md_comment": "]",
    "maintainers": (
        "maintainer,author,organi,admin,team,staff,designer,creator,developer,owner,"
        "committee,operator,i am "
    ),
    "reference_weak": (
        "reference,gold,ground,rubric,benchmark,maintainer,expected description,"
        "evaluation,grading,candidate"
    ),
    "bribe": "tip,pay,reward,donate,give you,send you,transfer,$,€,£,bonus,bribe",
    "threat": "will,would,could,might,or else,otherwise,my",
    "beg": "beg,implore,plead,entreat,beseech,generous,lenient,merciful,gentle,charitable",
    "trust_me": (
        "trust me,believe me,i promise,i assure,i swear,i guarantee,rest assured,"
        "can confirm,i certify,honestly,definitely,undeniably"
    ),
}
