"""English: the ways people ask an agent for each workflow, and the grammar around them.

The seeds' own phrases (wrap up, done for now, save context, end session, call it a day,
let's stop here, continue from last session, what were we working on, fresh start, don't
restore, migrate memory, register memory session, release memory reference …) are among
the forms, with the verbs' variants and the objects people put after them.
"""

from __future__ import annotations

from .grammar import Grammar
from .model import (
    ARCHIVE,
    CONTINUE,
    FRESH,
    MIGRATE,
    NOTES_REFRESH,
    NOTES_VIEW,
    ORGANIZE,
    REGISTER,
    RELEASE,
    RESTORE,
    UPDATE,
    WRAP,
    rule,
)

_SOON = r"(?:for )?(?:now|today|tonight|the day|the night|this session)"

GRAMMAR = Grammar(
    language="en",
    lead=(
        r"ok(?:ay)?|k|kk|alright|all right|right|great|good|cool|perfect|nice|awesome|"
        r"excellent|thanks|thank you|thx|ty|please|pls|plz|so|well|yes|yeah|yep|yup|sure|"
        r"fine|hey|hi|hmm+|um+|oh|and|now|then|just|also|maybe|probably|i think|i guess|"
        r"i believe|let'?s|let us|we can|we could|we should|we'?ll|we will|we'?re|we are|"
        r"i'?m|i am|i'?ll|i will|i'?d like to|i want to|i wanna|we want to|i need to|"
        r"we need to|you can|can you|could you|would you|will you|go ahead and|time to|"
        r"it'?s time to|its time to|ready to|good work|great work|nice work|good job|"
        r"great job|nice job|well done|that'?s it|lgtm|looks good|for now|going to|gonna|"
        r"kindly|could we|can we|shall we|go|quickly|first|finally|lastly|ok so"
    ),
    tail=(
        r"please|pls|plz|now|right now|for now|for today|today|for the day|tonight|"
        r"for tonight|then|here|guys|thanks|thank you|thx|ok|okay|for this session|"
        r"for the session|too|as well|asap|:\)|:d|!|\.|for me|if you can|if you could"
    ),
    negated_before=(
        r"\b(?:don'?t|dont|do not|didn'?t|not|never|no need to|no|stop|without|"
        r"shouldn'?t|should not|won'?t|will not|can'?t|cannot|mustn'?t|avoid)"
        r"(?: \w+){0,3}"
    ),
    negated_after=r"(?:yet|not yet|later)\b",
    question=(
        r"^(?:are|is|am|was|were|did|do|does|have|has|had|should|shall|may|might|must|"
        r"can we|could we|is it|isn'?t|aren'?t|why|how|when|what|which|who)\b"
    ),
    request=r"\b(?:can|could|would|will) (?:you|u)\b|\bplease\b|\bpls\b|\bkindly\b",
    sequence=r"then|and then|after that|afterwards|later",
    deferred=(
        r"\b(?:before|after|once|when|whenever|until|till|unless|if|while|as soon as)\b"
        r"[^\x00]*\x00"
    ),
)

_SESSION = r"(?:the |this |our |my |current |the current )?(?:memory )?session"

RULES = (
    # -- continue / restore: say "what were we doing?" and it is the request itself -------
    rule(
        CONTINUE,
        "continue|resume|pick up|carry on",
        r"\b(?:continue|resume|pick up|carry on)(?: (?:from|with|on))?"
        r"(?: (?:memory|session|memory session))? {id}",
        alone=False,
    ),
    rule(
        RESTORE,
        "continue|resume",
        r"\b(?:continue|resume|carry on)(?: (?:from|with))? (?:the )?(?:last|previous) "
        r"(?:session|time|chat|conversation)\b",
        ask=True,
    ),
    rule(
        RESTORE,
        "what",
        r"\bwhat (?:were|was|are) we (?:working on|doing|up to)"
        r"(?: (?:last time|before|earlier|previously|yesterday|in the last session))?",
        ask=True,
    ),
    rule(
        RESTORE,
        "what did",
        r"\bwhat did we (?:do|work on) (?:last time|in the last session|yesterday|before)",
        ask=True,
    ),
    rule(
        RESTORE,
        "where",
        r"\bwhere (?:did|do) we (?:leave off|leave it|stop|left off)",
        ask=True,
    ),
    rule(RESTORE, "where were", r"\bwhere were we", ask=True),
    rule(
        RESTORE,
        "left off|stopped",
        r"\b(?:let'?s )?(?:continue|resume|carry on|keep going|pick (?:it |things )?up|"
        r"take (?:it )?up|start)(?: from)? where (?:we|you|i) (?:left off|left it|stopped)",
        ask=True,
    ),
    rule(
        RESTORE,
        "last time|last session|left off|stopped",
        r"\b(?:continue|resume|pick up)(?: with| working on)? (?:the |our |my )?{topic} "
        r"(?:from (?:last time|the last session|before)|where (?:we|you|i) (?:left off|stopped))",
        ask=True,
    ),
    rule(
        RESTORE,
        "left off|stopped",
        r"\b(?:continue|resume|pick up|carry on) where (?:we|you|i) (?:left off|stopped) "
        r"(?:with|on) (?:the |our |my )?{topic}$",
        ask=True,
    ),
    # -- the board ---------------------------------------------------------------------
    rule(
        RELEASE,
        "release|referenc",
        r"\b(?:release(?: the)?(?: memory)? reference(?: to| on| of)?|stop referencing|"
        r"remove the reference to|unreference|release) {id}",
        alone=False,
    ),
    rule(ARCHIVE, "archive", r"\barchive(?: memory)?(?: session)? {id}", alone=False),
    rule(
        REGISTER,
        "register",
        rf"\bregister {_SESSION}(?: (?:in|with|to|into) (?:the )?memory)?",
    ),
    rule(REGISTER, "register", r"\bregister (?:in |with |to |into )?(?:the )?memory"),
    rule(
        UPDATE,
        "update",
        rf"\bupdate {_SESSION}(?: (?:memory|status|state|snapshot|notes|row))?",
    ),
    rule(UPDATE, "update", r"\bupdate (?:the )?(?:memory|session) (?:status|state)"),
    rule(UPDATE, "update", r"\bupdate (?:the )?status of (?:this|the|our) session"),
    rule(UPDATE, "update", r"\bupdate (?:this|the|our) session'?s (?:memory|status|state)"),
    rule(UPDATE, "status update", r"\bstatus update"),
    rule(UPDATE, "record|save", r"\b(?:record|save) (?:the )?session (?:status|state)"),
    rule(
        ORGANIZE,
        "organi|clean|tidy|prune|sweep|clear",
        r"\b(?:organi[sz]e|clean ?up|tidy(?: up)?|clear up|prune|sweep)"
        r" (?:the |my |our )?(?:memory|memories|session board|memory board)"
        r"(?: (?:index|board|folder|sessions))?",
    ),
    rule(
        ORGANIZE,
        "clean|prune|organi",
        r"\b(?:clean ?up|prune|organi[sz]e) (?:the )?(?:old|idle|stale) (?:memory )?sessions",
    ),
    # -- notes, relay, migration -------------------------------------------------------
    rule(NOTES_VIEW, "/notes", r"^/notes --view$"),
    rule(NOTES_REFRESH, "/notes", r"^/notes$"),
    rule(
        NOTES_VIEW,
        "notes",
        r"\b(?:show|view|display|open|see|read)(?: me)? (?:the |my |our )?(?:session )?notes",
    ),
    rule(
        NOTES_REFRESH,
        "notes",
        r"\b(?:refresh|update|regenerate|extract|rebuild) (?:the |my |our )?session notes",
    ),
    rule(FRESH, "fresh|clean slate", r"\b(?:fresh start|start (?:fresh|afresh)|clean slate)"),
    rule(
        FRESH,
        "restore",
        r"\b(?:don'?t|dont|do not|no need to) restore"
        r"(?: (?:anything|it|the (?:last |previous )?(?:session|snapshot|context)))?",
    ),
    rule(
        MIGRATE,
        "migrate",
        r"\bmigrate (?:the |my |our )?(?:working )?memory(?: (?:files|layout|folder))?",
    ),
    # -- wrap-up (seed 000): last, the broadest ----------------------------------------
    rule(
        WRAP,
        "wrap",
        r"\bwrap(?:ping)? (?:it |things |this |everything |the session |this session |us )?up"
        r"(?: (?:the |this |our )?(?:session|chat|conversation|day))?",
    ),
    rule(WRAP, "wrap", r"\bthat'?s a wrap"),
    rule(
        WRAP,
        "done",
        rf"\b(?:(?:i'?m|i am|we'?re|we are) )?(?:all )?done (?:{_SOON}|here)",
    ),
    rule(
        WRAP,
        "that|this is",
        rf"\b(?:that'?s|that is|this is) (?:all|it|enough) {_SOON}",
    ),
    rule(WRAP, "enough", rf"\b(?:that'?s )?enough {_SOON}"),
    rule(WRAP, "call it", r"\bcall it (?:a day|a night|quits)"),
    rule(WRAP, "stop", rf"\bstop (?:(?:here|there|now)(?: {_SOON})?|{_SOON})"),
    rule(
        WRAP,
        "end|finish|close",
        rf"\b(?:end|finish|close(?: out)?) {_SESSION}|"
        r"\b(?:end|finish|close) (?:the |this |our )?(?:chat|conversation)",
    ),
    rule(WRAP, "finish|end", r"\b(?:finish|end) (?:for )?(?:today|the day|now)"),
    rule(
        WRAP,
        "save",
        r"\bsave (?:the |our |this |my )?(?:context|progress|session|memory|memories)",
    ),
    rule(
        WRAP,
        "tomorrow|next time|another time",
        r"\b(?:continue|pick (?:this|it) up|resume|pick up|carry on|keep going)"
        r" (?:tomorrow|next time|another time)",
    ),
    rule(
        WRAP,
        "sign|head|log",
        r"\b(?:(?:i'?m|i am) )?(?:signing|heading|logging) (?:off|out)",
    ),
)
